// SPDX-License-Identifier: GPL-2.0
/*
 * The journal, on plain files standing in for knobs, in a private state
 * directory: record once before the first change, skip unchanged knobs,
 * undo last first, survive a torn last line, keep a journal that could
 * not be fully undone, and refuse a second lock holder.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "journal.h"
#include "util.h"

static char dir[256];

static void path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static void put(const char *name, const char *val)
{
	char p[128];

	path(p, sizeof(p), name);
	CHECK_EQ(rr_write_file(p, val) == 0 || (creat(p, 0644) >= 0 &&
		 rr_write_file(p, val) == 0), 1);
}

static const char *get(const char *name)
{
	static char buf[256];
	char p[128];

	path(p, sizeof(p), name);
	if (rr_read_file(p, buf, sizeof(buf)))
		return "(unreadable)";
	return buf;
}

static int count_records(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(journal_path(), "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			n++;
	fclose(f);
	return n;
}

static void setup(void)
{
	const char *tmp = getenv("TEST_TMPDIR");

	/* tests/run gives a scratch directory that it removes afterwards. */
	snprintf(dir, sizeof(dir), "%s/rr-journal-XXXXXX", tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	setenv("RMAP_REPRO_STATE_DIR", dir, 1);
}

static void test_record_once_and_replay(void)
{
	char a[128], b[128];
	int undone = -1;

	setup();
	put("knob_a", "100");
	put("knob_b", "20");
	path(a, sizeof(a), "knob_a");
	path(b, sizeof(b), "knob_b");
	CHECK_EQ(journal_begin("test"), 0);
	CHECK_EQ(journal_knob_set(a, "20000"), 0);
	CHECK_EQ(journal_knob_set(a, "5"), 0);	/* journaled once */
	CHECK_EQ(journal_knob_set(b, "20"), 0);	/* unchanged: nothing */
	CHECK_STR(get("knob_a"), "5");
	CHECK_EQ(count_records(), 1);
	/* Someone else's change after ours is undone to our original. */
	CHECK_EQ(journal_replay(journal_path(), false, &undone), 0);
	CHECK_EQ(undone, 1);
	CHECK_STR(get("knob_a"), "100");
	CHECK_STR(get("knob_b"), "20");
	CHECK(!journal_exists());
}

static void test_reverse_order(void)
{
	char a[128];

	setup();
	put("k", "orig");
	path(a, sizeof(a), "k");
	CHECK_EQ(journal_begin("test"), 0);
	/* Two records for one path (as a second run would leave): the
	 * older original must win, so it must be undone last. */
	CHECK_EQ(journal_record(J_KNOB, a, "orig"), 0);
	CHECK_EQ(journal_record(J_KNOB, a, "middle"), 0);
	put("k", "new");
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK_STR(get("k"), "orig");
}

static void test_bracketed_value(void)
{
	char a[128];

	setup();
	put("thp", "always [madvise] never");
	path(a, sizeof(a), "thp");
	CHECK_EQ(journal_begin("test"), 0);
	/* Equal to the selected word: no write, no record. */
	CHECK_EQ(journal_knob_set(a, "madvise"), 0);
	CHECK_EQ(count_records(), 0);
	CHECK_EQ(journal_knob_set(a, "never"), 0);
	CHECK_EQ(count_records(), 1);
	CHECK_STR(get("thp"), "never");
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK_STR(get("thp"), "madvise");
}

/* An unset function list comes back by truncation ("" as original). */
static void test_empty_original(void)
{
	char a[128];

	setup();
	put("set_ftrace_filter", "#### all functions enabled ####");
	path(a, sizeof(a), "set_ftrace_filter");
	CHECK_EQ(journal_begin("test"), 0);
	CHECK_EQ(journal_record(J_KNOB, a, ""), 0);
	put("set_ftrace_filter", "rmap_walk_ksm\nrmap_walk_anon\n");
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK_STR(get("set_ftrace_filter"), "");
}

