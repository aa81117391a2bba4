// SPDX-License-Identifier: GPL-2.0
/*
 * What the runner (core/runner.c), the measuring body (measure/) and the
 * triggers share: the common options' values (rr_cfg, repro.h) and the
 * phase the run is in. Here, below them all, so that none depends on
 * the runner that forks the body.
 */
#include <stdarg.h>
#include <stdio.h>

#include "journal/fault.h"
#include "model/repro.h"
#include "probe/probe.h"

struct rr_config rr_cfg = {
	.runs = 3,
	.attempts = 10,
	.threshold_ms = 10,
	.min_ratio = 5,
	.format = RR_FMT_TEXT,
	.timeout_s = 600,
	.min_free_mb = 512,
	.buffer_kb = 8192,
	.victim = RR_VICTIM_AUTO,
	.probe = RR_PROBE_AUTO,
};

void rr_phase(struct rr_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->phase, sizeof(res->phase), fmt, ap);
	va_end(ap);
	/* a test may hold the run here, for its signal (fault.h) */
	rr_test_hold(res->phase);
}

bool rr_victim_none(char *why, size_t len)
{
	if (rr_cfg.victim == RR_VICTIM_AUTO)
		rr_cfg.victim = RR_VICTIM_OFF;
	if (rr_cfg.victim == RR_VICTIM_OFF)
		return true;
	snprintf(why, len,
		 "--victim %s: this reproducer has no victim thread (its pattern has no rmap lock for one to wait on)",
		 rr_victim_names[rr_cfg.victim]);
	return false;
}
