// SPDX-License-Identifier: GPL-2.0
/*
 * --iterations: the interval-tree steps of one lookup (an iter_first
 * call and its iter_next calls) as a share of the case's VMAs. The
 * steps alone grow with the pattern; their share does not: a walk that
 * steps over every VMA sharing the anon_vma (the unfixed KSM walk, which
 * looks up the whole tree for each rmap_item) is near 100% at any size,
 * one that looks up the page's own address (the fixed walk, the anon and
 * file walks) a VMA or two of them. scripts/fingerprint draws its line
 * at a quarter.
 */
#include "figure/figure.h"
#include "lib/json.h"

/* Steps per lookup, and their share of the VMAs; false: not counted. */
static bool visits(const struct rr_case_result *c, double *steps,
		   double *share)
{
	if (!c->passes[RR_PASS_COUNT] || !c->iter_first || !c->vmas)
		return false;
	*steps = (double)(c->iter_first + c->iter_next) / c->iter_first;
	*share = *steps / c->vmas;
	return true;
}

static void visits_text(const struct rr_result *r,
			const struct rr_case_result *c, char *buf,
			size_t size)
{
	double steps, share;

	buf[0] = '\0';
	if (!visits(c, &steps, &share))
		return;
	snprintf(buf, size,
		 "%.3g%% of the case's %zu VMAs stepped over per lookup (%.1f interval-tree steps per iter_first call; /proc/PID/maps counts the VMAs)",
		 share * 100, c->vmas, steps);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	double steps, share;
	char buf[512];

	if (!visits(c, &steps, &share)) {
		json_null(j, "vmas_stepped");
		return;
	}
	json_obj_begin(j, "vmas_stepped");
	json_num(j, "steps_per_lookup", steps, 1);
	json_uint(j, "vmas", c->vmas);
	json_sig(j, "share", share, 4);
	visits_text(r, c, buf, sizeof(buf));
	json_str(j, "text", buf);
	json_obj_end(j);
}

static const char *const keys[] = { "vmas_stepped", NULL };

/* example: none of its own; fig_steps.c's counts and the case's VMAs */
const struct rr_figure rr_figure_visits = {
	.name = "visits",
	.keys = keys,
	.sentence = visits_text,
	.label = "Visits",
	.ktap_what = "visits: ",
	.json = json,
};
