/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The victim: a thread that, while a trigger runs, toggles the protection
 * of one page inside the split mapping. Each mprotect() there merges or
 * splits VMAs, which needs the mapping's rmap lock (anon_vma or i_mmap)
 * for write, so it waits for any walk holding that lock: its latency is
 * the user-visible cost of the walk, measured with CLOCK_MONOTONIC.
 * A pattern may give it another call to time (rr_victim_op: mmap() and
 * munmap() of a file, a library-like load), which needs the same lock.
 */
#ifndef RR_VICTIM_H
#define RR_VICTIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

/* A call the victim times instead of toggling the page's protection. */
struct rr_victim_op {
	const char *call;		/* the call timed: "mmap() + munmap()" */
	const char *what;		/* what it does, the lock it needs */
	int (*fn)(void *arg, unsigned long i);	/* call i: 0 or -errno */
	void *arg;
	/*
	 * A call that runs in processes it starts (exec()): is pid one of
	 * them? Their lock waits are then the victim's, and lock waits
	 * are recorded for every task. NULL: the thread's own calls.
	 */
	bool (*owns)(void *arg, int pid);
};

struct rr_victim {
	pthread_t thread;
	char *page;
	const struct rr_victim_op *op;	/* NULL: mprotect() of page */
	int tid;
	pthread_mutex_t lock;
	int state;		/* 0 parked, 1 toggling, 2 exit */
	double *lat;		/* ms, preallocated and locked */
	size_t n, cap;
	unsigned long errors;
	unsigned long begun;	/* calls begun, under the lock */
	/* the longest call since the last take: its start and length */
	uint64_t long_t0, long_ns;
	bool truncated;
	bool started;
};

/*
 * Start the thread parked; its tid is known on return. op NULL: it
 * toggles page's protection.
 */
int rr_victim_start(struct rr_victim *v, char *page,
		    const struct rr_victim_op *op);
/*
 * Let the thread toggle; returns once its first call has begun (within
 * 10 ms), so that a trigger shorter than the thread's wake-up still
 * overlaps one call: every pass times at least one.
 */
void rr_victim_go(struct rr_victim *v);
/* Park the thread again; samples stay until taken. */
void rr_victim_pause(struct rr_victim *v);
/* Move the samples into out and reset (the longest call too). */
void rr_victim_take(struct rr_victim *v, struct rr_samples *out);
void rr_victim_stop(struct rr_victim *v);
/* Is pid the victim thread, or a process its call started? */
bool rr_victim_is(const struct rr_victim *v, int pid);

#endif
