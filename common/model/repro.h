/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reproducer is a declared description plus its pattern: everything
 * else (options, prerequisites, journal, tracing, triggers, victim,
 * statistics, reports, restore) is the common runner's.
 */
#ifndef RR_REPRO_H
#define RR_REPRO_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/opts.h"
#include "mm/ksm.h"
#include "model/result.h"
#include "pattern/pattern.h"

struct rr_repro;

/* A case: one copy of the pattern, measured on its own (result.h). */
struct rr_case {
	const char *name;		/* NULL: the page type's name */
	enum rr_page_type type;		/* which rmap walk it takes */
	enum rr_role role;
	const char *what;		/* the report's words; NULL: default */
};

/*
 * How a reproducer's cases are set up, built, merged and torn down.
 * Members left NULL take the defaults (rr_default_*): one mapping per
 * case split by mprotect() (pattern.c, from spec()), merged by ksmd.
 */
struct rr_repro_ops {
	/* Once, before any case; every change journaled. */
	int (*setup)(const struct rr_repro *r, struct rr_result *res,
		     char *why, size_t len);
	/* A fresh copy of a case's pattern. */
	int (*build)(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, char *why, size_t len);
	/* A case of KSM pages: merge it; k gets the counters after. */
	int (*merge)(const struct rr_repro *r, struct rr_pattern *p,
		     struct rr_ksm_counters *k, char *why, size_t len);
	/*
	 * After build and (KSM pages) merge, every case: e.g. fork the
	 * family that inherits the merged pages. NULL: nothing.
	 */
	int (*after_merge)(const struct rr_repro *r, const struct rr_case *c,
			   struct rr_pattern *p, char *why, size_t len);
	/*
	 * A correctness oracle, in the probe's pass: verify_before() just
	 * before the trigger fires (e.g. note each mapping's frame),
	 * verify() after it, adding to o. With an oracle, pages the
	 * trigger could not act on are data for it, not errors of the run.
	 */
	int (*verify_before)(const struct rr_repro *r, const struct rr_case *c,
			     struct rr_pattern *p, char *why, size_t len);
	int (*verify)(const struct rr_repro *r, const struct rr_case *c,
		      struct rr_pattern *p, struct rr_oracle *o, char *why,
		      size_t len);
	/*
	 * The triggers the oracle judges (enum rr_trigger, ending with
	 * 0), e.g. only those that move pages for the frames oracle
	 * (oracle.h); NULL: every trigger.
	 */
	const int *oracle_triggers;
	/*
	 * Any of the above may return -EOPNOTSUPP, with the kernel's own
	 * reason in why, when the kernel refuses what the case does (not a
	 * failure of the run): the run is then a skip that quotes it.
	 */
	/*
	 * Undo build (and merge); called for every build, even failed.
	 * The default reaps a family (family.h), frees the frames
	 * oracle's notes and the pattern, and unmerges KSM pages.
	 */
	void (*teardown)(const struct rr_repro *r, const struct rr_case *c,
			 struct rr_pattern *p);
};

/*
 * A declared case's own words: the reproducer's case_what(), else the
 * case's what; NULL for the default words (rr_case_words()).
 */
const char *rr_case_declared_what(const struct rr_repro *r,
				  const struct rr_case *c);
/*
 * How many pages spec() fills for case c (a zeroed spec given to it):
 * the figure a reproducer's report and checks quote.
 */
unsigned long long rr_case_filled(void (*spec)(const struct rr_case *c,
					       struct rr_pattern_spec *s),
				  const struct rr_case *c);
int rr_default_setup(const struct rr_repro *r, struct rr_result *res,
		     char *why, size_t len);
int rr_default_build(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, char *why, size_t len);
int rr_default_merge(const struct rr_repro *r, struct rr_pattern *p,
		     struct rr_ksm_counters *k, char *why, size_t len);
void rr_default_teardown(const struct rr_repro *r, const struct rr_case *c,
			 struct rr_pattern *p);

