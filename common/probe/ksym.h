/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel functions the probes and the step counter hook, by role.
 * Kernels rename them: Linux 7.3 renamed the interval-tree helpers
 * (anon_vma_interval_tree_* to anon_rmap_tree_*, vma_interval_tree_* to
 * mapping_rmap_tree_*), and compilers clone or split functions
 * (.isra.0, .part.0). So a probe asks for a role, each role lists every
 * name it has had with the kernels that use it (docs/probes.md prints
 * the same table), and the lookup in /proc/kallsyms returns the symbol
 * found, suffix included, for the report to name.
 */
#ifndef RR_KSYM_H
#define RR_KSYM_H

#include <stdbool.h>
#include <stddef.h>

#include "pattern/pattern.h"

enum rr_kfn {
	RR_KFN_NONE,		/* a table's unused slot */
	RR_KFN_WALK_KSM,
	RR_KFN_WALK_ANON,
	RR_KFN_WALK_FILE,
	RR_KFN_ANON_FIRST,	/* the anon_vma tree's iterator */
	RR_KFN_ANON_NEXT,
	RR_KFN_FILE_FIRST,	/* the file mapping tree's iterator */
	RR_KFN_FILE_NEXT,
	RR_KFN_COLLECT_KSM,	/* memory_failure(): who maps the page */
	RR_KFN_COLLECT_ANON,
	RR_KFN_COLLECT_FILE,
	RR_KFN_REFERENCED,	/* reclaim's walk that may give up */
	RR_KFN_MAX
};

/* Names of one role, best first. */
#define RR_FN_CANDS 3

struct rr_kfn_name {
	const char *name;
	const char *kernels;	/* which kernels have it, for the docs */
};

struct rr_kfn_desc {
	const char *key;	/* short name: "anon_first" */
	const char *what;	/* one line for the docs */
	struct rr_kfn_name names[RR_FN_CANDS];
};

extern const struct rr_kfn_desc rr_kfns[RR_KFN_MAX];

/* A function found for a role (or for a page type's role). */
struct rr_walkfn {
	int type;		/* the slot: page type or index asked */
	char name[128];		/* as in kallsyms, suffix included */
	unsigned long addr;	/* 0 when kallsyms hides addresses */
	bool found;
};

/* Does a kallsyms name stand for `base` or a called clone of it? */
bool rr_ksym_match(const char *sym, const char *base);
/*
 * Resolve n roles from a kallsyms text: out[i] for roles[i]
 * (RR_KFN_NONE finds nothing). Returns how many were found.
 */
int rr_kfns_parse(const char *kallsyms, const enum rr_kfn *roles, int n,
		   struct rr_walkfn *out);
/* Same from /proc/kallsyms. */
int rr_kfns_resolve(const enum rr_kfn *roles, int n,
		     struct rr_walkfn *out);
/* Per page type: roles[type] (RR_PT_MAX slots). */
int rr_fn_parse(const char *kallsyms, const enum rr_kfn roles[RR_PT_MAX],
		struct rr_walkfn fns[RR_PT_MAX]);
int rr_fn_resolve(const enum rr_kfn roles[RR_PT_MAX],
		  struct rr_walkfn fns[RR_PT_MAX]);
/*
 * Which of n roles a kallsyms name stands for ("collect_procs_ksm+0x4f"
 * works too: the offset is cut), or RR_KFN_NONE.
 */
enum rr_kfn rr_kfn_of(const char *frame, const enum rr_kfn *roles, int n);
/* "a or b" (every name of a role), for a message. */
const char *rr_kfn_names(enum rr_kfn role, char *buf, size_t len);

#endif
