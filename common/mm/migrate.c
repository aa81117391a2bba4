// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>

#include "journal/fault.h"
#include "lib/util.h"
#include "mm/migrate.h"

/* The kernel selftests retry migration as often. */
#define MIGRATE_TRIES 100

int rr_numa_mem_nodes(int *nodes, int max)
{
	int node, n = 0;

	if (numa_available() < 0)
		return 0;
	for (node = 0; node <= numa_max_node() && n < max; node++)
		if (numa_bitmask_isbitset(numa_all_nodes_ptr, node))
			nodes[n++] = node;
	return n;
}

bool rr_migrate_available(char *why, size_t len)
{
	int nodes[2];

	if (numa_available() < 0) {
		snprintf(why, len, "NUMA is not available (no CONFIG_NUMA?)");
		return false;
	}
	if (rr_numa_mem_nodes(nodes, 2) < 2) {
		snprintf(why, len,
			 "only one NUMA node with memory: move_pages() has nowhere to move a page");
		return false;
	}
	return true;
}

static int next_node(const int *nodes, int n, int from)
{
	int i;

	for (i = 0; i < n; i++)
		if (nodes[i] == from)
			return nodes[(i + 1) % n];
	return nodes[0] == from ? nodes[1] : nodes[0];
}

static bool transient(int status)
{
	return status == -EBUSY || status == -EAGAIN;
}

static long move_numa(unsigned long count, void **pages, const int *nodes,
		      int *status, void *ctx)
{
	int pid = ctx ? *(const int *)ctx : 0;

	return numa_move_pages(pid, count, pages, nodes, status,
			       nodes ? MPOL_MF_MOVE_ALL : 0);
}

int rr_migrate_pages(void **pages, size_t n, struct rr_migrate_stats *st)
{
	return rr_migrate_pages_pid(0, pages, n, 0, st);
}

void rr_migrate_stats_add(struct rr_migrate_stats *sum,
			  const struct rr_migrate_stats *one)
{
	sum->moved += one->moved;
	sum->failed += one->failed;
	if (!sum->first_error)
		sum->first_error = one->first_error;
	if (one->tries > sum->tries)
		sum->tries = one->tries;
	sum->calls += one->calls;
}

int rr_migrate_pages_pid(int pid, void **pages, size_t n, size_t batch,
			 struct rr_migrate_stats *st)
{
	int *status = calloc(n, sizeof(int)), *target = calloc(n, sizeof(int));
	int nodes[64], nr_nodes, err = 0, e;
	struct rr_migrate_stats one;
	size_t i, b;

	memset(st, 0, sizeof(*st));
	if (!status || !target) {
		err = -ENOMEM;
		goto out;
	}
	nr_nodes = rr_numa_mem_nodes(nodes, 64);
	if (nr_nodes < 2) {
		err = -ENODEV;
		goto out;
	}
	/* Where is each page now? (nodes == NULL: query only) */
	if (move_numa(n, pages, NULL, status, &pid)) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < n; i++)
		target[i] = status[i] >= 0 ?
			    next_node(nodes, nr_nodes, status[i]) : nodes[1];
	for (i = 0; i < n; i += b) {
		b = batch && batch < n - i ? batch : n - i;
		e = rr_migrate_retry(pages + i, target + i, b, move_numa, &pid,
				     &one);
		if (e && !err)
			err = e;
		one.calls = 1;
		rr_migrate_stats_add(st, &one);
		/* a test's signal, with some pages moved (fault.h) */
		rr_test_hold("trigger migrate: after a move_pages() batch");
	}
out:
	free(status);
	free(target);
	return err;
}

int rr_migrate_retry(void **pages, const int *target, size_t n,
		     rr_move_fn move, void *ctx, struct rr_migrate_stats *st)
{
	int *status = calloc(n, sizeof(int));
	void **todo = calloc(n, sizeof(void *));
	int *todo_target = calloc(n, sizeof(int));
	int err = 0;
	size_t i, left;

	memset(st, 0, sizeof(*st));
	if (!status || !todo || !todo_target) {
		err = -ENOMEM;
		goto out;
	}
	/* Move; retry only the pages whose failure is transient. */
	for (i = 0; i < n; i++) {
		todo[i] = pages[i];
		todo_target[i] = target[i];
	}
	left = n;
	while (left && st->tries < MIGRATE_TRIES) {
		size_t again = 0;

		st->tries++;
		/*
		 * A call whose batch failed to migrate returns how many
		 * were left and stores no status for that batch (Linux's
		 * move_pages_and_store_status): a page the kernel said
		 * nothing about is busy, and tried again, never "moved" nor
		 * a final error.
		 */
		for (i = 0; i < left; i++)
			status[i] = -EAGAIN;
		/* Returns the number left unmoved; per page in status. */
		if (move(left, todo, todo_target, status, ctx) < 0 &&
		    errno != ENOENT) {
			err = -errno;
			goto out;
		}
		for (i = 0; i < left; i++) {
			if (status[i] == todo_target[i]) {
				st->moved++;
			} else if (transient(status[i])) {
				todo[again] = todo[i];
				todo_target[again] = todo_target[i];
				again++;
			} else {
				st->failed++;
				if (!st->first_error)
					st->first_error = status[i] < 0 ?
							  status[i] : -EIO;
			}
		}
		left = again;
		if (left)
			rr_sleep_ms(10);
	}
	st->failed += left;
	if (left && !st->first_error)
		st->first_error = -EBUSY;
	err = st->failed ? st->first_error : 0;
out:
	free(status);
	free(todo);
	free(todo_target);
	return err;
}
