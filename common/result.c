// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "result.h"
#include "util.h"

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

const char *const rr_role_names[] = {
	[RR_SUBJECT] = "subject",
	[RR_CONTROL] = "control",
};

const char *const rr_policy_names[] = {
	[RR_POLICY_BOTH] = "latency and correctness",
	[RR_POLICY_LATENCY] = "latency",
	[RR_POLICY_CORRECTNESS] = "correctness",
	[RR_POLICY_BENCHMARK] = "benchmark",
};

struct rr_case_result *rr_result_subject(const struct rr_result *r)
{
	int i;

	for (i = 0; i < r->nr_cases; i++)
		if (r->cases[i].role == RR_SUBJECT)
			return (struct rr_case_result *)&r->cases[i];
	return NULL;
}

const char *rr_case_label(const struct rr_case_result *c)
{
	return strcmp(c->name, "ksm") ? c->name : "KSM";
}

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

int rr_bisect_code(enum rr_verdict v)
{
	switch (v) {
	case RR_NOT_REPRODUCED:
		return 0;
	case RR_REPRODUCED:
		return 1;
	default:
		return RR_BISECT_SKIP;
	}
}

/* What the verdict compares: the probe's intervals, or the calls. */
static const struct rr_stats *judged(const struct rr_result *r,
				     const struct rr_case_result *c)
{
	return r->judge_calls ? &c->calls : &c->latency;
}

/*
 * Check every case before any comparison: a case in error is the run's
 * error; a control never reached is left out (and named in unreached);
 * any other case without an interval is an error. ctl gets the reached
 * controls' maxima, worst their largest.
 */
static bool cases_usable(struct rr_result *r, const struct rr_case_result *s,
			 char *ctl, size_t clen, char *unreached,
			 size_t ulen, double *worst)
{
	size_t o = 0, u = 0;
	int i;

	for (i = 0; i < r->nr_cases; i++) {
		struct rr_case_result *c = &r->cases[i];
		const char *name = c->name;

		if (c->error[0]) {
			rr_set_verdict(r, RR_ERROR, "%s case: %s", name,
				       c->error);
			return false;
		}
		const struct rr_stats *st = judged(r, c);

		if (!st->count && c->not_reached[0] && c != s) {
			if (u < ulen)
				u += snprintf(unreached + u, ulen - u, "%s%s",
					      u ? ", " : "", name);
			continue;
		}
		if (!st->count) {
			rr_set_verdict(r, RR_ERROR,
				       r->judge_calls ?
				       "%s case: no trigger call was timed" :
				       "%s case: the trigger produced no measurable interval",
				       name);
			return false;
		}
		if (c == s)
			continue;
		if (st->max > *worst)
			*worst = st->max;
		if (o < clen)
			o += snprintf(ctl + o, clen - o, "%s%s %.3f ms",
				      o ? ", " : "", name, st->max);
	}
	return true;
}

/* The oracle's part: true when it decided the verdict. */
static bool oracle_verdict(struct rr_result *r, const struct rr_case_result *s)
{
	const char *sl = rr_case_label(s);
	int i;

	/* A control that failed its oracle: nothing to compare with. */
	for (i = 0; i < r->nr_cases; i++) {
		struct rr_case_result *c = &r->cases[i];

		if (c != s && rr_oracle_failed(&c->oracle)) {
			rr_set_verdict(r, RR_ERROR,
				       "%s case (control): the oracle failed: %s",
				       c->name, c->oracle.reason);
			return true;
		}
	}
	/*
	 * The subject failed its oracle: a mapping the walk did not find
	 * (or a page it could not act on), reproduced whatever the
	 * latency: a correctness failure, not a slow walk.
	 */
	if (rr_oracle_failed(&s->oracle)) {
		rr_set_verdict(r, RR_REPRODUCED,
			       "correctness: %s case: %llu of %llu pages not acted on, %llu of %llu mappings missed (%s); %s case max %.3f ms",
			       sl, s->oracle.pages_failed,
			       s->oracle.pages_checked,
			       s->oracle.mappings_missed,
			       s->oracle.mappings_checked,
			       s->oracle.reason, sl, s->latency.max);
		return true;
	}
	if (r->policy != RR_POLICY_CORRECTNESS)
		return false;
	if (!s->oracle.ran)
		rr_set_verdict(r, RR_ERROR,
			       "%s case: its oracle did not run, and the verdict is the oracle's",
			       sl);
	else
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "correctness: %s case: oracle clean: %llu pages, %llu mappings checked; %s case max %.3f ms (latency not judged)",
			       sl, s->oracle.pages_checked,
			       s->oracle.mappings_checked, sl, s->latency.max);
	return true;
}

