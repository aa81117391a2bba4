/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A family of processes that map a pattern: the measuring process forks
 * a tree of members (`children` per member, `depth` levels, as the
 * kernel selftest mm/rmap.c does); each member may first act on its
 * copy of the pattern (e.g. rewrite its pages), then forks its own
 * children, says it is ready and holds its mappings until it is reaped.
 * Members die with the measuring process (PR_SET_PDEATHSIG), and the
 * measuring process is their subreaper, so none outlives the run.
 */
#ifndef RR_FAMILY_H
#define RR_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

#include "pattern/pattern.h"

#define RR_FAMILY_MAX 1024

/* Members of a tree (not counting the measuring process), capped. */
unsigned long long rr_family_size(unsigned long long children,
				  unsigned long long depth);
/*
 * Does such a tree fit RR_FAMILY_MAX? why names the option given for
 * children (opt, without "--") when it does not.
 */
bool rr_family_fits(unsigned long long children, unsigned long long depth,
		    const char *opt, char *why, size_t len);

/*
 * Fork the family of p: every member runs prep(p) first (NULL: nothing;
 * it may only _exit() on failure). p->pids and p->nr_pids get the
 * members, p->vmas gains each member's VMAs of the pattern (counted in
 * /proc/PID/maps). On failure, what was forked is reaped.
 */
int rr_family_spawn(struct rr_pattern *p, unsigned long long children,
		    unsigned long long depth, void (*prep)(struct rr_pattern *),
		    char *why, size_t len);
/*
 * Ask member pid to madvise() the page at addr of its own mapping (the
 * kernel acts on the caller's page tables: MADV_HWPOISON poisons the
 * frame the member maps and kills it with SIGBUS). The member times the
 * call (CLOCK_MONOTONIC) in its SIGUSR1 handler, to the call's return
 * or to the SIGBUS it ended in, which then kills it as it would have.
 * Waits for the answer: 0, -ESRCH (not a member), -ECHILD (it died
 * without answering).
 */
struct rr_member_call {
	double ms;
	int err;		/* madvise()'s errno, 0 */
	bool sigbus;		/* ended in SIGBUS */
};

int rr_family_madvise(const struct rr_pattern *p, int pid, void *addr,
		      int advice, struct rr_member_call *out);
/*
 * Kill every member and reap it; nothing when there is no family. A
 * member the caller reaped itself is marked -1 in p->pids.
 */
void rr_family_reap(struct rr_pattern *p);

#endif
