// SPDX-License-Identifier: GPL-2.0
/*
 * The victim thread on a real mapping: parked it takes no samples,
 * toggling it times each mprotect(), paused its samples can be taken
 * (and are then gone), and it stops cleanly, also when never started.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "pattern/victim.h"

static void test_lifecycle(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	struct rr_samples s = { 0 };
	struct rr_victim v = { 0 };
	char *map;
	size_t i;

	map = mmap(NULL, 4 * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	CHECK_EQ(rr_victim_start(&v, map + ps, NULL), 0);
	CHECK(v.tid > 0);
	rr_sleep_ms(50);
	rr_victim_take(&v, &s);
	CHECK_EQ(s.n, 0);		/* parked: nothing measured */
	rr_victim_go(&v);
	rr_sleep_ms(100);
	rr_victim_pause(&v);
	rr_victim_take(&v, &s);
	CHECK(s.n > 10);
	CHECK_EQ(v.errors, 0);
	for (i = 0; i < s.n; i++)
		CHECK(s.v[i] >= 0 && s.v[i] < 1000);
	rr_samples_free(&s);
	rr_victim_take(&v, &s);
	CHECK_EQ(s.n, 0);		/* taken: gone */
	rr_victim_stop(&v);
	rr_victim_stop(&v);		/* twice is harmless */
	munmap(map, 4 * ps);
}

/* A pattern's own call: timed instead of mprotect(), in order. */
static unsigned long op_calls, op_next;

static int op_fn(void *arg, unsigned long i)
{
	/* the calls are numbered from 0, one after the other */
	if (i != op_next++)
		return -EINVAL;
	op_calls++;
	/* every fourth fails: an error, not a sample */
	return i % 4 == 3 ? -EIO : 0;
}

static void test_own_op(void)
{
	const struct rr_victim_op op = { .call = "x()", .fn = op_fn };
	struct rr_samples s = { 0 };
	struct rr_victim v = { 0 };

	CHECK_EQ(rr_victim_start(&v, NULL, &op), 0);
	rr_victim_go(&v);
	rr_sleep_ms(50);
	rr_victim_pause(&v);
	rr_victim_take(&v, &s);
	rr_victim_stop(&v);
	CHECK(op_calls > 8);
	CHECK_EQ(s.n + v.errors, op_calls);
	CHECK_EQ(v.errors, op_calls / 4);
	rr_samples_free(&s);
}

static void test_stop_unstarted(void)
{
	struct rr_victim v = { 0 };

	rr_victim_stop(&v);
	CHECK(!v.started);
}

/*
 * A trigger shorter than the thread's wake-up still overlaps a call:
 * go returns once the first call began, pause waits for it to end.
 */
static void test_short_pass(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	struct rr_samples s = { 0 };
	struct rr_victim v = { 0 };
	char *map;
	int i, empty = 0;

	map = mmap(NULL, 4 * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	CHECK_EQ(rr_victim_start(&v, map + ps, NULL), 0);
	for (i = 0; i < 20; i++) {
		rr_victim_go(&v);
		rr_victim_pause(&v);
		rr_victim_take(&v, &s);
		empty += !s.n;
		rr_samples_free(&s);
		rr_sleep_ms(2);		/* parked: the thread sleeps */
	}
	CHECK_EQ(empty, 0);
	rr_victim_stop(&v);
	munmap(map, 4 * ps);
}

TEST_MAIN(T(test_lifecycle), T(test_own_op), T(test_stop_unstarted),
	  T(test_short_pass))