/*
 * A benchmark (ksm-scan-cost): nothing is judged unless it was given a
 * bound, then the subject's longest interval per GiB of its pattern.
 */
static void bench_verdict(struct rr_result *r, const struct rr_case_result *s)
{
	double gib = (double)s->pages * rr_page_size() / (1 << 30);
	double per = gib > 0 ? s->latency.max / gib : 0;

	if (!s->latency.count)
		rr_set_verdict(r, RR_ERROR, "%s case: nothing measured",
			       rr_case_label(s));
	else if (r->bench_ms_per_gb <= 0)
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "a benchmark, nothing judged: %s case max %.3f ms, %.1f ms per GiB (give a bound to judge it)",
			       rr_case_label(s), s->latency.max, per);
	else
		rr_set_verdict(r, per > r->bench_ms_per_gb ? RR_REPRODUCED :
			       RR_NOT_REPRODUCED,
			       "%s case max %.3f ms is %.1f ms per GiB: %s the bound of %g ms per GiB",
			       rr_case_label(s), s->latency.max, per,
			       per > r->bench_ms_per_gb ? "over" : "within",
			       r->bench_ms_per_gb);
}

void rr_verdict_compute(struct rr_result *r)
{
	struct rr_case_result *s = rr_result_subject(r);
	char ctl[256] = "", unreached[256] = "";
	double worst = 0, max;
	const char *sl, *m;
	size_t o;

	if (r->verdict == RR_SKIP || r->verdict == RR_ERROR)
		return;
	if (!s) {
		rr_set_verdict(r, RR_ERROR, "no subject case was run");
		return;
	}
	sl = rr_case_label(s);
	for (o = 0; o < (size_t)r->nr_cases; o++)
		if (r->cases[o].refused[0]) {
			rr_set_verdict(r, RR_SKIP, "%s case: %s",
				       rr_case_label(&r->cases[o]),
				       r->cases[o].refused);
			return;
		}
	if (!cases_usable(r, s, ctl, sizeof(ctl), unreached,
			  sizeof(unreached), &worst))
		return;
	if (r->policy == RR_POLICY_BENCHMARK) {
		bench_verdict(r, s);
		return;
	}
	if (r->policy != RR_POLICY_LATENCY && oracle_verdict(r, s))
		return;
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
	o = strlen(ctl);
	if (unreached[0] && o < sizeof(ctl))
		snprintf(ctl + o, sizeof(ctl) - o, "; not reached: %s",
			 unreached);
	max = judged(r, s)->max;
	m = r->judge_calls ? "longest trigger call" : "max";
	if (max > r->threshold_ms && max >= r->min_ratio * worst)
		rr_set_verdict(r, RR_REPRODUCED,
			       "%s case %s %.3f ms exceeds %.3g ms and is %.0fx the controls' max (%s)",
			       sl, m, max, r->threshold_ms,
			       worst > 0 ? max / worst : 0, ctl);
	else if (max <= r->threshold_ms)
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "%s case %s %.3f ms is within %.3g ms (controls: %s)",
			       sl, m, max, r->threshold_ms, ctl);
	else
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "%s case %s %.3f ms exceeds %.3g ms but is less than %.3gx the controls' max (%s)",
			       sl, m, max, r->threshold_ms, r->min_ratio,
			       ctl);
	o = strlen(r->reason);
	if (s->oracle.ran && o < sizeof(r->reason))
		snprintf(r->reason + o, sizeof(r->reason) - o,
			 "; oracle %s: %llu pages, %llu mappings checked",
			 rr_oracle_failed(&s->oracle) ? "FAILED (not judged)" :
			 "clean", s->oracle.pages_checked,
			 s->oracle.mappings_checked);
}

int rr_result_counts_text(const struct rr_result *r, char *buf, size_t len)
{
	size_t o;
	int i;

	o = snprintf(buf, len,
		     " Processes and VMAs of the pattern summed over their /proc/PID/maps:");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		size_t left = o < len ? len - o : 0;

		if (!c->procs)
			o += snprintf(buf + o, left, "%s %s never built",
				      i ? ";" : "", c->name);
		else
			o += snprintf(buf + o, left,
				      "%s %s %u process%s, %zu VMAs",
				      i ? ";" : "", c->name, c->procs,
				      c->procs == 1 ? "" : "es", c->vmas);
	}
	return o;
}
