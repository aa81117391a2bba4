/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How busy the host was in each run (result.h's cpu_pressure, from
 * mm/psi.h), in the words of the three formats. A run is under heavy
 * CPU pressure when some task waited for a CPU RR_CPU_HEAVY_PCT percent
 * of its time or more: a task taken off the CPU inside a measured
 * interval makes that interval look long, so a verdict decided then
 * says so (docs/results.md, "A busy host"). Measured here: a quick run
 * on an idle host about 10% (its own tasks), the same beside stress-ng
 * --cpu 2 about 58%.
 */
#ifndef RR_MODEL_HOSTCPU_H
#define RR_MODEL_HOSTCPU_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"

#define RR_CPU_HEAVY_PCT 25.0
/* where the figure comes from, in the JSON's words */
#define RR_CPU_PRESSURE_SOURCE "/proc/pressure/cpu, some: the share of each run's wall time in which some task waited for a CPU"

/* The run (from 0) with the highest known pressure, or -1. */
int rr_cpu_pressure_max(const struct rr_result *r);
/* Was some run of r under heavy CPU pressure? */
bool rr_cpu_pressure_heavy(const struct rr_result *r);
/* The sentence of the Host CPU line; "" when no run was made. */
void rr_cpu_pressure_text(const struct rr_result *r, char *buf, size_t size);

#endif
