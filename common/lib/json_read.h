/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A strict JSON reader for files received from someone else (a results
 * file, a sweep): RFC 8259 and nothing more, so that what it accepts is
 * read the same way by jq. Refused, with the offset and why: anything
 * after the one value (jq would read a second run), a key twice in one
 * object (jq keeps the last, a check would read the first), nan, inf, a
 * number too large for a double, hexadecimal, a byte order mark, bytes
 * that are not UTF-8, a lone surrogate, and a depth or size beyond the
 * bounds below. Strings are kept decoded (UTF-8, NUL-free).
 */
#ifndef RR_JSON_READ_H
#define RR_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define RR_JV_MAX_DEPTH	32
#define RR_JV_MAX_BYTES	(64u << 20)

enum rr_jv_type {
	RR_JV_NULL,
	RR_JV_FALSE,
	RR_JV_TRUE,
	RR_JV_NUMBER,
	RR_JV_STRING,
	RR_JV_ARRAY,
	RR_JV_OBJECT,
};

struct rr_jv {
	enum rr_jv_type type;
	double num;		/* RR_JV_NUMBER */
	bool integer;		/* written without a fraction or exponent */
	char *str;		/* RR_JV_STRING */
	size_t len;		/* its bytes */
	/* RR_JV_ARRAY, RR_JV_OBJECT: n members; keys[i] for an object */
	size_t n;
	struct rr_jv *items;
	char **keys;
};

/*
 * Parse len bytes of text into *root: 0, or -EINVAL with why (and the
 * byte offset) in why. On failure nothing needs freeing.
 */
int rr_jv_parse(const char *text, size_t len, struct rr_jv *root,
		char *why, size_t wlen);
/* A whole file, at most RR_JV_MAX_BYTES: the same, -errno on a read. */
int rr_jv_parse_file(const char *path, struct rr_jv *root, char *why,
		     size_t wlen);
void rr_jv_free(struct rr_jv *v);

/* An object's member by key, or NULL (also when v is not an object). */
const struct rr_jv *rr_jv_get(const struct rr_jv *v, const char *key);
/* A string member's text, or NULL. */
const char *rr_jv_str(const struct rr_jv *v, const char *key);
const char *rr_jv_type_name(enum rr_jv_type t);

#endif
