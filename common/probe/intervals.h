/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pairing of start/end events into intervals, per task, with a stack:
 * brackets nest (a reclaim pass inside a compaction run), a task can sleep
 * and move between CPUs inside one, and a trace can begin or end in the
 * middle of one. An end pops the innermost open start of the same bracket
 * and key on its task; ends without a start and starts without an end are
 * dropped and counted, never guessed.
 *
 * A sample is an interval measured by the kernel and reported in one
 * event (a duration field); it is taken as it is.
 *
 * A mark (e.g. a migration PTE set inside a migrate_pages batch) adds its
 * value to the innermost open interval of its bracket on its task: that is
 * how a bracket learns it touched the pattern under test.
 *
 * Events must be fed in timestamp order (libtracefs merges the per-CPU
 * buffers by timestamp).
 */
#ifndef RR_PAIR_H
#define RR_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rr_ev_kind {
	RR_EV_START,
	RR_EV_END,
	RR_EV_MARK,
	RR_EV_SAMPLE,	/* a whole interval in one event: value = length */
};

struct rr_event {
	uint64_t ts;		/* ns, from one clock for all CPUs */
	int pid;		/* task id */
	enum rr_ev_kind kind;
	int bracket;		/* which kind of interval */
	uint64_t key, key2;	/* pair a start with its end, 0 if unused */
	uint64_t value;		/* end: payload; mark: amount; sample: ns */
	bool exact;		/* end: value is the interval's length (ns) */
};

struct rr_interval {
	int bracket;
	int pid;
	uint64_t key, key2;
	uint64_t start, end;	/* ns */
	uint64_t marks;		/* sum of mark values inside */
	uint64_t end_value;	/* payload of the end event */
	bool exact;		/* end_value is the length, timed by the kernel */
};

struct rr_open {
	int bracket;
	uint64_t key, key2, start, marks;
};

struct rr_task_stack {
	int pid;
	struct rr_open *open;
	size_t n, cap;
};

struct rr_pairer {
	struct rr_task_stack *tasks;
	size_t nr_tasks, cap_tasks;
	struct rr_interval *iv;
	size_t nr_iv, cap_iv;
	unsigned long ends_without_start;
	unsigned long starts_without_end;
	unsigned long marks_outside;
	uint64_t last_ts;
	unsigned long out_of_order;
};

void rr_pairer_init(struct rr_pairer *p);
int rr_pairer_feed(struct rr_pairer *p, const struct rr_event *ev);
/* Count the starts still open as starts without an end. */
void rr_pairer_finish(struct rr_pairer *p);
void rr_pairer_free(struct rr_pairer *p);

#endif
