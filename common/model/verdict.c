// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict on runs (verdict.h): each run judged by the rule, the runs
 * counted, the reason worded, and the rank test beside it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "model/verdict.h"

/* Append to a buffer that may already be full. */
static size_t add(char *buf, size_t size, size_t o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t add(char *buf, size_t size, size_t o, const char *fmt, ...)
{
	va_list ap;

	if (o >= size)
		return o;
	va_start(ap, fmt);
	o += vsnprintf(buf + o, size - o, fmt, ap);
	va_end(ap);
	return o;
}

bool rr_run_fig_lossy(const struct rr_result *r, const struct rr_run_fig *f)
{
	/* a trigger that works anywhere begins and ends mid-walk: edges */
	return f->lost || f->read_errors || (!r->anywhere && f->unpaired);
}

/* The subject's pattern in GiB (a benchmark's bound is per GiB). */
static double gib(const struct rr_case_result *s)
{
	return (double)s->pages * rr_page_size() / (1 << 30);
}

void rr_run_judge(const struct rr_result *r, unsigned int run,
		  struct rr_run_judgement *j)
{
	const struct rr_case_result *s = rr_result_subject(r);
	const struct rr_run_fig *sf;
	bool lossy;
	int i;

	memset(j, 0, sizeof(*j));
	j->subject = j->worst = -1;
	j->lossy_case = -1;
	if (!s || run >= r->runs || run >= RR_MAX_RUNS)
		return;
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];

		if (j->lossy_case < 0 && rr_run_fig_lossy(r, &c->run[run]))
			j->lossy_case = i;
		if (c != s && c->run[run].count && c->run[run].max > j->worst)
			j->worst = c->run[run].max;
	}
	lossy = j->lossy_case >= 0;
	sf = &s->run[run];
	if (sf->count)
		j->subject = sf->max;
	/* the oracle alone, or a benchmark with no bound: nothing judged */
	if (r->policy == RR_POLICY_CORRECTNESS ||
	    (r->policy == RR_POLICY_BENCHMARK && r->bench_ms_per_gb <= 0)) {
		j->v = RR_RUN_UNJUDGED;
		return;
	}
	if (!sf->count || (r->policy != RR_POLICY_BENCHMARK && j->worst < 0)) {
		j->v = lossy ? RR_RUN_INCOMPLETE : RR_RUN_UNJUDGED;
		return;
	}
	if (r->policy == RR_POLICY_BENCHMARK) {
		j->over_threshold = gib(s) > 0 &&
				    sf->max / gib(s) > r->bench_ms_per_gb;
		j->over_ratio = true;
	} else {
		j->over_threshold = sf->max > r->threshold_ms;
		j->over_ratio = sf->max >= r->min_ratio * j->worst;
	}
	if (j->over_threshold && j->over_ratio)
		j->v = RR_RUN_REPRODUCED;
	else
		j->v = lossy ? RR_RUN_INCOMPLETE : RR_RUN_NOT_REPRODUCED;
}

void rr_runs_tally(const struct rr_result *r, struct rr_tally *t)
{
	struct rr_run_judgement j;
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->subject_lo = t->subject_hi = t->worst_hi = -1;
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++) {
		rr_run_judge(r, i, &j);
		if (j.v == RR_RUN_NONE)
			continue;
		t->made++;
		switch (j.v) {
		case RR_RUN_REPRODUCED:
			t->reproduced++;
			break;
		case RR_RUN_NOT_REPRODUCED:
			t->not_reproduced++;
			if (!j.over_threshold)
				t->within++;
			else
				t->under_ratio++;
			break;
		case RR_RUN_INCOMPLETE:
			t->incomplete++;
			break;
		default:
			t->unjudged++;
		}
		if (j.subject >= 0 && (t->subject_lo < 0 ||
				       j.subject < t->subject_lo))
			t->subject_lo = j.subject;
		if (j.subject > t->subject_hi)
			t->subject_hi = j.subject;
		if (j.worst > t->worst_hi)
			t->worst_hi = j.worst;
	}
}

