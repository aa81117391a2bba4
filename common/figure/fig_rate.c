// SPDX-License-Identifier: GPL-2.0
/*
 * --victim-alone: the victim's calls with no trigger running, and its
 * rate of calls alone and during the firings.
 */
#include "figure/figure.h"
#include "lib/json.h"

/* A rate of calls per second: count over seconds, or 0. */
static double rate(size_t count, double s)
{
	return s > 0 ? count / s : 0;
}

static void rate_text(const struct rr_result *r,
		      const struct rr_case_result *c, char *buf, size_t size)
{
	const char *call = r->victim_call[0] ? r->victim_call : "mprotect()";
	double alone = rate(c->victim_alone.count, c->victim_alone_s);
	double with = rate(c->victim.count, c->victim_with_s);

	buf[0] = '\0';
	if (!r->victim_alone_ms || !c->ran || !c->victim_alone.count)
		return;
	snprintf(buf, size,
		 "%.1f %s calls/s with no trigger (%zu in %.2f s), %.1f/s during the firings (%zu in %.2f s): %.2fx the rate (the victim's calls and its 0.1 ms pauses, per second of wall time)",
		 alone, call, c->victim_alone.count, c->victim_alone_s, with,
		 c->victim.count, c->victim_with_s,
		 alone > 0 ? with / alone : 0);
}

static const struct rr_stats *alone_of(const struct rr_case_result *c)
{
	return &c->victim_alone;
}

static void table(FILE *f, const struct rr_result *r)
{
	if (!r->victim_alone_ms)
		return;
	fprintf(f, "\nVictim %s latency with no trigger (--victim-alone %llu ms before each firing), ms:\n",
		r->victim_call[0] ? r->victim_call : "mprotect()",
		r->victim_alone_ms);
	rr_fig_stats_table(f, r, alone_of, NULL, NULL);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	char buf[512];

	if (!r->victim_alone_ms || !c->victim_alone.count) {
		json_null(j, "victim_alone_ms");
		json_null(j, "victim_rate");
		return;
	}
	rr_json_stats(j, "victim_alone_ms", &c->victim_alone);
	json_obj_begin(j, "victim_rate");
	json_num(j, "alone_per_s", rate(c->victim_alone.count,
					c->victim_alone_s), 2);
	json_num(j, "during_firings_per_s",
		 rate(c->victim.count, c->victim_with_s), 2);
	json_num(j, "alone_s", c->victim_alone_s, 3);
	json_num(j, "during_firings_s", c->victim_with_s, 3);
	rate_text(r, c, buf, sizeof(buf));
	json_str(j, "text", buf);
	json_obj_end(j);
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	double v[4] = { ms / 4, ms / 2, ms, ms * 2 };

	r->victim_alone_ms = 1000;
	rr_stats_compute(v, 4, &c->victim_alone);
	c->victim_alone_s = 1;
	c->victim_with_s = 4;
}

static const char *const keys[] = { "victim_alone_ms", "victim_rate", NULL };

const struct rr_figure rr_figure_rate = {
	.name = "rate",
	.keys = keys,
	.sentence = rate_text,
	.label = "Rate",
	.ktap_what = "victim rate: ",
	.table = table,
	.json = json,
	.example = example,
};
