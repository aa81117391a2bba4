// SPDX-License-Identifier: GPL-2.0
/* Reading per-task counts out of a hist trigger's text. */
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

TEST_MAIN(T(test_hitcount))
