/* SPDX-License-Identifier: GPL-2.0 */
/* Counting VMAs from /proc/PID/maps, the way a reader can check it. */
#ifndef RR_MAPS_H
#define RR_MAPS_H

#include <stdbool.h>
#include <stddef.h>

/* Parse the "start-end" address range at the head of one maps line. */
bool rr_maps_line(const char *line, unsigned long *lo, unsigned long *hi);
/*
 * Count the VMAs in a maps text that overlap [lo, hi); *total gets every
 * VMA in the text. Malformed lines are counted in *bad (may be NULL).
 */
size_t rr_maps_count_text(const char *text, unsigned long lo,
			  unsigned long hi, size_t *total, size_t *bad);
/* Same for /proc/self/maps; returns 0 or -errno. */
int rr_maps_count(unsigned long lo, unsigned long hi, size_t *in_range,
		  size_t *total);
/* Same for /proc/PID/maps (0: self). */
int rr_maps_count_pid(int pid, unsigned long lo, unsigned long hi,
		      size_t *in_range, size_t *total);

/*
 * Move every VMA of [src, src + len) of this process to the same offset
 * at dst with mremap(MREMAP_FIXED), one VMA at a time (each keeps its
 * vm_pgoff, and its flags: the split survives the move). 0, or -errno
 * with why.
 */
int rr_maps_move(char *src, size_t len, char *dst, char *why, size_t wlen);

#endif
