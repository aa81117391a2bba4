// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of a received file (received.h): a walk over every value
 * for what holds anywhere (strings, times, sizes), then the members
 * whose shape the scripts rely on (names, samples).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/received.h"
#include "model/result.h"

static int refuse(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int rr_received_name(const char *s)
{
	size_t n = 0;

	if (!s || !*s)
		return 0;
	for (; s[n]; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') ||
		      (s[n] >= 'A' && s[n] <= 'Z') ||
		      (s[n] >= '0' && s[n] <= '9') || strchr("@._-", s[n])))
			return 0;
	return n <= 63;
}

/*
 * The first character of s (UTF-8, checked by the reader) that must not
 * reach a terminal: its code point, or 0 when there is none.
 */
static unsigned int bad_char(const char *s, size_t len)
{
	const unsigned char *c = (const unsigned char *)s;
	unsigned int u;
	size_t i, n;

	for (i = 0; i < len; i += n) {
		if (c[i] < 0x80) {
			u = c[i];
			n = 1;
		} else if (c[i] < 0xe0) {
			u = (c[i] & 0x1f) << 6 | (c[i + 1] & 0x3f);
			n = 2;
		} else if (c[i] < 0xf0) {
			u = (c[i] & 0x0f) << 12 | (c[i + 1] & 0x3f) << 6 |
			    (c[i + 2] & 0x3f);
			n = 3;
		} else {
			u = 0x10000;	/* above every code point below */
			n = 4;
		}
		if ((u < 0x20 && u != '\t') || (u >= 0x7f && u <= 0x9f) ||
		    u == 0x2028 || u == 0x2029 ||
		    (u >= 0x202a && u <= 0x202e) ||
		    (u >= 0x2066 && u <= 0x2069))
			return u;
	}
	return 0;
}

/* A key of a time: ..._ms, ..._us, ..._ns, ..._s. */
static bool time_key(const char *k)
{
	size_t n = k ? strlen(k) : 0;

	return (n > 3 && k[n - 3] == '_' && strchr("mun", k[n - 2]) &&
		k[n - 1] == 's') || (n > 2 && !strcmp(k + n - 2, "_s"));
}

/*
 * Every value under v (path names it for the reason): strings, numbers
 * under a time's key, the size of arrays and strings.
 */
static int walk(const struct rr_jv *v, char *path, size_t plen, bool time,
		char *why, size_t len)
{
	size_t i, n = strlen(path);
	unsigned int u;
	int ret;

	switch (v->type) {
	case RR_JV_STRING:
		if (v->len > RR_RECV_MAX_STRING)
			return refuse(why, len, "%s: a string of %zu bytes (at most %u)",
				      path, v->len, RR_RECV_MAX_STRING);
		u = bad_char(v->str, v->len);
		if (u)
			return refuse(why, len,
				      "%s: a control character (U+%04X) in a string; it would reach the terminal",
				      path, u);
		return 0;
	case RR_JV_NUMBER:
		if (time && v->num < 0)
			return refuse(why, len, "%s: a negative time (%g)",
				      path, v->num);
		return 0;
	case RR_JV_ARRAY:
	case RR_JV_OBJECT:
		if (v->n > RR_RECV_MAX_ARRAY)
			return refuse(why, len, "%s: %zu members (at most %u)",
				      path, v->n, RR_RECV_MAX_ARRAY);
		break;
	default:
		return 0;
	}
	for (i = 0; i < v->n; i++) {
		const char *k = v->keys ? v->keys[i] : NULL;

		if (k && (u = bad_char(k, strlen(k))))
			return refuse(why, len,
				      "%s: a control character (U+%04X) in a key",
				      path, u);
		if (k)
			snprintf(path + n, plen - n, ".%.40s", k);
		else
			snprintf(path + n, plen - n, "[%zu]", i);
		ret = walk(&v->items[i], path, plen, time || time_key(k), why,
			   len);
		if (ret)
			return ret;
	}
	path[n] = '\0';
	return 0;
}

