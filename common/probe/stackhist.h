/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hist triggers keyed by the kernel stack: the kernel groups an event's
 * hits by the call chain that led to it, so who called is counted with
 * nothing per hit in the ring buffer. The victim's lock waits (waits.c)
 * and the steps by caller (iters.c) both read them.
 */
#ifndef RR_STACKHIST_H
#define RR_STACKHIST_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/trace.h"

/*
 * Append "hist:keys=STACK:vals=hitcount<opts> if common_pid == pid" to an
 * event's trigger file in the instance. The key's name changed in Linux
 * 6.5 (stacktrace became common_stacktrace): the new one first.
 * -EOPNOTSUPP when the kernel takes neither.
 */
int rr_stackhist_arm(struct rr_trace *t, const char *system,
		     const char *event, const char *opts, int pid);

/* One entry of a stack hist as the hist file prints it. */
struct rr_stack_entry {
	const char *frames, *end;	/* its frame lines */
	unsigned long long hits;
};

/*
 * The next stack entry at or after *pos ("{ common_stacktrace:\n frame\n
 * ...} hitcount: N"), and *pos past it; false at the end. Entries of
 * other hists of the same event (keyed by pid, ...) are passed over.
 */
bool rr_stackhist_next(const char **pos, struct rr_stack_entry *e);
/*
 * The next frame's function of an entry ("rmap_walk_ksm" from
 * "  rmap_walk_ksm+0x12a/0x1e0"), and *p past its line; false after the
 * last.
 */
bool rr_stack_frame(const char **p, const struct rr_stack_entry *e,
		    char *name, size_t len);

#endif
