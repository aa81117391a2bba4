/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict, decided on runs. Each run is judged on its own by the
 * rule: the subject's largest figure in that run (a walk's latency, or a
 * trigger call's where the reproducer judges calls) over threshold_ms
 * and at least min_ratio times the largest of every control reached in
 * the same run. The verdict is the one that at least two thirds of the
 * runs give, once --runs runs were complete; while the runs disagree,
 * more runs are made, up to --max-runs, and then the verdict is
 * inconclusive. A run whose figures are incomplete (events lost, a
 * start without its end on the reproducer's own tasks, a polled counter
 * not read) counts only if it reproduced: its walks that were seen are
 * real, but what it missed may have been the long one. It is made again
 * with a larger trace buffer; runs still incomplete at the end make the
 * run an error naming what was lost, unless the runs that were complete
 * reproduced.
 */
#ifndef RR_VERDICT_H
#define RR_VERDICT_H

#include "model/result.h"

/* A run's evidence of incomplete figures, and why not. */
bool rr_run_fig_lossy(const struct rr_result *r, const struct rr_run_fig *f);

/* One run judged by the rule. */
struct rr_run_judgement {
	enum rr_run_verdict v;
	double subject;			/* the subject's figure; < 0: none */
	double worst;			/* the controls' largest; < 0: none */
	bool over_threshold, over_ratio;
	int lossy_case;			/* a case with lost figures, or -1 */
};

void rr_run_judge(const struct rr_result *r, unsigned int run,
		  struct rr_run_judgement *j);

struct rr_tally {
	unsigned int made;		/* runs made and judged */
	unsigned int reproduced;	/* complete or not */
	unsigned int not_reproduced;	/* complete */
	unsigned int incomplete;	/* not reproduced, figures lost */
	unsigned int unjudged;		/* nothing to compare in it */
	/* of the not reproduced: within the threshold, or under the ratio */
	unsigned int within, under_ratio;
	double subject_lo, subject_hi;	/* the subject's run figures */
	double worst_hi;		/* the controls' largest figure */
};

enum rr_decision {
	RR_DECIDE_REPRODUCED,
	RR_DECIDE_NOT_REPRODUCED,
	RR_DECIDE_MORE,			/* another run is needed */
	RR_DECIDE_INCONCLUSIVE,		/* no majority in max runs */
	RR_DECIDE_INCOMPLETE,		/* ... because figures were lost */
};

/*
 * Pure: the decision after t->made runs, when want complete runs were
 * asked for and at most max may be made.
 */
enum rr_decision rr_runs_decide(const struct rr_tally *t, unsigned int want,
				unsigned int max);
/* The tally of runs 0 .. r->runs - 1. */
void rr_runs_tally(const struct rr_result *r, struct rr_tally *t);
/*
 * After a run: does the verdict need another (its runs disagree, or too
 * few were complete)? false when the verdict does not rest on the runs
 * (an error, the oracle, a benchmark without a bound).
 */
bool rr_runs_more(const struct rr_result *r);
/*
 * The verdict and its reason, from the cases' figures, unless the run
 * already ended in skip or error.
 */
void rr_verdict_compute(struct rr_result *r);
/*
 * The tests beside the verdict (signif.h): the subject's judged samples
 * against each control's, into the control's result. v[i], n[i]: case
 * i's samples, all of them.
 */
void rr_evidence_compute(struct rr_result *r, const double *const *v,
			 const size_t *n);
/*
 * The subject's largest judged figure over the largest of the controls
 * that measured cleanly (ran, intervals, no error), over all runs: the
 * ratio the rule bounds per run, for the whole run. < 0 where there is
 * no such subject figure, no such control, or the controls' is 0.
 */
double rr_ratio_to_controls(const struct rr_result *r);
/*
 * A benchmark given no bound (--max-ms-per-gb): it measured and judged
 * nothing. Its verdict stays not-reproduced (exit 0, KTAP ok), but the
 * text and run-all's summary say "measured", never a verdict.
 */
bool rr_measured_only(const struct rr_result *r);
/* The control the subject is nearest (the headline test), or NULL. */
const struct rr_case_result *rr_evidence_case(const struct rr_result *r);
/* The headline test in words ("" when none ran). */
void rr_evidence_text(const struct rr_result *r, char *buf, size_t size);
/* Each run's verdict and figures in words ("" before any run). */
void rr_runs_text(const struct rr_result *r, char *buf, size_t size);

#endif
