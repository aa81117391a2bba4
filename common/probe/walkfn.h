/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel functions that do rmap walks, one per page type, found by
 * role in /proc/kallsyms (probe/ksym.h: compiler suffixes such as .isra.0;
 * some kernels inline rmap_walk_file into rmap_walk and keep
 * __rmap_walk_file). The function_graph and kprobe probes attach to them.
 */
#ifndef RR_WALKFN_H
#define RR_WALKFN_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/ksym.h"

/* The walk function of each page type (ksym.h's roles). */
extern const enum rr_kfn rr_walk_kfns[RR_PT_MAX];

/*
 * Resolve the walk function of every page type from a kallsyms text.
 * Returns how many were found.
 */
int rr_walkfn_parse(const char *kallsyms, struct rr_walkfn fns[RR_PT_MAX]);
/* Same from /proc/kallsyms. */
int rr_walkfn_resolve(struct rr_walkfn fns[RR_PT_MAX]);
/* The page type of a traced function address, or -1. */
int rr_walkfn_type(const struct rr_walkfn fns[RR_PT_MAX], unsigned long ip);

#endif
