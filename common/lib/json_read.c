// SPDX-License-Identifier: GPL-2.0
/*
 * The strict JSON reader (json_read.h): recursive descent over the
 * text, one allocation per container, refusing what jq and this reader
 * could read differently.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json_read.h"

struct parser {
	const char *s;
	size_t len, pos;
	char *why;
	size_t wlen;
	int depth;
};

static int fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	/* the first reason is the one that counts */
	if (p->why[0])
		return -EINVAL;
	n = snprintf(p->why, p->wlen, "byte %zu: ", p->pos);
	if (n < p->wlen) {
		va_start(ap, fmt);
		vsnprintf(p->why + n, p->wlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) &&
	       p->s[p->pos])
		p->pos++;
}

static int peek(struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int literal(struct parser *p, const char *word, enum rr_jv_type t,
		   struct rr_jv *v)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return fail(p, "not a JSON value (nan, inf and bare words are not JSON)");
	p->pos += n;
	v->type = t;
	return 0;
}

/* RFC 8259's number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(struct parser *p, struct rr_jv *v)
{
	size_t start = p->pos;
	char buf[512];
	bool integer = true;

	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0') {
		p->pos++;
	} else if (peek(p) >= '1' && peek(p) <= '9') {
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	} else {
		return fail(p, "not a JSON number (nan, inf and hex are not JSON)");
	}
	if (peek(p) == '.') {
		integer = false;
		p->pos++;
		if (!(peek(p) >= '0' && peek(p) <= '9'))
			return fail(p, "a number's fraction has no digits");
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		integer = false;
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!(peek(p) >= '0' && peek(p) <= '9'))
			return fail(p, "a number's exponent has no digits");
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	}
	if (p->pos - start >= sizeof(buf))
		return fail(p, "a number of over %zu characters",
			    sizeof(buf) - 1);
	memcpy(buf, p->s + start, p->pos - start);
	buf[p->pos - start] = '\0';
	v->type = RR_JV_NUMBER;
	v->num = strtod(buf, NULL);
	v->integer = integer;
	/* a tiny one may round to 0; a huge one is no finite number */
	if (!isfinite(v->num))
		return fail(p, "the number %.40s is beyond a double's range",
			    buf);
	return 0;
}

