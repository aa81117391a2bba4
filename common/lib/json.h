/* SPDX-License-Identifier: GPL-2.0 */
/* A small streaming JSON writer: enough for the results contract. */
#ifndef RR_JSON_H
#define RR_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define RR_JSON_DEPTH 16

struct rr_json {
	FILE *f;
	int depth;
	bool need_comma[RR_JSON_DEPTH];
};

void json_init(struct rr_json *j, FILE *f);
/* key is NULL inside arrays and for the root value. */
void json_obj_begin(struct rr_json *j, const char *key);
void json_obj_end(struct rr_json *j);
void json_arr_begin(struct rr_json *j, const char *key);
void json_arr_end(struct rr_json *j);
void json_str(struct rr_json *j, const char *key, const char *val);
void json_uint(struct rr_json *j, const char *key, unsigned long long val);
void json_int(struct rr_json *j, const char *key, long long val);
/* Non-finite numbers become null: JSON has no NaN. */
void json_num(struct rr_json *j, const char *key, double val, int decimals);
/* significant digits, for values of any size (p-values) */
void json_sig(struct rr_json *j, const char *key, double val, int digits);
void json_bool(struct rr_json *j, const char *key, bool val);
void json_null(struct rr_json *j, const char *key);
void json_finish(struct rr_json *j);

#endif
