// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring body, run in the child: set up (every change journaled),
 * then for each run and each case: build the pattern and verify it, merge
 * it (KSM case), arm the probe, fire the trigger with the victim running,
 * collect, tear down. Statistics are recomputed after every case, so an
 * interrupted run still reports what it had measured.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal/journal.h"
#include "lib/hooks.h"
#include "lib/util.h"
#include "measure/measure.h"
#include "measure/meter.h"
#include "measure/oracle.h"
#include "mm/kmsg.h"
#include "mm/ksm.h"
#include "mm/psi.h"
#include "mm/sysinfo.h"
#include "model/repro.h"
#include "model/verdict.h"
#include "pattern/family.h"
#include "pattern/pattern.h"
#include "pattern/victim.h"
#include "probe/tasks.h"
#include "trigger/trigger.h"

struct case_state {
	struct rr_samples lat, victim, count;
	struct rr_samples victim_alone;	/* --victim-alone */
	struct rr_samples calls;	/* the trigger's own timed calls */
	struct rr_samples part;		/* their part timed apart */
	struct rr_samples walk_steps, item_steps;	/* --iterations */
	struct rr_samples cross[RR_MAX_CROSS];
	struct rr_wait_acc wv, ww;	/* lock waits: victim's, others' */
};

struct body {
	const struct rr_repro *r;
	struct rr_repro_ops ops;	/* the reproducer's, defaults filled */
	const struct rr_trigger_ops *trig;
	struct rr_meter meter;
	struct rr_result *res;
	struct rr_trigger_ctx tctx;
	int built;			/* a pattern is built: teardown owed */
	unsigned int run;		/* the run under way, from 1 */
	bool oracle;			/* verify() judges this trigger */
	struct case_state cs[RR_MAX_CASES];
};

/* A case's declaration and its state, by its place in the result. */
static const struct rr_case *decl(struct body *b,
				  const struct rr_case_result *c)
{
	return &b->r->cases[c - b->res->cases];
}

static struct case_state *state(struct body *b,
				const struct rr_case_result *c)
{
	return &b->cs[c - b->res->cases];
}

static double secs(uint64_t ns)
{
	return (double)ns / NSEC_PER_SEC;
}

unsigned long long rr_case_filled(void (*spec)(const struct rr_case *c,
					       struct rr_pattern_spec *s),
				  const struct rr_case *c)
{
	struct rr_pattern_spec s;

	memset(&s, 0, sizeof(s));
	spec(c, &s);
	return rr_pattern_spec_filled(&s);
}

int rr_default_setup(const struct rr_repro *r, struct rr_result *res,
		     char *why, size_t len)
{
	struct rr_pattern_spec spec;
	size_t vmas = 0;
	bool ksm = false;
	int err, i;

	for (i = 0; i < r->nr_cases; i++) {
		if (r->cases[i].type == RR_PT_KSM && !ksm) {
			rr_phase(res, "setup: KSM");
			err = rr_ksm_setup(why, len);
			if (err)
				return err;
			ksm = true;
		}
		memset(&spec, 0, sizeof(spec));
		r->spec(&r->cases[i], &spec);
		if (rr_pattern_expected_vmas(&spec) > vmas)
			vmas = rr_pattern_expected_vmas(&spec);
	}
	return rr_pattern_map_count(vmas, why, len);
}

int rr_default_build(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, char *why, size_t len)
{
	struct rr_pattern_spec spec = { 0 };

	r->spec(c, &spec);
	return rr_pattern_build(p, &spec, why, len);
}

int rr_default_merge(const struct rr_repro *r, struct rr_pattern *p,
		     struct rr_ksm_counters *k, char *why, size_t len)
{
	return rr_ksm_merge(p->filled, k, why, len);
}

void rr_default_teardown(const struct rr_repro *r, const struct rr_case *c,
			 struct rr_pattern *p)
{
	rr_family_reap(p);
	if (p->frames) {
		rr_frames_free(p->frames);
		free(p->frames);
		p->frames = NULL;
	}
	rr_pattern_free(p);
	if (c->type == RR_PT_KSM)
		rr_ksm_reset();
}

static int setup(struct body *b, char *why, size_t len)
{
	struct rr_result *res = b->res;
	int err;

	/* no VM event counters: whether the OOM killer ran is unknown */
	if (rr_read_keyed("/proc/vmstat", "oom_kill", &res->oom_kill_before))
		res->oom_unknown = true;
	err = b->meter.ops->open(&b->meter, why, len);
	if (!err && b->trig->setup)
		err = b->trig->setup(&b->tctx, res, why, len);
	if (err)
		return err;
	return b->ops.setup(b->r, res, why, len);
}

/* The samples the verdict judges: the probe's intervals, or the calls. */
static struct rr_samples *judged_samples(struct body *b,
					 const struct rr_case_result *c)
{
	struct case_state *cs = state(b, c);

	return b->res->judge_calls ? &cs->calls : &cs->lat;
}

