/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers: kernel work that walks the rmap of the pattern's pages, run
 * synchronously in the reproducer's own context so that its brackets can
 * be told apart from the rest of the system's.
 *   compact  /proc/sys/vm/compact_memory or a node's compact file:
 *            migrates movable pages (two walks per page), but only those
 *            below where the compaction scanners meet, so it may miss the
 *            pattern; the probe counts how much of the pattern it moved.
 *   reclaim  reclaim forced on the reproducer's own memory cgroup, with
 *            swap: every page scanned is walked by folio_referenced(), and
 *            try_to_unmap() walks it again to swap it out.
 *   migrate  move_pages() of the pattern's pages to another NUMA node:
 *            two walks per page moved; needs two nodes with memory.
 */
#ifndef RR_TRIGGER_H
#define RR_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>

#include "memcg.h"
#include "pattern.h"

enum rr_trigger {
	RR_TRIG_AUTO,
	RR_TRIG_COMPACT,
	RR_TRIG_RECLAIM,
	RR_TRIG_MIGRATE,
	RR_TRIG_MAX
};

extern const char *const rr_trigger_names[];

bool rr_trigger_available(enum rr_trigger t, char *why, size_t len);
/*
 * Best available: migrate (the published trigger, one page at a time),
 * then reclaim (targets the pattern), then compaction (may miss it).
 */
enum rr_trigger rr_trigger_auto(char *why, size_t len);
/*
 * Does the trigger's walk back off when the rmap lock is contended?
 * Reclaim's folio_referenced() walks with trylock and gives up when a
 * writer waits, so a victim in the same pass keeps the walks short (and
 * the KSM pages unreclaimed): the victim then gets a pass of its own.
 */
bool rr_trigger_backs_off(enum rr_trigger t);
/*
 * Can the trigger miss the pattern altogether? Compaction migrates only
 * pages below where its two scanners meet; fresh pages often sit above.
 * The runner then rebuilds the pattern and fires again (--attempts).
 */
bool rr_trigger_may_miss(enum rr_trigger t);
/* The tracepoint bracket that measures the trigger. */
int rr_trigger_bracket(enum rr_trigger t);

struct rr_trigger_ctx {
	const struct rr_memcg *cg;		/* reclaim */
	unsigned long long reclaim_bytes;	/* reclaim */
	long compact_node;			/* compact: -1 = all */
	const struct rr_pattern *pattern;	/* migrate: its filled pages */
	unsigned long moved, failed;		/* migrate: outcome */
};

/* Run the trigger to completion; how describes what was done. */
int rr_trigger_fire(enum rr_trigger t, struct rr_trigger_ctx *ctx,
		    char *how, size_t len);

#endif
