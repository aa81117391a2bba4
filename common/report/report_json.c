// SPDX-License-Identifier: GPL-2.0
#include "lib/json.h"
#include "lib/util.h"
#include "model/kline.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "probe/iters.h"
#include "report/report.h"
#include "trigger/trigger.h"

/*
 * The summary of a set of samples: latencies (ms, 4 decimals) with p90
 * and p99, or counts (whole numbers, a mean to one decimal).
 */
static void summary(struct rr_json *j, const struct rr_stats *s,
		    bool latency)
{
	const struct {
		const char *name;
		double v;
		bool latency_only;
		int count_digits;
	} f[] = {
		{ "min", s->min }, { "mean", s->mean, false, 1 },
		{ "p50", s->p50 }, { "p90", s->p90, true }, { "p99", s->p99, true },
		{ "max", s->max },
	};
	size_t i;

	json_uint(j, "count", s->count);
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (f[i].latency_only && !latency)
			continue;
		if (!s->count)
			json_null(j, f[i].name);
		else
			json_num(j, f[i].name, f[i].v,
				 latency ? 4 : f[i].count_digits);
	}
}

/* Counts (not latencies): no histogram. */
static void counts(struct rr_json *j, const char *key,
		   const struct rr_stats *s)
{
	json_obj_begin(j, key);
	summary(j, s, false);
	json_obj_end(j);
}

