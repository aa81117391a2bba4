/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options are declared in tables (type, range, default, help) and parsed
 * and range-checked in one place; --help is generated from the same
 * tables, so the two cannot drift apart.
 */
#ifndef RR_OPTS_H
#define RR_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum rr_opt_type {
	OPT_FLAG,	/* bool, no argument */
	OPT_UINT,	/* unsigned long long in [min, max] */
	OPT_DOUBLE,	/* double in [dmin, dmax] */
	OPT_STRING,	/* const char *, any text */
	OPT_ENUM,	/* int: index into choices[] */
};

struct rr_opt {
	const char *name;		/* long name without "--" */
	enum rr_opt_type type;
	void *ptr;			/* where the value goes */
	const char *arg;		/* metavariable in --help */
	const char *help;
	unsigned long long min, max;
	double dmin, dmax;
	const char *const *choices;	/* NULL-terminated, for OPT_ENUM */
	/*
	 * Accept "0" as a special value outside [min, max] (documented in
	 * help), e.g. --identical 0 for "all pages".
	 */
	bool zero_ok;
};

#define RR_OPT_END { .name = NULL }

/*
 * For a reproducer's check(): false, with "--OPT V is more than --LIMIT
 * L" in why, when v > limit.
 */
bool rr_opt_at_most(const char *opt, unsigned long long v,
		    const char *limit_opt, unsigned long long limit,
		    char *why, size_t len);
/*
 * Parse argv against a NULL-terminated list of tables. Returns 0 when
 * the run should go on, 1 after --help was asked for, -1 on a usage error
 * (the message is in err). Nothing outside *ptr is changed.
 */
int rr_opts_parse(const struct rr_opt *const *tables, int argc, char **argv,
		  char *err, size_t errlen);
void rr_opts_help(FILE *f, const char *usage, const char *summary,
		  const struct rr_opt *const *tables);
/* The "Options:" part of that help alone, for a head of one's own. */
void rr_opts_help_options(FILE *f, const struct rr_opt *const *tables);
/* Text of an option's current value (for reports and help defaults). */
void rr_opt_value(const struct rr_opt *o, char *buf, size_t size);

#endif