static int hex4(struct parser *p, unsigned int *u)
{
	unsigned int i, c;

	*u = 0;
	for (i = 0; i < 4; i++) {
		c = peek(p);
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return fail(p, "a \\u escape needs four hex digits");
		*u = *u << 4 | c;
		p->pos++;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned int u)
{
	if (u < 0x80) {
		o[0] = u;
		return 1;
	}
	if (u < 0x800) {
		o[0] = 0xc0 | u >> 6;
		o[1] = 0x80 | (u & 0x3f);
		return 2;
	}
	if (u < 0x10000) {
		o[0] = 0xe0 | u >> 12;
		o[1] = 0x80 | (u >> 6 & 0x3f);
		o[2] = 0x80 | (u & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | u >> 18;
	o[1] = 0x80 | (u >> 12 & 0x3f);
	o[2] = 0x80 | (u >> 6 & 0x3f);
	o[3] = 0x80 | (u & 0x3f);
	return 4;
}

/* One UTF-8 sequence at p->pos, well formed and shortest: its length. */
static int utf8_len(struct parser *p)
{
	const unsigned char *c = (const unsigned char *)p->s + p->pos;
	size_t left = p->len - p->pos;
	unsigned int u, n, i;

	if (c[0] < 0x80)
		return 1;
	if (c[0] >= 0xc2 && c[0] <= 0xdf)
		n = 2, u = c[0] & 0x1f;
	else if (c[0] >= 0xe0 && c[0] <= 0xef)
		n = 3, u = c[0] & 0x0f;
	else if (c[0] >= 0xf0 && c[0] <= 0xf4)
		n = 4, u = c[0] & 0x07;
	else
		return fail(p, "a byte (0x%02x) that is not UTF-8", c[0]);
	if (left < n)
		return fail(p, "a UTF-8 sequence cut short");
	for (i = 1; i < n; i++) {
		if ((c[i] & 0xc0) != 0x80)
			return fail(p, "a UTF-8 sequence cut short");
		u = u << 6 | (c[i] & 0x3f);
	}
	if ((n == 3 && u < 0x800) || (n == 4 && (u < 0x10000 || u > 0x10ffff)) ||
	    (u >= 0xd800 && u <= 0xdfff))
		return fail(p, "a UTF-8 sequence that is not a character");
	return n;
}

static int escape(struct parser *p, char *o, size_t *n)
{
	unsigned int u, lo;
	const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
	const char *e;
	int c = peek(p);

	p->pos++;
	e = c > 0 ? strchr(from, c) : NULL;
	if (e && c) {
		o[(*n)++] = to[e - from];
		return 0;
	}
	if (c != 'u')
		return fail(p, "an unknown escape \\%c", c > 0 ? c : '?');
	if (hex4(p, &u))
		return -EINVAL;
	if (u >= 0xdc00 && u <= 0xdfff)
		return fail(p, "a lone low surrogate \\u%04x", u);
	if (u >= 0xd800 && u <= 0xdbff) {
		if (peek(p) != '\\' || p->pos + 1 >= p->len ||
		    p->s[p->pos + 1] != 'u')
			return fail(p, "a lone high surrogate \\u%04x", u);
		p->pos += 2;
		if (hex4(p, &lo))
			return -EINVAL;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(p, "a high surrogate without its low one");
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (!u)
		return fail(p, "a NUL character (\\u0000) in a string");
	*n += put_utf8(o + *n, u);
	return 0;
}

static int string(struct parser *p, char **out, size_t *olen)
{
	size_t start, n = 0;
	char *o;
	int c, k;

	p->pos++;		/* the opening quote */
	start = p->pos;
	/* the decoded text is never longer than its source */
	while (p->pos < p->len && p->s[p->pos] != '"')
		p->pos += p->s[p->pos] == '\\' ? 2 : 1;
	if (p->pos >= p->len)
		return fail(p, "a string without its closing quote");
	o = malloc(p->pos - start + 1);
	if (!o)
		return fail(p, "out of memory");
	p->pos = start;
	while ((c = peek(p)) != '"') {
		if (c < 0x20) {
			free(o);
			return fail(p, "a raw control character (0x%02x) in a string",
				    c);
		}
		if (c == '\\') {
			p->pos++;
			if (escape(p, o, &n)) {
				free(o);
				return -EINVAL;
			}
			continue;
		}
		k = utf8_len(p);
		if (k < 0) {
			free(o);
			return -EINVAL;
		}
		memcpy(o + n, p->s + p->pos, k);
		n += k;
		p->pos += k;
	}
	p->pos++;
	o[n] = '\0';
	*out = o;
	*olen = n;
	return 0;
}

static int value(struct parser *p, struct rr_jv *v);

/* Grow a container's arrays to hold one more member. */
static int grow(struct parser *p, struct rr_jv *v, size_t *cap, bool keys)
{
	size_t c = *cap ? *cap * 2 : 8;
	struct rr_jv *items;
	char **k;

	if (v->n < *cap)
		return 0;
	items = realloc(v->items, c * sizeof(*items));
	if (!items)
		return fail(p, "out of memory");
	v->items = items;
	if (keys) {
		k = realloc(v->keys, c * sizeof(*k));
		if (!k)
			return fail(p, "out of memory");
		v->keys = k;
	}
	*cap = c;
	return 0;
}

static int member_key(struct parser *p, struct rr_jv *v)
{
	char *key;
	size_t klen, i;

	skip_ws(p);
	if (peek(p) != '"')
		return fail(p, "an object's key must be a string");
	if (string(p, &key, &klen))
		return -EINVAL;
	for (i = 0; i < v->n; i++) {
		if (!strcmp(v->keys[i], key)) {
			fail(p, "the key \"%.40s\" twice in one object (jq would keep the last)",
			     key);
			free(key);
			return -EINVAL;
		}
	}
	skip_ws(p);
	if (peek(p) != ':') {
		free(key);
		return fail(p, "':' expected after an object's key");
	}
	p->pos++;
	v->keys[v->n] = key;
	return 0;
}

static int container(struct parser *p, struct rr_jv *v, bool obj)
{
	char close = obj ? '}' : ']';
	size_t cap = 0;

	if (++p->depth > RR_JV_MAX_DEPTH)
		return fail(p, "nested deeper than %d", RR_JV_MAX_DEPTH);
	v->type = obj ? RR_JV_OBJECT : RR_JV_ARRAY;
	p->pos++;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		p->depth--;
		return 0;
	}
	for (;;) {
		if (grow(p, v, &cap, obj))
			return -EINVAL;
		memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
		if (obj && member_key(p, v))
			return -EINVAL;
		/* counted now, so that a failure below frees it */
		v->n++;
		if (value(p, &v->items[v->n - 1]))
			return -EINVAL;
		skip_ws(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) != close)
			return fail(p, "',' or '%c' expected", close);
		p->pos++;
		p->depth--;
		return 0;
	}
}

static int value(struct parser *p, struct rr_jv *v)
{
	int c;

	skip_ws(p);
	c = peek(p);
	switch (c) {
	case '{':
		return container(p, v, true);
	case '[':
		return container(p, v, false);
	case '"':
		v->type = RR_JV_STRING;
		return string(p, &v->str, &v->len);
	case 't':
		return literal(p, "true", RR_JV_TRUE, v);
	case 'f':
		return literal(p, "false", RR_JV_FALSE, v);
	case 'n':
		return literal(p, "null", RR_JV_NULL, v);
	case -1:
		return fail(p, "the text ends where a value is expected");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return number(p, v);
		return fail(p, "not a JSON value (nan, inf and bare words are not JSON)");
	}
}

int rr_jv_parse(const char *text, size_t len, struct rr_jv *root,
		char *why, size_t wlen)
{
	struct parser p = { .s = text, .len = len, .why = why, .wlen = wlen };

	why[0] = '\0';
	memset(root, 0, sizeof(*root));
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		fail(&p, "a byte order mark (not JSON)");
	else if (memchr(text, '\0', len))
		fail(&p, "a NUL byte in the text");
	else if (!value(&p, root)) {
		skip_ws(&p);
		if (p.pos < len)
			fail(&p, "more after the one JSON value (jq would read it as another run)");
	}
	if (why[0]) {
		rr_jv_free(root);
		return -EINVAL;
	}
	return 0;
}

int rr_jv_parse_file(const char *path, struct rr_jv *root, char *why,
		     size_t wlen)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	ssize_t n;
	int fd, ret;

	memset(root, 0, sizeof(*root));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(why, wlen, "cannot read it: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > RR_JV_MAX_BYTES) {
		snprintf(why, wlen, !S_ISREG(st.st_mode) ?
			 "not a regular file" :
			 "%lld bytes: over the %u MiB a received file may have",
			 (long long)st.st_size, RR_JV_MAX_BYTES >> 20);
		close(fd);
		return -EINVAL;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		close(fd);
		snprintf(why, wlen, "out of memory");
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size &&
	       (n = read(fd, buf + got, st.st_size - got)) > 0)
		got += n;
	close(fd);
	ret = rr_jv_parse(buf, got, root, why, wlen);
	free(buf);
	return ret;
}

void rr_jv_free(struct rr_jv *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		rr_jv_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct rr_jv *rr_jv_get(const struct rr_jv *v, const char *key)
{
	size_t i;

	if (!v || v->type != RR_JV_OBJECT)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *rr_jv_str(const struct rr_jv *v, const char *key)
{
	const struct rr_jv *m = rr_jv_get(v, key);

	return m && m->type == RR_JV_STRING ? m->str : NULL;
}

const char *rr_jv_type_name(enum rr_jv_type t)
{
	static const char *const names[] = {
		"null", "false", "true", "a number", "a string", "an array",
		"an object",
	};

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}
