/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting interval-tree steps inside the walks (--iterations): an
 * unfixed KSM walk visits every VMA of the anon_vma for each rmap_item,
 * millions of steps. Each step is a call of the tree's iter_first() (one
 * per rmap_item) or iter_next(): anon_vma_interval_tree_iter_* before
 * 7.3, anon_rmap_tree_iter_* since, and the file tree's for file pages
 * (probe/ksym.h finds them by role). Kprobes of the suite's group on
 * both feed hist triggers keyed by task, so the counting happens in the
 * kernel and nothing per step reaches the ring buffer. The probes slow
 * the walks down: the counting pass is separate and says by how much.
 *
 * Per rmap_item and per walk, where the kernel has synthetic events: a
 * kprobe on the case's walk function keeps the time each walk began in a
 * hist variable of its task (its id); iter_first() keeps the walk's id
 * and its own time (the rmap_item's id); it and every iter_next() fire
 * the synthetic event rmap_repro_step(wid, sid), and a hist keyed by both
 * counts them. The ids never leave the kernel's clock, and still nothing
 * per step reaches the ring buffer. A step made outside a walk of the
 * case's type (none in these patterns: every filled page is of that
 * type) would count for the task's previous walk.
 */
#ifndef RR_ITERS_H
#define RR_ITERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"
#include "pattern/pattern.h"
#include "probe/ksym.h"
#include "probe/trace.h"

#define RR_STEP_SYNTH "rmap_repro_step"

/* One rmap_item: its walk, when its iter_first() ran, its steps (calls). */
struct rr_item_count {
	uint64_t wid, sid;
	uint64_t steps;
};

/*
 * The steps by the function that made them: a hist keyed by the kernel
 * stack on each iterator, the first frame that is a walk or one of
 * memory_failure()'s collect functions (ksym.h) naming the caller. So a
 * memory_failure() call's steps in collect_procs_ksm() are told from
 * those of its unmapping walk, in the kernel, with nothing per step in
 * the ring buffer. [RR_KFN_NONE]: any other caller.
 */
struct rr_iter_callers {
	bool counted;			/* the stack hists were armed */
	unsigned long long first[RR_KFN_MAX], next[RR_KFN_MAX];
	char name[RR_KFN_MAX][64];	/* the frame seen, suffix included */
};

/* The callers told apart, in the report's order. */
extern const enum rr_kfn rr_iter_caller_roles[];
extern const int rr_iter_nr_callers;

/* Add a stack hist's text (one iterator's: first or not) to c. */
void rr_iter_callers_parse(const char *text, bool first,
			   struct rr_iter_callers *c);

struct rr_iter_counts {
	unsigned long long first, next;	/* the task's totals */
	struct rr_iter_callers callers;
	unsigned long long walks;	/* walks begun, when per item */
	struct rr_item_count *items;	/* per rmap_item, when armed so */
	size_t nitems;
	unsigned long long dropped;	/* rmap_items the hist had no room */
};

/* The iterators found, per tree, for the report ("A and B"). */
struct rr_iter_syms {
	bool found[2];		/* [0] the anon_vma tree, [1] the file's */
	struct rr_walkfn fn[2][2];	/* per tree: iter_first, iter_next */
	char fns[2][320];	/* the names, or why they are missing */
};

/* From a kallsyms text, or /proc/kallsyms when NULL. */
void rr_iters_syms(const char *kallsyms, struct rr_iter_syms *s);
/* The symbols a case of this page type is counted with. */
const char *rr_iters_case_fns(const struct rr_iter_syms *s,
			      enum rr_page_type type);
/* Can steps be counted here? s: the iterators found (report and prepare). */
bool rr_iters_available(struct rr_iter_syms *s, char *why, size_t len);
/*
 * Create the kprobes and, when the kernel has synthetic events, the step
 * event (journaled; before the instance exists). *per_item says whether
 * per-rmap_item counting is possible; if not, note says why.
 */
int rr_iters_prepare(const struct rr_iter_syms *s, bool *per_item,
		     char *note, size_t nlen, char *why, size_t len);
/*
 * Start counting the steps of one task in the instance. If the per-item
 * triggers are refused, *per_item becomes false, note says why, and the
 * totals are counted alone. With callers, the steps are also split by
 * caller (struct rr_iter_callers): a kernel stack per step makes the
 * counted walks several times slower again, so only where a trigger's
 * call holds more than its walks (memory_failure()'s collect_procs).
 */
int rr_iters_arm(struct rr_trace *t, int pid, enum rr_page_type type,
		 bool *per_item, bool callers, char *note, size_t nlen,
		 char *why, size_t len);
/* Read the counts of that task and stop counting. */
int rr_iters_read(struct rr_trace *t, int pid, enum rr_page_type type,
		  bool per_item, struct rr_iter_counts *out);
void rr_iter_counts_free(struct rr_iter_counts *c);
/* Sum the hitcount of a task's entries in a hist file's text. */
unsigned long long rr_hist_hitcount(const char *text, int pid);
/*
 * The entries of the hist keyed by wid and sid: the rmap_items, and the
 * "Dropped:" total. Returns the number of entries or -1.
 */
long rr_hist_items(const char *text, struct rr_item_count **out,
		   unsigned long long *dropped);
/*
 * Add each rmap_item's steps to per_item and each walk's (the sum of its
 * rmap_items') to per_walk; walks that reached no rmap_item (walks begun
 * beyond the walk ids seen) add 0. Returns the number of walks seen.
 */
size_t rr_iters_attribute(struct rr_item_count *items, size_t n,
			  unsigned long long walks, struct rr_samples *per_walk,
			  struct rr_samples *per_item);

#endif