enum rr_decision rr_runs_decide(const struct rr_tally *t, unsigned int want,
				unsigned int max)
{
	unsigned int complete = t->made - t->incomplete;

	/* an incomplete run is made again (with a larger buffer) */
	if (complete < want && t->made < max)
		return RR_DECIDE_MORE;
	if (t->made && 3 * t->reproduced >= 2 * t->made)
		return RR_DECIDE_REPRODUCED;
	if (t->made && 3 * t->not_reproduced >= 2 * t->made)
		return RR_DECIDE_NOT_REPRODUCED;
	if (t->made < max)
		return RR_DECIDE_MORE;
	return t->incomplete ? RR_DECIDE_INCOMPLETE : RR_DECIDE_INCONCLUSIVE;
}

/* Does a case's state end the verdict before the runs count? */
static bool settled(const struct rr_result *r)
{
	const struct rr_case_result *s = rr_result_subject(r);
	int i;

	if (r->verdict == RR_SKIP || r->verdict == RR_ERROR || !s)
		return true;
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];

		if (c->error[0] || c->refused[0])
			return true;
		if (r->policy != RR_POLICY_LATENCY &&
		    rr_oracle_failed(&c->oracle))
			return true;
	}
	return r->policy == RR_POLICY_CORRECTNESS ||
	       (r->policy == RR_POLICY_BENCHMARK && r->bench_ms_per_gb <= 0);
}

bool rr_runs_more(const struct rr_result *r)
{
	struct rr_tally t;

	if (settled(r) || r->runs >= r->max_runs)
		return false;
	rr_runs_tally(r, &t);
	return rr_runs_decide(&t, r->runs_asked, r->max_runs) ==
	       RR_DECIDE_MORE;
}

/*
 * Check every case before any comparison: a case in error is the run's
 * error; a control never reached is left out (and named in unreached);
 * any other case without an interval is an error. ctl gets the reached
 * controls' maxima over all runs.
 */
static bool cases_usable(struct rr_result *r, const struct rr_case_result *s,
			 char *ctl, size_t clen, char *unreached,
			 size_t ulen)
{
	size_t o = 0, u = 0;
	int i;

	for (i = 0; i < r->nr_cases; i++) {
		struct rr_case_result *c = &r->cases[i];
		const struct rr_stats *st = rr_judged(r, c);

		if (c->error[0]) {
			rr_set_verdict(r, RR_ERROR, "%s case: %s", c->name,
				       c->error);
			return false;
		}
		if (!st->count && c->not_reached[0] && c != s) {
			u = add(unreached, ulen, u, "%s%s", u ? ", " : "",
				c->name);
			continue;
		}
		if (!st->count) {
			rr_set_verdict(r, RR_ERROR,
				       r->judge_calls ?
				       "%s case: no trigger call was timed" :
				       "%s case: the trigger produced no measurable interval (%llu events lost)",
				       c->name, c->lost_events);
			return false;
		}
		if (c != s)
			o = add(ctl, clen, o, "%s%s %.3f ms", o ? ", " : "",
				c->name, st->max);
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
	 * latency: a correctness failure, not a slow walk, and not noise.
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

/* "705.120 ms" or "705.120 to 1320.400 ms" */
static size_t range(char *buf, size_t size, size_t o, double lo, double hi,
		    const char *unit)
{
	if (lo == hi)
		return add(buf, size, o, "%.3f %s", hi, unit);
	return add(buf, size, o, "%.3f to %.3f %s", lo, hi, unit);
}

/* "; 1 other run: 1 not reproduced" for the runs that disagree */
static size_t dissent(char *buf, size_t size, size_t o,
		      const struct rr_tally *t, unsigned int agreeing)
{
	unsigned int others = t->made - agreeing;
	bool rep = agreeing == t->reproduced;
	const char *sep = "";

	if (!others)
		return o;
	o = add(buf, size, o, "; %u other run%s:", others,
		others == 1 ? "" : "s");
	if (!rep && t->reproduced) {
		o = add(buf, size, o, " %u reproduced", t->reproduced);
		sep = ",";
	}
	if (rep && t->not_reproduced) {
		o = add(buf, size, o, "%s %u not reproduced", sep,
			t->not_reproduced);
		sep = ",";
	}
	if (t->incomplete) {
		o = add(buf, size, o,
			"%s %u incomplete (figures lost, not reproduced)", sep,
			t->incomplete);
		sep = ",";
	}
	if (t->unjudged)
		o = add(buf, size, o, "%s %u with nothing to compare", sep,
			t->unjudged);
	return o;
}

/* The first run with lost figures, in words. */
static size_t losses(const struct rr_result *r, char *buf, size_t size,
		     size_t o)
{
	struct rr_run_judgement j;
	unsigned int i;

	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++) {
		const struct rr_case_result *c;
		const struct rr_run_fig *f;

		rr_run_judge(r, i, &j);
		if (j.lossy_case < 0)
			continue;
		c = &r->cases[j.lossy_case];
		f = &c->run[i];
		return add(buf, size, o,
			   "run %u, %s case: %llu events lost, %lu starts or ends unpaired on the reproducer's tasks, %lu counter reads failed (trace buffer %llu KiB per CPU at the end)",
			   i + 1, c->name, f->lost, f->unpaired,
			   f->read_errors, r->buffer_kb);
	}
	return o;
}

static void bench_verdict(struct rr_result *r, const struct rr_case_result *s)
{
	const char *sl = rr_case_label(s);
	double per = gib(s) > 0 ? s->latency.max / gib(s) : 0;
	struct rr_tally t;
	size_t o;

	if (r->bench_ms_per_gb <= 0) {
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "a benchmark, nothing judged: %s case max %.3f ms, %.1f ms per GiB (give a bound to judge it)",
			       sl, s->latency.max, per);
		return;
	}
	rr_runs_tally(r, &t);
	switch (rr_runs_decide(&t, r->runs_asked, r->runs)) {
	case RR_DECIDE_REPRODUCED:
		r->runs_agreeing = t.reproduced;
		rr_set_verdict(r, RR_REPRODUCED,
			       "%u of %u runs: %s case over the bound of %g ms per GiB (max %.1f to %.1f ms per GiB)",
			       t.reproduced, t.made, sl, r->bench_ms_per_gb,
			       t.subject_lo / gib(s), t.subject_hi / gib(s));
		break;
	case RR_DECIDE_NOT_REPRODUCED:
		r->runs_agreeing = t.not_reproduced;
		rr_set_verdict(r, RR_NOT_REPRODUCED,
			       "%u of %u runs: %s case within the bound of %g ms per GiB (max %.1f to %.1f ms per GiB)",
			       t.not_reproduced, t.made, sl,
			       r->bench_ms_per_gb, t.subject_lo / gib(s),
			       t.subject_hi / gib(s));
		break;
	default:
		rr_set_verdict(r, RR_INCONCLUSIVE,
			       "runs disagree: %u of %u over the bound of %g ms per GiB; no two-thirds majority in %u runs",
			       t.reproduced, t.made, r->bench_ms_per_gb,
			       t.made);
		return;
	}
	o = strlen(r->reason);
	dissent(r->reason, sizeof(r->reason), o, &t, r->runs_agreeing);
}

