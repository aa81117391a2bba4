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

#include "bracket.h"
#include "iters.h"
#include "journal.h"
#include "ksm.h"
#include "memcg.h"
#include "pattern.h"
#include "repro.h"
#include "swap.h"
#include "sysinfo.h"
#include "trace.h"
#include "trigger.h"
#include "util.h"
#include "victim.h"

struct case_state {
	struct rr_samples lat, victim, count;
	struct rr_samples walk_steps, item_steps;	/* --iterations */
	struct rr_samples cross[RR_MAX_CROSS];
};

struct body {
	const struct rr_repro *r;
	struct rr_result *res;
	struct rr_trace trace;
	struct rr_memcg cg;
	struct rr_trigger_ctx tctx;
	struct case_state cs[RR_PT_MAX];
};

static double secs(uint64_t ns)
{
	return (double)ns / NSEC_PER_SEC;
}

static int setup(struct body *b, char *why, size_t len)
{
	struct rr_result *res = b->res;
	struct rr_pattern_spec spec;
	struct rr_swap swap;
	char name[64];
	size_t vmas = 0;
	int err, i;

	rr_read_keyed("/proc/vmstat", "oom_kill", &res->oom_kill_before);
	rr_phase(res, "setup: tracing");
	rr_trace_sweep();
	/* kprobes first: the journal then removes them after the instance */
	rr_probe_sweep();
	err = rr_probe_prepare(&res->probe, why, len);
	if (!err && res->iterations)
		err = rr_iters_prepare(&res->iter_items,
				       res->iter_items_note,
				       sizeof(res->iter_items_note), why, len);
	for (i = 0; !err && i < res->nr_cross; i++)
		err = rr_probe_prepare(&res->cross[i], why, len);
	if (!err)
		err = rr_trace_open(&b->trace, rr_cfg.buffer_kb, why, len);
	if (!err)
		err = rr_probe_prepare_instance(&res->probe, &b->trace, why,
						len);
	for (i = 0; !err && i < res->nr_cross; i++)
		err = rr_probe_prepare_instance(&res->cross[i], &b->trace,
						why, len);
	if (err)
		return err;
	snprintf(res->instance, sizeof(res->instance), "%s", b->trace.name);

	if (res->trigger == RR_TRIG_RECLAIM) {
		rr_phase(res, "setup: memory cgroup");
		snprintf(name, sizeof(name), "rmap-repro-%d", getpid());
		err = rr_memcg_create(&b->cg, name, why, len);
		if (!err)
			err = rr_memcg_join(&b->cg);
		if (err) {
			if (!why[0])
				snprintf(why, len, "cannot join %s: %s",
					 b->cg.path, strerror(-err));
			return err;
		}
		snprintf(res->memcg, sizeof(res->memcg), "%s %s",
			 rr_memcg_ver_name(b->cg.ver), b->cg.path);
		rr_phase(res, "setup: swap");
		err = rr_swap_ensure(&swap, rr_cfg.swap_mb, why, len);
		if (err)
			return err;
		rr_swap_describe(&swap, res->swap, sizeof(res->swap));
		b->tctx.cg = &b->cg;
		/*
		 * Ask for everything the group holds. Reclaim deactivates
		 * active pages only once the inactive list runs low, and
		 * KSM pages sit on the active list after merging: a
		 * smaller target never reaches them. The group holds only
		 * this process, so nothing else pays.
		 */
		b->tctx.reclaim_bytes = RR_RECLAIM_ALL;
	}
	b->tctx.compact_node = strcmp(rr_cfg.compact_node, "all") ?
			       atol(rr_cfg.compact_node) : -1;

	for (i = 0; i < b->r->nr_cases; i++) {
		if (b->r->cases[i] == RR_PT_KSM) {
			rr_phase(res, "setup: KSM");
			err = rr_ksm_setup(why, len);
			if (err)
				return err;
		}
		b->r->spec(b->r->cases[i], &spec);
		if (rr_pattern_expected_vmas(&spec) > vmas)
			vmas = rr_pattern_expected_vmas(&spec);
	}
	return rr_pattern_map_count(vmas, why, len);
}

/* Recompute the shared statistics of a case from its samples. */
static void publish(struct body *b, struct rr_case_result *c)
{
	struct case_state *cs = &b->cs[c->type];

	int i;

	rr_stats_compute(cs->lat.v, cs->lat.n, &c->latency);
	rr_stats_compute(cs->victim.v, cs->victim.n, &c->victim);
	for (i = 0; i < b->res->nr_cross; i++)
		rr_stats_compute(cs->cross[i].v, cs->cross[i].n, &c->cross[i]);
	rr_stats_compute(cs->count.v, cs->count.n, &c->count_lat);
	rr_stats_compute(cs->walk_steps.v, cs->walk_steps.n, &c->walk_steps);
	rr_stats_compute(cs->item_steps.v, cs->item_steps.n, &c->item_steps);
}

