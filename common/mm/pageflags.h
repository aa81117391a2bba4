/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a page sits: a process's /proc/PID/pagemap (present, swapped,
 * the frame) and a frame's flags in /proc/kpageflags (compound, THP,
 * hwpoison). Read by the pattern builders, the oracles and the triggers
 * that retire frames.
 */
#ifndef RR_PAGEFLAGS_H
#define RR_PAGEFLAGS_H

#include <stdbool.h>

/* One page's /proc/PID/pagemap entry (pagemap.rst). */
struct rr_pagemap_ent {
	bool present, swapped;
	unsigned long long pfn;		/* 0 without CAP_SYS_ADMIN */
};
/* Open /proc/PID/pagemap (pid 0: this process): an fd, or -errno. */
int rr_pagemap_open(int pid);
int rr_pagemap_read(int fd, const void *va, struct rr_pagemap_ent *e);
/*
 * n pages' entries from va on, RR_PAGEMAP_BATCH in each read: the kernel
 * takes the mmap_lock once for each 2 MiB it walks, not once a page (a
 * trigger that polls a pattern's residency would flood the lock events
 * of its own task, and the trace buffer, a read per page).
 */
#define RR_PAGEMAP_BATCH 512
int rr_pagemap_read_many(int fd, const void *va, size_t n,
			 struct rr_pagemap_ent *e);
/* A frame's flags in /proc/kpageflags (root): 0, or -errno. */
int rr_kpageflags(unsigned long long pfn, unsigned long long *flags);
#define RR_KPF_COMPOUND_HEAD	15
#define RR_KPF_COMPOUND_TAIL	16
#define RR_KPF_HWPOISON		19
#define RR_KPF_THP		22

#endif
