// SPDX-License-Identifier: GPL-2.0
/* The host's CPU pressure in each run, in words (hostcpu.h). */
#include <stdio.h>

#include "model/hostcpu.h"

int rr_cpu_pressure_max(const struct rr_result *r)
{
	unsigned int i;
	int max = -1;

	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++)
		if (r->cpu_pressure[i] >= 0 &&
		    (max < 0 || r->cpu_pressure[i] > r->cpu_pressure[max]))
			max = i;
	return max;
}

bool rr_cpu_pressure_heavy(const struct rr_result *r)
{
	int i = rr_cpu_pressure_max(r);

	return i >= 0 && r->cpu_pressure[i] >= RR_CPU_HEAVY_PCT;
}

void rr_cpu_pressure_text(const struct rr_result *r, char *buf, size_t size)
{
	int max = rr_cpu_pressure_max(r);
	unsigned int i;
	size_t o;

	buf[0] = '\0';
	if (!r->runs || !size)
		return;
	if (max < 0) {
		snprintf(buf, size, "not known: %s",
			 r->cpu_pressure_why[0] ? r->cpu_pressure_why :
			 "no run was measured");
		return;
	}
	o = snprintf(buf, size, "some task on this machine waited for a CPU during");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS && o < size; i++) {
		if (r->cpu_pressure[i] >= 0)
			o += snprintf(buf + o, size - o, "%s %.1f%% of run %u",
				      i ? "," : "", r->cpu_pressure[i], i + 1);
		else
			o += snprintf(buf + o, size - o, "%s run %u: not known",
				      i ? "," : "", i + 1);
	}
	if (o >= size)
		return;
	o += snprintf(buf + o, size - o,
		      " (/proc/pressure/cpu, some; every task counts, the run's own too)");
	if (o >= size)
		return;
	if (r->cpu_pressure[max] >= RR_CPU_HEAVY_PCT)
		snprintf(buf + o, size - o,
			 "; run %d at %.1f%% is heavy (%.0f%% or more): a task taken off the CPU inside a measured interval makes it look long, so this verdict was decided under heavy CPU pressure; run it again on an idle host, or in a guest with scripts/vm-run --exact",
			 max + 1, r->cpu_pressure[max], RR_CPU_HEAVY_PCT);
	else
		snprintf(buf + o, size - o,
			 "; under %.0f%% in every run: not a busy host",
			 RR_CPU_HEAVY_PCT);
}
