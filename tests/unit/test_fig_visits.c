// SPDX-License-Identifier: GPL-2.0
/* A lookup's steps as a share of the VMAs (figure/fig_visits.c). */
#include <stdlib.h>
#include <string.h>

#include "figure/figure.h"
#include "harness.h"
#include "lib/json.h"

static void one(struct rr_result *r, unsigned long long first,
		unsigned long long next, size_t vmas)
{
	struct rr_case_result *c = &r->cases[0];

	memset(r, 0, sizeof(*r));
	r->nr_cases = 1;
	r->iterations = true;
	snprintf(c->name, sizeof(c->name), "ksm");
	c->ran = true;
	c->passes[RR_PASS_COUNT] = 1;
	c->iter_first = first;
	c->iter_next = next;
	c->vmas = vmas;
}

/* The figure's KTAP lines and JSON member of case 0, in buf. */
static void write_case(const struct rr_result *r, bool as_json, char *buf,
		       size_t size)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct rr_json j;

	if (as_json) {
		json_init(&j, f);
		json_obj_begin(&j, NULL);
		rr_figure_visits.json(&j, r, &r->cases[0]);
		json_obj_end(&j);
		json_finish(&j);
	} else {
		rr_fig_ktap(&rr_figure_visits, f, r, &r->cases[0]);
	}
	fclose(f);
	snprintf(buf, size, "%s", out);
	free(out);
}

static void test_unfixed_and_fixed(void)
{
	static struct rr_result r;
	char buf[1024];

	/* 20 rmap_items, each stepping over 1,990 of 2,000 VMAs */
	one(&r, 20, 20 * 1989, 2000);
	write_case(&r, false, buf, sizeof(buf));
	CHECK_STR(buf, "    # ksm: visits: 99.5% of the case's 2000 VMAs stepped over per lookup (1990.0 interval-tree steps per iter_first call; /proc/PID/maps counts the VMAs)\n");
	write_case(&r, true, buf, sizeof(buf));
	CHECK(strstr(buf, "\"steps_per_lookup\": 1990.0") != NULL);
	CHECK(strstr(buf, "\"vmas\": 2000") != NULL);
	CHECK(strstr(buf, "\"share\": 0.995") != NULL);
	/* the fixed walk: two steps per rmap_item of 20,000 VMAs */
	one(&r, 20, 20, 20000);
	write_case(&r, false, buf, sizeof(buf));
	CHECK(strstr(buf, "visits: 0.01% of the case's 20000 VMAs") != NULL);
	write_case(&r, true, buf, sizeof(buf));
	CHECK(strstr(buf, "\"share\": 0.0001") != NULL);
}

static void test_not_counted(void)
{
	static struct rr_result r;
	char buf[1024];

	/* no counting pass, no lookup, no VMA: no line, a null member */
	one(&r, 20, 100, 2000);
	r.cases[0].passes[RR_PASS_COUNT] = 0;
	write_case(&r, false, buf, sizeof(buf));
	CHECK_STR(buf, "");
	write_case(&r, true, buf, sizeof(buf));
	CHECK(strstr(buf, "\"vmas_stepped\": null") != NULL);
	one(&r, 0, 0, 2000);
	write_case(&r, true, buf, sizeof(buf));
	CHECK(strstr(buf, "\"vmas_stepped\": null") != NULL);
	one(&r, 20, 100, 0);
	write_case(&r, false, buf, sizeof(buf));
	CHECK_STR(buf, "");
}

TEST_MAIN(T(test_unfixed_and_fixed), T(test_not_counted))
