// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "result.h"

const char *const rr_victim_names[] = {
	[RR_VICTIM_AUTO] = "auto",
	[RR_VICTIM_APART] = "apart",
	[RR_VICTIM_SAME] = "same",
	[RR_VICTIM_OFF] = "off",
	NULL
};

const char *const rr_verdict_names[] = {
	[RR_REPRODUCED] = "reproduced",
	[RR_NOT_REPRODUCED] = "not-reproduced",
	[RR_SKIP] = "skip",
	[RR_ERROR] = "error",
};

struct rr_case_result *rr_result_case(const struct rr_result *r,
				      enum rr_page_type t)
{
	int i;

	/* as strchr(): the caller's constness is the caller's */
	for (i = 0; i < r->nr_cases; i++)
		if (r->cases[i].type == t)
			return (struct rr_case_result *)&r->cases[i];
	return NULL;
}

void rr_set_verdict(struct rr_result *r, enum rr_verdict v,
		    const char *fmt, ...)
{
	va_list ap;

	r->verdict = v;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

double rr_case_trigger_s(const struct rr_case_result *c)
{
	double s = 0;
	int p;

	for (p = 0; p < RR_PASS_MAX; p++)
		s += c->pass_s[p];
	return s;
}

void rr_result_timing(const struct rr_result *r, double *setup,
		      double *merge, double *trigger)
{
	int i;

	*setup = *merge = *trigger = 0;
	for (i = 0; i < r->nr_cases; i++) {
		*setup += r->cases[i].setup_s;
		*merge += r->cases[i].merge_s;
		*trigger += rr_case_trigger_s(&r->cases[i]);
	}
}

void rr_result_param(struct rr_result *r, const char *name,
		     unsigned long long value)
{
	struct rr_param *p;

	if (r->nr_params == RR_MAX_PARAMS)
		return;
	p = &r->params[r->nr_params++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->value = value;
}

void rr_result_param_text(struct rr_result *r, const char *name,
			  const char *text)
{
	int n = r->nr_params;

	rr_result_param(r, name, 0);
	if (r->nr_params > n)
		snprintf(r->params[n].text, sizeof(r->params[n].text), "%s",
			 text);
}

bool rr_oracle_failed(const struct rr_oracle *o)
{
	return o->ran && (o->pages_failed || o->mappings_missed);
}

int rr_exit_code(enum rr_verdict v)
{
	switch (v) {
	case RR_NOT_REPRODUCED:
		return 0;
	case RR_REPRODUCED:
		return 1;
	case RR_SKIP:
		return 4;
	default:
		return 2;
	}
}

void rr_verdict_compute(struct rr_result *r)
{
	struct rr_case_result *ksm = rr_result_case(r, RR_PT_KSM);
	char ctl[256] = "", unreached[256] = "";
	double worst = 0;
	size_t o = 0, u = 0;
	int i;

	if (r->verdict == RR_SKIP || r->verdict == RR_ERROR)
		return;
	if (!ksm) {
		rr_set_verdict(r, RR_ERROR, "no KSM case was run");
		return;
	}
	for (i = 0; i < r->nr_cases; i++) {
		struct rr_case_result *c = &r->cases[i];
		const char *name = rr_page_type_name(c->type);

		if (c->error[0]) {
			rr_set_verdict(r, RR_ERROR, "%s case: %s", name,
				       c->error);
			return;
		}
		if (!c->latency.count && c->not_reached[0] && c != ksm) {
			if (u < sizeof(unreached))
				u += snprintf(unreached + u,
					      sizeof(unreached) - u, "%s%s",
					      u ? ", " : "", name);
			continue;
		}
		if (!c->latency.count) {
			rr_set_verdict(r, RR_ERROR,
				       "%s case: the trigger produced no measurable interval",
				       name);
			return;
		}
		if (c == ksm)
			continue;
		if (c->latency.max > worst)
			worst = c->latency.max;
		if (o < sizeof(ctl))
			o += snprintf(ctl + o, sizeof(ctl) - o, "%s%s %.3f ms",
				      o ? ", " : "", name, c->latency.max);
	}
	/* A control that failed its oracle: nothing to compare with. */
	for (i = 0; i < r->nr_cases; i++) {
		struct rr_case_result *c = &r->cases[i];

		if (c != ksm && rr_oracle_failed(&c->oracle)) {
			rr_set_verdict(r, RR_ERROR,
				       "%s case (control): the oracle failed: %s",
				       rr_page_type_name(c->type),
				       c->oracle.reason);
			return;
		}
	}
	/*
	 * The subject failed its oracle: a mapping the walk did not find
	 * (or a page it could not act on), reproduced whatever the
	 * latency: a correctness failure, not a slow walk.
	 */
	if (rr_oracle_failed(&ksm->oracle)) {
		rr_set_verdict(r, RR_REPRODUCED,
			       "correctness: KSM case: %llu of %llu pages not acted on, %llu of %llu mappings missed (%s); KSM case max %.3f ms",
			       ksm->oracle.pages_failed,
			       ksm->oracle.pages_checked,
			       ksm->oracle.mappings_missed,
			       ksm->oracle.mappings_checked,
			       ksm->oracle.reason, ksm->latency.max);
		return;
	}
	if (!ctl[0]) {
		if (unreached[0])
			rr_set_verdict(r, RR_ERROR,
				       "no control was reached by the trigger (%s)",
				       unreached);
		else
			rr_set_verdict(r, RR_ERROR, "no control case was run");
		return;
	}
	/* Controls the trigger never reached: named, not compared. */
	if (unreached[0] && o < sizeof(ctl))
		snprintf(ctl + o, sizeof(ctl) - o, "; not reached: %s",
			 unreached);
	if (ksm->latency.max > r->threshold_ms &&
	    ksm->latency.max >= r->min_ratio * worst)
		rr_set_verdict(r, RR_REPRODUCED,
			       "KSM case max %.3f ms exceeds %.3g ms and is %.0fx the controls' max (%s)",
			       ksm->latency.max, r->threshold_ms,
			       worst > 0 ? ksm->latency.max / worst : 0, ctl);
	else if (ksm->latency.max <= r->threshold_ms)
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "KSM case max %.3f ms is within %.3g ms (controls: %s)",
			       ksm->latency.max, r->threshold_ms, ctl);
	else
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "KSM case max %.3f ms exceeds %.3g ms but is less than %.3gx the controls' max (%s)",
			       ksm->latency.max, r->threshold_ms, r->min_ratio,
			       ctl);
	if (ksm->oracle.ran && strlen(r->reason) < sizeof(r->reason))
		snprintf(r->reason + strlen(r->reason),
			 sizeof(r->reason) - strlen(r->reason),
			 "; oracle clean: %llu pages, %llu mappings checked",
			 ksm->oracle.pages_checked,
			 ksm->oracle.mappings_checked);
}