/* A member that must follow the name rule: absent or null when opt. */
static int name_member(const struct rr_jv *o, const char *key, bool opt,
		       const char *where, char *why, size_t len)
{
	const struct rr_jv *m = rr_jv_get(o, key);

	if ((!m || m->type == RR_JV_NULL) && opt)
		return 0;
	if (!m || m->type != RR_JV_STRING)
		return refuse(why, len, "%s.%s: %s, not a name", where, key,
			      m ? rr_jv_type_name(m->type) : "missing");
	if (!rr_received_name(m->str))
		return refuse(why, len,
			      "%s.%s: '%.60s' is not a name of this suite's (letters, digits and @._-, at most 63)",
			      where, key, m->str);
	return 0;
}

/* samples_ms: kept a whole number, equal to the values' count. */
static int samples(const struct rr_jv *c, const char *where, char *why,
		   size_t len)
{
	const struct rr_jv *s = rr_jv_get(c, "samples_ms"), *k, *v;
	size_t i;

	if (!s || s->type == RR_JV_NULL)
		return 0;
	k = rr_jv_get(s, "kept");
	v = rr_jv_get(s, "values");
	if (s->type != RR_JV_OBJECT || !k || k->type != RR_JV_NUMBER ||
	    !k->integer || k->num < 0 || !v || v->type != RR_JV_ARRAY)
		return refuse(why, len,
			      "%s.samples_ms: needs a whole number kept and an array of values",
			      where);
	if (k->num != (double)v->n)
		return refuse(why, len,
			      "%s.samples_ms: kept is %.0f but it has %zu values",
			      where, k->num, v->n);
	if (v->n > RR_KEEP_SAMPLES)
		return refuse(why, len, "%s.samples_ms: %zu values (at most %d)",
			      where, v->n, RR_KEEP_SAMPLES);
	for (i = 0; i < v->n; i++)
		if (v->items[i].type != RR_JV_NUMBER)
			return refuse(why, len,
				      "%s.samples_ms.values[%zu]: %s, not a number",
				      where, i,
				      rr_jv_type_name(v->items[i].type));
	return name_member(s, "of", true, where, why, len);
}

