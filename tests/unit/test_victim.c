// SPDX-License-Identifier: GPL-2.0
/*
 * The victim thread on a real mapping: parked it takes no samples,
 * toggling it times each mprotect(), paused its samples can be taken
 * (and are then gone), and it stops cleanly, also when never started.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "util.h"
#include "victim.h"

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

static void test_stop_unstarted(void)
{
	struct rr_victim v = { 0 };

	rr_victim_stop(&v);
	CHECK(!v.started);
}

TEST_MAIN(T(test_lifecycle), T(test_stop_unstarted))
