// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs meter: the chosen probe and the cross-checking ones armed
 * in one private instance, paired per task by bracket.c; in the counting
 * pass, the hist triggers of iters.c as well. A polled probe (poll.h) is
 * a thread that reads its counter between start and stop instead.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "measure/meter.h"
#include "model/repro.h"
#include "probe/call_part.h"
#include "probe/poll.h"
#include "probe/probe.h"
#include "probe/trace.h"

struct tmeter {
	struct rr_trace trace;
	struct rr_bprobe bps[1 + RR_MAX_CROSS + 1];	/* and the part's */
	int nprobes;
	bool part;			/* bps[nprobes] times the part */
	struct rr_poll poll;		/* the chosen probe is polled */
	bool polled;
	struct rr_waits *waits;		/* lock waits armed (a->waits) */
	struct rr_wait_stack *stack;	/* their stacks too (a->stack) */
};

int rr_meter_probes(const struct rr_result *res, enum rr_pass pass)
{
	return pass == RR_PASS_PROBE ? 1 + res->nr_cross : 1;
}

static const struct rr_probe_setup *setup_of(const struct rr_result *res,
					     int k)
{
	return k ? &res->cross[k - 1] : &res->probe;
}

/*
 * Reclaim's give-ups beside the lock waits, where kprobes can count
 * them: a failure leaves them uncounted, with the reason, not the run.
 */
static void prepare_giveups(struct rr_result *res)
{
	char *why = res->giveups_why;
	size_t len = sizeof(res->giveups_why);

	res->giveups = false;
	if (!res->waits) {
		snprintf(why, len, "no lock events: a kernel before the give-ups");
		return;
	}
	if (!rr_giveups_available(why, len))
		return;
	res->giveups = !rr_giveups_prepare(why, len);
}

static int topen(struct rr_meter *m, char *why, size_t len)
{
	struct rr_result *res = m->res;
	struct tmeter *tm = calloc(1, sizeof(*tm));
	int err, i;

	if (!tm)
		return -ENOMEM;
	m->priv = tm;
	rr_phase(res, "setup: tracing");
	rr_trace_sweep();
	/* kprobes first: the journal then removes them after the instance */
	rr_probe_sweep();
	res->waits = rr_waits_available(res->waits_why,
					sizeof(res->waits_why));
	/* until a hist trigger is refused */
	res->waits_stack = res->waits;
	err = rr_probe_prepare(&res->probe, why, len);
	if (!err)
		err = rr_part_prepare(&res->part, why, len);
	if (!err && res->iterations)
		err = rr_iters_prepare(&res->iter_syms, &res->iter_items,
				       res->iter_items_note,
				       sizeof(res->iter_items_note), why, len);
	for (i = 0; !err && i < res->nr_cross; i++)
		err = rr_probe_prepare(&res->cross[i], why, len);
	if (!err)
		prepare_giveups(res);
	if (!err)
		err = rr_trace_open(&tm->trace, rr_cfg.buffer_kb, why, len);
	if (!err)
		err = rr_probe_prepare_instance(&res->probe, &tm->trace, why,
						len);
	for (i = 0; !err && i < res->nr_cross; i++)
		err = rr_probe_prepare_instance(&res->cross[i], &tm->trace,
						why, len);
	if (!err)
		snprintf(res->instance, sizeof(res->instance), "%s",
			 tm->trace.name);
	return err;
}

/* Where the victim's waits begin: kept where hist triggers exist. */
static void arm_stack(struct tmeter *tm, struct rr_result *res,
		      const struct rr_meter_arm *a)
{
	tm->stack = NULL;
	if (!res->waits_stack || !a->stack || !a->victim_tid)
		return;
	if (rr_waits_stack_arm(&tm->trace, a->victim_tid)) {
		res->waits_stack = false;
		snprintf(res->waits_stack_why, sizeof(res->waits_stack_why),
			 "no hist trigger keyed by stack (CONFIG_HIST_TRIGGERS off)");
		return;
	}
	tm->stack = a->stack;
}

