/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of a reproducer's cases, in the measuring child: build each
 * case's pattern, trigger, measure, check, for every run and pass
 * (measure.c); the meter (meter.h) and the oracle (oracle.h) beside it.
 */
#ifndef RR_MEASURE_H
#define RR_MEASURE_H

#include "model/repro.h"
#include "model/result.h"

struct rr_trigger_ops;
struct rr_meter_ops;

/* The measuring body, run in the child. */
void rr_body(const struct rr_repro *r, struct rr_result *res);
/*
 * The same with the trigger and the meter given: rr_body() passes the
 * trigger chosen in res->trigger and the tracefs meter.
 */
void rr_measure(const struct rr_repro *r, struct rr_result *res,
		const struct rr_trigger_ops *trig,
		const struct rr_meter_ops *meter);

#endif
