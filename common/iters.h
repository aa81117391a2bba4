/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting interval-tree steps inside the walks (--iterations): an
 * unfixed KSM walk visits every VMA of the anon_vma for each rmap_item,
 * millions of steps. Each step is a call of anon_vma_interval_tree_iter_
 * first() (one per rmap_item) or _next(); kprobes of the suite's group on
 * both feed hist triggers keyed by task, so the counting happens in the
 * kernel and nothing per step reaches the ring buffer. The probes slow
 * the walks down: the counting pass is separate and says by how much.
 */
#ifndef RR_ITERS_H
#define RR_ITERS_H

#include <stdbool.h>
#include <stddef.h>

#include "trace.h"

bool rr_iters_available(char *why, size_t len);
/* Create the kprobes (journaled; before the instance exists). */
int rr_iters_prepare(char *why, size_t len);
/* Start counting the steps of one task in the instance. */
int rr_iters_arm(struct rr_trace *t, int pid, char *why, size_t len);
/* Read the counts of that task and stop counting. */
int rr_iters_read(struct rr_trace *t, int pid, unsigned long long *first,
		  unsigned long long *next);
/* Sum the hitcount of a task's entries in a hist file's text. */
unsigned long long rr_hist_hitcount(const char *text, int pid);

#endif