/* Add one counting pass's step counts to the case. */
static void add_counts(struct body *b, struct rr_case_result *c,
		       struct rr_iter_counts *ic, unsigned long measured)
{
	struct case_state *cs = &b->cs[c->type];
	unsigned long long walks = ic->walks > measured ? ic->walks : measured;
	size_t seen;

	c->iter_first += ic->first;
	c->iter_next += ic->next;
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

/*
 * One firing of the trigger on a built pattern, in one kind of pass: the
 * probe's records its events (and those of the cross-checking probes);
 * the counting pass records the walks and counts their steps; the bare
 * pass records nothing. With v, the victim toggles during the trigger.
 */
static int fire(struct body *b, struct rr_case_result *c,
		struct rr_pattern *p, enum rr_pass pass, struct rr_victim *v,
		unsigned long *counted, char *why, size_t len)
{
	struct rr_result *res = b->res;
	struct case_state *cs = &b->cs[c->type];
	bool probe = pass == RR_PASS_PROBE || pass == RR_PASS_COUNT;
	struct rr_iter_counts ic = { 0 };
	struct rr_bprobe_result pres[1 + RR_MAX_CROSS];
	struct rr_bprobe bps[1 + RR_MAX_CROSS], *bpp[1 + RR_MAX_CROSS];
	struct rr_samples *outs[1 + RR_MAX_CROSS];
	int nprobes = pass == RR_PASS_PROBE ? 1 + res->nr_cross : 1, k;
	const char *hold = getenv("RMAP_REPRO_TEST_HOLD_MS");
	struct rr_ticker *tick;
	size_t present0 = 0, present1, swapped;
	char filter[128], phase[128];
	uint64_t t0, dt;
	int pids[2], npids = 0, err = 0, ferr;

	pids[npids++] = getpid();
	if (v)
		pids[npids++] = v->tid;
	rr_pid_filter(pids, npids, filter, sizeof(filter));
	if (probe) {
		err = rr_trace_off(&b->trace);
		if (!err)
			err = rr_trace_disable_all(&b->trace);
		if (!err)
			err = rr_trace_reset(&b->trace);
		if (err) {
			snprintf(why, len, "cannot reset the tracefs instance");
			return err;
		}
		/* The chosen probe first, then the cross-checking ones. */
		for (k = 0; k < nprobes && !err; k++) {
			const struct rr_probe_setup *ps =
				k ? &res->cross[k - 1] : &res->probe;

			memset(&pres[k], 0, sizeof(pres[k]));
			bpp[k] = &bps[k];
			outs[k] = k ? &cs->cross[k - 1] :
				  pass == RR_PASS_COUNT ? &cs->count : &cs->lat;
			rr_bprobe_init(&bps[k], b->trace.tep, ps->bracket);
			bps[k].fns = ps->fns;
			memcpy(bps[k].pids, pids, npids * sizeof(*pids));
			bps[k].npids = npids;
			err = rr_probe_set_pids(ps, &b->trace, pids, npids);
			if (err) {
				snprintf(why, len, "cannot set set_ftrace_pid");
				return err;
			}
			/*
			 * Compaction acts on all memory: only intervals
			 * that marked the pattern count. Reclaim and
			 * migration act on our group and our pages.
			 */
			err = rr_bprobe_arm(&bps[k], &b->trace, filter,
					    rr_page_type_name(c->type),
					    (unsigned long)p->addr,
					    rr_trigger_may_miss(res->trigger) ?
					    (unsigned long)p->addr + p->len : 0,
					    why, len);
		}
		if (!err && pass == RR_PASS_COUNT)
			err = rr_iters_arm(&b->trace, getpid(), c->type,
					   &res->iter_items,
					   res->iter_items_note,
					   sizeof(res->iter_items_note), why,
					   len);
		if (err) {
			if (!why[0])
				snprintf(why, len, "cannot arm the hist triggers");
			return err;
		}
		if (rr_pattern_residency(p, &present0, &swapped))
			present0 = 0;
	}
	b->tctx.pattern = p;
	b->tctx.moved = b->tctx.failed = 0;

	if (probe)
		rr_trace_on(&b->trace);
	if (v)
		rr_victim_go(v);
	snprintf(phase, sizeof(phase), "case %s: trigger %s",
		 rr_page_type_name(c->type), rr_trigger_names[res->trigger]);
	/*
	 * Test hook: hold the probe's pass here, inside its trigger phase,
	 * so that a test can signal a run there on any kernel, however
	 * short its walks. Not timed: the clock starts after it.
	 */
	if (pass == RR_PASS_PROBE && hold)
		rr_sleep_ms(atoi(hold));
	tick = rr_ticker_start(phase);
	t0 = rr_now_ns();
	ferr = rr_trigger_fire(res->trigger, &b->tctx, res->trigger_how,
			       sizeof(res->trigger_how));
	dt = rr_now_ns() - t0;
	rr_ticker_stop(tick);
	b->tctx.pattern = NULL;
	if (pass == RR_PASS_PROBE) {
		c->moved += b->tctx.moved;
		c->move_failed += b->tctx.failed;
	}
	c->pass_s[pass] += secs(dt);
	c->passes[pass]++;
	if (v) {
		rr_victim_pause(v);
		rr_victim_take(v, &cs->victim);
		c->victim_errors += v->errors;
		c->victim_truncated |= v->truncated;
		v->errors = 0;
	}
	if (probe) {
		rr_trace_off(&b->trace);
		rr_phase(res, "case %s: collect", rr_page_type_name(c->type));
		err = rr_bprobe_collect_many(bpp, nprobes, &b->trace, outs,
					     pres);
		if (pass == RR_PASS_COUNT) {
			if (!err)
				err = rr_iters_read(&b->trace, getpid(),
						    c->type, res->iter_items,
						    &ic);
			if (!err)
				add_counts(b, c, &ic, pres[0].counted);
			rr_iter_counts_free(&ic);
			c->count_walks += pres[0].counted;
			if (err)
				snprintf(why, len, "cannot read the step counts");
			goto done;
		}
		c->intervals += pres[0].intervals;
		c->marks += pres[0].marks;
		c->unpaired += pres[0].unpaired;
		c->lost_events += pres[0].lost;
		*counted = pres[0].counted;
		if (!rr_pattern_residency(p, &present1, &swapped)) {
			c->filled += p->filled;
			c->gone += present0 > present1 ? present0 - present1 : 0;
		}
		if (err)
			snprintf(why, len, "cannot read the trace buffer");
	}
done:
	if (ferr) {
		snprintf(why, len, "trigger %s: %s",
			 rr_trigger_names[res->trigger], strerror(-ferr));
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
	const char *name = rr_page_type_name(c->type);
	struct rr_pattern_spec spec;
	uint64_t t0, t1;
	int err;

	b->r->spec(c->type, &spec);
	err = rr_memory_floor(spec.pages * rr_page_size(), rr_cfg.min_free_mb,
			      why, len);
	if (err) {
		memset(p, 0, sizeof(*p));
		p->memfd = -1;
		return err;
	}
	rr_phase(res, "case %s run %u: build", name, run);
	t0 = rr_now_ns();
	err = rr_pattern_build(p, &spec, why, len);
	t1 = rr_now_ns();
	c->setup_s += secs(t1 - t0);
	c->pages = spec.pages;
	c->vmas = p->vmas;
	if (err || c->type != RR_PT_KSM)
		return err;

	rr_phase(res, "case %s run %u: merge", name, run);
	err = rr_ksm_merge(p->filled, &c->ksm, why, len);
	c->merge_s += secs(rr_now_ns() - t1);
	if (!err && c->ksm.merging_pages <= 0) {
		snprintf(why, len, "KSM merged no page");
		err = -EAGAIN;
	}
	return err;
}

static void unprepare(struct rr_case_result *c, struct rr_pattern *p)
{
	rr_pattern_free(p);
	if (c->type == RR_PT_KSM)
		rr_ksm_reset();
}

/* A pass of its own, on a fresh copy of the pattern, with no victim. */
static int extra_pass(struct body *b, struct rr_case_result *c,
		      struct rr_pattern *p, struct rr_victim *v,
		      unsigned int run, enum rr_pass pass, char *why,
		      size_t len)
{
	const char *name = rr_page_type_name(c->type);
	const char *what = pass == RR_PASS_BARE ? "without a probe" :
			   "counting steps";
	unsigned long counted;
	int err;

	rr_victim_stop(v);
	unprepare(c, p);
	err = prepare(b, c, p, run, why, len);
	if (err)
		return err;
	rr_phase(b->res, "case %s run %u: trigger %s, %s", name, run,
		 rr_trigger_names[b->res->trigger], what);
	rr_msg("run %u/%llu, case %s: trigger %s (%s)", run, rr_cfg.runs,
	       name, rr_trigger_names[b->res->trigger], what);
	return fire(b, c, p, pass, NULL, &counted, why, len);
}

static int run_case(struct body *b, struct rr_case_result *c,
		    unsigned int run)
{
	struct rr_result *res = b->res;
	const char *name = rr_page_type_name(c->type);
	const char *trig = rr_trigger_names[res->trigger];
	bool apart = res->victim == RR_VICTIM_APART;
	bool off = res->victim == RR_VICTIM_OFF;
	struct rr_victim v = { 0 };
	struct rr_pattern p;
	unsigned long counted = 0, attempt;
	char why[512] = "";
	int err;

	c->ran = true;
	rr_msg("run %u/%llu, case %s: build%s", run, rr_cfg.runs, name,
	       c->type == RR_PT_KSM ? " and merge" : "");
	err = prepare(b, c, &p, run, why, sizeof(why));
	if (err)
		goto out;
	if (!off) {
		err = rr_victim_start(&v, p.victim);
		if (err) {
			snprintf(why, sizeof(why), "victim thread: %s",
				 strerror(-err));
			goto out;
		}
	}
	for (attempt = 1;; attempt++) {
		rr_phase(res, "case %s run %u: trigger %s", name, run, trig);
		rr_msg("run %u/%llu, case %s: trigger %s%s", run, rr_cfg.runs,
		       name, trig, apart ? " (probe pass)" :
		       off ? "" : " with the victim");
		err = fire(b, c, &p, RR_PASS_PROBE, apart || off ? NULL : &v,
			   &counted, why, sizeof(why));
		if (err || counted || !rr_trigger_may_miss(res->trigger))
			break;
		if (attempt == rr_cfg.attempts) {
			snprintf(why, sizeof(why),
				 "%s did not reach the pattern in %lu attempts (see its reach)",
				 trig, attempt);
			err = -ENODATA;
			break;
		}
		/* Missed: try again on fresh pages, placed elsewhere. */
		rr_victim_stop(&v);
		unprepare(c, &p);
		err = prepare(b, c, &p, run, why, sizeof(why));
		if (!err && !off)
			err = rr_victim_start(&v, p.victim);
		if (err)
			break;
	}
	if (!err && apart) {
		/* The victim gets its own pass, on a fresh pattern. */
		rr_victim_stop(&v);
		unprepare(c, &p);
		err = prepare(b, c, &p, run, why, sizeof(why));
		if (!err)
			err = rr_victim_start(&v, p.victim);
		rr_phase(res, "case %s run %u: trigger %s, victim pass", name,
			 run, trig);
		rr_msg("run %u/%llu, case %s: trigger %s (victim pass)", run,
		       rr_cfg.runs, name, trig);
		if (!err)
			err = fire(b, c, &p, RR_PASS_VICTIM, &v, &counted, why,
				   sizeof(why));
	}
	if (!err && res->probe_cost)
		err = extra_pass(b, c, &p, &v, run, RR_PASS_BARE, why,
				 sizeof(why));
	/* Steps of anon_vma walks: the file walk has no anon_vma tree. */
	if (!err && res->iterations && c->type != RR_PT_FILE)
		err = extra_pass(b, c, &p, &v, run, RR_PASS_COUNT, why,
				 sizeof(why));
	if (!err)
		c->runs++;
out:
	rr_victim_stop(&v);
	unprepare(c, &p);
	if (err && !c->error[0])
		snprintf(c->error, sizeof(c->error), "run %u: %s", run, why);
	publish(b, c);
	return err;
}

void rr_body(const struct rr_repro *r, struct rr_result *res)
{
	struct body b = { .r = r, .res = res };
	uint64_t start = rr_now_ns();
	char why[512] = "";
	unsigned int run;
	int i, err;

	/* The cases exist from here on: a report then says what ran. */
	res->victim = rr_cfg.victim;
	if (res->victim == RR_VICTIM_AUTO)
		res->victim = rr_trigger_may_miss(res->trigger) ?
			      RR_VICTIM_SAME : RR_VICTIM_APART;
	res->nr_cases = r->nr_cases;
	for (i = 0; i < r->nr_cases; i++)
		res->cases[i].type = r->cases[i];
	err = setup(&b, why, sizeof(why));
	if (err) {
		rr_set_verdict(res, err == -ENODEV ? RR_SKIP : RR_ERROR,
			       "setup: %s", why);
		goto out;
	}
	for (run = 1; run <= rr_cfg.runs; run++) {
		for (i = 0; i < r->nr_cases; i++) {
			/* A failed case is not run again: its error stands. */
			if (res->cases[i].error[0])
				continue;
			run_case(&b, &res->cases[i], run);
		}
	}
	rr_verdict_compute(res);
out:
	rr_phase(res, "end");
	rr_trace_close(&b.trace);
	for (i = 0; i < RR_PT_MAX; i++) {
		rr_samples_free(&b.cs[i].lat);
		rr_samples_free(&b.cs[i].victim);
		rr_samples_free(&b.cs[i].count);
		rr_samples_free(&b.cs[i].walk_steps);
		rr_samples_free(&b.cs[i].item_steps);
		for (int k = 0; k < RR_MAX_CROSS; k++)
			rr_samples_free(&b.cs[i].cross[k]);
	}
	res->total_s = secs(rr_now_ns() - start);
}
