// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "lib/json.h"

void json_init(struct rr_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void head(struct rr_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	if (j->depth)
		fprintf(j->f, "\n%*s", j->depth * 2, "");
	j->need_comma[j->depth] = true;
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct rr_json *j, const char *key, char c)
{
	head(j, key);
	fputc(c, j->f);
	if (j->depth < RR_JSON_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(struct rr_json *j, char c)
{
	bool had = j->need_comma[j->depth];

	if (j->depth)
		j->depth--;
	if (had)
		fprintf(j->f, "\n%*s", j->depth * 2, "");
	fputc(c, j->f);
}

void json_obj_begin(struct rr_json *j, const char *key)
{
	open_(j, key, '{');
}

void json_obj_end(struct rr_json *j)
{
	close_(j, '}');
}

void json_arr_begin(struct rr_json *j, const char *key)
{
	open_(j, key, '[');
}

void json_arr_end(struct rr_json *j)
{
	close_(j, ']');
}

void json_str(struct rr_json *j, const char *key, const char *val)
{
	head(j, key);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
}

void json_uint(struct rr_json *j, const char *key, unsigned long long val)
{
	head(j, key);
	fprintf(j->f, "%llu", val);
}

void json_int(struct rr_json *j, const char *key, long long val)
{
	head(j, key);
	fprintf(j->f, "%lld", val);
}

void json_num(struct rr_json *j, const char *key, double val, int decimals)
{
	head(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.*f", decimals, val);
	else
		fputs("null", j->f);
}

void json_sig(struct rr_json *j, const char *key, double val, int digits)
{
	head(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.*g", digits, val);
	else
		fputs("null", j->f);
}

void json_bool(struct rr_json *j, const char *key, bool val)
{
	head(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null(struct rr_json *j, const char *key)
{
	head(j, key);
	fputs("null", j->f);
}

void json_finish(struct rr_json *j)
{
	fputc('\n', j->f);
}
