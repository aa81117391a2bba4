// SPDX-License-Identifier: GPL-2.0
/*
 * Reading per-task and per-rmap_item counts out of hist triggers' text,
 * and giving rmap_items to the walks that hold them.
 */
#include <stdlib.h>

#include "harness.h"
#include "iters.h"

static const char hist[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=common_pid:vals=hitcount:sort=hitcount:size=64 if common_pid == 123 [active]\n"
	"#\n"
	"\n"
	"{ common_pid:        124 } hitcount:         17\n"
	"{ common_pid:        123 } hitcount:    5120000\n"
	"\n"
	"Totals:\n"
	"    Hits: 5120017\n"
	"    Entries: 2\n"
	"    Dropped: 0\n";

static void test_hitcount(void)
{
	CHECK_EQ(rr_hist_hitcount(hist, 123), 5120000);
	CHECK_EQ(rr_hist_hitcount(hist, 124), 17);
	CHECK_EQ(rr_hist_hitcount(hist, 999), 0);
	CHECK_EQ(rr_hist_hitcount("", 123), 0);
	/* The trigger line's "common_pid == 123" is no entry. */
	CHECK_EQ(rr_hist_hitcount("# trigger info: if common_pid == 123\n",
				  123), 0);
}

/* A hist on synthetic/rmap_repro_step as 6.12 prints it. */
static const char sid_hist[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=sid:vals=hitcount:sort=sid:size=16384 [active]\n"
	"#\n"
	"\n"
	"{ sid:       1000100 } hitcount:      19980\n"
	"{ sid:       1000050 } hitcount:      19979\n"
	"{ sid:       5000000 } hitcount:          2\n"
	"{ sid:       2000000 } hitcount:      19999\n"
	"\n"
	"Totals:\n"
	"    Hits: 59960\n"
	"    Entries: 4\n"
	"    Dropped: 3\n";

static void test_items(void)
{
	struct rr_item_count *v;
	unsigned long long dropped;
	long n = rr_hist_items(sid_hist, "sid", &v, &dropped);

	CHECK_EQ(n, 4);
	CHECK_EQ(dropped, 3);
	CHECK_EQ(v[0].sid, 1000100);
	CHECK_EQ(v[0].steps, 19980);
	CHECK_EQ(v[3].sid, 2000000);
	CHECK_EQ(v[3].steps, 19999);
	free(v);
	/* Another key, or the pid hist, gives no items. */
	CHECK_EQ(rr_hist_items(sid_hist, "si", &v, &dropped), 0);
	free(v);
	CHECK_EQ(rr_hist_items(hist, "sid", &v, &dropped), 0);
	CHECK_EQ(dropped, 0);
	free(v);
	CHECK_EQ(rr_hist_items("", "sid", &v, &dropped), 0);
	free(v);
}

static void test_attribute(void)
{
	struct rr_item_count *v;
	unsigned long long dropped, lost;
	struct rr_samples walk = { 0 }, item = { 0 };
	struct rr_spans spans = { 0 };
	uint64_t sp[3][2] = {
		{ 1900000, 2100000 },	/* one rmap_item */
		{ 1000000, 1000200 },	/* two, fed out of order */
		{ 3000000, 3000001 },	/* none */
	};
	long n = rr_hist_items(sid_hist, "sid", &v, &dropped);
	size_t outside;

	spans.v = (void *)sp;
	spans.n = spans.cap = 3;
	lost = rr_iters_attribute(v, n, &spans, &walk, &item, &outside);
	/* The rmap_item at 5000000 lies in no walk. */
	CHECK_EQ(outside, 1);
	CHECK_EQ(lost, 2);
	/* Walks in time order: 19980 + 19979, 19999, none. */
	CHECK_EQ(walk.n, 3);
	CHECK_NEAR(walk.v[0], 39959, 0);
	CHECK_NEAR(walk.v[1], 19999, 0);
	CHECK_NEAR(walk.v[2], 0, 0);
	CHECK_EQ(item.n, 3);
	CHECK_NEAR(item.v[0], 19979, 0);
	CHECK_NEAR(item.v[1], 19980, 0);
	CHECK_NEAR(item.v[2], 19999, 0);
	/* A span's bounds belong to it. */
	v[0].sid = 1000000;
	v[1].sid = 1000200;
	rr_samples_free(&walk);
	rr_samples_free(&item);
	lost = rr_iters_attribute(v, n, &spans, &walk, &item, &outside);
	CHECK_NEAR(walk.v[0], 39959, 0);
	CHECK_EQ(outside, 1);
	rr_samples_free(&walk);
	rr_samples_free(&item);
	free(v);
}

TEST_MAIN(T(test_hitcount), T(test_items), T(test_attribute))