static void test_escaping_and_torn_line(void)
{
	char a[128], line[256];
	FILE *f;

	setup();
	put("k", "x");
	path(a, sizeof(a), "k");
	CHECK_EQ(journal_begin("test"), 0);
	CHECK_EQ(journal_record(J_KNOB, a, "tab\there back\\slash"), 0);
	/* A run killed mid-write leaves half a record. */
	f = fopen(journal_path(), "a");
	CHECK(f != NULL);
	if (f) {
		fputs("knob\t/nonexistent/half", f);
		fclose(f);
	}
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	snprintf(line, sizeof(line), "%s", get("k"));
	CHECK_STR(line, "tab\there back\\slash");
}

static void test_gone_objects_are_fine(void)
{
	setup();
	CHECK_EQ(journal_begin("test"), 0);
	/* Everything here is already gone: nothing fails. */
	CHECK_EQ(journal_record(J_KNOB, "/nonexistent/knob", "1"), 0);
	CHECK_EQ(journal_record(J_CGROUP, "/nonexistent/cgroup", ""), 0);
	CHECK_EQ(journal_record(J_INSTANCE, "/nonexistent/instance", ""), 0);
	CHECK_EQ(journal_record(J_SWAPON, "/dev/nonexistent", ""), 0);
	CHECK_EQ(journal_record(J_MOUNT, "/nonexistent/mnt", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK(!journal_exists());
}

static void test_failure_is_kept(void)
{
	char a[128], failed[256];
	int undone = 0;

	setup();
	path(a, sizeof(a), "subdir");
	CHECK_EQ(mkdir(a, 0755), 0);
	CHECK_EQ(journal_begin("test"), 0);
	/* Writing a value into a directory fails: the record must stay. */
	CHECK_EQ(journal_record(J_KNOB, a, "1"), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &undone), 1);
	CHECK_EQ(undone, 0);
	snprintf(failed, sizeof(failed), "%s.failed", journal_path());
	CHECK(rr_path_exists(failed));
	/* Replaying the kept journal again keeps it in place. */
	CHECK_EQ(journal_replay(failed, false, NULL), 1);
	CHECK(rr_path_exists(failed));
}

/*
 * A dynamic event of ours is disabled everywhere, then removed with an
 * appended "-:" line: dynamic_events must never be truncated, which
 * would remove every dynamic event of the system.
 */
static void test_dynevent(void)
{
	char p[512], ev[128];

	setup();
	snprintf(p, sizeof(p), "mkdir -p %s/events/rmap_repro/rr_walk_ksm %s/instances/other/events/rmap_repro/rr_walk_ksm",
		 dir, dir);
	CHECK_EQ(system(p), 0);
	put("events/rmap_repro/rr_walk_ksm/enable", "1");
	put("instances/other/events/rmap_repro/rr_walk_ksm/enable", "1");
	put("dynamic_events", "p:someone/else do_sys_open\n");
	CHECK_EQ(journal_begin("test"), 0);
	CHECK_EQ(journal_record(J_DYNEVENT, "rmap_repro/rr_walk_ksm", dir), 0);
	/* One that no longer exists: nothing to do. */
	CHECK_EQ(journal_record(J_DYNEVENT, "rmap_repro/rr_gone", dir), 0);
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK_STR(get("events/rmap_repro/rr_walk_ksm/enable"), "0");
	CHECK_STR(get("instances/other/events/rmap_repro/rr_walk_ksm/enable"),
		  "0");
	snprintf(ev, sizeof(ev), "%s", get("dynamic_events"));
	CHECK_STR(ev, "p:someone/else do_sys_open\n-:rmap_repro/rr_walk_ksm");
}

static void test_lock(void)
{
	char holder[128] = "";

	setup();
	CHECK_EQ(rr_lock_acquire("first", NULL, 0), 0);
	/* flock() is per open file: a second open conflicts even here. */
	CHECK_EQ(rr_lock_acquire("second", holder, sizeof(holder)), -EBUSY);
	CHECK_CONTAINS(holder, "first");
	rr_lock_release();
	CHECK_EQ(rr_lock_acquire("third", NULL, 0), 0);
	rr_lock_release();
}

TEST_MAIN(T(test_record_once_and_replay), T(test_reverse_order),
	  T(test_bracketed_value), T(test_empty_original),
	  T(test_escaping_and_torn_line),
	  T(test_gone_objects_are_fine), T(test_failure_is_kept),
	  T(test_dynevent), T(test_lock))
