/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Report output: human text that fits 72 columns (for mail), KTAP for
 * kselftest runners, and JSON for tools (schema: docs/results.md). Each
 * writes its frame (the verdict, the runs, the judged figure, the
 * machine, safety) and, in between, every figure of figure/figure.h in
 * the list's order.
 */
#ifndef RR_REPORT_H
#define RR_REPORT_H

#include <stdio.h>

#include "model/result.h"

void rr_report_text(FILE *f, const struct rr_result *r);
void rr_report_ktap(FILE *f, const struct rr_result *r);
void rr_report_json(FILE *f, const struct rr_result *r);

#endif