/* The walk probes of a pass, none in the victim's. */
static int arm_probes(struct tmeter *tm, struct rr_result *res,
		      const struct rr_meter_arm *a, const char *filter,
		      char *why, size_t len)
{
	char no[192];
	int err = 0, k;

	for (k = 0; k < tm->nprobes && !err; k++) {
		const struct rr_probe_setup *ps = setup_of(res, k);
		struct rr_bprobe *bp = &tm->bps[k];

		rr_bprobe_init(bp, tm->trace.tep, ps->bracket);
		bp->fns = ps->fns;
		memcpy(bp->pids, a->pids, a->npids * sizeof(*a->pids));
		bp->npids = a->npids;
		bp->skip_own = !a->npids;
		err = rr_probe_set_pids(ps, &tm->trace, a->pids, a->npids);
		if (err) {
			snprintf(why, len, "cannot set set_ftrace_pid");
			return err;
		}
		err = rr_bprobe_arm(bp, &tm->trace, filter,
				    rr_page_type_name(a->type), a->lo, a->hi,
				    why, len);
	}
	/* why not is the report's to say (rr_part_timed again) */
	tm->part = !err && a->part &&
		   rr_part_timed(&res->part, a->type, no, sizeof(no));
	if (tm->part) {
		struct rr_bprobe *bp = &tm->bps[tm->nprobes];

		rr_bprobe_init(bp, tm->trace.tep, RR_BR_PART);
		memcpy(bp->pids, a->pids, a->npids * sizeof(*a->pids));
		bp->npids = a->npids;
		err = rr_bprobe_arm(bp, &tm->trace, filter,
				    rr_page_type_name(a->type), 0, 0, why, len);
	}
	return err;
}

static int tarm(struct rr_meter *m, const struct rr_meter_arm *a, char *why,
		size_t len)
{
	struct tmeter *tm = m->priv;
	struct rr_result *res = m->res;
	char filter[128];
	int err;

	rr_pid_filter(a->pids, a->npids, filter, sizeof(filter));
	err = rr_trace_off(&tm->trace);
	if (!err)
		err = rr_trace_disable_all(&tm->trace);
	if (!err)
		err = rr_trace_reset(&tm->trace);
	if (err) {
		snprintf(why, len, "cannot reset the tracefs instance");
		return err;
	}
	tm->waits = res->waits ? a->waits : NULL;
	tm->part = false;
	/* The chosen probe first, then the cross-checking ones. */
	tm->nprobes = a->pass == RR_PASS_VICTIM ? 0 :
		      rr_meter_probes(res, a->pass);
	/* polled: nothing in the instance (never cross-checked) */
	tm->polled = tm->nprobes &&
		     rr_brackets[res->probe.bracket].poll_counter;
	if (tm->polled) {
		tm->nprobes = 1;
		rr_poll_free(&tm->poll);
	} else {
		/* no task named (a trigger at work anywhere): no filter */
		err = arm_probes(tm, res, a, filter[0] ? filter : NULL, why,
				 len);
	}
	if (!err && a->pass == RR_PASS_COUNT && !tm->polled)
		err = rr_iters_arm(&tm->trace, a->pids[0], a->type,
				   &res->iter_items, res->part.what[0] != '\0',
				   res->iter_items_note,
				   sizeof(res->iter_items_note), why, len);
	if (err && !why[0])
		snprintf(why, len, "cannot arm the hist triggers");
	if (!err && tm->waits) {
		/* every task of ours, even where the walk probe traces all */
		rr_pid_filter(a->pids, a->nwaiters, filter, sizeof(filter));
		err = rr_waits_arm(tm->waits, &tm->trace,
				   filter[0] ? filter : NULL);
		if (err)
			snprintf(why, len, "cannot enable the lock events");
		res->waits_mmap = tm->waits->mmap;
		arm_stack(tm, res, a);
		if (!err && res->giveups &&
		    rr_giveups_arm(tm->waits, &tm->trace)) {
			snprintf(why, len, "cannot enable %s", RR_GIVEUP_EVENT);
			err = -EIO;
		}
	}
	return err;
}

static void tstart(struct rr_meter *m)
{
	struct tmeter *tm = m->priv;
	char path[PATH_MAX];

	if (tm->polled) {
		rr_bracket_poll_path(m->res->probe.bracket, path, sizeof(path));
		/* a start that fails leaves no record: collect says so */
		rr_poll_start(&tm->poll, path, RR_POLL_PERIOD_US * 1000ULL);
	}
	if (!tm->polled || tm->waits)
		rr_trace_on(&tm->trace);
}

static void tstop(struct rr_meter *m)
{
	struct tmeter *tm = m->priv;

	if (tm->polled)
		rr_poll_stop(&tm->poll);
	if (!tm->polled || tm->waits)
		rr_trace_off(&tm->trace);
}

