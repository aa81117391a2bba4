/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Machine-wide memory pressure, bounded: stress-ng's vm workers lock
 * memory (MAP_LOCKED, so that reclaim cannot take it back) until free
 * memory sinks a third of the way from the min watermark to the low one.
 * kswapd then wakes and, finding little else to reclaim, scans every
 * evictable page of the machine, the pattern's among them, trying to
 * get back to the high watermark; an allocation that goes below the
 * min watermark reclaims directly. The watermarks are raised
 * (vm.watermark_scale_factor, journaled) so that the gap between min
 * and low holds four times the --min-free-mb floor: free memory then
 * stays above the floor while the load holds its memory, well below
 * the low watermark even if the load locks a little less than asked,
 * and the watch stops the load at once if it goes below the floor.
 *
 * stress-ng runs in a memory cgroup of its own (journaled; a replay
 * kills what is left in it), limited a little above what it locks,
 * with oom_score_adj 1000 and no OOM adjustment of its own, and dies
 * with the process that started it.
 */
#ifndef RR_PRESSURE_H
#define RR_PRESSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "mm/memcg.h"

/* Watermarks summed over the zones that have memory, in KiB. */
struct rr_watermarks {
	unsigned long long min_kb, low_kb, high_kb;
	/* what lower zones keep back from a movable allocation */
	unsigned long long reserve_kb;
	unsigned long long managed_kb;
};

/* Parse /proc/zoneinfo text (page size in KiB): 0, or -EINVAL. */
int rr_zoneinfo_parse(const char *text, unsigned long long page_kb,
		      struct rr_watermarks *w);
int rr_watermarks_read(struct rr_watermarks *w);

/*
 * vm.watermark_scale_factor that makes the min-to-low gap floor_kb x 4,
 * given the current one (never lower, at most 3000): returns wsf_now
 * when the gap is wide enough already.
 */
unsigned long rr_pressure_wsf(const struct rr_watermarks *w,
			      unsigned long wsf_now,
			      unsigned long long floor_kb);

/*
 * How much the load locks: free memory down to a third of the way from
 * the min to the low watermark (above what lower zones keep back). 0
 * with why when that would leave less than floor_kb free.
 */
unsigned long long rr_pressure_bytes(const struct rr_watermarks *w,
				     unsigned long long free_kb,
				     unsigned long long floor_kb, char *why,
				     size_t len);

/* A running load. */
struct rr_load {
	pid_t pid;			/* stress-ng's main process */
	FILE *log;			/* its output */
	char cmd[256];			/* its command line */
	unsigned long long bytes;
	int workers;
};

/* The stress-ng vm workers that lock bytes, in cg. */
int rr_load_start(struct rr_load *l, const struct rr_memcg *cg,
		  unsigned long long bytes, int workers, unsigned int secs,
		  char *why, size_t len);
/* Has the load exited before it was stopped? why then says how. */
bool rr_load_exited(struct rr_load *l, char *why, size_t len);
/* Kill every task in cg and reap the load; true if it had exited. */
bool rr_load_stop(struct rr_load *l, const struct rr_memcg *cg);

/*
 * kswapd gives up on a node after 16 runs that reclaim nothing, and only
 * reclaim progress revives it (shrink_node() resets kswapd_failures): a
 * machine that was under pressure before may have a dormant kswapd that
 * no watermark wakes. A memcg reclaim of 4 MiB of clean, unmapped page
 * cache in a scratch group (no rmap walk: the pages are not mapped) is
 * such progress: the calling process writes it from the scratch group,
 * then goes back to its home group. how says what was reclaimed.
 */
int rr_kswapd_revive(const struct rr_memcg *scratch,
		     const struct rr_memcg *home, char *how, size_t len);

#endif