/* Recompute the shared statistics of a case from its samples. */
static void publish(struct body *b, struct rr_case_result *c)
{
	struct case_state *cs = state(b, c);
	struct rr_samples *j = judged_samples(b, c);
	int i;

	c->kept = rr_samples_thin(j->v, j->n, c->keep, RR_KEEP_SAMPLES);
	rr_stats_compute(cs->lat.v, cs->lat.n, &c->latency);
	rr_stats_compute(cs->victim.v, cs->victim.n, &c->victim);
	rr_stats_compute(cs->victim_alone.v, cs->victim_alone.n,
			 &c->victim_alone);
	for (i = 0; i < b->res->nr_cross; i++)
		rr_stats_compute(cs->cross[i].v, cs->cross[i].n, &c->cross[i]);
	rr_stats_compute(cs->count.v, cs->count.n, &c->count_lat);
	rr_stats_compute(cs->calls.v, cs->calls.n, &c->calls);
	rr_stats_compute(cs->part.v, cs->part.n, &c->part);
	rr_stats_compute(cs->walk_steps.v, cs->walk_steps.n, &c->walk_steps);
	rr_stats_compute(cs->item_steps.v, cs->item_steps.n, &c->item_steps);
	rr_wait_acc_fig(&cs->wv, &c->waits_victim);
	rr_wait_acc_fig(&cs->ww, &c->waits_walker);
}

/* Add one pass's steps by caller to the case's. */
static void add_callers(struct rr_iter_callers *to,
			const struct rr_iter_callers *from)
{
	int r;

	if (!from->counted)
		return;
	to->counted = true;
	for (r = 0; r < RR_KFN_MAX; r++) {
		to->first[r] += from->first[r];
		to->next[r] += from->next[r];
		if (!to->name[r][0])
			memcpy(to->name[r], from->name[r], sizeof(to->name[r]));
	}
}

/* Add one counting pass's step counts to the case. */
static void add_counts(struct body *b, struct rr_case_result *c,
		       struct rr_iter_counts *ic, unsigned long measured)
{
	struct case_state *cs = state(b, c);
	unsigned long long walks = ic->walks > measured ? ic->walks : measured;
	size_t seen;

	c->iter_first += ic->first;
	c->iter_next += ic->next;
	add_callers(&c->iter_callers, &ic->callers);
	if (!b->res->iter_items)
		return;
	c->items_dropped += ic->dropped;
	c->count_walks_begun += ic->walks;
	/*
	 * The probe's walks and the counting kprobe's agree but for walks
	 * that reach no rmap_item: those count as 0 steps.
	 */
	seen = rr_iters_attribute(ic->items, ic->nitems, walks,
				  &cs->walk_steps, &cs->item_steps);
	c->walks_without_items += walks > seen ? walks - seen : 0;
}

/* What the probe's pass of this run may have missed (verdict.h). */
static void run_losses(struct body *b, struct rr_case_result *c,
		       const struct rr_bprobe_result *pr)
{
	struct rr_run_fig *f;

	if (!b->run || b->run > RR_MAX_RUNS)
		return;
	f = &c->run[b->run - 1];
	f->lost += pr->lost;
	f->unpaired += pr->unpaired;
	f->read_errors += pr->read_errors;
}

/*
 * One firing of the trigger on a built pattern, in one kind of pass: the
 * probe's records its events (and those of the cross-checking probes);
 * the counting pass records the walks and counts their steps; the bare
 * pass records nothing. With v, the victim toggles during the trigger.
 */
/* One firing of the trigger in one pass: what its phases share. */
struct firing {
	struct rr_case_result *c;
	struct rr_pattern *p;
	enum rr_pass pass;
	struct rr_victim *v;
	bool probe;			/* the probe's, or the counting */
	bool waits;			/* lock waits recorded */
	struct rr_waits ws;
	struct rr_wait_stack stack;	/* where the victim's waits began */
	uint64_t vlong_t0, vlong_ns;	/* the victim's longest call */
	int pids[4];
	struct rr_meter_arm arm;
	struct rr_bprobe_result pres[1 + RR_MAX_CROSS], part;
	struct rr_samples *outs[1 + RR_MAX_CROSS];
	struct rr_iter_counts ic;
	size_t present0;		/* pattern pages present before */
};

