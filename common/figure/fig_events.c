// SPDX-License-Identifier: GPL-2.0
/*
 * What the probe's pass and the victim may have missed: the victim's
 * failed calls, the intervals paired, the starts and ends dropped
 * unpaired, the events lost. The text gives them in the tables' last
 * column and on the Reach line (fig_reach.c), KTAP on the case's first
 * line.
 */
#include "figure/figure.h"
#include "lib/json.h"

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	json_uint(j, "victim_errors", c->victim_errors);
	json_bool(j, "victim_truncated", c->victim_truncated);
	json_uint(j, "lost_events", c->lost_events);
	json_uint(j, "unpaired_events", c->unpaired);
	json_uint(j, "intervals", c->intervals);
}

static const char *const keys[] = {
	"victim_errors", "victim_truncated", "lost_events",
	"unpaired_events", "intervals", NULL
};

const struct rr_figure rr_figure_events = {
	.name = "events",
	.keys = keys,
	.json = json,
};
