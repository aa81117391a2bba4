/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A meter: what turns one firing of a trigger into latency samples. The
 * lifecycle in measure.c arms it before each firing, starts it, and
 * collects after. The suite's meter is tracefs (meter_trace.c: the
 * chosen probe and the cross-checking ones in the private instance, and
 * the step-counting hist triggers of --iterations); tests give the
 * lifecycle a meter of their own.
 */
#ifndef RR_METER_H
#define RR_METER_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/stats.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "probe/iters.h"
#include "probe/waits.h"

/* What one firing measures. */
struct rr_meter_arm {
	/* PROBE or COUNT; VICTIM for its lock waits; BARE is not metered */
	enum rr_pass pass;
	enum rr_page_type type;
	const int *pids;		/* the tasks to trace */
	int npids;			/* 0: every task (anywhere) */
	/*
	 * The pattern's address range; with hi set, only intervals that
	 * marked a page inside it count (a trigger that acts on all
	 * memory).
	 */
	unsigned long lo, hi;
	/*
	 * Probe pass of a trigger whose calls have a part timed apart
	 * (res->part): its intervals go here; NULL: not timed.
	 */
	struct rr_samples *part;
	struct rr_bprobe_result *part_res;
	/*
	 * Lock waits (probe/waits.h) of the tasks in pids, into waits
	 * (initialised by the caller); NULL: not recorded. The victim's
	 * own pass records these alone.
	 */
	struct rr_waits *waits;
	int nwaiters;			/* of pids; 0: every task */
	/* where victim_tid's waits began (waits.h); NULL: not asked */
	struct rr_wait_stack *stack;
	int victim_tid;
};

struct rr_meter {
	const struct rr_meter_ops *ops;
	struct rr_result *res;
	void *priv;
};

struct rr_meter_ops {
	/*
	 * Before any case: set up (journaled); fills res->instance, and
	 * res->waits (or waits_why).
	 */
	int (*open)(struct rr_meter *m, char *why, size_t len);
	/* Before a firing: clear, then arm for it. */
	int (*arm)(struct rr_meter *m, const struct rr_meter_arm *a, char *why,
		   size_t len);
	void (*start)(struct rr_meter *m);
	void (*stop)(struct rr_meter *m);
	/*
	 * After it: outs[0] gets the chosen probe's samples, outs[k] those
	 * of cross-checking probe k (probe pass only); pres[k] their
	 * counters. The counting pass also fills ic.
	 */
	int (*collect)(struct rr_meter *m, const struct rr_meter_arm *a,
		       struct rr_samples **outs, struct rr_bprobe_result *pres,
		       struct rr_iter_counts *ic, char *why, size_t len);
	void (*close)(struct rr_meter *m);
	/*
	 * After a firing that lost events: a larger buffer for the next
	 * (optional); *kb gets its size per CPU. 0, or -errno.
	 */
	int (*grow)(struct rr_meter *m, unsigned long long *kb);
};

extern const struct rr_meter_ops rr_meter_trace;

/* How many probes a pass runs: the chosen one, and in the probe's pass
 * the cross-checking ones too. */
int rr_meter_probes(const struct rr_result *res, enum rr_pass pass);

#endif
