// SPDX-License-Identifier: GPL-2.0
/*
 * The calls a trigger times itself (memory_failure() writes, ...), and each
 * call split into the walks the probe timed, the part timed apart and
 * the rest.
 */
#include <string.h>

#include "figure/figure.h"
#include "lib/json.h"
#include "probe/bracket.h"

/* A call split, ms; false: no call timed, or no walk-level probe. */
struct split {
	double calls, part, walks, rest;
	bool part_timed;
	char part_why[192];		/* the part is not timed: why */
};

static bool call_split(const struct rr_result *r,
		       const struct rr_case_result *c, struct split *sp)
{
	memset(sp, 0, sizeof(*sp));
	/* only walks split a call: a bracket around ksmd's scans does not */
	if (!c->calls.count || !rr_brackets[r->probe.bracket].walk)
		return false;
	sp->calls = c->calls.mean * c->calls.count;
	sp->walks = c->latency.mean * c->latency.count;
	sp->part_timed = rr_part_timed(&r->part, c->type, sp->part_why,
				       sizeof(sp->part_why));
	if (sp->part_timed)
		sp->part = c->part.mean * c->part.count;
	/* disjoint in time, but two clocks: never a negative rest */
	sp->rest = sp->calls > sp->walks + sp->part ?
		   sp->calls - sp->walks - sp->part : 0;
	return true;
}

void rr_part_text(const struct rr_result *r, char *buf, size_t size)
{
	const struct rr_bracket_def *d = &rr_brackets[RR_BR_PART];
	char fns[192];
	size_t o = 0;
	int t;

	if (!r->part.timed) {
		snprintf(buf, size, "%s: not timed apart: %s", r->part.what,
			 r->part.why);
		return;
	}
	fns[0] = '\0';
	for (t = 0; t < RR_PT_MAX && o < sizeof(fns); t++) {
		const struct rr_walkfn *f = &r->part.fns[t];
		int u;

		/* each function once (collect_procs serves two types) */
		for (u = 0; u < t && (!r->part.fns[u].found ||
				      strcmp(r->part.fns[u].name, f->name)); u++)
			;
		if (f->found && u == t)
			o += snprintf(fns + o, sizeof(fns) - o, "%s%s",
				      o ? ", " : "", f->name);
	}
	snprintf(buf, size,
		 "%s: %s/%s_TYPE (kprobe) .. %s_TYPE_ret (kretprobe) on %s, paired per task, timed by %s. One interval: %s. It bounds: %s.",
		 r->part.what, d->system, d->prefix, d->prefix, fns,
		 rr_probe_clock(RR_BR_PART), d->what, d->bounds);
}

static void split_text(const struct rr_result *r,
		       const struct rr_case_result *c, char *buf, size_t size)
{
	const struct rr_trigger_ops *t = rr_trigger_get(r->trigger);
	const char *walks = t && t->walks_what ? t->walks_what :
			    "walking the rmap";
	const char *rest = t && t->call_rest ? t->call_rest :
			   "the call's work outside the walks";
	struct split sp;
	size_t o;

	buf[0] = '\0';
	if (!call_split(r, c, &sp))
		return;
	o = snprintf(buf, size, "%zu call(s), %.3f ms in all: ",
		     c->calls.count, sp.calls);
	if (sp.part_timed && o < size)
		o += snprintf(buf + o, size - o, "%.3f ms %s (%s, %s), ",
			      sp.part, r->part.what, r->part.fns[c->type].name,
			      rr_brackets[RR_BR_PART].id);
	if (o < size)
		o += snprintf(buf + o, size - o, "%.3f ms %s (rmap walks, %s), ",
			      sp.walks, walks,
			      rr_brackets[r->probe.bracket].id);
	if (o >= size)
		return;
	if (sp.part_timed || !r->part.what[0])
		snprintf(buf + o, size - o, "%.3f ms the rest: %s, not timed apart",
			 sp.rest, rest);
	else
		snprintf(buf + o, size - o,
			 "%.3f ms the rest: %s (not timed apart: %s), %s",
			 sp.rest, r->part.what, sp.part_why, rest);
}

static const struct rr_stats *calls_of(const struct rr_case_result *c)
{
	return &c->calls;
}

static void table(FILE *f, const struct rr_result *r)
{
	int i;

	for (i = 0; i < r->nr_cases && !r->cases[i].calls.count; i++)
		;
	if (i == r->nr_cases)
		return;
	fprintf(f, "\nTrigger calls (%s), each timed by the trigger (CLOCK_MONOTONIC), ms:\n",
		rr_trigger_name(r->trigger));
	rr_fig_stats_table(f, r, calls_of, NULL, NULL);
}

static void text(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	rr_fig_per_case(f, r, field, "Split", split_text);
}

static void ktap(FILE *f, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	char buf[768];

	if (!c->calls.count)
		return;
	fprintf(f, "    # %s: trigger call max %.3f ms, p50 %.3f ms over %zu calls (CLOCK_MONOTONIC)\n",
		c->name, c->calls.max, c->calls.p50, c->calls.count);
	split_text(r, c, buf, sizeof(buf));
	rr_fig_diag(f, c->name, "split: ", buf);
}

static void split_json(struct rr_json *j, const struct rr_result *r,
		       const struct rr_case_result *c, const struct split *sp)
{
	char buf[768];

	json_obj_begin(j, "trigger_call_split");
	json_num(j, "calls_ms", sp->calls, 4);
	json_num(j, "walks_ms", sp->walks, 4);
	json_str(j, "walks_probe", rr_brackets[r->probe.bracket].id);
	if (sp->part_timed) {
		json_num(j, "part_ms", sp->part, 4);
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
		json_str(j, "part_not_timed", sp->part_why);
	}
	json_str(j, "part_what", r->part.what);
	json_num(j, "rest_ms", sp->rest, 4);
	split_text(r, c, buf, sizeof(buf));
	json_str(j, "text", buf);
	json_obj_end(j);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	struct split sp;

	if (c->calls.count)
		rr_json_stats(j, "trigger_call_ms", &c->calls);
	else
		json_null(j, "trigger_call_ms");
	if (call_split(r, c, &sp))
		split_json(j, r, c, &sp);
	else
		json_null(j, "trigger_call_split");
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	double v[4] = { ms / 4, ms / 2, ms, ms * 2 };

	snprintf(r->part.what, sizeof(r->part.what), "finding the processes");
	r->part.timed = true;
	rr_stats_compute(v, 4, &c->calls);
	rr_stats_compute(v, 4, &c->part);
}

static const char *const keys[] = {
	"trigger_call_ms", "trigger_call_split", NULL
};

const struct rr_figure rr_figure_calls = {
	.name = "calls",
	.keys = keys,
	.table = table,
	.text = text,
	.ktap = ktap,
	.json = json,
	.example = example,
};
