/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DAMON through its sysfs interface (/sys/kernel/mm/damon/admin): one
 * kdamond of the suite's own, with one context of physical-address
 * operations (paddr) whose regions are frames the caller names. Each
 * sample, kdamond clears and then checks the accessed bit of one page of
 * each region (damon_folio_mkold / damon_folio_young), through rmap walks
 * built without try_lock: they never back off.
 *
 * The suite touches DAMON only where nobody uses its sysfs interface (no
 * kdamond configured): it journals the kdamond it adds (J_DAMON), and
 * the undo turns it off and removes it, which removes every setting
 * beneath it.
 */
#ifndef RR_DAMON_H
#define RR_DAMON_H

#include <stdbool.h>
#include <stddef.h>

/* Monitoring intervals, us (DAMON's own defaults: 5 ms, 100 ms, 1 s). */
struct rr_damon_attrs {
	unsigned long sample_us, aggr_us, update_us;
	unsigned long max_regions;
};

/* A physical address range [start, end), bytes. */
struct rr_damon_range {
	unsigned long long start, end;
};

/* "/sys/kernel/mm/damon/admin" under the sysfs root. */
const char *rr_damon_admin(void);
/*
 * Is the sysfs interface here and unused (no kdamond configured)?
 * Changes nothing; false: why.
 */
bool rr_damon_available(char *why, size_t len);
/*
 * Add kdamond 0 (journaled), with one paddr context and these
 * intervals, off. -ENODEV: no paddr operations (why says so).
 */
int rr_damon_setup(const struct rr_damon_attrs *a, char *why, size_t len);
/*
 * Frames (sorted here) to ranges of contiguous frames, at most max;
 * returns how many. Frames past max ranges are left out.
 */
size_t rr_damon_ranges(unsigned long long *pfn, size_t n, size_t page_size,
		       struct rr_damon_range *out, size_t max);
/* The context's regions, kdamond off. */
int rr_damon_set_regions(const struct rr_damon_range *r, size_t n);
/* Turn kdamond on or off ("off" returns once it has stopped). */
int rr_damon_state(bool on);
/* The running kdamond's pid, or -errno. */
int rr_damon_pid(void);

/* Its kind of journal record, and its undo handler (core/undo.c). */
#define J_DAMON		"damon"		/* DAMON admin dir: our kdamond */
struct journal_undo;
extern const struct journal_undo rr_undo_damon;

#endif
