/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Polling a kernel counter, where no tracepoint marks an event (KSM's
 * full_scans before Linux 6.8 gave ksm_start_scan and ksm_stop_scan): a
 * thread of the measuring process reads the counter's file every period
 * (CLOCK_MONOTONIC) and keeps the time of each change. The time between
 * two successive changes by one is one period of the event (one full
 * scan of ksmd) to within a polling period at each end.
 */
#ifndef RR_POLL_H
#define RR_POLL_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

#define RR_POLL_PERIOD_US 1000

struct rr_poll {
	char path[PATH_MAX];
	uint64_t period_ns;
	pthread_t thread;
	bool running;
	volatile bool stop;
	/* [0]: the value at the start; then each change seen */
	uint64_t *ts;
	unsigned long long *val;
	size_t n, cap;
	unsigned long errors;		/* reads that failed */
};

/* Start the thread on path; reads it once first (0, or -errno). */
int rr_poll_start(struct rr_poll *p, const char *path, uint64_t period_ns);
/* Stop and join it; what it kept stays until rr_poll_free(). */
void rr_poll_stop(struct rr_poll *p);
void rr_poll_free(struct rr_poll *p);

struct rr_poll_result {
	unsigned long intervals;	/* between two changes seen */
	unsigned long counted;		/* a change by one: samples */
	unsigned long skipped;		/* by more than one: several events
					 * in one period, not told apart */
	bool partial;			/* the start to the first change: a
					 * part of a period, not a sample */
};

/*
 * The samples (ms) of n records (ts[0], val[0] the start, then changes):
 * the intervals that ended in a change by exactly one.
 */
void rr_poll_intervals(const uint64_t *ts, const unsigned long long *val,
		       size_t n, struct rr_samples *out,
		       struct rr_poll_result *res);

#endif
