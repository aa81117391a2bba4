// SPDX-License-Identifier: GPL-2.0
/*
 * --iterations: the interval-tree steps of the counting pass, per walk,
 * per rmap_item and by caller, and with a walk-level probe the cost of
 * one step.
 */
#include "figure/figure.h"
#include "lib/json.h"
#include "probe/bracket.h"
#include "probe/iters.h"

/*
 * The mean walk of the probe's pass over the mean steps per walk of the
 * counting pass, us per interval-tree step; < 0 where it cannot be had.
 */
static double step_cost_us(const struct rr_result *r,
			   const struct rr_case_result *c)
{
	double steps;

	/* a bracket's interval is not one walk: no cost per step */
	if (!c->passes[RR_PASS_COUNT] || !c->count_walks ||
	    !rr_brackets[r->probe.bracket].walk || !c->latency.count)
		return -1;
	steps = (double)(c->iter_first + c->iter_next) / c->count_walks;
	return steps > 0 ? c->latency.mean * 1000 / steps : -1;
}

/* The steps by caller, "; by caller ...", or "" where not counted. */
static void callers_text(const struct rr_iter_callers *cl, char *buf,
			 size_t size)
{
	const char *sep = "; by caller (the kernel stack of each step): ";
	size_t o = 0;
	int i;

	buf[0] = '\0';
	if (!cl->counted)
		return;
	for (i = 0; i <= rr_iter_nr_callers && o < size; i++) {
		enum rr_kfn k = i < rr_iter_nr_callers ?
				rr_iter_caller_roles[i] : RR_KFN_NONE;
		unsigned long long f = cl->first[k], steps = f + cl->next[k];

		if (!steps)
			continue;
		o += snprintf(buf + o, size - o, "%s%s %llu steps in %llu iter_first calls",
			      sep, k == RR_KFN_NONE ? "other callers" :
			      cl->name[k], steps, f);
		if (f && o < size)
			o += snprintf(buf + o, size - o, " (%.1f each)",
				      (double)steps / f);
		sep = ", ";
	}
}

static void iter_text(const struct rr_result *r,
		      const struct rr_case_result *c, char *buf, size_t size)
{
	unsigned long long steps = c->iter_first + c->iter_next;
	size_t o;

	buf[0] = '\0';
	if (!c->passes[RR_PASS_COUNT])
		return;
	if (!c->count_walks || !c->iter_first) {
		snprintf(buf, size,
			 "%llu interval-tree steps counted over %llu walks: nothing to divide",
			 steps, c->count_walks);
		return;
	}
	o = snprintf(buf, size,
		     "%.0f interval-tree steps per walk and %.0f per rmap_item (means: %llu steps, %llu iter_first calls, %llu walks)",
		     (double)steps / c->count_walks,
		     (double)steps / c->iter_first, steps, c->iter_first,
		     c->count_walks);
	if (c->walk_steps.count && o < size)
		o += snprintf(buf + o, size - o,
			      "; per walk max %.0f, p50 %.0f over %zu walks; per rmap_item max %.0f, p50 %.0f, mean %.0f over %zu rmap_item visits",
			      c->walk_steps.max, c->walk_steps.p50,
			      c->walk_steps.count, c->item_steps.max,
			      c->item_steps.p50, c->item_steps.mean,
			      c->item_steps.count);
	if (c->walks_without_items && o < size)
		o += snprintf(buf + o, size - o,
			      " (%llu of the walks reached no rmap_item: 0 steps)",
			      c->walks_without_items);
	if (c->items_dropped && o < size)
		o += snprintf(buf + o, size - o,
			      " (%llu rmap_items DROPPED: hist full, maxima incomplete)",
			      c->items_dropped);
	if (o < size)
		o += snprintf(buf + o, size - o,
			      "; counting made the walks %.1fx slower (mean %.3f ms against %.3f ms uncounted)",
			      c->latency.mean > 0 ?
			      c->count_lat.mean / c->latency.mean : 0,
			      c->count_lat.mean, c->latency.mean);
	if (step_cost_us(r, c) >= 0 && o < size)
		o += snprintf(buf + o, size - o,
			      "; %.3f us per step (the probe pass's mean walk over the counting pass's mean steps per walk: whether a change removed steps or made them cheaper)",
			      step_cost_us(r, c));
	if (o < size)
		callers_text(&c->iter_callers, buf + o, size - o);
}

/* What counted the steps: the iterators by name, as this kernel has them. */
static void iter_how(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	const struct rr_iter_syms *s = &r->iter_syms;
	char buf[1024];
	size_t o;

	o = snprintf(buf, sizeof(buf),
		     "counted in the kernel: kprobes on %s (the anon_vma tree's iterators",
		     s->fns[0]);
	if (s->found[1] && o < sizeof(buf))
		o += snprintf(buf + o, sizeof(buf) - o,
			      "; file pages: %s", s->fns[1]);
	if (o < sizeof(buf))
		snprintf(buf + o, sizeof(buf) - o,
			 "), hist triggers per task%s; an rmap_item's steps are its iter_first call and its iter_next calls",
			 r->iter_items ? " and, through synthetic/" RR_STEP_SYNTH "(wid, sid), per rmap_item and walk (a kprobe on the walk function gives the walk's id)" : "");
	field(f, "", buf);
}