/* Arm: the tasks to trace, the meter, the oracle's first look. */
static int arm_firing(struct body *b, struct firing *fi, char *why,
		      size_t len)
{
	struct case_state *cs = state(b, fi->c);
	struct rr_pattern *p = fi->p;
	size_t swapped;
	int npids = 0, err, k;

	fi->pids[npids++] = getpid();
	if (fi->v)
		fi->pids[npids++] = fi->v->tid;
	/* a trigger whose work runs in other tasks (a member's madvise) */
	if (b->trig->actors)
		npids += b->trig->actors(p, fi->pids + npids,
					 ARRAY_SIZE(fi->pids) - npids);
	for (k = 0; k < npids; k++)
		rr_tasks_add(RR_TASK_REPRO, fi->pids[k]);
	fi->arm.pass = fi->pass;
	fi->arm.type = fi->c->type;
	fi->arm.pids = fi->pids;
	/* work in kswapd and allocating tasks: every task is traced */
	fi->arm.npids = b->trig->anywhere ? 0 : npids;
	/*
	 * A trigger that acts on all memory (compaction): only intervals
	 * that marked the pattern count. Reclaim and migration act on our
	 * group and our pages.
	 */
	fi->arm.lo = (unsigned long)p->addr;
	fi->arm.hi = b->trig->may_miss ? (unsigned long)p->addr + p->len : 0;
	if (fi->pass == RR_PASS_PROBE && b->trig->part_what) {
		fi->arm.part = &cs->part;
		fi->arm.part_res = &fi->part;
	}
	for (k = 0; k < 1 + RR_MAX_CROSS; k++)
		fi->outs[k] = k ? &cs->cross[k - 1] :
			      fi->pass == RR_PASS_COUNT ? &cs->count : &cs->lat;
	fi->arm.waits = fi->waits ? &fi->ws : NULL;
	/* a victim whose calls start processes: every task, told apart */
	fi->arm.nwaiters = fi->v && fi->v->op && fi->v->op->owns ? 0 : npids;
	/* the stacks of one task: the victim thread's own calls */
	if (fi->waits && fi->v && fi->arm.nwaiters) {
		fi->arm.stack = &fi->stack;
		fi->arm.victim_tid = fi->v->tid;
	}
	if (fi->probe || fi->waits) {
		err = b->meter.ops->arm(&b->meter, &fi->arm, why, len);
		if (err)
			return err;
	}
	if (fi->probe &&
	    rr_pattern_residency(p, &fi->present0, &swapped))
		fi->present0 = 0;
	if (fi->pass == RR_PASS_PROBE && b->oracle && b->ops.verify_before) {
		p->swaps_out = rr_trigger_get(b->res->trigger) &&
			       rr_trigger_get(b->res->trigger)->swaps_out;
		return b->ops.verify_before(b->r, decl(b, fi->c), p, why, len);
	}
	return 0;
}

/* Fire: the meter and the victim on, the trigger run, timed. */
static int trigger_once(struct body *b, struct firing *fi)
{
	struct rr_result *res = b->res;
	struct rr_case_result *c = fi->c;
	const char *hold = rr_hook_env("RMAP_REPRO_TEST_HOLD_MS");
	struct rr_ticker *tick;
	char phase[128];
	uint64_t t0, dt, tv0 = 0;
	int ferr;

	b->tctx.pattern = fi->p;
	b->tctx.moved = b->tctx.failed = 0;
	b->tctx.calls = fi->pass == RR_PASS_PROBE ? &state(b, c)->calls : NULL;
	b->tctx.probe_pass = fi->pass == RR_PASS_PROBE;
	b->tctx.figures = fi->pass == RR_PASS_PROBE ? c->trig : NULL;
	if (fi->probe || fi->waits)
		b->meter.ops->start(&b->meter);
	/* the victim's window: from its start to its last call's end */
	if (fi->v) {
		tv0 = rr_now_ns();
		rr_victim_go(fi->v);
	}
	snprintf(phase, sizeof(phase), "case %s: trigger %s", c->name,
		 b->trig->name);
	/*
	 * Test hook: hold the probe's pass here, inside its trigger phase,
	 * so that a test can signal a run there on any kernel, however
	 * short its walks. Not timed: the clock starts after it.
	 */
	if (fi->pass == RR_PASS_PROBE && hold &&
	    !rr_hook_env("RMAP_REPRO_TEST_HOLD_AT"))
		rr_sleep_ms(atoi(hold));
	tick = rr_ticker_start(phase, b->trig->how_far);
	/* what an error says comes from this firing, not an earlier one */
	res->trigger_how[0] = '\0';
	t0 = rr_now_ns();
	ferr = b->trig->fire(&b->tctx, res->trigger_how,
			     sizeof(res->trigger_how));
	dt = rr_now_ns() - t0;
	rr_ticker_stop(tick);
	b->tctx.fired++;
	b->tctx.pattern = NULL;
	if (fi->pass == RR_PASS_PROBE) {
		c->moved += b->tctx.moved;
		c->move_failed += b->tctx.failed;
	}
	c->pass_s[fi->pass] += secs(dt);
	c->passes[fi->pass]++;
	if (fi->v) {
		rr_victim_pause(fi->v);
		c->victim_with_s += secs(rr_now_ns() - tv0);
		fi->vlong_t0 = fi->v->long_t0;
		fi->vlong_ns = fi->v->long_ns;
		rr_victim_take(fi->v, &state(b, c)->victim);
		c->victim_errors += fi->v->errors;
		c->victim_truncated |= fi->v->truncated;
		fi->v->errors = 0;
	}
	return ferr;
}

