// SPDX-License-Identifier: GPL-2.0
/*
 * damon.c on a directory of files standing in for DAMON's sysfs
 * interface (RMAP_REPRO_SYS_DIR): the frames become sorted ranges of
 * contiguous frames; setup adds one kdamond of paddr operations,
 * journaled; the replay turns it off and removes it; an interface in
 * use, or missing, is left alone and said.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/undo.h"
#include "harness.h"
#include "journal/journal.h"
#include "lib/util.h"
#include "mm/damon.h"

/* The program's undo handlers, as a run hands them to the journal. */
__attribute__((constructor)) static void use_undos(void)
{
	rr_undos_use();
}

#define CTX "kdamonds/0/contexts/0/"

static char root[PATH_MAX];

static void put(const char *rel, const char *val)
{
	char p[PATH_MAX + 128], *s;

	snprintf(p, sizeof(p), "%s/sys/kernel/mm/damon/admin/%s", root, rel);
	/* every directory on the way, as the kernel would have it */
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	CHECK_EQ(rr_write_file(p, val) == 0 ||
		 (creat(p, 0644) >= 0 && rr_write_file(p, val) == 0), 1);
}

static const char *get(const char *rel)
{
	static char buf[64];
	char p[PATH_MAX + 128];

	snprintf(p, sizeof(p), "%s/sys/kernel/mm/damon/admin/%s", root, rel);
	return rr_read_file(p, buf, sizeof(buf)) ? "(unreadable)" : buf;
}

/* A fake interface with no kdamond, and a state directory. */
static void setup(void)
{
	const char *tmp = getenv("TEST_TMPDIR");
	char state[PATH_MAX + 16];

	snprintf(root, sizeof(root), "%s/rr-damon-XXXXXX", tmp ? tmp : "/tmp");
	CHECK(mkdtemp(root) != NULL);
	/* the stand-in for /sys */
	snprintf(state, sizeof(state), "%s/sys", root);
	setenv("RMAP_REPRO_SYS_DIR", state, 1);
	snprintf(state, sizeof(state), "%s/state", root);
	mkdir(state, 0755);
	setenv("RMAP_REPRO_STATE_DIR", state, 1);
	put("kdamonds/nr_kdamonds", "0");
	/* what the kernel makes when nr_kdamonds and the rest are written */
	put("kdamonds/0/state", "off");
	put("kdamonds/0/pid", "-1");
	put("kdamonds/0/contexts/nr_contexts", "0");
	put(CTX "operations", "vaddr");
	put(CTX "monitoring_attrs/intervals/sample_us", "5000");
	put(CTX "monitoring_attrs/intervals/aggr_us", "100000");
	put(CTX "monitoring_attrs/intervals/update_us", "1000000");
	put(CTX "monitoring_attrs/nr_regions/max", "1000");
	put(CTX "targets/nr_targets", "0");
	put(CTX "targets/0/regions/nr_regions", "0");
	put(CTX "targets/0/regions/0/start", "0");
	put(CTX "targets/0/regions/0/end", "0");
	put(CTX "targets/0/regions/1/start", "0");
	put(CTX "targets/0/regions/1/end", "0");
}

static void test_ranges(void)
{
	unsigned long long pfn[] = { 9, 3, 4, 4, 5, 20, 10 };
	struct rr_damon_range r[4];
	size_t n;

	n = rr_damon_ranges(pfn, 7, 4096, r, 4);
	/* 3-5, 9-10, 20: contiguous frames merged, the repeat too */
	CHECK_EQ(n, 3);
	CHECK_EQ(r[0].start, 3 * 4096);
	CHECK_EQ(r[0].end, 6 * 4096);
	CHECK_EQ(r[1].start, 9 * 4096);
	CHECK_EQ(r[1].end, 11 * 4096);
	CHECK_EQ(r[2].start, 20 * 4096);
	CHECK_EQ(r[2].end, 21 * 4096);
	/* room for two: the rest left out */
	CHECK_EQ(rr_damon_ranges(pfn, 7, 4096, r, 2), 2);
	CHECK_EQ(rr_damon_ranges(pfn, 0, 4096, r, 2), 0);
}

static void test_setup_and_undo(void)
{
	struct rr_damon_attrs a = { .sample_us = 2000, .aggr_us = 40000,
				    .update_us = 400000, .max_regions = 1000 };
	struct rr_damon_range r[2] = { { 4096, 8192 }, { 40960, 49152 } };
	char why[256] = "";
	struct rr_replay st;

	setup();
	CHECK(rr_damon_available(why, sizeof(why)));
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(rr_damon_setup(&a, why, sizeof(why)), 0);
	CHECK_STR(get("kdamonds/nr_kdamonds"), "1");
	CHECK_STR(get("kdamonds/0/contexts/nr_contexts"), "1");
	CHECK_STR(get(CTX "operations"), "paddr");
	CHECK_STR(get(CTX "monitoring_attrs/intervals/sample_us"), "2000");
	CHECK_STR(get(CTX "monitoring_attrs/intervals/aggr_us"), "40000");
	CHECK_STR(get(CTX "targets/nr_targets"), "1");
	CHECK_EQ(rr_damon_set_regions(r, 2), 0);
	CHECK_STR(get(CTX "targets/0/regions/nr_regions"), "2");
	CHECK_STR(get(CTX "targets/0/regions/1/start"), "40960");
	CHECK_STR(get(CTX "targets/0/regions/1/end"), "49152");
	CHECK_EQ(rr_damon_state(true), 0);
	CHECK_STR(get("kdamonds/0/state"), "on");
	put("kdamonds/0/pid", "4242");
	CHECK_EQ(rr_damon_pid(), 4242);
	/* interrupted while on: the replay turns it off, then removes it */
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.undone, 1);
	CHECK_EQ(st.failures, 0);
	CHECK_STR(get("kdamonds/0/state"), "off");
	CHECK_STR(get("kdamonds/nr_kdamonds"), "0");
}

static void test_left_alone(void)
{
	char why[256] = "";

	setup();
	put("kdamonds/nr_kdamonds", "1");
	CHECK(!rr_damon_available(why, sizeof(why)));
	CHECK_CONTAINS(why, "in use (1 kdamonds configured): left alone");
	/* a kernel without the interface */
	setenv("RMAP_REPRO_SYS_DIR", "/nonexistent-rr", 1);
	CHECK(!rr_damon_available(why, sizeof(why)));
	CHECK_CONTAINS(why, "CONFIG_DAMON_SYSFS off");
}

TEST_MAIN(T(test_ranges), T(test_setup_and_undo), T(test_left_alone))
