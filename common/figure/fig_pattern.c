// SPDX-License-Identifier: GPL-2.0
/*
 * The case's pattern as built: its pages, and its VMAs and processes
 * counted in /proc/PID/maps (the text gives them on the Pattern line,
 * through the reproducer's sentence).
 */
#include "figure/figure.h"
#include "lib/json.h"

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	json_obj_begin(j, "pattern");
	json_uint(j, "pages", c->pages);
	json_uint(j, "vmas", c->vmas);
	json_uint(j, "processes", c->procs);
	json_obj_end(j);
}

static const char *const keys[] = { "pattern", NULL };

const struct rr_figure rr_figure_pattern = {
	.name = "pattern",
	.keys = keys,
	.json = json,
};