/* One of the tasks the firing traced (all are, for a spawning victim). */
static bool ours(const struct firing *fi, int pid)
{
	int k;

	for (k = 0; k < (int)ARRAY_SIZE(fi->pids) && fi->pids[k]; k++)
		if (fi->pids[k] == pid)
			return true;
	return false;
}

static bool victims(const void *v, int pid)
{
	return rr_victim_is(v, pid);
}

/*
 * The firing's lock waits into the case: the victim's, in whichever pass
 * it ran, and the other tasks' in the probe's pass; and how much of the
 * victim's longest call they fill.
 */
static void take_waits(struct body *b, struct firing *fi)
{
	struct case_state *cs = state(b, fi->c);
	struct rr_case_result *c = fi->c;
	int vtid = fi->v ? fi->v->tid : 0;
	double ms;
	size_t i;

	for (i = 0; i < fi->ws.n; i++) {
		const struct rr_wait *w = &fi->ws.w[i];

		if (vtid && rr_victim_is(fi->v, w->pid))
			rr_wait_acc_add(&cs->wv, w);
		else if (fi->pass == RR_PASS_PROBE && ours(fi, w->pid))
			rr_wait_acc_add(&cs->ww, w);
	}
	c->waits_unpaired += fi->ws.unpaired;
	c->waits_spins += fi->ws.spins;
	c->ref_calls[!!vtid] += fi->ws.ref_calls;
	c->ref_giveups[!!vtid] += fi->ws.ref_giveups;
	c->waits_lost += fi->ws.lost;
	if (fi->pass == RR_PASS_PROBE)
		c->waits_walker.recorded = true;
	if (!vtid)
		return;
	c->waits_victim.recorded = true;
	c->wait_stack_hits += fi->stack.all;
	/* the same caller again adds up; another takes over if larger */
	if (fi->stack.hits && !strcmp(fi->stack.caller, c->wait_caller)) {
		c->wait_caller_hits += fi->stack.hits;
	} else if (fi->stack.hits > c->wait_caller_hits) {
		c->wait_caller_hits = fi->stack.hits;
		snprintf(c->wait_caller, sizeof(c->wait_caller), "%s",
			 fi->stack.caller);
	}
	ms = (double)fi->vlong_ns / NSEC_PER_MSEC;
	if (!fi->vlong_ns || ms <= c->stall_ms)
		return;
	c->stall_ms = ms;
	c->stall_waited_ms = rr_waits_within(&fi->ws, victims, fi->v,
					     fi->vlong_t0,
					     fi->vlong_t0 + fi->vlong_ns,
					     &c->stall_flags);
}

/*
 * Collect: the meter's intervals into the case's figures, what the
 * trigger reached, and the oracle (unless the trigger failed, ferr).
 */
static int collect_firing(struct body *b, struct firing *fi, int ferr,
			  unsigned long *counted, char *why, size_t len)
{
	struct rr_case_result *c = fi->c;
	struct rr_bprobe_result *pr = &fi->pres[0];
	size_t present1, swapped;
	int err, k;

	b->meter.ops->stop(&b->meter);
	rr_phase(b->res, "case %s: collect", c->name);
	err = b->meter.ops->collect(&b->meter, &fi->arm, fi->outs, fi->pres,
				    &fi->ic, why, len);
	if (!err && fi->waits)
		take_waits(b, fi);
	if (fi->pass == RR_PASS_VICTIM)
		return err;
	if (fi->pass == RR_PASS_COUNT) {
		if (!err)
			add_counts(b, c, &fi->ic, pr->counted);
		rr_iter_counts_free(&fi->ic);
		c->count_walks += pr->counted;
		return err;
	}
	c->intervals += pr->intervals;
	c->marks += pr->marks;
	c->unpaired += pr->unpaired;
	c->lost_events += pr->lost;
	run_losses(b, c, pr);
	c->part_unpaired += fi->part.unpaired;
	for (k = 0; k < RR_TASK_MAX; k++)
		c->walkers[k] += pr->by_task[k];
	*counted = pr->counted;
	if (!rr_pattern_residency(fi->p, &present1, &swapped)) {
		c->filled += fi->p->filled * (1 + fi->p->nr_pids);
		c->gone += fi->present0 > present1 ?
			   fi->present0 - present1 : 0;
	}
	if (!err && !ferr && b->oracle) {
		rr_phase(b->res, "case %s: verify", c->name);
		c->oracle.ran = true;
		err = b->ops.verify(b->r, decl(b, c), fi->p, &c->oracle, why,
				    len);
	}
	return err;
}