/* reproduced or not by the majority: the reason */
static void majority_reason(struct rr_result *r, const struct rr_tally *t,
			    bool reproduced, const char *ctl)
{
	const struct rr_case_result *s = rr_result_subject(r);
	const char *sl = rr_case_label(s);
	const char *m = r->judge_calls ? "longest trigger call" : "max";
	unsigned int k = reproduced ? t->reproduced : t->not_reproduced;
	char *b = r->reason;
	size_t n = sizeof(r->reason), o;

	r->verdict = reproduced ? RR_REPRODUCED : RR_NOT_REPRODUCED;
	r->runs_agreeing = k;
	o = snprintf(b, n, "%u of %u run%s: %s case %s ", k, t->made,
		     t->made == 1 ? "" : "s", sl, m);
	if (reproduced)
		o = add(b, n, o,
			"over %.3g ms and at least %.3gx the controls' %s in the same run (%s ",
			r->threshold_ms, r->min_ratio, m, sl);
	else if (!t->under_ratio)
		o = add(b, n, o, "within %.3g ms (%s ", r->threshold_ms, sl);
	else if (!t->within)
		o = add(b, n, o,
			"over %.3g ms but less than %.3gx the controls' (%s ",
			r->threshold_ms, r->min_ratio, sl);
	else
		o = add(b, n, o,
			"within %.3g ms in %u, over it but less than %.3gx the controls' in %u (%s ",
			r->threshold_ms, t->within, r->min_ratio,
			t->under_ratio, sl);
	o = range(b, n, o, t->subject_lo, t->subject_hi, "ms");
	o = add(b, n, o, "; controls' %s over the runs: %s)", m, ctl);
	o = dissent(b, n, o, t, k);
	if (t->incomplete) {
		o = add(b, n, o, "; lost figures: ");
		losses(r, b, n, o);
	}
}

