/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers: kernel work that walks the rmap of the pattern's pages, run
 * synchronously in the reproducer's own context so that its brackets can
 * be told apart from the rest of the system's. Each is one entry of a
 * table, in a file of its own whose head comment says what it does and
 * what it walks (trigger_compact.c, trigger_reclaim.c, ...); --help
 * lists them with a line each.
 *
 * A new trigger is one file here, trigger_NAME.c, defining its ops
 * (struct rr_trigger_ops below: what it needs, its options, how it
 * fires, its lines in the reports), and one line in RR_TRIGGERS below.
 * Nothing else names it: the runner chooses from the table, the reports
 * write what its hooks give (docs/hacking.md walks through one).
 */
#ifndef RR_TRIGGER_H
#define RR_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/json.h"
#include "lib/opts.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "pattern/pattern.h"
#include "probe/walkfn.h"

struct rr_result;
struct rr_case_result;

/*
 * Every trigger, one line each: its enum constant (RR_TRIG_ID) and its
 * ops (rr_trigger_SYM, in trigger_SYM.c). The order is the enum's and
 * the --trigger help's.
 */
#define RR_TRIGGERS(X)				\
	X(COMPACT, compact)			\
	X(RECLAIM, reclaim)			\
	X(MIGRATE, migrate)			\
	X(SOFT_OFFLINE, soft_offline)		\
	X(HWPOISON, hwpoison)			\
	X(PAGE_IDLE, page_idle)			\
	X(DAMON, damon)				\
	X(PRESSURE, pressure)			\
	X(KSM_SCAN, ksm_scan)

/* 0, auto: the best available (rr_trigger_choose()). */
enum rr_trigger {
	RR_TRIG_AUTO,
#define X(id, sym) RR_TRIG_##id,
	RR_TRIGGERS(X)
#undef X
	RR_TRIG_MAX
};

/*
 * What the measuring body and a trigger exchange for one firing. A
 * trigger's own state (its memory cgroup, the node it compacts, ...)
 * stays in its own file, in statics, private to it.
 */
struct rr_trigger_ctx {
	const struct rr_pattern *pattern;	/* the case's built pattern */
	unsigned long moved, failed;		/* pages acted on, or not */
	unsigned long fired;			/* firings so far */
	bool probe_pass;			/* the probe's pass, not the
						 * victim's or another */
	/*
	 * Where a trigger that times its own calls (hwpoison: each write
	 * to corrupt-pfn) adds their durations, ms; NULL: not asked.
	 */
	struct rr_samples *calls;
	/*
	 * Where it adds its own figures of the case (rr_case_result.trig,
	 * RR_TRIG_CASE_BYTES), in the probe's pass; NULL in other passes.
	 */
	void *figures;
	/*
	 * Pages the trigger could not act on are counted (moved/failed)
	 * and left to the reproducer's oracle, not returned as an error.
	 */
	bool failures_are_data;
};

/* A line of the text report: its label ("" continues the one before). */
typedef void rr_field_fn(FILE *f, const char *label, const char *text);