/*
 * --victim-alone: the victim's calls with nothing fired, on the pattern
 * about to be fired on, for its rate without walks.
 */
static void victim_alone(struct body *b, struct rr_case_result *c,
			 struct rr_victim *v)
{
	uint64_t t0 = rr_now_ns();

	rr_phase(b->res, "case %s: victim alone", c->name);
	rr_msg("case %s: the victim alone for %llu ms, no trigger", c->name,
	       b->res->victim_alone_ms);
	rr_victim_go(v);
	rr_sleep_ms((unsigned int)b->res->victim_alone_ms);
	rr_victim_pause(v);
	c->victim_alone_s += secs(rr_now_ns() - t0);
	rr_victim_take(v, &state(b, c)->victim_alone);
}

static int fire(struct body *b, struct rr_case_result *c,
		struct rr_pattern *p, enum rr_pass pass, struct rr_victim *v,
		unsigned long *counted, char *why, size_t len)
{
	struct firing fi = {
		.c = c, .p = p, .pass = pass, .v = v,
		.probe = pass == RR_PASS_PROBE || pass == RR_PASS_COUNT,
		.waits = b->res->waits &&
			 (pass == RR_PASS_PROBE || pass == RR_PASS_VICTIM),
	};
	const char *how = b->res->trigger_how;
	int err, ferr;

	rr_waits_init(&fi.ws);
	if (v && b->res->victim_alone_ms)
		victim_alone(b, c, v);
	err = arm_firing(b, &fi, why, len);
	if (err) {
		rr_waits_free(&fi.ws);
		return err;
	}
	ferr = trigger_once(b, &fi);
	if (fi.probe || fi.waits)
		err = collect_firing(b, &fi, ferr, counted, why, len);
	rr_waits_free(&fi.ws);
	if (ferr) {
		snprintf(why, len, "trigger %s: %s%s%s%s", b->trig->name,
			 strerror(-ferr), how[0] ? " (" : "", how,
			 how[0] ? ")" : "");
		return ferr;
	}
	return err;
}

/* Build (and for the KSM case merge) a fresh copy of the pattern. */
static int prepare(struct body *b, struct rr_case_result *c,
		   struct rr_pattern *p, unsigned int run, char *why,
		   size_t len)
{
	struct rr_result *res = b->res;
	const struct rr_case *d = decl(b, c);
	const char *name = c->name;
	struct rr_pattern_spec spec;
	uint64_t t0, t1;
	int err;

	memset(p, 0, sizeof(*p));
	p->memfd = -1;
	memset(&spec, 0, sizeof(spec));
	b->r->spec(d, &spec);
	err = rr_memory_floor(spec.pages * rr_page_size(), rr_cfg.min_free_mb,
			      why, len);
	if (err)
		return err;
	rr_phase(res, "case %s run %u: build", name, run);
	t0 = rr_now_ns();
	b->built++;
	err = b->ops.build(b->r, d, p, why, len);
	t1 = rr_now_ns();
	c->setup_s += secs(t1 - t0);
	c->pages = spec.pages;
	c->vmas = p->vmas;
	c->procs = 1 + p->nr_pids;
	if (err)
		return err;
	if (p->victim_op && !res->victim_call[0]) {
		snprintf(res->victim_call, sizeof(res->victim_call), "%s",
			 p->victim_op->call);
		snprintf(res->victim_what, sizeof(res->victim_what), "%s",
			 p->victim_op->what);
	}
	if (c->type == RR_PT_KSM) {
		rr_phase(res, "case %s run %u: merge", name, run);
		err = b->ops.merge(b->r, p, &c->ksm, why, len);
		c->merge_s += secs(rr_now_ns() - t1);
		if (!err && c->ksm.merging_pages <= 0) {
			snprintf(why, len,
				 "KSM merged no page: ksmd made %llu full scans in %.1f s; pages_shared %llu, pages_sharing %llu",
				 c->ksm.merge_scans,
				 (double)c->ksm.merge_ns / NSEC_PER_SEC,
				 c->ksm.pages_shared, c->ksm.pages_sharing);
			err = -EAGAIN;
		}
	}
	if (err || !b->ops.after_merge)
		return err;
	rr_phase(res, "case %s run %u: after merge", name, run);
	t0 = rr_now_ns();
	err = b->ops.after_merge(b->r, d, p, why, len);
	c->setup_s += secs(rr_now_ns() - t0);
	c->vmas = p->vmas;
	c->procs = 1 + p->nr_pids;
	return err;
}

/* Tear down what prepare() built, once. */
static void unprepare(struct body *b, struct rr_case_result *c,
		      struct rr_pattern *p)
{
	if (!b->built)
		return;
	b->built--;
	b->ops.teardown(b->r, decl(b, c), p);
}