static void runs_verdict(struct rr_result *r, const char *ctl)
{
	const struct rr_case_result *s = rr_result_subject(r);
	struct rr_tally t;
	size_t o;

	rr_runs_tally(r, &t);
	switch (rr_runs_decide(&t, r->runs_asked, r->runs)) {
	case RR_DECIDE_REPRODUCED:
		majority_reason(r, &t, true, ctl);
		return;
	case RR_DECIDE_NOT_REPRODUCED:
		majority_reason(r, &t, false, ctl);
		return;
	case RR_DECIDE_INCOMPLETE:
		rr_set_verdict(r, RR_ERROR,
			       "figures incomplete: %u of %u runs lost figures and did not reproduce, and the others give no two-thirds majority: ",
			       t.incomplete, t.made);
		o = strlen(r->reason);
		losses(r, r->reason, sizeof(r->reason), o);
		return;
	default:
		rr_set_verdict(r, RR_INCONCLUSIVE,
			       "runs disagree: %u of %u reproduced (%s case %s over %.3g ms and at least %.3gx the controls'), %u did not, %u incomplete, %u with nothing to compare: no two-thirds majority in %u runs (--max-runs %u)",
			       t.reproduced, t.made, rr_case_label(s),
			       r->judge_calls ? "longest trigger call" :
			       "max", r->threshold_ms, r->min_ratio,
			       t.not_reproduced, t.incomplete, t.unjudged,
			       t.made, r->max_runs);
	}
}

void rr_verdict_compute(struct rr_result *r)
{
	struct rr_case_result *s = rr_result_subject(r);
	char ctl[256] = "", unreached[256] = "";
	struct rr_run_judgement j;
	unsigned int i;
	size_t o;

	if (r->verdict == RR_SKIP || r->verdict == RR_ERROR)
		return;
	if (!s) {
		rr_set_verdict(r, RR_ERROR, "no subject case was run");
		return;
	}
	for (i = 0; i < (unsigned int)r->nr_cases; i++)
		if (r->cases[i].refused[0]) {
			rr_set_verdict(r, RR_SKIP, "%s case: %s",
				       rr_case_label(&r->cases[i]),
				       r->cases[i].refused);
			return;
		}
	if (!cases_usable(r, s, ctl, sizeof(ctl), unreached,
			  sizeof(unreached)))
		return;
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++) {
		rr_run_judge(r, i, &j);
		r->run_verdict[i] = j.v;
	}
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
	if (unreached[0])
		add(ctl, sizeof(ctl), o, "; not reached: %s", unreached);
	runs_verdict(r, ctl);
	o = strlen(r->reason);
	if (s->oracle.ran)
		add(r->reason, sizeof(r->reason), o,
		    "; oracle %s: %llu pages, %llu mappings checked",
		    rr_oracle_failed(&s->oracle) ? "FAILED (not judged)" :
		    "clean", s->oracle.pages_checked,
		    s->oracle.mappings_checked);
}

void rr_evidence_compute(struct rr_result *r, const double *const *v,
			 const size_t *n)
{
	const struct rr_case_result *s = rr_result_subject(r);
	int si, i;

	if (!s)
		return;
	si = s - r->cases;
	for (i = 0; i < r->nr_cases; i++) {
		struct rr_case_test *t = &r->cases[i].test;

		memset(t, 0, sizeof(*t));
		if (i == si || !n[si] || !n[i])
			continue;
		if (rr_mwu(v[si], n[si], v[i], n[i], &t->mwu) ||
		    rr_ratio_ci(v[si], n[si], v[i], n[i], &t->ratio))
			continue;
		t->ran = true;
	}
}

bool rr_measured_only(const struct rr_result *r)
{
	return r->policy == RR_POLICY_BENCHMARK && !(r->bench_ms_per_gb > 0) &&
	       r->verdict == RR_NOT_REPRODUCED;
}

/* Ran, measured by the probe, and no error. */
static bool clean(const struct rr_case_result *c)
{
	return c->ran && c->latency.count && !c->error[0];
}

double rr_ratio_to_controls(const struct rr_result *r)
{
	const struct rr_case_result *s = rr_result_subject(r);
	double cmax = -1;
	int i;

	if (!s || !clean(s) || !rr_judged(r, s)->count)
		return -1;
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		const struct rr_stats *st = rr_judged(r, c);

		if (c->role == RR_CONTROL && clean(c) && st->count &&
		    st->max > cmax)
			cmax = st->max;
	}
	return cmax > 0 ? rr_judged(r, s)->max / cmax : -1;
}

