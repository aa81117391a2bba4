/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swap for reclaim of anonymous pages: reuse active swap if the machine
 * has some with room for the run, otherwise a zram device that the suite
 * hot-adds, formats, enables (ahead of a small active one) and, through
 * the journal, removes again. A device the suite did not create is never
 * swapped off or reset.
 */
#ifndef RR_SWAP_H
#define RR_SWAP_H

#include <stdbool.h>
#include <stddef.h>

struct rr_swap {
	char dev[64];
	bool created;			/* zram device made by the suite */
	unsigned long long size_kb;	/* of all active swap, if !created */
	unsigned long long used_kb;
	int top_prio;			/* the highest active priority, or
					 * if created beside, its own */
	int devices;			/* active swap devices */
	int beside;			/* created beside this many active */
	unsigned long long beside_free_kb; /* which had this much free */
};

/*
 * Is any swap active? Fills s with the first active device, the sizes of
 * all, and the highest priority.
 */
bool rr_swap_active(struct rr_swap *s);
/* Could a zram swap device be created here? */
bool rr_swap_zram_possible(char *why, size_t len);
/* Is there swap with room for mb MiB, or could a zram swap be made? */
bool rr_swap_possible(unsigned long long mb, char *why, size_t len);
int rr_swap_ensure(struct rr_swap *s, unsigned long long mb, char *why,
		   size_t len);
/* One line for the report: "/dev/zram1 (zram, 256 MiB, created)". */
void rr_swap_describe(const struct rr_swap *s, char *buf, size_t size);
/* /proc/swaps in a line: "DEV (N KiB, M used); ...", or "none". */
void rr_swaps_text(char *buf, size_t size);

/* Its kinds of journal record, and their undo handlers (core/undo.c). */
#define J_SWAPON	"swapon"	/* device */
#define J_ZRAM		"zram"		/* id of a hot-added device */
struct journal_undo;
extern const struct journal_undo rr_undo_swapon, rr_undo_zram,
	rr_undo_module;

#endif
