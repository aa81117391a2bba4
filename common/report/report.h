/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Report output: human text that fits 72 columns (for mail), KTAP for
 * kselftest runners, and JSON for tools (schema: docs/results.md).
 */
#ifndef RR_REPORT_H
#define RR_REPORT_H

#include <stdio.h>

#include "model/result.h"

void rr_report_text(FILE *f, const struct rr_result *r);
void rr_report_ktap(FILE *f, const struct rr_result *r);
void rr_report_json(FILE *f, const struct rr_result *r);

/* Shared wording, so that the three formats say the same thing. */
/* A case in words: the reproducer's, or its pages, walk and role. */
void rr_case_what(const struct rr_case_result *c, char *buf, size_t len);
/*
 * For a trigger that times its own calls: the calls' total, the part
 * timed apart (where it was), the walks the probe timed inside them, and
 * the rest, ms. false: no call timed.
 */
struct rr_split {
	double calls, part, walks, rest;
	bool part_timed;
	char part_why[192];		/* the part is not timed: why */
};

bool rr_call_split(const struct rr_result *r, const struct rr_case_result *c,
		   struct rr_split *sp);
/* How the trigger's part is timed, or why it is not, in words. */
void rr_part_text(const struct rr_result *r, char *buf, size_t size);
/* The split in words ("" with no call timed). */
void rr_split_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size);
/* A trigger that works anywhere: who ran the case's counted intervals. */
void rr_walkers_text(const struct rr_result *r, const struct rr_case_result *c,
		     char *buf, size_t size);
void rr_reach_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size);
/* --probe-cost and --iterations of a case, one sentence each ("" if
 * not run). */
void rr_cost_text(const struct rr_result *r, const struct rr_case_result *c,
		  char *buf, size_t size);
void rr_iter_text(const struct rr_result *r, const struct rr_case_result *c,
		  char *buf, size_t size);
/* The steps by caller, "; by caller ...", or "" where not counted. */
void rr_callers_text(const struct rr_iter_callers *cl, char *buf,
		     size_t size);
/*
 * --iterations with a walk-level probe: the mean walk of the probe's
 * pass over the mean steps per walk of the counting pass, us per
 * interval-tree step; < 0 where it cannot be had.
 */
double rr_step_cost_us(const struct rr_result *r,
		       const struct rr_case_result *c);
/* Which clock times a probe's samples. */
const char *rr_probe_clock(int bracket);
/*
 * The lock waits of a case (probe/waits.h): the victim's longest stall
 * and the part of it spent waiting, its waits in all and on which locks,
 * then the trigger's tasks' ("" where none were recorded).
 */
void rr_waits_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size);
/*
 * The give-ups in the case: folio_referenced() returning -1, with
 * the victim running and without ("" where not counted).
 */
void rr_giveups_text(const struct rr_result *r,
		     const struct rr_case_result *c, char *buf, size_t size);
/*
 * --victim-alone: the victim's rate of calls with no trigger and during
 * the firings ("" where it did not run alone).
 */
void rr_rate_text(const struct rr_result *r, const struct rr_case_result *c,
		  char *buf, size_t size);
/* A rate of calls per second: count over seconds, or 0. */
double rr_rate(size_t count, double s);
/* How the waits are measured, and what they do not see. */
extern const char rr_waits_how[];
/* The text report's table of the waits (nothing if not recorded). */
void rr_waits_table(FILE *f, const struct rr_result *r);
/* How the victim was run, in a sentence or three. */
void rr_victim_text(const struct rr_result *r, char *buf, size_t size);
/* "[128 ms, 256 ms)" */
void rr_hist_label(int b, char *buf, size_t size);

#endif
