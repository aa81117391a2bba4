// SPDX-License-Identifier: GPL-2.0
/*
 * The correctness oracle (measure/oracle.h): after the trigger, was
 * every page it should have acted on acted on, through every mapping?
 */
#include "figure/figure.h"
#include "lib/json.h"

static void oracle_text(const struct rr_result *r,
			const struct rr_case_result *c, char *buf,
			size_t size)
{
	const struct rr_oracle *o = &c->oracle;

	buf[0] = '\0';
	if (!o->ran)
		return;
	snprintf(buf, size,
		 "%s: %llu of %llu pages not acted on, %llu of %llu mappings missed; %s",
		 rr_oracle_failed(o) ? "FAILED" : "clean", o->pages_failed,
		 o->pages_checked, o->mappings_missed, o->mappings_checked,
		 o->reason);
}

static void ktap(FILE *f, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	const struct rr_oracle *o = &c->oracle;

	if (o->ran)
		fprintf(f, "    # %s: oracle: %llu of %llu pages not acted on, %llu of %llu mappings missed: %s\n",
			c->name, o->pages_failed, o->pages_checked,
			o->mappings_missed, o->mappings_checked, o->reason);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	const struct rr_oracle *o = &c->oracle;

	if (!o->ran) {
		json_null(j, "oracle");
		return;
	}
	json_obj_begin(j, "oracle");
	json_uint(j, "pages_checked", o->pages_checked);
	json_uint(j, "pages_failed", o->pages_failed);
	json_uint(j, "mappings_checked", o->mappings_checked);
	json_uint(j, "mappings_missed", o->mappings_missed);
	json_str(j, "reason", o->reason);
	json_obj_end(j);
}

static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	c->oracle.ran = true;
	snprintf(c->oracle.reason, sizeof(c->oracle.reason), "checked");
}

static const char *const keys[] = { "oracle", NULL };

const struct rr_figure rr_figure_oracle = {
	.name = "oracle",
	.keys = keys,
	.sentence = oracle_text,
	.label = "Oracle",
	.ktap = ktap,
	.json = json,
	.example = example,
};