/* "2/3", or "4 (one more, at most 9)" past the runs asked for */
static const char *run_label(struct body *b, unsigned int run)
{
	static char buf[64];

	if (run <= b->res->runs_asked)
		snprintf(buf, sizeof(buf), "%u/%u", run, b->res->runs_asked);
	else
		snprintf(buf, sizeof(buf), "%u (one more, at most %u)", run,
			 b->res->max_runs);
	return buf;
}

/* A pass of its own, on a fresh copy of the pattern, with no victim. */
static int extra_pass(struct body *b, struct rr_case_result *c,
		      struct rr_pattern *p, struct rr_victim *v,
		      unsigned int run, enum rr_pass pass, char *why,
		      size_t len)
{
	const char *name = c->name;
	const char *what = pass == RR_PASS_BARE ? "without a probe" :
			   "counting steps";
	unsigned long counted;
	int err;

	rr_victim_stop(v);
	unprepare(b, c, p);
	err = prepare(b, c, p, run, why, len);
	if (err)
		return err;
	rr_phase(b->res, "case %s run %u: trigger %s, %s", name, run,
		 b->trig->name, what);
	rr_msg("run %s, case %s: trigger %s (%s)", run_label(b, run),
	       name, b->trig->name, what);
	return fire(b, c, p, pass, NULL, &counted, why, len);
}

/* The judged samples this run added, from index first: its figure. */
static void run_figure(struct body *b, struct rr_case_result *c,
		       unsigned int run, size_t first)
{
	struct rr_samples *j = judged_samples(b, c);
	struct rr_run_fig *f;
	struct rr_stats st;

	if (!run || run > RR_MAX_RUNS)
		return;
	f = &c->run[run - 1];
	rr_stats_compute(j->v + first, j->n - first, &st);
	f->count = st.count;
	f->p50 = st.p50;
	f->max = st.max;
}

/*
 * The probe's pass, fired again on fresh pages while a trigger that may
 * miss has not reached the pattern (up to --attempts): 0, with *missed
 * set when a control stayed out of the trigger's reach; or -errno, why.
 */
static int probe_pass(struct body *b, struct rr_case_result *c,
		      struct rr_pattern *p, struct rr_victim *v,
		      unsigned int run, bool *missed, char *why, size_t len)
{
	const char *trig = b->trig->name;
	bool apart = b->res->victim == RR_VICTIM_APART;
	bool off = b->res->victim == RR_VICTIM_OFF;
	unsigned long counted = 0, attempt;
	int err;

	for (attempt = 1;; attempt++) {
		rr_phase(b->res, "case %s run %u: trigger %s", c->name, run,
			 trig);
		rr_msg("run %s, case %s: trigger %s%s", run_label(b, run),
		       c->name, trig, apart ? " (probe pass)" :
		       off ? "" : " with the victim");
		err = fire(b, c, p, RR_PASS_PROBE, apart || off ? NULL : v,
			   &counted, why, len);
		/*
		 * The trigger's bound passed before it reached the pattern
		 * (pressure: reclaim never took the control's pages): for a
		 * control, noted, with what the probe measured all the same.
		 */
		if (err == -ENODATA && c->role == RR_CONTROL) {
			snprintf(c->not_reached, sizeof(c->not_reached),
				 "run %u: %s", run, why);
			*missed = true;
			return 0;
		}
		if (err || counted || !b->trig->may_miss)
			return err;
		if (attempt == rr_cfg.attempts) {
			snprintf(why, len,
				 "%s did not reach the pattern in %lu attempts (see its reach)",
				 trig, attempt);
			/*
			 * A control may be out of the trigger's reach (the
			 * memfd, for compaction here): not an error of the
			 * run; the subject must be reached.
			 */
			if (c->role != RR_CONTROL)
				return -ENODATA;
			snprintf(c->not_reached, sizeof(c->not_reached),
				 "run %u: %s", run, why);
			*missed = true;
			return 0;
		}
		/* Missed: try again on fresh pages, placed elsewhere. */
		rr_victim_stop(v);
		unprepare(b, c, p);
		err = prepare(b, c, p, run, why, len);
		if (!err && !off)
			err = rr_victim_start(v, p->victim, p->victim_op);
		if (err)
			return err;
	}
}

/* The victim's own pass, on a fresh pattern (--victim apart). */
static int victim_pass(struct body *b, struct rr_case_result *c,
		       struct rr_pattern *p, struct rr_victim *v,
		       unsigned int run, char *why, size_t len)
{
	const char *trig = b->trig->name;
	unsigned long counted = 0;
	int err;

	rr_victim_stop(v);
	unprepare(b, c, p);
	err = prepare(b, c, p, run, why, len);
	if (!err)
		err = rr_victim_start(v, p->victim, p->victim_op);
	rr_phase(b->res, "case %s run %u: trigger %s, victim pass", c->name,
		 run, trig);
	rr_msg("run %s, case %s: trigger %s (victim pass)",
	       run_label(b, run), c->name, trig);
	if (!err)
		err = fire(b, c, p, RR_PASS_VICTIM, v, &counted, why, len);
	return err;
}

