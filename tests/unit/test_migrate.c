// SPDX-License-Identifier: GPL-2.0
/*
 * migrate.c's retry rule, with a stand-in for move_pages(): transient
 * failures (EBUSY, EAGAIN) are retried, others are final, and the loop
 * gives up after 100 tries.
 */
#include <errno.h>

#include "harness.h"
#include "mm/migrate.h"

/* Page i moves on try busy[i] + 1; before that it is EBUSY or EAGAIN. */
struct fake {
	int busy[8];
	int final[8];		/* a final -errno for page i, or 0 */
	int tries[8];		/* calls that named page i */
	int calls;
	void **base;
};

static long fake_move(unsigned long count, void **pages, const int *nodes,
		      int *status, void *ctx)
{
	struct fake *f = ctx;
	unsigned long i;

	f->calls++;
	for (i = 0; i < count; i++) {
		int p = (char *)pages[i] - (char *)f->base;

		if (f->final[p] && ++f->tries[p])
			status[i] = f->final[p];
		else if (f->tries[p]++ < f->busy[p])
			status[i] = p % 2 ? -EAGAIN : -EBUSY;
		else
			status[i] = nodes[i];
	}
	return 0;
}

static void run(struct fake *f, int n, struct rr_migrate_stats *st,
		int *err)
{
	void *pages[8];
	int target[8], i;
	static char base[8];

	f->base = (void **)base;
	for (i = 0; i < n; i++) {
		pages[i] = base + i;
		target[i] = 1;
	}
	*err = rr_migrate_retry(pages, target, n, fake_move, f, st);
}

static void test_all_move_at_once(void)
{
	struct fake f = { 0 };
	struct rr_migrate_stats st;
	int err;

	run(&f, 4, &st, &err);
	CHECK_EQ(err, 0);
	CHECK_EQ(st.moved, 4);
	CHECK_EQ(st.failed, 0);
	CHECK_EQ(st.tries, 1);
}

static void test_transient_retried(void)
{
	struct fake f = { .busy = { 0, 3, 0, 7 } };
	struct rr_migrate_stats st;
	int err;

	run(&f, 4, &st, &err);
	CHECK_EQ(err, 0);
	CHECK_EQ(st.moved, 4);
	CHECK_EQ(st.tries, 8);
	/* only the pages that failed were named again */
	CHECK_EQ(f.tries[0], 1);
	CHECK_EQ(f.tries[1], 4);
	CHECK_EQ(f.tries[3], 8);
}

static void test_final_not_retried(void)
{
	struct fake f = { .final = { 0, -EFAULT, 0, -ENOMEM },
			  .busy = { 0, 0, 2 } };
	struct rr_migrate_stats st;
	int err;

	run(&f, 4, &st, &err);
	CHECK_EQ(err, -EFAULT);		/* the first error */
	CHECK_EQ(st.first_error, -EFAULT);
	CHECK_EQ(st.moved, 2);
	CHECK_EQ(st.failed, 2);
	CHECK_EQ(f.tries[1], 1);
	CHECK_EQ(f.tries[3], 1);
	CHECK_EQ(st.tries, 3);
}

static void test_gives_up_after_100(void)
{
	struct fake f = { .busy = { 0, 1000 } };
	struct rr_migrate_stats st;
	int err;

	run(&f, 2, &st, &err);
	CHECK_EQ(st.tries, 100);
	CHECK_EQ(f.calls, 100);
	CHECK_EQ(st.moved, 1);
	CHECK_EQ(st.failed, 1);
	CHECK_EQ(err, -EBUSY);
}

/*
 * A batch that failed to migrate: the call returns how many were left
 * and stores no status at all (Linux leaves the user's buffer as it
 * was). Those pages are tried again, not counted failed with an error
 * the kernel never gave.
 */
static long silent_move(unsigned long count, void **pages, const int *nodes,
			int *status, void *ctx)
{
	int *calls = ctx;
	unsigned long i;

	if ((*calls)++ < 2)
		return (long)count;
	for (i = 0; i < count; i++)
		status[i] = nodes[i];
	return 0;
}

static void test_status_not_stored(void)
{
	static char base[4];
	void *pages[4] = { base, base + 1, base + 2, base + 3 };
	int target[4] = { 1, 1, 1, 1 }, calls = 0, err;
	struct rr_migrate_stats st;

	err = rr_migrate_retry(pages, target, 4, silent_move, &calls, &st);
	CHECK_EQ(err, 0);
	CHECK_EQ(st.moved, 4);
	CHECK_EQ(st.failed, 0);
	CHECK_EQ(st.tries, 3);
}

TEST_MAIN(T(test_all_move_at_once), T(test_transient_retried),
	  T(test_final_not_retried), T(test_gives_up_after_100),
	  T(test_status_not_stored))