struct rr_trigger_ops {
	const char *name;		/* for --trigger and the reports */
	/* what it does, for --trigger's help ("move_pages() of ...") */
	const char *help;
	/* chosen by auto in this rank, 1 first; 0: only when asked */
	int auto_rank;
	/*
	 * Its own options, parsed with the common ones (a table may be
	 * shared by triggers: it is offered once); NULL: none.
	 */
	const struct rr_opt *opts;
	/* Are they sound, after parsing and before anything runs? */
	bool (*opts_valid)(char *err, size_t len);
	const char *const *kconfig;	/* needed, without CONFIG_ */
	int bracket;			/* enum rr_bracket_id measuring it,
					 * -1: none (a walk probe only) */
	/*
	 * Can it miss the pattern altogether? Compaction migrates only
	 * pages below where its two scanners meet; fresh pages often sit
	 * above. The runner then rebuilds the pattern and fires again
	 * (--attempts).
	 */
	bool may_miss;
	/*
	 * Do its walks back off when the rmap lock is contended? Reclaim's
	 * folio_referenced() walks with trylock and gives up when a writer
	 * waits, so a victim in the same pass keeps the walks short (and
	 * the KSM pages unreclaimed): the victim then gets a pass of its
	 * own.
	 */
	bool backs_off;
	/*
	 * It sends the pattern's pages to swap rather than to new frames:
	 * the frames oracle then checks that each page left memory with
	 * every mapping of it, that pswpout counted it, and that its
	 * content comes back intact (oracle.h).
	 */
	bool swaps_out;
	/* why, for the report's victim line (a sentence) */
	const char *backs_off_why;
	/*
	 * Does its work run in tasks that are not the reproducer's
	 * (kswapd, allocating tasks)? Probes then trace every task, and
	 * the report says which tasks did the walks.
	 */
	bool anywhere;
	/*
	 * Is its bracket the only probe that makes sense (no rmap walk to
	 * time: ksmd's scans)? Walk-level probes are then refused.
	 */
	bool bracket_only;
	/*
	 * Only for the reproducers that list it (ksm-scan measures ksmd,
	 * not the walks of the others' patterns).
	 */
	bool only_listed;
	/* Usable here? Changes nothing; why says why not. */
	bool (*available)(char *why, size_t len);
	/*
	 * In the measuring process, before any case: what the trigger
	 * needs (each change journaled); it may fill res's memcg and swap.
	 * NULL: nothing.
	 */
	int (*setup)(struct rr_trigger_ctx *ctx, struct rr_result *res,
		     char *why, size_t len);
	/*
	 * Run to completion on ctx->pattern; how says what was done.
	 * -ENODATA: it could not reach the pattern (a control is then
	 * noted as not reached, a subject is an error).
	 */
	int (*fire)(struct rr_trigger_ctx *ctx, char *how, size_t len);
	/*
	 * How far a fire() under way has come, for its progress line
	 * ("1200 of 2000 pattern pages out"). Called from the ticker's
	 * thread while fire() runs: it reads only what fire() publishes
	 * for it. NULL: the line gives the time alone.
	 */
	rr_how_far_fn *how_far;
	/*
	 * Tasks besides the measuring process that will do the work (the
	 * member that madvise()s its own page): the probes trace them too.
	 * Returns how many it put in pids (at most max); NULL: none.
	 */
	int (*actors)(const struct rr_pattern *p, int *pids, int max);
	/*
	 * A trigger that times its own calls: a part of each call that a
	 * kernel function does, timed apart where a kprobe can (call_part.h):
	 * what it is, and the function's role per page type (probe/ksym.h).
	 */
	const char *part_what;
	enum rr_kfn part_roles[RR_PT_MAX];
	/* What the walks inside a call do, in words ("unmapping it"). */
	const char *walks_what;
	/*
	 * What the rest of a call is, besides the walks the probe times
	 * and the part (for the report's split).
	 */
	const char *call_rest;
	/* How much of the case's pattern it reached, for the report. */
	void (*reach)(const struct rr_case_result *c, char *buf, size_t len);