static int run_case(struct body *b, struct rr_case_result *c,
		    unsigned int run)
{
	struct rr_result *res = b->res;
	struct rr_victim v = { 0 };
	struct rr_pattern p;
	struct rr_kmsg km;
	bool missed = false;
	char why[512] = "";
	size_t first = judged_samples(b, c)->n;
	int err;

	c->ran = true;
	rr_kmsg_open(&km);
	rr_msg("run %s, case %s: build%s", run_label(b, run), c->name,
	       c->type == RR_PT_KSM ? " and merge" : "");
	err = prepare(b, c, &p, run, why, sizeof(why));
	if (err)
		goto out;
	if (res->victim != RR_VICTIM_OFF) {
		err = rr_victim_start(&v, p.victim, p.victim_op);
		if (err) {
			snprintf(why, sizeof(why), "victim thread: %s",
				 strerror(-err));
			goto out;
		}
	}
	err = probe_pass(b, c, &p, &v, run, &missed, why, sizeof(why));
	if (!err && res->victim == RR_VICTIM_APART && !missed)
		err = victim_pass(b, c, &p, &v, run, why, sizeof(why));
	if (!err && !missed && res->probe_cost)
		err = extra_pass(b, c, &p, &v, run, RR_PASS_BARE, why,
				 sizeof(why));
	/*
	 * Steps of anon_vma walks, and of file walks where the kernel's file
	 * tree iterators were found (iters.h).
	 */
	if (!err && !missed && res->iterations &&
	    (c->type != RR_PT_FILE || res->iter_syms.found[1]))
		err = extra_pass(b, c, &p, &v, run, RR_PASS_COUNT, why,
				 sizeof(why));
	if (!err && !missed)
		c->runs++;
out:
	rr_victim_stop(&v);
	unprepare(b, c, &p);
	rr_kmsg_collect(&km, &c->klog);
	/* The kernel refuses the case (a reproducer said so): a skip. */
	if (err == -EOPNOTSUPP && !c->refused[0])
		snprintf(c->refused, sizeof(c->refused), "%s", why);
	else if (err && !c->error[0])
		snprintf(c->error, sizeof(c->error), "run %u: %s", run, why);
	run_figure(b, c, run, first);
	publish(b, c);
	return err;
}

/* A case's result, named and placed as declared. */
static void case_init(const struct rr_repro *r, struct rr_case_result *c,
		      const struct rr_case *d)
{
	const char *what = rr_case_declared_what(r, d);

	snprintf(c->name, sizeof(c->name), "%s",
		 d->name ? d->name : rr_page_type_name(d->type));
	c->type = d->type;
	c->role = d->role;
	if (what)
		snprintf(c->what, sizeof(c->what), "%s", what);
}

/* Does an oracle declared for `list` (NULL: every trigger) judge t? */
static bool judges(const int *list, int t)
{
	if (!list)
		return true;
	for (; *list; list++)
		if (*list == t)
			return true;
	return false;
}

/* A reading of the host's CPU pressure (mm/psi.h) and its time. */
struct psi_mark {
	unsigned long long us, ns;
	int err;
};

static void psi_mark(struct psi_mark *m)
{
	m->err = rr_psi_cpu_some_us(&m->us);
	m->ns = rr_now_ns();
}

/*
 * How busy the host was over run (from a to now): the share of its wall
 * time in which some task waited for a CPU, or why it is not known.
 */
static void psi_run(struct rr_result *res, unsigned int run,
		    const struct psi_mark *a)
{
	struct psi_mark b;

	psi_mark(&b);
	res->cpu_pressure[run - 1] = -1;
	if (a->err || b.err) {
		snprintf(res->cpu_pressure_why, sizeof(res->cpu_pressure_why),
			 "/proc/pressure/cpu: %s",
			 (a->err ? a->err : b.err) == -EOPNOTSUPP ?
			 "PSI is off (psi=0)" :
			 strerror(-(a->err ? a->err : b.err)));
		return;
	}
	if (b.ns > a->ns && b.us >= a->us)
		res->cpu_pressure[run - 1] = 100.0 * (b.us - a->us) * 1000 /
					     (b.ns - a->ns);
}

/*
 * After each run: a run that lost events is made again with a larger
 * buffer (verdict.h); runs that disagree get another. Says so.
 */