static void stats(struct rr_json *j, const char *key,
		  const struct rr_stats *s)
{
	int b;

	json_obj_begin(j, key);
	summary(j, s, true);
	json_arr_begin(j, "log2_histogram");
	for (b = 0; b < RR_HIST_BUCKETS; b++) {
		double lo, hi;

		if (!s->hist[b])
			continue;
		rr_hist_bounds(b, &lo, &hi);
		json_obj_begin(j, NULL);
		json_num(j, "lo_us", lo, 0);
		json_num(j, "hi_us", hi, 0);
		json_uint(j, "count", s->hist[b]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* Each run's judged figure, and what its probe pass may have missed. */
static void per_run(struct rr_json *j, const struct rr_result *r,
		    const struct rr_case_result *c)
{
	unsigned int i;

	json_arr_begin(j, "per_run");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++) {
		const struct rr_run_fig *f = &c->run[i];

		json_obj_begin(j, NULL);
		json_uint(j, "run", i + 1);
		json_uint(j, "count", f->count);
		if (f->count) {
			json_num(j, "p50", f->p50, 4);
			json_num(j, "max", f->max, 4);
		} else {
			json_null(j, "p50");
			json_null(j, "max");
		}
		json_uint(j, "lost_events", f->lost);
		json_uint(j, "unpaired_events", f->unpaired);
		json_uint(j, "counter_read_errors", f->read_errors);
		json_bool(j, "incomplete", rr_run_fig_lossy(r, f));
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The judged samples, thinned to the cap (signif.h). */
static void samples(struct rr_json *j, const struct rr_result *r,
		    const struct rr_case_result *c)
{
	unsigned int i;

	json_obj_begin(j, "samples_ms");
	json_str(j, "of", r->judge_calls ? "trigger_call_ms" : "latency_ms");
	json_uint(j, "count", rr_judged(r, c)->count);
	json_uint(j, "kept", c->kept);
	json_uint(j, "cap", RR_KEEP_SAMPLES);
	json_str(j, "kept_how",
		 "every sample, sorted, up to the cap; past it, the cap's number of evenly spaced order statistics (the smallest and the largest among them)");
	json_arr_begin(j, "values");
	for (i = 0; i < c->kept; i++)
		json_num(j, NULL, c->keep[i], 6);
	json_arr_end(j);
	json_obj_end(j);
}

/* A control's: the subject's samples against its own (verdict.h). */
static void test(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	const struct rr_case_test *t = &c->test;
	const struct rr_case_result *s = rr_result_subject(r);

	if (!t->ran || !s) {
		json_null(j, "test");
		return;
	}
	json_obj_begin(j, "test");
	json_str(j, "subject", s->name);
	json_str(j, "test",
		 "Mann-Whitney U, one-sided: the subject's samples longer than this case's");
	json_str(j, "method", rr_mwu_method_names[t->mwu.method]);
	json_uint(j, "n_subject", t->mwu.nx);
	json_uint(j, "n_control", t->mwu.ny);
	json_num(j, "u", t->mwu.u, 1);
	json_sig(j, "p", t->mwu.p_greater, 4);
	json_sig(j, "p_two_sided", t->mwu.p_two, 4);
	json_sig(j, "p_min", t->mwu.p_min, 4);
	json_num(j, "alpha", RR_ALPHA, 2);
	json_bool(j, "significant", t->mwu.p_greater < RR_ALPHA);
	if (t->ratio.defined) {
		json_sig(j, "ratio_of_medians", t->ratio.ratio, 6);
		json_arr_begin(j, "ratio_ci95");
		json_sig(j, NULL, t->ratio.lo, 6);
		json_sig(j, NULL, t->ratio.hi, 6);
		json_arr_end(j);
	} else {
		json_null(j, "ratio_of_medians");
		json_null(j, "ratio_ci95");
	}
	json_uint(j, "bootstrap_resamples", t->ratio.iters);
	json_obj_end(j);
}

/* What the verdict of a case rests on: its runs, samples and test. */
static void verdict_figures(struct rr_json *j, const struct rr_result *r,
			    const struct rr_case_result *c)
{
	per_run(j, r, c);
	samples(j, r, c);
	test(j, r, c);
}

/* A figure that may not exist (< 0): the number, or null. */
static void num_or_null(struct rr_json *j, const char *key, double v,
			int decimals)
{
	if (v >= 0)
		json_num(j, key, v, decimals);
	else
		json_null(j, key);
}

/*
 * A case's object of each trigger that keeps one (case_key): the run's
 * trigger writes it where it has something to say, the others' are null.
 */
static void trigger_case(struct rr_json *j, const struct rr_result *r,
			 const struct rr_case_result *c)
{
	const struct rr_trigger_ops *ops;
	char text[1024];
	int t;

	rr_for_each_trigger(t, ops) {
		if (!ops->case_key)
			continue;
		text[0] = '\0';
		if (t == r->trigger)
			ops->case_summary(r, c, text, sizeof(text));
		if (!text[0]) {
			json_null(j, ops->case_key);
			continue;
		}
		json_obj_begin(j, ops->case_key);
		if (ops->case_json)
			ops->case_json(r, c, j);
		json_str(j, "text", text);
		json_obj_end(j);
	}
}

/* The same for the run's object of each trigger that keeps one (key). */
static void trigger_own(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_trigger_ops *ops;
	char text[2048];
	int t;

	rr_for_each_trigger(t, ops) {
		if (!ops->key)
			continue;
		if (t != r->trigger) {
			json_null(j, ops->key);
			continue;
		}
		json_obj_begin(j, ops->key);
		if (ops->json)
			ops->json(r, j);
		ops->summary(r, text, sizeof(text));
		json_str(j, "text", text);
		json_obj_end(j);
	}
}

/* Which probe measured the case, and what one interval is. */
static void probe_detail(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_bracket_def *d = &rr_brackets[r->probe.bracket];

	json_obj_begin(j, "probe_detail");
	json_str(j, "events", r->probe.events);
	json_str(j, "clock", rr_probe_clock(r->probe.bracket));
	json_str(j, "interval", d->what);
	json_str(j, "bounds", d->bounds);
	json_bool(j, "walk_level", d->walk);
	json_str(j, "buffer", d->poll_counter ? "none (polled)" :
		 r->probe.top ? "top-level" : r->instance);
	json_str(j, "chosen_because", r->probe_why[0] ? r->probe_why :
		 "the best probe this kernel offers");
	json_obj_end(j);
}

/* A string, or null when it is empty. */
static void str_or_null(struct rr_json *j, const char *key, const char *s)
{
	if (s[0])
		json_str(j, key, s);
	else
		json_null(j, key);
}

/* The case's name, role and probe, and whether it ran. */
static void case_head(struct rr_json *j, const struct rr_result *r,
		      const struct rr_case_result *c)
{
	const struct rr_bracket_def *d = &rr_brackets[r->probe.bracket];
	char what[192];

	json_str(j, "name", c->name);
	json_str(j, "role", rr_role_names[c->role]);
	json_str(j, "page_type", rr_page_type_name(c->type));
	rr_case_what(c, what, sizeof(what));
	json_str(j, "what", what);
	json_str(j, "trigger", rr_trigger_name(r->trigger));
	json_str(j, "probe", d->id);
	probe_detail(j, r);
	json_bool(j, "ran", c->ran);
	str_or_null(j, "error", c->error);
	str_or_null(j, "refused", c->refused);
	str_or_null(j, "not_reached", c->not_reached);
	json_uint(j, "runs", c->runs);
}

/* A trigger's calls split into the walks, the part and the rest. */
static void call_split(struct rr_json *j, const struct rr_result *r,
		       const struct rr_case_result *c)
{
	char text[768];
	struct rr_split sp;

	if (rr_call_split(r, c, &sp)) {
		json_obj_begin(j, "trigger_call_split");
		json_num(j, "calls_ms", sp.calls, 4);
		json_num(j, "walks_ms", sp.walks, 4);
		json_str(j, "walks_probe", rr_brackets[r->probe.bracket].id);
		if (sp.part_timed) {
			json_num(j, "part_ms", sp.part, 4);
			json_str(j, "part_function", r->part.fns[c->type].name);
			json_str(j, "part_probe", rr_brackets[RR_BR_PART].id);
			json_uint(j, "part_intervals", c->part.count);
			json_uint(j, "part_unpaired", c->part_unpaired);
			json_null(j, "part_not_timed");
		} else {
			json_null(j, "part_ms");
			json_null(j, "part_function");
			json_null(j, "part_probe");
			json_null(j, "part_intervals");
			json_null(j, "part_unpaired");
			json_str(j, "part_not_timed", sp.part_why);
		}
		json_str(j, "part_what", r->part.what);
		json_num(j, "rest_ms", sp.rest, 4);
		rr_split_text(r, c, text, sizeof(text));
		json_str(j, "text", text);
		json_obj_end(j);
	} else {
		json_null(j, "trigger_call_split");
	}
}

/* The same walks timed by the other probes (--cross-check). */
static void cross_check(struct rr_json *j, const struct rr_result *r,
			const struct rr_case_result *c)
{
	int k;

	json_arr_begin(j, "cross_check");
	for (k = 0; k < r->nr_cross; k++) {
		json_obj_begin(j, NULL);
		json_str(j, "probe", rr_brackets[r->cross[k].bracket].id);
		json_str(j, "events", r->cross[k].events);
		stats(j, "latency_ms", &c->cross[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* Who ran the case's intervals, for a trigger that works anywhere. */
static void walkers(struct rr_json *j, const struct rr_result *r,
		    const struct rr_case_result *c)
{
	int k;

	if (r->anywhere) {
		json_obj_begin(j, "walkers");
		for (k = 0; k < RR_TASK_MAX; k++)
			json_uint(j, rr_task_kind_names[k], c->walkers[k]);
		json_obj_end(j);
	} else {
		json_null(j, "walkers");
	}
}

/* --victim-alone: the victim's calls with no trigger, and its rates. */
static void victim_rate(struct rr_json *j, const struct rr_result *r,
			const struct rr_case_result *c)
{
	char text[512];

	if (!r->victim_alone_ms || !c->victim_alone.count) {
		json_null(j, "victim_alone_ms");
		json_null(j, "victim_rate");
		return;
	}
	stats(j, "victim_alone_ms", &c->victim_alone);
	json_obj_begin(j, "victim_rate");
	json_num(j, "alone_per_s", rr_rate(c->victim_alone.count,
					   c->victim_alone_s), 2);
	json_num(j, "during_firings_per_s",
		 rr_rate(c->victim.count, c->victim_with_s), 2);
	json_num(j, "alone_s", c->victim_alone_s, 3);
	json_num(j, "during_firings_s", c->victim_with_s, 3);
	rr_rate_text(r, c, text, sizeof(text));
	json_str(j, "text", text);
	json_obj_end(j);
}

/* One group of tasks' lock waits (probe/waits.h), or null. */
static void wait_fig(struct rr_json *j, const char *key,
		     const struct rr_wait_fig *f)
{
	char addr[32];

	if (!f->recorded) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
	json_uint(j, "count", f->ms.count);
	json_num(j, "p50_ms", f->ms.p50, 3);
	json_num(j, "max_ms", f->ms.max, 3);
	json_num(j, "total_ms", f->total_ms, 3);
	json_uint(j, "read", f->reads);
	json_uint(j, "write", f->writes);
	json_uint(j, "mutex", f->mutexes);
	json_uint(j, "other", f->others);
	json_uint(j, "locks", f->locks);
	json_bool(j, "locks_at_least", f->locks_more);
	if (f->locks) {
		json_obj_begin(j, "top_lock");
		snprintf(addr, sizeof(addr), "0x%llx", f->top_addr);
		json_str(j, "addr", addr);
		json_str(j, "kind", rr_wait_kind(f->top_flags));
		json_uint(j, "waits", f->top_count);
		json_num(j, "ms", f->top_ms, 3);
		json_obj_end(j);
	} else {
		json_null(j, "top_lock");
	}
	json_obj_end(j);
}

/* The case's lock waits: the victim's, the trigger's tasks'. */
static void lock_waits(struct rr_json *j, const struct rr_result *r,
		       const struct rr_case_result *c)
{
	char text[1024];

	if (!r->waits) {
		json_null(j, "lock_waits");
		return;
	}
	json_obj_begin(j, "lock_waits");
	wait_fig(j, "victim", &c->waits_victim);
	wait_fig(j, "trigger_tasks", &c->waits_walker);
	json_num(j, "victim_longest_stall_ms", c->stall_ms, 3);
	json_num(j, "waited_in_longest_stall_ms", c->stall_waited_ms, 3);
	if (r->waits_stack && c->wait_caller[0]) {
		json_obj_begin(j, "victim_wait_caller");
		json_str(j, "stack", c->wait_caller);
		json_uint(j, "hits", c->wait_caller_hits);
		json_uint(j, "all_hits", c->wait_stack_hits);
		json_obj_end(j);
	} else {
		json_null(j, "victim_wait_caller");
	}
	json_uint(j, "unpaired_events", c->waits_unpaired);
	json_uint(j, "spinlock_waits", c->waits_spins);
	json_uint(j, "lost_events", c->waits_lost);
	if (r->giveups) {
		json_obj_begin(j, "reclaim_giveups");
		json_uint(j, "calls_with_victim", c->ref_calls[1]);
		json_uint(j, "gave_up_with_victim", c->ref_giveups[1]);
		json_uint(j, "calls_without_victim", c->ref_calls[0]);
		json_uint(j, "gave_up_without_victim", c->ref_giveups[0]);
		rr_giveups_text(r, c, text, sizeof(text));
		json_str(j, "text", text);
		json_obj_end(j);
	} else {
		json_null(j, "reclaim_giveups");
	}
	rr_waits_text(r, c, text, sizeof(text));
	json_str(j, "text", text);
	json_obj_end(j);
}

/* How much of the pattern the trigger reached. */
static void reach_of(struct rr_json *j, const struct rr_result *r,
		     const struct rr_case_result *c)
{
	char text[256];

	json_obj_begin(j, "reach");
	rr_reach_text(r, c, text, sizeof(text));
	json_str(j, "text", text);
	json_uint(j, "pattern_ptes_migrated", c->marks);
	json_uint(j, "pages_filled", c->filled);
	json_uint(j, "pages_unmapped", c->gone);
	json_uint(j, "pages_moved", c->moved);
	json_uint(j, "pages_move_failed", c->move_failed);
	json_obj_end(j);
}

/* The kernel's log while the case ran. */
static void kernel_log(struct rr_json *j, const struct rr_result *r,
		       const struct rr_case_result *c)
{
	if (c->klog.read) {
		unsigned int l;

		json_arr_begin(j, "kernel_log");
		for (l = 0; l < c->klog.lines; l++)
			json_str(j, NULL, c->klog.line[l]);
		json_arr_end(j);
		json_uint(j, "kernel_log_more", c->klog.more);
		json_uint(j, "kernel_log_records", c->klog.records);
	} else {
		json_null(j, "kernel_log");
		json_null(j, "kernel_log_more");
		json_null(j, "kernel_log_records");
	}
}

/* The correctness oracle's outcome. */
static void oracle(struct rr_json *j, const struct rr_result *r,
		   const struct rr_case_result *c)
{
	if (c->oracle.ran) {
		json_obj_begin(j, "oracle");
		json_uint(j, "pages_checked", c->oracle.pages_checked);
		json_uint(j, "pages_failed", c->oracle.pages_failed);
		json_uint(j, "mappings_checked", c->oracle.mappings_checked);
		json_uint(j, "mappings_missed", c->oracle.mappings_missed);
		json_str(j, "reason", c->oracle.reason);
		json_obj_end(j);
	} else {
		json_null(j, "oracle");
	}
}

/* The pattern as built, and the probe's cost. */
static void pattern_and_cost(struct rr_json *j, const struct rr_result *r,
			     const struct rr_case_result *c)
{
	json_obj_begin(j, "pattern");
	json_uint(j, "pages", c->pages);
	json_uint(j, "vmas", c->vmas);
	json_uint(j, "processes", c->procs);
	json_obj_end(j);
	if (c->passes[RR_PASS_BARE]) {
		json_obj_begin(j, "probe_cost");
		json_num(j, "trigger_s_with_probe", c->pass_s[RR_PASS_PROBE], 4);
		json_num(j, "trigger_s_without", c->pass_s[RR_PASS_BARE], 4);
		json_uint(j, "runs", c->passes[RR_PASS_BARE]);
		json_obj_end(j);
	} else {
		json_null(j, "probe_cost");
	}
}

/* The steps by caller (iters.h), or null where not counted. */
static void by_caller(struct rr_json *j, const struct rr_iter_callers *cl)
{
	int i;

	if (!cl->counted) {
		json_null(j, "by_caller");
		return;
	}
	json_arr_begin(j, "by_caller");
	for (i = 0; i <= rr_iter_nr_callers; i++) {
		enum rr_kfn k = i < rr_iter_nr_callers ?
				rr_iter_caller_roles[i] : RR_KFN_NONE;
		unsigned long long f = cl->first[k], steps = f + cl->next[k];

		if (!steps)
			continue;
		json_obj_begin(j, NULL);
		if (k == RR_KFN_NONE) {
			json_null(j, "function");
			json_str(j, "role", "other");
		} else {
			json_str(j, "function", cl->name[k]);
			json_str(j, "role", rr_kfns[k].key);
		}
		json_uint(j, "iter_first_calls", f);
		json_uint(j, "steps", steps);
		if (f)
			json_num(j, "steps_per_first_call",
				 (double)steps / f, 1);
		else
			json_null(j, "steps_per_first_call");
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The interval-tree steps of the counting pass (--iterations). */
static void iterations(struct rr_json *j, const struct rr_result *r,
		       const struct rr_case_result *c)
{
	if (c->passes[RR_PASS_COUNT]) {
		json_obj_begin(j, "iterations");
		json_uint(j, "walks", c->count_walks);
		json_uint(j, "iter_first_calls", c->iter_first);
		json_uint(j, "iter_next_calls", c->iter_next);
		if (c->count_walks && c->iter_first) {
			json_num(j, "steps_per_walk_mean",
				 (double)(c->iter_first + c->iter_next) /
				 c->count_walks, 1);
			json_num(j, "steps_per_rmap_item_mean",
				 (double)(c->iter_first + c->iter_next) /
				 c->iter_first, 1);
		} else {
			json_null(j, "steps_per_walk_mean");
			json_null(j, "steps_per_rmap_item_mean");
		}
		if (r->iter_items) {
			counts(j, "steps_per_walk", &c->walk_steps);
			counts(j, "steps_per_rmap_item", &c->item_steps);
			json_uint(j, "walks_begun", c->count_walks_begun);
			json_uint(j, "walks_without_rmap_items",
				  c->walks_without_items);
			json_uint(j, "rmap_items_dropped", c->items_dropped);
		} else {
			json_null(j, "steps_per_walk");
			json_null(j, "steps_per_rmap_item");
		}
		stats(j, "walk_ms_while_counting", &c->count_lat);
		num_or_null(j, "us_per_step", rr_step_cost_us(r, c), 6);
		json_str(j, "counted_by", r->iter_items ?
			 "kprobes rmap_repro/rr_iter_first and rr_iter_next (rr_fiter_* for the file tree) on the tree's iter_first and iter_next (counted_on), hist triggers keyed by common_pid; per rmap_item and walk: kprobe rmap_repro/rr_count_walk_TYPE on the walk function keeps the walk's id (its time), iter_first and each iter_next fire synthetic/" RR_STEP_SYNTH "(wid, sid = time of iter_first), counted by a hist keyed by wid and sid" :
			 "kprobes rmap_repro/rr_iter_first and rr_iter_next (rr_fiter_* for the file tree) on the tree's iter_first and iter_next (counted_on), hist triggers keyed by common_pid");
		json_str(j, "counted_on",
			 rr_iters_case_fns(&r->iter_syms, c->type));
		by_caller(j, &c->iter_callers);
		if (!r->iter_items)
			json_str(j, "per_rmap_item_unavailable",
				 r->iter_items_note);
		json_obj_end(j);
	} else {
		json_null(j, "iterations");
	}
}

/* The verdict's kernel line (model/kline.h), or null where none applies. */
static void kernel_line(struct rr_json *j, const struct rr_result *r)
{
	char buf[512];

	if (rr_kernel_line(r, buf, sizeof(buf))[0])
		json_str(j, "kernel_line", buf);
	else
		json_null(j, "kernel_line");
	if (rr_release_has_fix(r->sys.release) < 0)
		json_null(j, "release_has_walk_fix");
	else
		json_bool(j, "release_has_walk_fix",
			  rr_release_has_fix(r->sys.release));
}

static void one_case(struct rr_json *j, const struct rr_result *r,
		     const struct rr_case_result *c)
{
	json_obj_begin(j, NULL);
	case_head(j, r, c);
	verdict_figures(j, r, c);
	stats(j, "latency_ms", &c->latency);
	stats(j, "victim_stall_ms", &c->victim);
	victim_rate(j, r, c);
	if (c->calls.count)
		stats(j, "trigger_call_ms", &c->calls);
	else
		json_null(j, "trigger_call_ms");
	call_split(j, r, c);
	cross_check(j, r, c);
	json_uint(j, "victim_errors", c->victim_errors);
	json_bool(j, "victim_truncated", c->victim_truncated);
	json_uint(j, "lost_events", c->lost_events);
	json_uint(j, "unpaired_events", c->unpaired);
	json_uint(j, "intervals", c->intervals);
	walkers(j, r, c);
	lock_waits(j, r, c);
	trigger_case(j, r, c);
	reach_of(j, r, c);
	kernel_log(j, r, c);
	oracle(j, r, c);
	pattern_and_cost(j, r, c);
	iterations(j, r, c);
	json_obj_begin(j, "timing_s");
	json_num(j, "setup", c->setup_s, 3);
	json_num(j, "merge", c->merge_s, 3);
	json_num(j, "trigger", rr_case_trigger_s(c), 3);
	json_obj_end(j);
	json_obj_end(j);
}

/* The headline test beside the verdict: against which control. */
static void evidence(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_case_result *c = rr_evidence_case(r);
	char text[1024];

	if (!c) {
		json_null(j, "evidence");
		return;
	}
	json_obj_begin(j, "evidence");
	json_str(j, "control", c->name);
	json_sig(j, "p", c->test.mwu.p_greater, 4);
	if (c->test.ratio.defined)
		json_sig(j, "ratio_of_medians", c->test.ratio.ratio, 6);
	else
		json_null(j, "ratio_of_medians");
	json_bool(j, "significant", c->test.mwu.p_greater < RR_ALPHA);
	rr_evidence_text(r, text, sizeof(text));
	json_str(j, "text", text);
	json_obj_end(j);
}

/* The runs made, how they were judged, and the rule's parameters. */
static void runs_and_rule(struct rr_json *j, const struct rr_result *r)
{
	unsigned int i;

	json_uint(j, "runs", r->runs);
	json_uint(j, "runs_asked", r->runs_asked);
	json_uint(j, "max_runs", r->max_runs);
	json_arr_begin(j, "run_verdicts");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++)
		json_str(j, NULL, rr_run_verdict_names[r->run_verdict[i]]);
	json_arr_end(j);
	if (r->runs_agreeing)
		json_uint(j, "runs_agreeing", r->runs_agreeing);
	else
		json_null(j, "runs_agreeing");
	evidence(j, r);
	json_uint(j, "trace_buffer_kb", r->buffer_kb);
	json_num(j, "threshold_ms", r->threshold_ms, 3);
	json_num(j, "min_ratio", r->min_ratio, 3);
	json_str(j, "verdict_policy", rr_policy_names[r->policy]);
	if (r->bench_ms_per_gb > 0)
		json_num(j, "max_ms_per_gb", r->bench_ms_per_gb, 3);
	else
		json_null(j, "max_ms_per_gb");
	json_str(j, "verdict_on", r->judge_calls ? "trigger calls" :
		 "probe intervals");
}

/* Whether the OOM killer ran, and what the restore undid. */
static void safety(struct rr_json *j, const struct rr_result *r)
{
	json_obj_begin(j, "safety");
	if (r->nr_cases && !r->oom_unknown) {
		json_uint(j, "oom_kill_before", r->oom_kill_before);
		json_uint(j, "oom_kill_after", r->oom_kill_after);
	} else {
		json_null(j, "oom_kill_before");
		json_null(j, "oom_kill_after");
	}
	json_bool(j, "restore_ran", r->restore_ran);
	json_int(j, "restored_changes", r->restored);
	json_int(j, "restore_left", r->restore_left);
	json_int(j, "restore_retired", r->restore_retired);
	json_int(j, "restore_failures", r->restore_failures);
	json_obj_end(j);
}

/* The kernel and the machine the run measured. */
static void kernel_and_system(struct rr_json *j, const struct rr_result *r)
{
	json_obj_begin(j, "kernel");
	json_str(j, "release", r->sys.release);
	json_str(j, "version", r->sys.version);
	json_str(j, "machine", r->sys.machine);
	json_str(j, "cmdline", r->sys.cmdline);
	str_or_null(j, "config", r->sys.kconfig);
	json_obj_end(j);

	json_obj_begin(j, "system");
	json_int(j, "cpus", r->sys.cpus);
	json_uint(j, "mem_kb", r->sys.mem_kb);
	json_int(j, "numa_nodes", r->sys.numa_nodes);
	json_str(j, "thp", r->sys.thp);
	/* scripts/vm-run --exact: what every time of the run measures */
	if (r->sys.exact)
		json_str(j, "exact_clock", RR_EXACT_CLOCK);
	json_obj_end(j);
}

/* The pattern's parameters, the reproducer's own among them, and KSM's. */
static void pattern(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_case_result *ksm = rr_result_case(r, RR_PT_KSM);
	const struct rr_case_result *subject = rr_result_subject(r);
	int i;

	json_obj_begin(j, "pattern");
	json_uint(j, "pages", r->pages);
	if (subject && subject->vmas)
		json_uint(j, "vmas", subject->vmas);
	else
		json_null(j, "vmas");
	for (i = 0; i < r->nr_params; i++) {
		if (r->params[i].text[0])
			json_str(j, r->params[i].name, r->params[i].text);
		else
			json_uint(j, r->params[i].name, r->params[i].value);
	}
	json_uint(j, "max_page_sharing", ksm ? ksm->ksm.max_page_sharing :
		  r->max_page_sharing);
	json_uint(j, "ksm_pages_shared", ksm ? ksm->ksm.pages_shared : 0);
	json_uint(j, "ksm_pages_sharing", ksm ? ksm->ksm.pages_sharing : 0);
	json_int(j, "ksm_merging_pages", ksm ? ksm->ksm.merging_pages : -1);
	json_obj_end(j);
}

/* The trigger: which, why, what it did last, and its own object. */
static void trigger(struct rr_json *j, const struct rr_result *r)
{
	char text[1024];

	json_obj_begin(j, "trigger");
	if (r->nr_cases)
		json_str(j, "name", rr_trigger_name(r->trigger));
	else
		json_null(j, "name");
	json_str(j, "why", r->trigger_why);
	json_str(j, "how", r->trigger_how);
	json_str(j, "memcg", r->memcg);
	json_str(j, "swap", r->swap);
	if (r->part.what[0]) {
		json_obj_begin(j, "part");
		json_str(j, "what", r->part.what);
		json_bool(j, "timed", r->part.timed);
		rr_part_text(r, text, sizeof(text));
		json_str(j, "text", text);
		json_obj_end(j);
	} else {
		json_null(j, "part");
	}
	trigger_own(j, r);
	json_obj_end(j);
}

/* The victim: its mode, its call, and what it does. */
static void victim(struct rr_json *j, const struct rr_result *r)
{
	char text[1024];

	json_obj_begin(j, "victim");
	json_str(j, "mode", rr_victim_names[r->victim]);
	json_uint(j, "alone_ms", r->victim_alone_ms);
	json_str(j, "call", r->victim_call[0] ? r->victim_call :
		 "mprotect()");
	rr_victim_text(r, text, sizeof(text));
	json_str(j, "what", text);
	json_obj_end(j);
	json_obj_begin(j, "lock_waits");
	json_bool(j, "recorded", r->waits);
	json_str(j, "events", "lock:contention_begin .. lock:contention_end");
	json_str(j, "how", rr_waits_how);
	json_bool(j, "mmap_lock_told_apart", r->waits_mmap);
	json_bool(j, "stacks_kept", r->waits_stack);
	if (r->waits_stack)
		json_null(j, "stacks_why_not");
	else
		json_str(j, "stacks_why_not", r->waits_stack_why);
	json_bool(j, "giveups_counted", r->giveups);
	if (r->giveups)
		json_null(j, "giveups_why_not");
	else
		json_str(j, "giveups_why_not", r->giveups_why);
	if (r->waits)
		json_null(j, "why_not");
	else
		json_str(j, "why_not", r->waits_why);
	json_obj_end(j);
}

/* The run's phase times, summed over its cases. */
static void timing(struct rr_json *j, const struct rr_result *r)
{
	double setup, merge, trigger;

	json_obj_begin(j, "timing_s");
	rr_result_timing(r, &setup, &merge, &trigger);
	json_num(j, "setup", setup, 3);
	json_num(j, "merge", merge, 3);
	json_num(j, "trigger", trigger, 3);
	json_num(j, "total", r->total_s, 3);
	json_obj_end(j);
}

void rr_report_json(FILE *f, const struct rr_result *r)
{
	struct rr_json j;
	int i;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "rmap-repro-result/1");
	json_str(&j, "reproducer", r->reproducer);
	json_str(&j, "verdict", rr_verdict_names[r->verdict]);
	json_str(&j, "reason", r->reason);
	kernel_line(&j, r);
	json_str(&j, "command", r->options);
	json_str(&j, "suite_version", r->sys.suite_version);
	kernel_and_system(&j, r);
	pattern(&j, r);
	trigger(&j, r);
	victim(&j, r);
	runs_and_rule(&j, r);
	json_arr_begin(&j, "cases");
	for (i = 0; i < r->nr_cases; i++)
		one_case(&j, r, &r->cases[i]);
	json_arr_end(&j);
	timing(&j, r);
	json_int(&j, "max_rss_kb", r->max_rss_kb);
	safety(&j, r);
	json_obj_end(&j);
	json_finish(&j);
}
