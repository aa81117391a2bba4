// SPDX-License-Identifier: GPL-2.0
/* The kernel's log during a case: records parsed, what matters kept. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "mm/kmsg.h"

static void test_parse(void)
{
	char msg[64];

	CHECK(rr_kmsg_parse("4,1234,5678901,-;Memory failure: 0x1234: recovery action for dirty LRU page: Recovered\n",
			    msg, sizeof(msg)));
	CHECK_STR(msg,
		  "Memory failure: 0x1234: recovery action for dirty LRU page: Rec");
	CHECK(rr_kmsg_parse("6,2,3,c;text\n SUBSYSTEM=mm\n", msg, sizeof(msg)));
	CHECK_STR(msg, "text");
	CHECK(!rr_kmsg_parse(" SUBSYSTEM=mm", msg, sizeof(msg)));
	CHECK(!rr_kmsg_parse("no record", msg, sizeof(msg)));
	CHECK(!rr_kmsg_parse("4,1\n;x", msg, sizeof(msg)));
}

static void test_matters(void)
{
	CHECK(rr_kmsg_matters("Memory failure: 0x1f00: recovery action for dirty LRU page: Recovered"));
	CHECK(rr_kmsg_matters("watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [ksm-fork:123]"));
	CHECK(rr_kmsg_matters("rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"));
	CHECK(rr_kmsg_matters("INFO: task ksm-fork:77 blocked for more than 120 seconds."));
	CHECK(rr_kmsg_matters("soft offline: 0x1234: page migration failed 1, type ..."));
	CHECK(rr_kmsg_matters("WARNING: CPU: 0 PID: 1 at mm/rmap.c:100 foo+0x1/0x2"));
	CHECK(!rr_kmsg_matters("zram0: detected capacity change from 0 to 524288"));
	CHECK(!rr_kmsg_matters("Adding 262140k swap on /dev/zram0."));
}

static void append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/*
 * A stand-in log: what was there before the case is not read; records
 * written during it are, the ones that matter kept, up to the room.
 */
static void test_collect(void)
{
	const char *tmp = getenv("TEST_TMPDIR");
	struct rr_klog out = { 0 };
	struct rr_kmsg k;
	char path[256];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/test_kmsg.log", tmp ? tmp : "/tmp");
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("4,1,1,-;WARNING: before the case\n", f);
	fclose(f);
	setenv("RMAP_REPRO_KMSG", path, 1);
	rr_kmsg_open(&k);
	CHECK(k.fd >= 0);
	append(path, "6,2,2,-;zram0: detected capacity change\n"
		     "3,3,3,-;Memory failure: 0x42: recovery action for dirty LRU page: Recovered\n"
		     " SUBSYSTEM=mm\n"
		     "0,4,4,-;watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n");
	rr_kmsg_collect(&k, &out);
	CHECK(out.read);
	CHECK_EQ(out.records, 3);
	CHECK_EQ(out.lines, 2);
	CHECK_STR(out.line[0],
		  "Memory failure: 0x42: recovery action for dirty LRU page: Recovered");
	CHECK_STR(out.line[1], "watchdog: BUG: soft lockup - CPU#0 stuck for 22s!");
	CHECK_EQ(out.more, 0);

	/* a second run of the case adds to it; no room: counted */
	rr_kmsg_open(&k);
	for (i = 0; i < 10; i++)
		append(path, "4,9,9,-;WARNING: again\n");
	rr_kmsg_collect(&k, &out);
	CHECK_EQ(out.lines, RR_KLOG_LINES);
	CHECK_EQ(out.more, 10 - (RR_KLOG_LINES - 2));
	CHECK_EQ(out.records, 13);

	/* unreadable: said why, nothing read */
	memset(&out, 0, sizeof(out));
	setenv("RMAP_REPRO_KMSG", "/nonexistent/kmsg", 1);
	rr_kmsg_open(&k);
	rr_kmsg_collect(&k, &out);
	CHECK(!out.read);
	CHECK_CONTAINS(out.why, "/nonexistent/kmsg");
	unsetenv("RMAP_REPRO_KMSG");
}

TEST_MAIN(T(test_parse), T(test_matters), T(test_collect))