static void after_run(struct body *b, unsigned int run)
{
	struct rr_result *res = b->res;
	struct rr_run_judgement j;
	struct rr_tally t;

	rr_run_judge(res, run - 1, &j);
	if (j.lossy_case >= 0 && b->meter.ops->grow &&
	    !b->meter.ops->grow(&b->meter, &res->buffer_kb))
		rr_msg("run %u lost figures (%s case): the trace buffer is now %llu KiB per CPU",
		       run, res->cases[j.lossy_case].name, res->buffer_kb);
	if (run < res->runs_asked || !rr_runs_more(res))
		return;
	rr_runs_tally(res, &t);
	rr_msg("after %u runs: %u reproduced, %u not, %u incomplete, %u with nothing to compare: one more run (at most %u)",
	       run, t.reproduced, t.not_reproduced, t.incomplete, t.unjudged,
	       res->max_runs);
}

/* The rank test and the ratio of medians beside the verdict. */
static void evidence(struct body *b)
{
	const double *v[RR_MAX_CASES];
	size_t n[RR_MAX_CASES];
	int i;

	for (i = 0; i < b->res->nr_cases; i++) {
		struct rr_samples *s = judged_samples(b, &b->res->cases[i]);

		v[i] = s->v;
		n[i] = s->n;
	}
	rr_evidence_compute(b->res, v, n);
}

void rr_measure(const struct rr_repro *r, struct rr_result *res,
		const struct rr_trigger_ops *trig,
		const struct rr_meter_ops *meter)
{
	struct body b = { .r = r, .res = res, .trig = trig };
	uint64_t start = rr_now_ns();
	char why[512] = "";
	unsigned int run;
	int i, err;

	if (r->ops)
		b.ops = *r->ops;
	if (!b.ops.setup)
		b.ops.setup = rr_default_setup;
	if (!b.ops.build)
		b.ops.build = rr_default_build;
	if (!b.ops.merge)
		b.ops.merge = rr_default_merge;
	if (!b.ops.teardown)
		b.ops.teardown = rr_default_teardown;
	b.meter.ops = meter;
	b.oracle = b.ops.verify && judges(b.ops.oracle_triggers, res->trigger);
	b.tctx.failures_are_data = b.oracle;
	b.meter.res = res;
	res->anywhere = trig->anywhere;
	res->buffer_kb = rr_cfg.buffer_kb;
	if (!res->runs_asked)
		res->runs_asked = rr_cfg.runs;
	res->max_runs = rr_max_runs(res->runs_asked, res->max_runs);

	/* The cases exist from here on: a report then says what ran. */
	res->victim = rr_cfg.victim;
	res->victim_alone_ms = rr_cfg.victim_alone_ms;
	if (res->victim == RR_VICTIM_AUTO)
		res->victim = trig->may_miss ?
			      RR_VICTIM_SAME : RR_VICTIM_APART;
	res->nr_cases = r->nr_cases;
	res->policy = r->policy;
	res->judge_calls = r->judge_calls;
	for (i = 0; i < r->nr_cases; i++)
		case_init(r, &res->cases[i], &r->cases[i]);
	err = setup(&b, why, sizeof(why));
	if (err) {
		rr_set_verdict(res, err == -ENODEV ? RR_SKIP : RR_ERROR,
			       "setup: %s", why);
		goto out;
	}
	for (run = 1; run <= res->max_runs; run++) {
		struct psi_mark psi;

		b.run = run;
		res->runs = run;
		psi_mark(&psi);
		for (i = 0; i < r->nr_cases; i++) {
			/* A failed case is not run again: its error stands. */
			if (res->cases[i].error[0] || res->cases[i].refused[0])
				continue;
			run_case(&b, &res->cases[i], run);
		}
		psi_run(res, run, &psi);
		after_run(&b, run);
		if (run >= res->runs_asked && !rr_runs_more(res))
			break;
	}
	evidence(&b);
	rr_verdict_compute(res);
out:
	rr_phase(res, "end");
	meter->close(&b.meter);
	for (i = 0; i < RR_MAX_CASES; i++) {
		rr_samples_free(&b.cs[i].lat);
		rr_samples_free(&b.cs[i].victim);
		rr_samples_free(&b.cs[i].victim_alone);
		rr_samples_free(&b.cs[i].count);
		rr_samples_free(&b.cs[i].calls);
		rr_samples_free(&b.cs[i].part);
		rr_samples_free(&b.cs[i].walk_steps);
		rr_samples_free(&b.cs[i].item_steps);
		for (int k = 0; k < RR_MAX_CROSS; k++)
			rr_samples_free(&b.cs[i].cross[k]);
		rr_wait_acc_free(&b.cs[i].wv);
		rr_wait_acc_free(&b.cs[i].ww);
	}
	res->total_s = secs(rr_now_ns() - start);
}

void rr_body(const struct rr_repro *r, struct rr_result *res)
{
	rr_measure(r, res, rr_trigger_get(res->trigger), &rr_meter_trace);
}