const struct rr_case_result *rr_evidence_case(const struct rr_result *r)
{
	const struct rr_case_result *best = NULL;
	int i;

	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		const struct rr_case_test *t = &c->test;

		if (!t->ran)
			continue;
		/* the nearest: the smallest ratio, else the largest p */
		if (!best) {
			best = c;
		} else if (t->ratio.defined) {
			if (!best->test.ratio.defined ||
			    t->ratio.ratio < best->test.ratio.ratio)
				best = c;
		} else if (!best->test.ratio.defined &&
			   t->mwu.p_greater > best->test.mwu.p_greater) {
			best = c;
		}
	}
	return best;
}

/* 1036.4 -> "1,036"; 12.34 -> "12.3"; 0.5 -> "0.50" */
static void ratio_words(double x, char *buf, size_t size)
{
	char digits[32];
	size_t len, o = 0, i;

	if (isinf(x)) {
		snprintf(buf, size, "unbounded");
		return;
	}
	if (x < 10) {
		snprintf(buf, size, "%.2f", x);
		return;
	}
	if (x < 100) {
		snprintf(buf, size, "%.1f", x);
		return;
	}
	len = snprintf(digits, sizeof(digits), "%.0f", x);
	for (i = 0; i < len && o + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static void p_words(double p, char *buf, size_t size)
{
	if (p < 1e-12)
		snprintf(buf, size, "p < 1e-12");
	else
		snprintf(buf, size, "p = %.2g", p);
}

void rr_evidence_text(const struct rr_result *r, char *buf, size_t size)
{
	const struct rr_case_result *c = rr_evidence_case(r);
	const struct rr_case_result *s = rr_result_subject(r);
	const struct rr_case_test *t;
	char a[32], lo[32], hi[32], p[32];
	size_t o = 0;

	buf[0] = '\0';
	if (!c || !s)
		return;
	t = &c->test;
	if (t->ratio.defined) {
		ratio_words(t->ratio.ratio, a, sizeof(a));
		ratio_words(t->ratio.lo, lo, sizeof(lo));
		ratio_words(t->ratio.hi, hi, sizeof(hi));
		o = add(buf, size, o,
			"ratio of medians %sx, 95%% CI [%sx, %sx] (bootstrap, %u resamples), ",
			a, lo, hi, t->ratio.iters);
	} else {
		o = add(buf, size, o,
			"ratio of medians undefined (the %s case's median is 0), ",
			c->name);
	}
	p_words(t->mwu.p_greater, p, sizeof(p));
	o = add(buf, size, o,
		"%s case against %s%s; Mann-Whitney U one-sided %s (%s, %zu against %zu %s): %s",
		rr_case_label(s), c->name,
		r->nr_cases > 2 ? ", the control with the smallest ratio" : "", p,
		rr_mwu_method_names[t->mwu.method], t->mwu.nx, t->mwu.ny,
		r->judge_calls ? "calls" : "samples",
		t->mwu.p_greater < RR_ALPHA ?
		"longer, significant at 1%" : "not significantly longer at 1%");
	if (t->mwu.p_min >= RR_ALPHA)
		add(buf, size, o,
		    " (so few samples cannot give p below %.2g: more runs can)",
		    t->mwu.p_min);
}

void rr_runs_text(const struct rr_result *r, char *buf, size_t size)
{
	struct rr_run_judgement j;
	struct rr_tally t;
	unsigned int i;
	size_t o;

	buf[0] = '\0';
	if (!r->runs)
		return;
	rr_runs_tally(r, &t);
	o = add(buf, size, 0,
		"%u made (--runs %u, --max-runs %u): %u reproduced, %u not, %u incomplete, %u with nothing to compare",
		r->runs, r->runs_asked, r->max_runs, t.reproduced,
		t.not_reproduced, t.incomplete, t.unjudged);
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++) {
		rr_run_judge(r, i, &j);
		o = add(buf, size, o, "; run %u %s", i + 1,
			rr_run_verdict_names[j.v]);
		if (j.subject >= 0)
			o = add(buf, size, o, " %.3f", j.subject);
		if (j.worst >= 0)
			o = add(buf, size, o, " vs %.3f", j.worst);
	}
	add(buf, size, o, " (the subject's largest figure against the controls' largest, ms)");
}
