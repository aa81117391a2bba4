// SPDX-License-Identifier: GPL-2.0
/* --cross-check: the same walks timed by the other walk-level probes. */
#include "figure/figure.h"
#include "lib/json.h"
#include "probe/bracket.h"

static double pct(double a, double b)
{
	return b > 0 ? (a - b) / b * 100.0 : 0;
}

static void table(FILE *f, const struct rr_result *r)
{
	int i, k;

	if (!r->nr_cross)
		return;
	fprintf(f, "\nCross-check, the same walks by other probes in the same pass, ms\n(vs %s):\n",
		rr_brackets[r->probe.bracket].id);
	fprintf(f, "%-5s %-10s %6s %10s %7s %10s %7s\n", "case", "probe", "n",
		"mean", "diff", "max", "diff");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];

		for (k = 0; k < r->nr_cross && c->ran; k++) {
			const struct rr_stats *s = &c->cross[k];

			fprintf(f, "%-5s %-10s %6zu %10.3f %+6.1f%% %10.3f %+6.1f%%\n",
				c->name,
				rr_brackets[r->cross[k].bracket].id, s->count,
				s->mean, pct(s->mean, c->latency.mean), s->max,
				pct(s->max, c->latency.max));
		}
	}
}

static void ktap(FILE *f, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	int k;

	for (k = 0; k < r->nr_cross; k++)
		fprintf(f, "    # %s: cross-check %s: max %.3f ms, mean %.3f ms over %zu walks\n",
			c->name, rr_brackets[r->cross[k].bracket].id,
			c->cross[k].max, c->cross[k].mean, c->cross[k].count);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	int k;

	json_arr_begin(j, "cross_check");
	for (k = 0; k < r->nr_cross; k++) {
		json_obj_begin(j, NULL);
		json_str(j, "probe", rr_brackets[r->cross[k].bracket].id);
		json_str(j, "events", r->cross[k].events);
		rr_json_stats(j, "latency_ms", &c->cross[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	double v[4] = { ms / 4, ms / 2, ms, ms * 2 };

	r->nr_cross = 1;
	r->cross[0].bracket = RR_BR_RMAP_WALK;
	rr_stats_compute(v, 4, &c->cross[0]);
}

static const char *const keys[] = { "cross_check", NULL };

const struct rr_figure rr_figure_cross = {
	.name = "cross",
	.keys = keys,
	.table = table,
	.ktap = ktap,
	.json = json,
	.example = example,
};