static int one_result(const struct rr_jv *r, const char *where, char *why,
		      size_t len)
{
	const struct rr_jv *cases;
	char at[96];
	size_t i;
	int ret;

	if (r->type != RR_JV_OBJECT)
		return refuse(why, len, "%s: %s, not a result", where,
			      rr_jv_type_name(r->type));
	ret = name_member(r, "reproducer", false, where, why, len);
	if (ret)
		return ret;
	cases = rr_jv_get(r, "cases");
	if (!cases || cases->type == RR_JV_NULL)
		return 0;
	if (cases->type != RR_JV_ARRAY)
		return refuse(why, len, "%s.cases: not an array", where);
	if (cases->n > RR_MAX_CASES)
		return refuse(why, len, "%s.cases: %zu cases (at most %d)",
			      where, cases->n, RR_MAX_CASES);
	for (i = 0; i < cases->n; i++) {
		const struct rr_jv *c = &cases->items[i];

		snprintf(at, sizeof(at), "%s.cases[%zu]", where, i);
		if (c->type != RR_JV_OBJECT)
			return refuse(why, len, "%s: not an object", at);
		ret = name_member(c, "name", false, at, why, len);
		if (!ret)
			ret = name_member(c, "probe", true, at, why, len);
		if (!ret)
			ret = samples(c, at, why, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* What holds of any received file: an object, every value walked. */
static int any_file(const struct rr_jv *root, const char *what, char *why,
		    size_t len)
{
	char path[2048] = "";

	if (root->type != RR_JV_OBJECT)
		return refuse(why, len, "%s, not a %s of this suite",
			      rr_jv_type_name(root->type), what);
	return walk(root, path, sizeof(path), false, why, len);
}

int rr_received_results(const struct rr_jv *root, char *why, size_t len)
{
	const struct rr_jv *res;
	char at[32];
	size_t i;
	int ret;

	ret = any_file(root, "results file", why, len);
	if (ret)
		return ret;
	res = rr_jv_get(root, "results");
	if (!res)
		return one_result(root, "the result", why, len);
	if (res->type != RR_JV_ARRAY)
		return refuse(why, len, ".results: not an array");
	if (res->n > RR_RECV_MAX_RESULTS)
		return refuse(why, len, ".results: %zu results (at most %d)",
			      res->n, RR_RECV_MAX_RESULTS);
	for (i = 0; i < res->n; i++) {
		snprintf(at, sizeof(at), ".results[%zu]", i);
		ret = one_result(&res->items[i], at, why, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* A sweep's case: a name, and a point (max_ms, p50_ms) per value. */
static int sweep_case(const struct rr_jv *c, size_t values, const char *at,
		      char *why, size_t len)
{
	const char *const figs[] = { "max_ms", "p50_ms" };
	const struct rr_jv *pts, *f;
	size_t i, k;
	int ret;

	if (c->type != RR_JV_OBJECT)
		return refuse(why, len, "%s: not an object", at);
	ret = name_member(c, "name", false, at, why, len);
	if (ret)
		return ret;
	pts = rr_jv_get(c, "points");
	if (!pts || pts->type != RR_JV_ARRAY || pts->n != values)
		return refuse(why, len, "%s.points: not a point per value (%zu)",
			      at, values);
	for (i = 0; i < pts->n; i++) {
		for (k = 0; k < 2; k++) {
			f = rr_jv_get(&pts->items[i], figs[k]);
			if (f && f->type != RR_JV_NUMBER &&
			    f->type != RR_JV_NULL)
				return refuse(why, len,
					      "%s.points[%zu].%s: not a number",
					      at, i, figs[k]);
		}
	}
	return 0;
}

int rr_received_sweep(const struct rr_jv *root, char *why, size_t len)
{
	const struct rr_jv *vals, *cases, *probe, *kernel, *param;
	char at[32];
	size_t i;
	int ret;

	ret = any_file(root, "sweep", why, len);
	if (!ret)
		ret = name_member(root, "reproducer", false, "the sweep", why,
				  len);
	if (ret)
		return ret;
	param = rr_jv_get(root, "param");
	if (!param || param->type != RR_JV_STRING || !param->len ||
	    !(param->str[0] >= 'a' && param->str[0] <= 'z') ||
	    param->str[strspn(param->str, "abcdefghijklmnopqrstuvwxyz0123456789-")] ||
	    param->len > 63)
		return refuse(why, len, ".param: not an option's name");
	vals = rr_jv_get(root, "values");
	if (!vals || vals->type != RR_JV_ARRAY || !vals->n ||
	    vals->n > RR_RECV_MAX_RESULTS)
		return refuse(why, len, ".values: not 1 to %d values",
			      RR_RECV_MAX_RESULTS);
	for (i = 0; i < vals->n; i++)
		if (vals->items[i].type != RR_JV_NUMBER ||
		    !vals->items[i].integer || vals->items[i].num < 0)
			return refuse(why, len,
				      ".values[%zu]: not a whole number", i);
	probe = rr_jv_get(root, "probe");
	for (i = 0; probe && probe->type == RR_JV_ARRAY && i < probe->n; i++)
		if (probe->items[i].type != RR_JV_STRING ||
		    !rr_received_name(probe->items[i].str))
			return refuse(why, len, ".probe[%zu]: not a name", i);
	if (probe && probe->type != RR_JV_ARRAY && probe->type != RR_JV_NULL)
		return refuse(why, len, ".probe: not a list of names");
	kernel = rr_jv_get(root, "kernel");
	if (kernel && kernel->type != RR_JV_STRING &&
	    kernel->type != RR_JV_NULL)
		return refuse(why, len, ".kernel: not a string");
	cases = rr_jv_get(root, "cases");
	if (!cases || cases->type != RR_JV_ARRAY || cases->n > RR_MAX_CASES)
		return refuse(why, len, ".cases: not a list of at most %d cases",
			      RR_MAX_CASES);
	for (i = 0; i < cases->n; i++) {
		snprintf(at, sizeof(at), ".cases[%zu]", i);
		ret = sweep_case(&cases->items[i], vals->n, at, why, len);
		if (ret)
			return ret;
	}
	return 0;
}
