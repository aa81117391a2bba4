// SPDX-License-Identifier: GPL-2.0
/*
 * The polled probe: which changes of a counter become samples, and the
 * polling thread itself on a file this test writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "probe/bracket.h"
#include "probe/poll.h"
#include "probe/probe.h"

static void test_intervals(void)
{
	/* the start, then changes seen at 10, 30, 45 and 60 ms */
	const uint64_t ts[] = { 0, 10000000, 30000000, 45000000, 60000000 };
	const unsigned long long val[] = { 7, 8, 9, 11, 12 };
	struct rr_samples s = { 0 };
	struct rr_poll_result r;

	rr_poll_intervals(ts, val, 5, &s, &r);
	/* 0..10 ms: the start was within a period, not a sample */
	CHECK(r.partial);
	CHECK_EQ(r.intervals, 3);
	/* 9 -> 11: two scans in one interval, not told apart */
	CHECK_EQ(r.skipped, 1);
	CHECK_EQ(r.counted, 2);
	CHECK_EQ(s.n, 2);
	CHECK_NEAR(s.v[0], 20.0, 1e-9);
	CHECK_NEAR(s.v[1], 15.0, 1e-9);
	rr_samples_free(&s);

	/* no change at all: nothing, and no partial period either */
	rr_poll_intervals(ts, val, 1, &s, &r);
	CHECK(!r.partial);
	CHECK_EQ(r.intervals, 0);
	CHECK_EQ(s.n, 0);
}

/* Whole or not at all, as sysfs shows a value: a new file renamed. */
static int write_val(const char *path, int v)
{
	char tmp[64];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", v);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

static void test_thread(void)
{
	char path[] = "/tmp/rr-poll-XXXXXX";
	struct rr_samples s = { 0 };
	struct rr_poll_result r;
	struct rr_poll p;
	int fd = mkstemp(path), i;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	CHECK_EQ(write_val(path, 0), 0);
	CHECK_EQ(rr_poll_start(&p, path, 1000000), 0);
	/* four changes 30 ms apart: three intervals of about 30 ms */
	for (i = 1; i <= 4; i++) {
		rr_sleep_ms(30);
		write_val(path, i);
	}
	rr_sleep_ms(30);
	rr_poll_stop(&p);
	CHECK_EQ(p.n, 5);
	CHECK_EQ(p.errors, 0);
	rr_poll_intervals(p.ts, p.val, p.n, &s, &r);
	CHECK_EQ(r.counted, 3);
	/* within the period at each end, and a loaded machine's delay */
	for (i = 0; i < (int)s.n; i++)
		CHECK(s.v[i] > 20 && s.v[i] < 60);
	rr_samples_free(&s);
	rr_poll_free(&p);
	unlink(path);
	/* a file that is not there: refused at the start */
	CHECK(rr_poll_start(&p, "/nonexistent/full_scans", 1000000) < 0);
	rr_poll_free(&p);
}

/* Only a trigger whose bracket has a counter standing in may poll. */
static void test_probe(void)
{
	struct rr_probe_setup ps;
	char why[256];

	CHECK(rr_probe_select(RR_PROBE_POLL, RR_BR_LRU_BATCH, &ps, why,
			      sizeof(why)) < 0);
	CHECK_CONTAINS(why, "no kernel counter");
	CHECK_EQ(rr_brackets[RR_BR_KSM_SCAN].polled_by, RR_BR_KSM_POLL);
	CHECK(!rr_brackets[RR_BR_KSM_POLL].start);
	CHECK_STR(rr_brackets[RR_BR_KSM_POLL].poll_counter, "full_scans");
}

TEST_MAIN(T(test_intervals), T(test_thread), T(test_probe))
