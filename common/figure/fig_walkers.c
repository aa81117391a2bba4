// SPDX-License-Identifier: GPL-2.0
/*
 * A trigger that works anywhere (probes on every task): which tasks ran
 * the case's counted intervals.
 */
#include "figure/figure.h"
#include "lib/json.h"

static void walkers_text(const struct rr_result *r,
			 const struct rr_case_result *c, char *buf,
			 size_t size)
{
	size_t o = 0;
	int k;

	buf[0] = '\0';
	if (!c->ran || !r->anywhere)
		return;
	for (k = 0; k < RR_TASK_MAX && o < size; k++)
		o += snprintf(buf + o, size - o, "%s%s %llu", k ? ", " : "",
			      rr_task_kind_words[k], c->walkers[k]);
	if (o < size)
		snprintf(buf + o, size - o,
			 " (intervals by task; the reproducer's own are left out of the figures)");
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	int k;

	if (!r->anywhere) {
		json_null(j, "walkers");
		return;
	}
	json_obj_begin(j, "walkers");
	for (k = 0; k < RR_TASK_MAX; k++)
		json_uint(j, rr_task_kind_names[k], c->walkers[k]);
	json_obj_end(j);
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	r->anywhere = true;
	c->walkers[RR_TASK_KSWAPD] = 4;
}

static const char *const keys[] = { "walkers", NULL };

const struct rr_figure rr_figure_walkers = {
	.name = "walkers",
	.keys = keys,
	.sentence = walkers_text,
	.label = "Walkers",
	.ktap_what = "walkers: ",
	.json = json,
	.example = example,
};
