// SPDX-License-Identifier: GPL-2.0
/*
 * How much of the pattern the trigger reached (the trigger's own words
 * where it has them, else pages unmapped by pagemap), and how many of
 * the probe's intervals were paired (fig_events.c).
 */
#include "figure/figure.h"
#include "lib/json.h"

static void reach_text(const struct rr_result *r,
		       const struct rr_case_result *c, char *buf, size_t size)
{
	const struct rr_trigger_ops *t = rr_trigger_get(r->trigger);

	if (t && t->reach)
		t->reach(c, buf, size);
	else
		snprintf(buf, size,
			 "%llu of %llu filled pages unmapped (pagemap)",
			 c->gone, c->filled);
}

static void line_text(const struct rr_result *r,
		      const struct rr_case_result *c, char *buf, size_t size)
{
	char reach[256];

	buf[0] = '\0';
	if (!c->ran)
		return;
	reach_text(r, c, reach, sizeof(reach));
	snprintf(buf, size, "%s; %lu intervals paired, %lu dropped unpaired%s",
		 reach, c->intervals, c->unpaired,
		 c->lost_events ? "; EVENTS LOST: figures incomplete" : "");
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	char buf[256];

	json_obj_begin(j, "reach");
	reach_text(r, c, buf, sizeof(buf));
	json_str(j, "text", buf);
	json_uint(j, "pattern_ptes_migrated", c->marks);
	json_uint(j, "pages_filled", c->filled);
	json_uint(j, "pages_unmapped", c->gone);
	json_uint(j, "pages_moved", c->moved);
	json_uint(j, "pages_move_failed", c->move_failed);
	json_obj_end(j);
}

static const char *const keys[] = { "reach", NULL };

const struct rr_figure rr_figure_reach = {
	.name = "reach",
	.keys = keys,
	.sentence = line_text,
	.label = "Reach",
	.json = json,
};
