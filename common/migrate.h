/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trigger: move_pages() (through libnuma) of the pattern's
 * pages to another NUMA node, as the published benchmark did. Each page
 * moved costs two rmap walks (unmap, remap), in the caller's context.
 */
#ifndef RR_MIGRATE_H
#define RR_MIGRATE_H

#include <stdbool.h>
#include <stddef.h>

/* Nodes with memory that this task may use; returns how many. */
int rr_numa_mem_nodes(int *nodes, int max);
bool rr_migrate_available(char *why, size_t len);

struct rr_migrate_stats {
	unsigned long moved;	/* pages now on their target node */
	unsigned long failed;	/* pages that would not move */
	int first_error;	/* -errno of the first failure */
	unsigned int tries;
};

/*
 * Move each page to the next node with memory after the one it is on,
 * with MPOL_MF_MOVE_ALL (a KSM page is mapped many times). Pages that
 * fail with EBUSY or EAGAIN are retried, up to 100 times. Returns 0 when
 * every page moved, -errno of the first failure otherwise.
 */
int rr_migrate_pages(void **pages, size_t n, struct rr_migrate_stats *st);

#endif