static void text(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	rr_fig_per_case(f, r, field, "Steps", iter_text);
	if (r->iterations && !r->iter_items)
		field(f, "", r->iter_items_note[0] ? r->iter_items_note :
		      "steps per rmap_item not counted");
	if (r->iterations)
		iter_how(f, r, field);
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

#define COUNTED_BY "kprobes rmap_repro/rr_iter_first and rr_iter_next (rr_fiter_* for the file tree) on the tree's iter_first and iter_next (counted_on), hist triggers keyed by common_pid"

/* Per walk and per rmap_item, where counted. */
static void per_item(struct rr_json *j, const struct rr_result *r,
		     const struct rr_case_result *c)
{
	if (!r->iter_items) {
		json_null(j, "steps_per_walk");
		json_null(j, "steps_per_rmap_item");
		return;
	}
	rr_json_counts(j, "steps_per_walk", &c->walk_steps);
	rr_json_counts(j, "steps_per_rmap_item", &c->item_steps);
	json_uint(j, "walks_begun", c->count_walks_begun);
	json_uint(j, "walks_without_rmap_items", c->walks_without_items);
	json_uint(j, "rmap_items_dropped", c->items_dropped);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	unsigned long long steps = c->iter_first + c->iter_next;

	if (!c->passes[RR_PASS_COUNT]) {
		json_null(j, "iterations");
		return;
	}
	json_obj_begin(j, "iterations");
	json_uint(j, "walks", c->count_walks);
	json_uint(j, "iter_first_calls", c->iter_first);
	json_uint(j, "iter_next_calls", c->iter_next);
	if (c->count_walks && c->iter_first) {
		json_num(j, "steps_per_walk_mean",
			 (double)steps / c->count_walks, 1);
		json_num(j, "steps_per_rmap_item_mean",
			 (double)steps / c->iter_first, 1);
	} else {
		json_null(j, "steps_per_walk_mean");
		json_null(j, "steps_per_rmap_item_mean");
	}
	per_item(j, r, c);
	rr_json_stats(j, "walk_ms_while_counting", &c->count_lat);
	rr_json_num_or_null(j, "us_per_step", step_cost_us(r, c), 6);
	json_str(j, "counted_by", r->iter_items ?
		 COUNTED_BY "; per rmap_item and walk: kprobe rmap_repro/rr_count_walk_TYPE on the walk function keeps the walk's id (its time), iter_first and each iter_next fire synthetic/" RR_STEP_SYNTH "(wid, sid = time of iter_first), counted by a hist keyed by wid and sid" :
		 COUNTED_BY);
	json_str(j, "counted_on", rr_iters_case_fns(&r->iter_syms, c->type));
	by_caller(j, &c->iter_callers);
	if (!r->iter_items)
		json_str(j, "per_rmap_item_unavailable", r->iter_items_note);
	json_obj_end(j);
}

/* Steps per walk and per rmap_item, by the walk and another caller. */
static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	double v[4] = { ms / 4, ms / 2, ms, ms * 2 };
	struct rr_iter_syms *s = &r->iter_syms;

	r->iterations = r->iter_items = true;
	s->found[0] = s->found[1] = true;
	snprintf(s->fns[0], sizeof(s->fns[0]),
		 "anon_rmap_tree_iter_first and anon_rmap_tree_iter_next");
	snprintf(s->fns[1], sizeof(s->fns[1]),
		 "mapping_rmap_tree_iter_first and mapping_rmap_tree_iter_next");
	rr_stats_compute(v, 4, &c->count_lat);
	rr_stats_compute(v, 4, &c->walk_steps);
	rr_stats_compute(v, 4, &c->item_steps);
	c->passes[RR_PASS_COUNT] = 2;
	c->iter_first = 20;
	c->iter_next = 2000;
	c->count_walks = 4;
	c->iter_callers.counted = true;
	c->iter_callers.first[RR_KFN_WALK_KSM] = 20;
	c->iter_callers.next[RR_KFN_WALK_KSM] = 1990;
	snprintf(c->iter_callers.name[RR_KFN_WALK_KSM],
		 sizeof(c->iter_callers.name[0]), "rmap_walk_ksm");
	c->iter_callers.next[RR_KFN_NONE] = 10;
}

static const char *const keys[] = { "iterations", NULL };

const struct rr_figure rr_figure_steps = {
	.name = "steps",
	.keys = keys,
	.sentence = iter_text,
	.ktap_what = "",
	.text = text,
	.json = json,
	.example = example,
};