static void waits_also(void *ctx, struct tep_event *ev,
		       struct tep_record *rec)
{
	rr_waits_decode(ctx, ev, rec);
}

/* The polled probe's samples, and its counts as a bracket's. */
static int poll_collect(struct tmeter *tm, const struct rr_bracket_def *d,
			struct rr_samples *out, struct rr_bprobe_result *pres,
			char *why, size_t len)
{
	struct rr_poll_result r;

	memset(pres, 0, sizeof(*pres));
	if (!tm->poll.n) {
		snprintf(why, len, "cannot poll %s", d->poll_counter);
		return -EIO;
	}
	rr_poll_intervals(tm->poll.ts, tm->poll.val, tm->poll.n, out, &r);
	pres->intervals = r.intervals;
	pres->counted = r.counted;
	/* the partial first interval is an edge; a skipped event a loss */
	pres->unpaired = r.partial;
	pres->lost = r.skipped;
	pres->read_errors = tm->poll.errors;
	pres->by_task[d->poll_task] = r.counted;
	rr_poll_free(&tm->poll);
	return 0;
}

static int tcollect(struct rr_meter *m, const struct rr_meter_arm *a,
		    struct rr_samples **outs, struct rr_bprobe_result *pres,
		    struct rr_iter_counts *ic, char *why, size_t len)
{
	struct tmeter *tm = m->priv;
	struct rr_bprobe *bpp[1 + RR_MAX_CROSS + 1];
	struct rr_samples *o[1 + RR_MAX_CROSS + 1];
	struct rr_bprobe_result r[1 + RR_MAX_CROSS + 1];
	int err, k, n = tm->nprobes;

	if (tm->polled) {
		err = poll_collect(tm, &rr_brackets[m->res->probe.bracket],
				   outs[0], pres, why, len);
		if (err || !tm->waits)
			return err;
		/* the lock waits alone are in the instance */
		n = 0;
	}
	memset(r, 0, sizeof(r));
	for (k = 0; k < n; k++) {
		bpp[k] = &tm->bps[k];
		o[k] = outs[k];
	}
	if (tm->part) {
		bpp[n] = &tm->bps[n];
		o[n++] = a->part;
	}
	err = rr_bprobe_collect_also(bpp, n, &tm->trace, o, r,
				     tm->waits ? waits_also : NULL,
				     tm->waits);
	if (!tm->polled)
		memcpy(pres, r, tm->nprobes * sizeof(*pres));
	if (tm->part && a->part_res)
		*a->part_res = r[tm->nprobes];
	if (tm->waits) {
		rr_waits_finish(tm->waits);
		tm->waits->lost = rr_trace_lost(&tm->trace);
	}
	if (tm->stack)
		rr_waits_stack_read(&tm->trace, tm->stack);
	tm->stack = NULL;
	if (err) {
		snprintf(why, len, "cannot read the trace buffer");
		return err;
	}
	if (tm->waits && rr_giveups_read(tm->waits, &tm->trace)) {
		snprintf(why, len, "cannot read the hist of %s",
			 RR_GIVEUP_EVENT);
		return -EIO;
	}
	if (a->pass != RR_PASS_COUNT || tm->polled)
		return 0;
	err = rr_iters_read(&tm->trace, a->pids[0], a->type,
			    m->res->iter_items, ic);
	if (err)
		snprintf(why, len, "cannot read the step counts");
	return err;
}

static void tclose(struct rr_meter *m)
{
	struct tmeter *tm = m->priv;

	if (!tm)
		return;
	rr_poll_free(&tm->poll);
	rr_trace_close(&tm->trace);
	free(tm);
	m->priv = NULL;
}

/* The largest per-CPU buffer a retry asks for: 1 GiB in all on 8 CPUs. */
#define MAX_GROWN_KB (128 << 10)

static int tgrow(struct rr_meter *m, unsigned long long *kb)
{
	struct tmeter *tm = m->priv;
	size_t want = tm->trace.buffer_kb * 4;

	if (want > MAX_GROWN_KB)
		want = MAX_GROWN_KB;
	*kb = tm->trace.buffer_kb;
	if (tm->polled || want <= tm->trace.buffer_kb)
		return 0;
	if (rr_trace_grow(&tm->trace, want))
		return -EIO;
	*kb = want;
	return 0;
}

const struct rr_meter_ops rr_meter_trace = {
	.grow = tgrow,
	.open = topen,
	.arm = tarm,
	.start = tstart,
	.stop = tstop,
	.collect = tcollect,
	.close = tclose,
};