struct rr_repro {
	const char *name;
	const char *summary;		/* for --help */
	const struct rr_opt *opts;	/* its own options */
	const char *const *kconfig;	/* needed, without CONFIG_ */
	const char *const *commands;	/* needed in $PATH */
	/* Its cases, one subject and its controls, in the report's order. */
	const struct rr_case *cases;
	int nr_cases;
	enum rr_policy policy;
	/*
	 * Judge the trigger's own timed calls (trigger_call_ms), not the
	 * probe's intervals: for a trigger whose call holds more than its
	 * walks (memory_failure(): finding the processes, then the walk).
	 */
	bool judge_calls;
	/*
	 * KSM is what it measures, whatever its cases' page types (ksmd's
	 * scans): it needs KSM and takes the KSM options.
	 */
	bool uses_ksm;
	/* Check option combinations: false, with why, is a usage error. */
	bool (*check)(char *why, size_t len);
	/* The pattern of one case, into a zeroed spec. */
	void (*spec)(const struct rr_case *c, struct rr_pattern_spec *s);
	/*
	 * Copy the pattern parameters into the result (res->pages, and its
	 * own JSON pattern fields with rr_result_param()).
	 */
	void (*describe)(struct rr_result *res);
	/*
	 * The report's pattern sentence, from what the run measured (the
	 * cases' counted VMAs), made by the parent before reporting.
	 */
	void (*sentence)(const struct rr_result *res, char *buf, size_t len);
	/*
	 * A case in the report's words where they depend on the options;
	 * NULL, or NULL returned: the case's what, else the default.
	 */
	const char *(*case_what)(const struct rr_case *c);
	const struct rr_repro_ops *ops;	/* NULL: the defaults */
	/*
	 * The triggers it can use (enum rr_trigger, ending with 0), best
	 * first: auto takes the first available, and another given with
	 * --trigger is a usage error. NULL: any.
	 */
	const int *triggers;
	const char *triggers_why;	/* why only those, for the messages */
	/*
	 * More it can use when asked with --trigger, which auto never
	 * takes (ending with 0; NULL: none).
	 */
	const int *asked_triggers;
};

/* Common options, parsed by rr_main() for every reproducer. */
struct rr_config {
	unsigned long long runs;
	unsigned long long max_runs;	/* 0: three times runs */
	unsigned long long attempts;
	int trigger;			/* enum rr_trigger; 0: auto */
	double threshold_ms;
	double min_ratio;
	int format;			/* enum rr_format */
	const char *out;
	const char *label;		/* the report's name, if not ours */
	unsigned long long timeout_s;
	unsigned long long min_free_mb;
	unsigned long long buffer_kb;
	int victim;			/* enum rr_victim_mode */
	/* the victim alone before each firing it runs in, ms; 0: not */
	unsigned long long victim_alone_ms;
	int probe;			/* enum rr_probe_kind */
	bool cross_check;		/* other walk-level probes too */
	bool probe_cost;		/* a pass without any probe too */
	bool iterations;		/* a pass counting interval-tree steps */
	bool quiet;
	bool bisect;			/* exit with git bisect run's codes */
	bool parse_only;		/* check the options, run nothing */
};

enum rr_format { RR_FMT_TEXT, RR_FMT_KTAP, RR_FMT_JSON };

extern struct rr_config rr_cfg;

int rr_main(const struct rr_repro *r, int argc, char **argv);
/*
 * argv[0] of a reproducer exec()ed as a child that only exits (exec-storm
 * times exec() with it): with one argument, "1" (exit 0), or a mapping's
 * name that /proc/self/maps must hold (exit 0, else 3).
 */
#define RR_EXEC_CHILD "rmap-repro-exec-child"
/*
 * A check() for reproducers with no victim thread (nothing toggles an
 * rmap lock in their pattern): --victim auto becomes off, another mode
 * is a usage error.
 */
bool rr_victim_none(char *why, size_t len);
/*
 * Is the declaration sound: one subject, at most RR_MAX_CASES cases,
 * each named once (a KTAP and JSON name: [a-z0-9-])?
 */
bool rr_repro_valid(const struct rr_repro *r, char *why, size_t len);
void rr_phase(struct rr_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
