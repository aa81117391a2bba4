// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger's own figures of a case (trigger.h: case_key,
 * case_summary, case_json; ksmd's use, ...): the run's trigger writes
 * its block where it has something to say, every other trigger that
 * keeps one has its JSON member null.
 */
#include "figure/figure.h"
#include "lib/json.h"

static void text(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);

	if (ops && ops->case_key && ops->case_summary)
		rr_fig_per_case(f, r, field, ops->case_key, ops->case_summary);
}

static void ktap(FILE *f, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);
	char buf[768], what[32];

	if (!ops || !ops->case_key || !ops->case_summary)
		return;
	ops->case_summary(r, c, buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: ", ops->case_key);
	rr_fig_diag(f, c->name, what, buf);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	const struct rr_trigger_ops *ops;
	char buf[1024];
	int t;

	rr_for_each_trigger(t, ops) {
		if (!ops->case_key)
			continue;
		buf[0] = '\0';
		if (t == r->trigger)
			ops->case_summary(r, c, buf, sizeof(buf));
		if (!buf[0]) {
			json_null(j, ops->case_key);
			continue;
		}
		json_obj_begin(j, ops->case_key);
		if (ops->case_json)
			ops->case_json(r, c, j);
		json_str(j, "text", buf);
		json_obj_end(j);
	}
}

/* keys: each trigger's case_key, documented with the trigger. */
const struct rr_figure rr_figure_trigger = {
	.name = "trigger",
	.text = text,
	.ktap = ktap,
	.json = json,
};