	/*
	 * Its own part of the reports, from what it kept in the result:
	 * rr_result.trig (the run's, RR_TRIG_BYTES) and rr_case_result.trig
	 * (a case's). Every hook may be NULL.
	 *
	 * text: its lines after the Trigger line of the text report.
	 * key: the name of its object in the JSON "trigger" object and of
	 * its KTAP diagnostic ("# KEY: SUMMARY"); summary() is that line,
	 * and json() writes the object's members before its "text" (the
	 * summary). Another trigger's run has "KEY": null.
	 */
	void (*text)(const struct rr_result *r, FILE *f, rr_field_fn *field);
	const char *key;
	void (*summary)(const struct rr_result *r, char *buf, size_t len);
	void (*json)(const struct rr_result *r, struct rr_json *j);
	/*
	 * The same for each case: case_key names its block of the text
	 * report, its member of the JSON case (null where case_summary()
	 * gives "") and its KTAP diagnostic.
	 */
	const char *case_key;
	void (*case_summary)(const struct rr_result *r,
			     const struct rr_case_result *c, char *buf,
			     size_t len);
	void (*case_json)(const struct rr_result *r,
			  const struct rr_case_result *c, struct rr_json *j);
	/*
	 * Made-up figures in r and its case c, so that tests/tools/
	 * full-result writes every key this trigger can (docs.sh checks
	 * they are documented).
	 */
	void (*example)(struct rr_result *r, struct rr_case_result *c);
};

#define X(id, sym) extern const struct rr_trigger_ops rr_trigger_##sym;
RR_TRIGGERS(X)
#undef X

/*
 * Shared by the triggers that reclaim (trigger_reclaim.c): their
 * options (--swap-mb, --swappiness), --swappiness set (journaled), and
 * swap (an active one, or a zram device) described in res.
 */
extern const struct rr_opt rr_swap_opts[];
extern const char rr_reclaim_backs_off_why[];
bool rr_swap_opts_valid(char *err, size_t len);
int rr_swappiness_set(char *why, size_t len);
/* Swap with room for --swap-mb, or a zram swap the run can make. */
bool rr_swap_available(char *why, size_t len);
int rr_swap_setup(struct rr_result *res, char *why, size_t len);

/* The entry of a trigger, NULL for auto or out of range. */
const struct rr_trigger_ops *rr_trigger_get(int t);
/* Each trigger t of the table, with its ops. */
#define rr_for_each_trigger(t, ops) \
	for ((t) = RR_TRIG_AUTO + 1; ((ops) = rr_trigger_get(t)); (t)++)
/* Its name; "auto" for 0. */
const char *rr_trigger_name(int t);
/*
 * The option tables of the triggers, for the runner's parser and help:
 * --trigger (its choices and help drawn from the table), then each
 * trigger's own options, each table once. Returns how many it put in
 * tables (at most max, which RR_TRIGGER_OPT_TABLES always holds).
 */
#define RR_TRIGGER_OPT_TABLES (RR_TRIG_MAX + 1)
int rr_trigger_opt_tables(const struct rr_opt **tables, int max);
/* Every trigger's options sound (after parsing): false with err. */
bool rr_trigger_opts_valid(char *err, size_t len);
/*
 * --trigger asked (0: auto) and the reproducer's own list (NULL: any
 * but the only_listed; listed_why says why a list): false with err when
 * asked is not one the reproducer can use, a usage error.
 */
bool rr_trigger_check(int asked, const int *listed, const char *listed_why,
		      char *err, size_t len);
/*
 * The trigger to use: asked if it is available here; for auto, the
 * first available of the reproducer's list, or the best by auto_rank.
 * Returns it, with why it was chosen in chosen; 0 with skip's reason
 * when none is available.
 */
int rr_trigger_choose(int asked, const int *listed, const char *listed_why,
		      char *chosen, size_t clen, char *skip, size_t slen);
/* Its kernel options, then its own check. */
bool rr_trigger_available(enum rr_trigger t, char *why, size_t len);
/* Best available by auto_rank (migrate, reclaim, compact); 0: none. */
enum rr_trigger rr_trigger_auto(char *why, size_t len);
bool rr_trigger_backs_off(enum rr_trigger t);
bool rr_trigger_may_miss(enum rr_trigger t);
/* The tracepoint bracket that measures the trigger. */
int rr_trigger_bracket(enum rr_trigger t);
/* Run the trigger to completion; how describes what was done. */
int rr_trigger_fire(enum rr_trigger t, struct rr_trigger_ctx *ctx,
		    char *how, size_t len);

#endif
