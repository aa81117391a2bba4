// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "lib/opts.h"
#include "lib/util.h"

static const struct rr_opt *find(const struct rr_opt *const *tables,
				 const char *name, size_t len)
{
	const struct rr_opt *o;
	int t;

	for (t = 0; tables[t]; t++)
		for (o = tables[t]; o->name; o++)
			if (strlen(o->name) == len &&
			    !strncmp(o->name, name, len))
				return o;
	return NULL;
}

static int set_value(const struct rr_opt *o, const char *val, char *err,
		     size_t errlen)
{
	unsigned long long u;
	double d;
	int i;

	switch (o->type) {
	case OPT_FLAG:
		*(bool *)o->ptr = true;
		return 0;
	case OPT_UINT:
		i = rr_parse_dec(val, &u);
		if (i == -ERANGE) {
			snprintf(err, errlen,
				 "--%s: %s is out of range [%llu, %llu]",
				 o->name, val, o->min, o->max);
			return -1;
		}
		if (i) {
			snprintf(err, errlen,
				 "--%s: '%s' is not a decimal number",
				 o->name, val);
			return -1;
		}
		if ((u < o->min || u > o->max) && !(o->zero_ok && !u)) {
			snprintf(err, errlen,
				 "--%s: %llu is out of range [%llu, %llu]%s",
				 o->name, u, o->min, o->max,
				 o->zero_ok ? " (or 0)" : "");
			return -1;
		}
		*(unsigned long long *)o->ptr = u;
		return 0;
	case OPT_DOUBLE:
		if (!rr_parse_double(val, &d)) {
			snprintf(err, errlen,
				 "--%s: '%s' is not a decimal number",
				 o->name, val);
			return -1;
		}
		if (!(d >= o->dmin && d <= o->dmax)) {
			snprintf(err, errlen,
				 "--%s: %g is out of range [%g, %g]",
				 o->name, d, o->dmin, o->dmax);
			return -1;
		}
		*(double *)o->ptr = d;
		return 0;
	case OPT_STRING:
		if (!*val) {
			snprintf(err, errlen, "--%s: empty value", o->name);
			return -1;
		}
		*(const char **)o->ptr = val;
		return 0;
	case OPT_ENUM:
		for (i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], val)) {
				*(int *)o->ptr = i;
				return 0;
			}
		}
		snprintf(err, errlen, "--%s: '%s' is not one of", o->name, val);
		for (i = 0; o->choices[i]; i++) {
			size_t len = strlen(err);

			snprintf(err + len, errlen - len, "%s%s",
				 i ? "|" : " ", o->choices[i]);
		}
		return -1;
	}
	return -1;
}

int rr_opts_parse(const struct rr_opt *const *tables, int argc, char **argv,
		  char *err, size_t errlen)
{
	const struct rr_opt *o;
	const char *arg, *eq, *val;
	int i;

	err[0] = '\0';
	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return 1;
		if (strncmp(arg, "--", 2) || !arg[2]) {
			snprintf(err, errlen, "unexpected argument '%s'", arg);
			return -1;
		}
		arg += 2;
		eq = strchr(arg, '=');
		o = find(tables, arg, eq ? (size_t)(eq - arg) : strlen(arg));
		if (!o) {
			snprintf(err, errlen, "unknown option '%s'", argv[i]);
			return -1;
		}
		if (o->type == OPT_FLAG) {
			if (eq) {
				snprintf(err, errlen,
					 "--%s takes no value", o->name);
				return -1;
			}
			val = NULL;
		} else if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			snprintf(err, errlen, "--%s needs a value", o->name);
			return -1;
		}
		if (set_value(o, val, err, errlen))
			return -1;
	}
	return 0;
}

void rr_opt_value(const struct rr_opt *o, char *buf, size_t size)
{
	switch (o->type) {
	case OPT_FLAG:
		snprintf(buf, size, "%s", *(bool *)o->ptr ? "on" : "off");
		break;
	case OPT_UINT:
		snprintf(buf, size, "%llu", *(unsigned long long *)o->ptr);
		break;
	case OPT_DOUBLE:
		snprintf(buf, size, "%g", *(double *)o->ptr);
		break;
	case OPT_STRING:
		snprintf(buf, size, "%s",
			 *(const char **)o->ptr ? *(const char **)o->ptr : "");
		break;
	case OPT_ENUM:
		snprintf(buf, size, "%s", o->choices[*(int *)o->ptr]);
		break;
	}
}

/*
 * "; one of a|b|c", or "a, b, c" where a|b|c would not fit the help's
 * column (52 wide) in one word.
 */
static void choices(const struct rr_opt *o, char *text, size_t size)
{
	size_t len = strlen(text), all = 0;
	const char *sep;
	int i;

	for (i = 0; o->choices[i]; i++)
		all += strlen(o->choices[i]) + 1;
	sep = all > 52 ? ", " : "|";
	for (i = 0; o->choices[i] && len < size; i++) {
		snprintf(text + len, size - len, "%s%s", i ? sep : "; one of ",
			 o->choices[i]);
		len = strlen(text);
	}
}

void rr_opts_help(FILE *f, const char *usage, const char *summary,
		  const struct rr_opt *const *tables)
{
	fprintf(f, "Usage: %s\n\n", usage);
	rr_wrap(f, summary, 0, 0, 78);
	rr_opts_help_options(f, tables);
}

void rr_opts_help_options(FILE *f, const struct rr_opt *const *tables)
{
	const struct rr_opt *o;
	char head[96], def[64], text[4096];
	int t;

	fprintf(f, "\nOptions:\n");
	for (t = 0; tables[t]; t++) {
		for (o = tables[t]; o->name; o++) {
			snprintf(head, sizeof(head), "  --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
			fprintf(f, "%s", head);
			if (strlen(head) > 24)
				fprintf(f, "\n%26s", "");
			else
				fprintf(f, "%*s", 26 - (int)strlen(head), "");
			rr_opt_value(o, def, sizeof(def));
			if (o->type == OPT_FLAG || !def[0])
				snprintf(text, sizeof(text), "%s", o->help);
			else
				snprintf(text, sizeof(text), "%s (default %s)",
					 o->help, def);
			/* The choices come from the table: help cannot omit one. */
			if (o->type == OPT_ENUM)
				choices(o, text, sizeof(text));
			rr_wrap(f, text, 26, 26, 78);
		}
	}
	fprintf(f, "  --help                  this text\n");
}

bool rr_opt_at_most(const char *opt, unsigned long long v,
		    const char *limit_opt, unsigned long long limit,
		    char *why, size_t len)
{
	if (v <= limit)
		return true;
	snprintf(why, len, "--%s %llu is more than --%s %llu", opt, v,
		 limit_opt, limit);
	return false;
}
