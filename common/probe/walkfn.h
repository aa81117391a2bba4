/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel functions that do rmap walks, one per page type, found by
 * name in /proc/kallsyms (with compiler suffixes such as .isra.0; some
 * kernels inline rmap_walk_file into rmap_walk and keep __rmap_walk_file).
 * The function_graph and kprobe probes attach to them.
 */
#ifndef RR_WALKFN_H
#define RR_WALKFN_H

#include <stdbool.h>
#include <stddef.h>

#include "pattern/pattern.h"

struct rr_walkfn {
	enum rr_page_type type;
	char name[128];		/* as in kallsyms, suffix included */
	unsigned long addr;	/* 0 when kallsyms hides addresses */
	bool found;
};

/* Candidate names of one page type's function, best first. */
#define RR_FN_CANDS 3

/* Does a kallsyms line name `base` or `base.<suffix>`? */
bool rr_ksym_match(const char *sym, const char *base);
/*
 * Resolve the walk function of every page type from a kallsyms text.
 * Returns how many were found.
 */
int rr_walkfn_parse(const char *kallsyms, struct rr_walkfn fns[RR_PT_MAX]);
/* Same from /proc/kallsyms. */
int rr_walkfn_resolve(struct rr_walkfn fns[RR_PT_MAX]);
/*
 * Any functions, one per page type: cands[type] lists the names to look
 * for, best first (NULL-terminated when shorter). Returns how many types
 * got one.
 */
int rr_fn_parse(const char *kallsyms, const char *const cands[][RR_FN_CANDS],
		struct rr_walkfn fns[RR_PT_MAX]);
int rr_fn_resolve(const char *const cands[][RR_FN_CANDS],
		  struct rr_walkfn fns[RR_PT_MAX]);
/* The page type of a traced function address, or -1. */
int rr_walkfn_type(const struct rr_walkfn fns[RR_PT_MAX], unsigned long ip);

#endif
