/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frames oracle, for triggers that move pages to new frames
 * (migration): before the trigger, note every mapping of the pattern's
 * filled pages, in this process and in its other processes (p->pids),
 * with its frame (pagemap) and a hash of its content; after it, group
 * the mappings by the frame they had and check that each frame moved,
 * that every mapping of it followed to one new frame (a mapping the rmap
 * walk missed stays behind), and that every content is intact.
 *
 * For a trigger that swaps pages out (reclaim: p->swaps_out), each
 * frame must instead have left memory with every mapping of it (a
 * mapping try_to_unmap() missed keeps the folio in: Hugh Dickins' case
 * of KSM pages moved by mremap), pswpout must have grown by at least
 * the pages that left (where the kernel counts it: not without VM event
 * counters), and each content must come back intact when read.
 */
#ifndef RR_ORACLE_H
#define RR_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/ksm.h"
#include "model/result.h"
#include "pattern/pattern.h"

struct rr_frames {
	size_t n;		/* mappings noted */
	char *base;		/* the pattern's start, for offsets */
	struct rr_page_ref *map;
	uint64_t *pfn;		/* each mapping's frame before */
	uint64_t *sum;		/* a hash of each mapping's page */
	bool ksm;		/* pages_sharing must not change */
	struct rr_ksm_counters before;
	bool swap;		/* judged for swap-out, not new frames */
	bool pswpout;		/* the kernel counts pswpout */
	unsigned long long swapped;	/* pswpout before */
};

/*
 * Note every present mapping of p's filled pages; with ksm, the KSM
 * counters too. -EPERM, with why, when pagemap hides frame numbers.
 */
int rr_frames_note(struct rr_frames *f, const struct rr_pattern *p,
		   bool ksm, char *why, size_t len);
/* Check what was noted against the mappings now, adding to o. */
int rr_frames_check(const struct rr_frames *f, struct rr_oracle *o);
void rr_frames_free(struct rr_frames *f);

/*
 * The judging itself, for the unit tests: f as noted, each mapping's
 * frame after (0: not present) and whether its content changed.
 */
void rr_frames_judge(const struct rr_frames *f, const uint64_t *after,
		     const bool *changed, struct rr_oracle *o);
/*
 * The same for swap-out: after[i] 0 when mapping i is not present;
 * swapped, what pswpout grew by meanwhile (ULLONG_MAX: not counted).
 */
void rr_frames_judge_swap(const struct rr_frames *f, const uint64_t *after,
			  const bool *changed, unsigned long long swapped,
			  struct rr_oracle *o);

/*
 * The oracle as a reproducer's verify_before() and verify(), kept in
 * p->frames (freed by rr_default_teardown()).
 */
struct rr_repro;
struct rr_case;
int rr_frames_before(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, char *why, size_t len);
int rr_frames_verify(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, struct rr_oracle *o, char *why,
		     size_t len);

#endif
