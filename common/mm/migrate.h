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
	unsigned int calls;	/* move_pages() batches (each retried) */
};

/*
 * Move each page to the next node with memory after the one it is on,
 * with MPOL_MF_MOVE_ALL (a KSM page is mapped many times). Pages that
 * fail with EBUSY or EAGAIN are retried, up to 100 times. Returns 0 when
 * every page moved, -errno of the first failure otherwise.
 */
int rr_migrate_pages(void **pages, size_t n, struct rr_migrate_stats *st);
/* Add one call's (or process's) figures to a sum: the most tries. */
void rr_migrate_stats_add(struct rr_migrate_stats *sum,
			  const struct rr_migrate_stats *one);
/*
 * The same for pages of another process (pid 0: this one), at most
 * batch pages per move_pages() call (0: all in one). Every target is
 * chosen before the first call: a KSM page reached again through
 * another of its mappings is already there, not moved back.
 */
int rr_migrate_pages_pid(int pid, void **pages, size_t n, size_t batch,
			 struct rr_migrate_stats *st);

/*
 * move_pages() as the retry loop sees it: move count pages to nodes[],
 * per page status (its node, or -errno); returns -1 with errno on a
 * failure of the call itself.
 */
typedef long (*rr_move_fn)(unsigned long count, void **pages,
			   const int *nodes, int *status, void *ctx);
/*
 * The retry rule: pages whose status is EBUSY or EAGAIN are moved again,
 * up to 100 tries in all; any other failure is final. The stats say how
 * many moved and failed, the first error, and the tries.
 */
int rr_migrate_retry(void **pages, const int *target, size_t n,
		     rr_move_fn move, void *ctx, struct rr_migrate_stats *st);

#endif
