// SPDX-License-Identifier: GPL-2.0
/*
 * What the runner (runner.c) and the measuring body (measure.c) share:
 * the common options' values and the phase the run is in. Kept apart so
 * that the body does not depend on the runner that forks it.
 */
#include <stdarg.h>
#include <stdio.h>

#include "model/repro.h"
#include "probe/probe.h"
#include "trigger/trigger.h"

struct rr_config rr_cfg = {
	.runs = 3,
	.attempts = 10,
	.trigger = RR_TRIG_AUTO,
	.threshold_ms = 10,
	.min_ratio = 5,
	.format = RR_FMT_TEXT,
	.timeout_s = 600,
	.swap_mb = 256,
	.min_free_mb = 512,
	.buffer_kb = 8192,
	.compact_node = "all",
	.victim = RR_VICTIM_AUTO,
	.probe = RR_PROBE_AUTO,
};

void rr_phase(struct rr_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->phase, sizeof(res->phase), fmt, ap);
	va_end(ap);
}
