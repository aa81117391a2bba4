// SPDX-License-Identifier: GPL-2.0
/*
 * --probe-cost: the trigger's time with the probe and in a bare pass
 * without it, on fresh patterns.
 */
#include "figure/figure.h"
#include "lib/json.h"

static void cost_text(const struct rr_result *r,
		      const struct rr_case_result *c, char *buf, size_t size)
{
	double with = c->pass_s[RR_PASS_PROBE], without = c->pass_s[RR_PASS_BARE];

	buf[0] = '\0';
	if (!c->passes[RR_PASS_BARE])
		return;
	snprintf(buf, size,
		 "the trigger took %.3f s with the probe, %.3f s without it (%+.1f%%), over %u run(s) each on fresh patterns",
		 with, without, without > 0 ? (with - without) / without * 100 : 0,
		 c->passes[RR_PASS_BARE]);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	if (!c->passes[RR_PASS_BARE]) {
		json_null(j, "probe_cost");
		return;
	}
	json_obj_begin(j, "probe_cost");
	json_num(j, "trigger_s_with_probe", c->pass_s[RR_PASS_PROBE], 4);
	json_num(j, "trigger_s_without", c->pass_s[RR_PASS_BARE], 4);
	json_uint(j, "runs", c->passes[RR_PASS_BARE]);
	json_obj_end(j);
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	c->passes[RR_PASS_BARE] = 2;
	c->pass_s[RR_PASS_PROBE] = c->pass_s[RR_PASS_BARE] = 1;
}

static const char *const keys[] = { "probe_cost", NULL };

const struct rr_figure rr_figure_cost = {
	.name = "cost",
	.keys = keys,
	.sentence = cost_text,
	.label = "Cost",
	.ktap_what = "probe cost: ",
	.json = json,
	.example = example,
};
