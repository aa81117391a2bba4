/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers: kernel work that walks the rmap of the pattern's pages, run
 * synchronously in the reproducer's own context so that its brackets can
 * be told apart from the rest of the system's. Each is one entry of a
 * table, in a file of its own:
 *   compact  /proc/sys/vm/compact_memory or a node's compact file
 *            (trigger_compact.c): migrates movable pages (two walks per
 *            page), but only those below where the compaction scanners
 *            meet, so it may miss the pattern; the probe counts how much
 *            of the pattern it moved.
 *   reclaim  reclaim forced on the reproducer's own memory cgroup, with
 *            swap (trigger_reclaim.c): every page scanned is walked by
 *            folio_referenced(), and try_to_unmap() walks it again to
 *            swap it out.
 *   migrate  move_pages() of the pattern's pages to another NUMA node
 *            (trigger_migrate.c): two walks per page moved; needs two
 *            nodes with memory.
 *   soft-offline  madvise(MADV_SOFT_OFFLINE) of the pattern's pages
 *            (trigger_soft_offline.c): each migrates to a new frame on
 *            any node and its old frame is retired, then given back
 *            (unpoison-pfn); auto never picks it, a reproducer may.
 *   pressure machine-wide memory pressure from stress-ng with zram
 *            swap (trigger_pressure.c): kswapd and direct reclaim walk
 *            the pattern's pages among every other; opt-in, bounded.
 *   ksm-scan ksmd itself (trigger_ksm_scan.c), for the KSM daemon's
 *            reproducers: run until the case's pages are merged, or
 *            for two full scans; no rmap walk, only its bracket.
 *   hwpoison memory_failure() of another process's pages
 *            (trigger_hwpoison.c): by frame number through debugfs
 *            corrupt-pfn, or by MADV_HWPOISON in the process that maps
 *            the page (--injector): the processes found, the page
 *            unmapped, the frame retired; only in the suite's VM or
 *            with --allow-hwpoison.

 * A new trigger is one more file and one more line in trigger.c's table.
 */
#ifndef RR_TRIGGER_H
#define RR_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/stats.h"
#include "mm/memcg.h"
#include "pattern/pattern.h"
#include "probe/walkfn.h"

struct rr_result;
struct rr_case_result;
struct rr_ksmd_use;

enum rr_trigger {
	RR_TRIG_AUTO,
	RR_TRIG_COMPACT,
	RR_TRIG_RECLAIM,
	RR_TRIG_MIGRATE,
	RR_TRIG_SOFT_OFFLINE,
	RR_TRIG_HWPOISON,
	RR_TRIG_PRESSURE,
	RR_TRIG_KSM_SCAN,
	RR_TRIG_MAX
};

extern const char *const rr_trigger_names[];

/* What a trigger keeps between its setup and its firings. */
struct rr_trigger_ctx {
	struct rr_memcg cg;			/* reclaim */
	bool in_cg;				/* reclaim: cg was made */
	unsigned long long reclaim_bytes;	/* reclaim */
	long compact_node;			/* compact: -1 = all */
	const struct rr_pattern *pattern;	/* the case's built pattern */
	unsigned long moved, failed;		/* migrate: outcome */
	unsigned long fired;			/* firings so far */
	bool probe_pass;			/* the probe's pass, not the
						 * victim's or another */
	struct rr_ksmd_use *ksmd;		/* ksm-scan: the probe pass's
						 * figures go here */
	/*
	 * Where a trigger that times its own calls (hwpoison: each write
	 * to corrupt-pfn) adds their durations, ms; NULL: not asked.
	 */
	struct rr_samples *calls;
	/*
	 * Pages the trigger could not act on are counted (moved/failed)
	 * and left to the reproducer's oracle, not returned as an error.
	 */
	bool failures_are_data;
	void *priv;				/* a trigger's own */
};

struct rr_trigger_ops {
	const char *name;
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
	 * Tasks besides the measuring process that will do the work (the
	 * member that madvise()s its own page): the probes trace them too.
	 * Returns how many it put in pids (at most max); NULL: none.
	 */
	int (*actors)(const struct rr_pattern *p, int *pids, int max);
	/*
	 * A trigger that times its own calls: a part of each call that a
	 * kernel function does, timed apart where a kprobe can (call_part.h):
	 * what it is, and the function's names per page type, best first.
	 */
	const char *part_what;
	const char *const part_fns[RR_PT_MAX][RR_FN_CANDS];
	/* What the walks inside a call do, in words ("unmapping it"). */
	const char *walks_what;
	/*
	 * What the rest of a call is, besides the walks the probe times
	 * and the part (for the report's split).
	 */
	const char *call_rest;
	/* How much of the case's pattern it reached, for the report. */
	void (*reach)(const struct rr_case_result *c, char *buf, size_t len);
};

extern const struct rr_trigger_ops rr_trigger_compact;
extern const struct rr_trigger_ops rr_trigger_reclaim;
extern const struct rr_trigger_ops rr_trigger_migrate;
extern const struct rr_trigger_ops rr_trigger_soft_offline;
extern const struct rr_trigger_ops rr_trigger_hwpoison;
extern const struct rr_trigger_ops rr_trigger_pressure;
extern const struct rr_trigger_ops rr_trigger_ksm_scan;

/*
 * Shared by the triggers that reclaim (trigger_reclaim.c): --swappiness
 * (journaled), and swap (an active one, or a zram device) described in
 * res.
 */
int rr_swappiness_set(char *why, size_t len);
int rr_swap_setup(struct rr_result *res, char *why, size_t len);

/* The entry of a trigger, NULL for auto or out of range. */
const struct rr_trigger_ops *rr_trigger_get(int t);
/* Its kernel options, then its own check. */
bool rr_trigger_available(enum rr_trigger t, char *why, size_t len);
/*
 * Best available: migrate (the published trigger, one page at a time),
 * then reclaim (targets the pattern), then compaction (may miss it).
 */
enum rr_trigger rr_trigger_auto(char *why, size_t len);
bool rr_trigger_backs_off(enum rr_trigger t);
bool rr_trigger_may_miss(enum rr_trigger t);
/* The tracepoint bracket that measures the trigger. */
int rr_trigger_bracket(enum rr_trigger t);
/* Run the trigger to completion; how describes what was done. */
int rr_trigger_fire(enum rr_trigger t, struct rr_trigger_ctx *ctx,
		    char *how, size_t len);

#endif
