// SPDX-License-Identifier: GPL-2.0
/*
 * Reading per-task and per-rmap_item counts out of hist triggers' text,
 * and giving rmap_items to the walks that hold them.
 */
#include <stdlib.h>

#include "harness.h"
#include "probe/iters.h"

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
static const char step_hist[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=wid,sid:vals=hitcount:sort=wid,sid:size=16384 [active]\n"
	"#\n"
	"\n"
	"{ wid: 2000000000, sid: 2000000100 } hitcount:      19980\n"
	"{ wid: 1000000000, sid: 1000000050 } hitcount:      19979\n"
	"{ wid: 1000000000, sid: 1000000900 } hitcount:          2\n"
	"{ wid: 2000000000, sid: 2000000050 } hitcount:      20001\n"
	"{ wid: 3000000000, sid: 3000000050 } hitcount:      20001\n"
	"\n"
	"Totals:\n"
	"    Hits: 79963\n"
	"    Entries: 5\n"
	"    Dropped: 3\n";

static void test_items(void)
{
	struct rr_item_count *v;
	unsigned long long dropped;
	long n = rr_hist_items(step_hist, &v, &dropped);

	CHECK_EQ(n, 5);
	CHECK_EQ(dropped, 3);
	CHECK_EQ(v[0].wid, 2000000000ULL);
	CHECK_EQ(v[0].sid, 2000000100ULL);
	CHECK_EQ(v[0].steps, 19980);
	CHECK_EQ(v[2].steps, 2);
	free(v);
	/* The per-task hist has no such entries. */
	CHECK_EQ(rr_hist_items(hist, &v, &dropped), 0);
	CHECK_EQ(dropped, 0);
	free(v);
	CHECK_EQ(rr_hist_items("", &v, &dropped), 0);
	free(v);
}

static void test_attribute(void)
{
	struct rr_item_count *v;
	unsigned long long dropped;
	struct rr_samples walk = { 0 }, item = { 0 };
	long n = rr_hist_items(step_hist, &v, &dropped);

	/* Three walks with rmap_items, two more begun that reached none. */
	CHECK_EQ(rr_iters_attribute(v, n, 5, &walk, &item), 3);
	CHECK_EQ(walk.n, 5);
	/* In walk order: 19979 + 2, 20001 + 19980, 20001, 0, 0. */
	CHECK_NEAR(walk.v[0], 19981, 0);
	CHECK_NEAR(walk.v[1], 39981, 0);
	CHECK_NEAR(walk.v[2], 20001, 0);
	CHECK_NEAR(walk.v[3], 0, 0);
	CHECK_NEAR(walk.v[4], 0, 0);
	CHECK_EQ(item.n, 5);
	CHECK_NEAR(item.v[0], 19979, 0);
	CHECK_NEAR(item.v[1], 2, 0);
	CHECK_NEAR(item.v[2], 20001, 0);
	rr_samples_free(&walk);
	rr_samples_free(&item);
	/* Fewer walks begun than seen (a walk kprobe missed): no zeros. */
	CHECK_EQ(rr_iters_attribute(v, n, 1, &walk, &item), 3);
	CHECK_EQ(walk.n, 3);
	rr_samples_free(&walk);
	rr_samples_free(&item);
	free(v);
}

/*
 * Steps by caller: one iterator's hist text with the per-task counting
 * hist and a stack hist (memory_failure(): collect_procs_ksm, then the
 * unmapping walk), as a 6.12 kernel writes them.
 */
static const char stacks[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 if common_pid == 812 [active]\n"
	"#\n\n"
	"{ common_pid:        812 } hitcount:      40960\n\n"
	"Totals:\n    Hits: 40960\n    Entries: 1\n    Dropped: 0\n\n"
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=256 if common_pid == 812 [active]\n"
	"#\n\n"
	"{ common_stacktrace:\n"
	"         anon_rmap_tree_iter_next+0x5/0x30\n"
	"         collect_procs_ksm+0x10b/0x1d0\n"
	"         collect_procs+0x3e/0x60\n"
	"         memory_failure+0x3f2/0x8c0\n"
	"} hitcount:      20480\n"
	"{ common_stacktrace:\n"
	"         rmap_walk_ksm+0x12a/0x1e0\n"
	"         try_to_unmap+0x7c/0xa0\n"
	"} hitcount:      20470\n"
	"{ common_stacktrace:\n"
	"         unlink_anon_vmas+0x50/0x170\n"
	"} hitcount:         10\n\n"
	"Totals:\n    Hits: 40960\n    Entries: 3\n    Dropped: 0\n";

static void test_callers(void)
{
	struct rr_iter_callers c;

	memset(&c, 0, sizeof(c));
	/* the per-task hist alone: not counted by caller */
	rr_iter_callers_parse("{ common_pid:        812 } hitcount:      40960\n",
			      false, &c);
	CHECK(!c.counted);
	rr_iter_callers_parse(stacks, false, &c);
	CHECK(c.counted);
	CHECK_EQ(c.next[RR_KFN_COLLECT_KSM], 20480);
	CHECK_EQ(c.next[RR_KFN_WALK_KSM], 20470);
	CHECK_EQ(c.next[RR_KFN_NONE], 10);
	CHECK_STR(c.name[RR_KFN_COLLECT_KSM], "collect_procs_ksm");
	CHECK_STR(c.name[RR_KFN_WALK_KSM], "rmap_walk_ksm");
	CHECK_EQ(c.first[RR_KFN_WALK_KSM], 0);
	/* the older key's name (before 6.5), into first */
	rr_iter_callers_parse("{ stacktrace:\n         rmap_walk_anon.isra.0+0x1/0x2\n} hitcount: 3\n",
			      true, &c);
	CHECK_EQ(c.first[RR_KFN_WALK_ANON], 3);
	CHECK_STR(c.name[RR_KFN_WALK_ANON], "rmap_walk_anon.isra.0");
	/* the hist's per-task total still reads the same */
	CHECK_EQ(rr_hist_hitcount(stacks, 812), 40960);
}

TEST_MAIN(T(test_hitcount), T(test_items), T(test_attribute),
	  T(test_callers))
