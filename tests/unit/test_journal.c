// SPDX-License-Identifier: GPL-2.0
/*
 * The journal, on plain files standing in for knobs, in a private state
 * directory: record once before the first change, skip unchanged knobs,
 * undo last first, survive a torn last line, keep a journal that could
 * not be fully undone, and refuse a second lock holder.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/undo.h"
#include "harness.h"
#include "journal/fault.h"
#include "journal/journal.h"
#include "lib/util.h"
#include "mm/damon.h"
#include "mm/hwpoison.h"
#include "mm/memcg.h"
#include "mm/swap.h"
#include "probe/probe.h"
#include "probe/trace.h"

/* The program's undo handlers, as a run hands them to the journal. */
__attribute__((constructor)) static void use_undos(void)
{
	rr_undos_use();
}

static char dir[256];
static char why[512];		/* journal_begin()'s */

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
	/* The changes: not the boot id or the values written. */
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "knob\t", 5))
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
	/* the knobs here stand in for the kernel's (journal/trust.h) */
	setenv("RMAP_REPRO_PROC_DIR", dir, 1);
}

static void test_record_once_and_replay(void)
{
	char a[128], b[128];
	struct rr_replay st;

	setup();
	put("knob_a", "100");
	put("knob_b", "20");
	path(a, sizeof(a), "knob_a");
	path(b, sizeof(b), "knob_b");
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(a, "20000"), 0);
	CHECK_EQ(journal_knob_set(a, "5"), 0);	/* journaled once */
	CHECK_EQ(journal_knob_set(b, "20"), 0);	/* unchanged: nothing */
	CHECK_STR(get("knob_a"), "5");
	CHECK_EQ(count_records(), 1);
	/* The last value written is ours: undone to the original. */
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.undone, 1);
	CHECK_EQ(st.left, 0);
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
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
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
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
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
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
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
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
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
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	/* Everything here is already gone: nothing fails. */
	CHECK_EQ(journal_record(J_KNOB, "/nonexistent/knob", "1"), 0);
	CHECK_EQ(journal_record(J_CGROUP, "/nonexistent/rmap-repro-1", ""), 0);
	CHECK_EQ(journal_record(J_INSTANCE,
				"/nonexistent/instances/rmap-repro-1", ""), 0);
	CHECK_EQ(journal_record(J_SWAPON, "/dev/zram999", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
	CHECK(!journal_exists());
}

static void test_failure_is_kept(void)
{
	char a[128], failed[256];
	struct rr_replay st;

	setup();
	path(a, sizeof(a), "subdir");
	CHECK_EQ(mkdir(a, 0755), 0);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	/* Writing a value into a directory fails: the record must stay. */
	CHECK_EQ(journal_record(J_KNOB, a, "1"), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 1);
	CHECK_EQ(st.undone, 0);
	CHECK_EQ(st.failures, 1);
	snprintf(failed, sizeof(failed), "%s.failed", journal_path());
	CHECK(rr_path_exists(failed));
	/* Replaying the kept journal again keeps it in place. */
	CHECK_EQ(journal_replay(failed, false, NULL), 1);
	CHECK(rr_path_exists(failed));
}

/* A journal that cannot be read is a failed restore, not a clean one. */
static void test_unreadable_is_a_failure(void)
{
	struct rr_replay st;

	setup();
	/* a directory where the journal is: open works, read fails */
	CHECK_EQ(mkdir(journal_path(), 0755), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 1);
	CHECK_EQ(st.failures, 1);
	CHECK_EQ(st.undone, 0);
	/* left where it is for a later replay */
	CHECK(rr_path_exists(journal_path()));
	CHECK_EQ(rmdir(journal_path()), 0);
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
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
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

/*
 * A knob that holds another value than the run last wrote was changed
 * by someone since: it is left as it is, and counted, not failed.
 */
static void test_changed_since_is_left(void)
{
	char a[128], b[128];
	struct rr_replay st;

	setup();
	put("pages_to_scan", "100");
	put("run", "0");
	path(a, sizeof(a), "pages_to_scan");
	path(b, sizeof(b), "run");
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(a, "20000"), 0);
	CHECK_EQ(journal_knob_set(b, "1"), 0);
	CHECK_EQ(journal_knob_set(b, "0"), 0);
	CHECK_EQ(journal_knob_set(b, "1"), 0);
	put("pages_to_scan", "7");	/* the user, after a kill -9 */
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.left, 1);
	CHECK_EQ(st.undone, 1);
	CHECK_EQ(st.failures, 0);
	CHECK_STR(get("pages_to_scan"), "7");
	CHECK_STR(get("run"), "0");	/* the last value was ours */
	CHECK(!journal_exists());
}

/*
 * The module undo, on a stand-in sysfs (RMAP_REPRO_SYS_DIR) and a stand-in
 * modprobe first on PATH that logs its arguments and removes the module's
 * directory, or fails when told to.
 */
static void module_env(const char *disksize, bool fail)
{
	char p[256], cmd[1024];
	FILE *f;

	setup();
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/module/zram %s/sys/block/zram0 %s/bin",
		 dir, dir, dir);
	CHECK_EQ(system(cmd), 0);
	path(p, sizeof(p), "sys/block/zram0/disksize");
	CHECK_EQ(creat(p, 0644) >= 0 && !rr_write_file(p, disksize), 1);
	path(p, sizeof(p), "bin/modprobe");
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\necho \"$*\" >> %s/modprobe.log\n%s\n", dir,
		fail ? "exit 1" : "[ \"$1\" = -r ] && rmdir \"$RMAP_REPRO_SYS_DIR/module/$2\"");
	fclose(f);
	chmod(p, 0755);
	snprintf(p, sizeof(p), "%s/sys", dir);
	setenv("RMAP_REPRO_SYS_DIR", p, 1);
	snprintf(cmd, sizeof(cmd), "%s/bin:%s", dir, getenv("PATH"));
	setenv("PATH", cmd, 1);
}

static void module_env_end(const char *old_path)
{
	unsetenv("RMAP_REPRO_SYS_DIR");
	setenv("PATH", old_path, 1);
}

static void test_module_undo(void)
{
	char old_path[4096];
	struct rr_replay st;
	char p[256];

	snprintf(old_path, sizeof(old_path), "%s", getenv("PATH"));

	/* zram loaded by the run, no device configured: unloaded */
	module_env("0", false);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_MODULE, "zram", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.undone, 1);
	CHECK_EQ(st.left, 0);
	CHECK_STR(get("modprobe.log"), "-r zram");
	path(p, sizeof(p), "sys/module/zram");
	CHECK(!rr_path_exists(p));
	CHECK(!journal_exists());
	module_env_end(old_path);

	/* a zram device configured since (a user's): the module stays */
	module_env("268435456", false);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_MODULE, "zram", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.left, 1);
	CHECK_EQ(st.undone, 0);
	CHECK_STR(get("modprobe.log"), "(unreadable)");
	path(p, sizeof(p), "sys/module/zram");
	CHECK(rr_path_exists(p));
	module_env_end(old_path);

	/* unloaded already (by someone): nothing to run */
	module_env("0", false);
	path(p, sizeof(p), "sys/module/zram");
	CHECK_EQ(rmdir(p), 0);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_MODULE, "zram", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.failures, 0);
	CHECK_STR(get("modprobe.log"), "(unreadable)");
	module_env_end(old_path);

	/* modprobe -r fails (module busy): a failure, the journal kept */
	module_env("0", true);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_MODULE, "zram", ""), 0);
	CHECK(journal_replay(journal_path(), false, &st) > 0);
	CHECK_EQ(st.failures, 1);
	CHECK_STR(get("modprobe.log"), "-r zram");
	/* kept aside for scripts/restore --journal */
	CHECK_CONTAINS(get("journal.failed"), "module\tzram");
	module_env_end(old_path);
}

/* Every kind of change a module journals has its undo registered. */
static void test_undo_table(void)
{
	static const char *const ops[] = {
		J_SWAPON, J_ZRAM, J_CGROUP, J_INSTANCE, J_MOUNT, J_MODULE,
		J_DYNEVENT, J_UNPOISON, J_DAMON,
	};
	const struct journal_undo *const *h;
	size_t i, found, n = 0;

	for (h = rr_undos; *h; h++) {
		n++;
		/* what the fault hooks refuse a change of its kind with */
		CHECK((*h)->refusal > 0);
	}
	CHECK_EQ(n, ARRAY_SIZE(ops));
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		found = 0;
		for (h = rr_undos; *h; h++)
			if (!strcmp((*h)->op, ops[i]) && (*h)->undo)
				found++;
		if (found != 1)
			printf("    # %s: %zu handlers\n", ops[i], found);
		CHECK_EQ(found, 1);
	}
}

/* A knob the run also switches outside the journal comes back anyway. */
static void test_volatile_knob(void)
{
	char a[128];
	struct rr_replay st;

	setup();
	put("tracing_on", "0");
	path(a, sizeof(a), "tracing_on");
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set_volatile(a, "1"), 0);
	put("tracing_on", "1");		/* killed between two triggers */
	put("tracing_on", "5");		/* any value at all */
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.undone, 1);
	CHECK_EQ(st.left, 0);
	CHECK_STR(get("tracing_on"), "0");
}

/* Lists compare as sets of words: the kernel may reorder them. */
static void test_list_compare(void)
{
	char a[128];
	struct rr_replay st;

	setup();
	put("filter", "");
	path(a, sizeof(a), "filter");
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(a, "rmap_walk_ksm rmap_walk_anon"), 0);
	put("filter", "rmap_walk_anon\nrmap_walk_ksm\n");
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.undone, 1);
	CHECK_STR(get("filter"), "");
}

/*
 * A journal of an earlier boot undoes nothing: the reboot reset what it
 * records, and what holds those names now is someone else's.
 */
static void test_other_boot(void)
{
	char a[128], text[512];
	struct rr_replay st;
	FILE *f;

	setup();
	put("k", "user's");
	path(a, sizeof(a), "k");
	snprintf(text, sizeof(text),
		 "# rmap-repro journal v1: pid 1 (test)\nboot\t00000000-0000-0000-0000-000000000000\t\nknob\t%s\torig\nwrote\t%s\tours\n",
		 a, a);
	f = fopen(journal_path(), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK(st.other_boot);
	CHECK_EQ(st.undone, 0);
	CHECK_STR(get("k"), "user's");
	CHECK(!journal_exists());
}

/* journal_begin names this boot, and first replays a killed run's. */
static void test_begin_replays_leftover(void)
{
	char a[128], line[256];
	FILE *f;

	setup();
	put("k", "orig");
	path(a, sizeof(a), "k");
	CHECK_EQ(journal_begin("killed", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(a, "changed"), 0);
	/* killed here: the journal stays; the next run restores it */
	journal_forget();
	CHECK_EQ(journal_begin("next", why, sizeof(why)), 0);
	CHECK_STR(get("k"), "orig");
	CHECK_EQ(count_records(), 0);
	f = fopen(journal_path(), "r");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fgets(line, sizeof(line), f) != NULL);
	CHECK_CONTAINS(line, "(next)");
	CHECK(fgets(line, sizeof(line), f) != NULL);
	CHECK(!strncmp(line, "boot\t", 5));
	CHECK_CONTAINS(line, rr_boot_id());
	fclose(f);
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
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

/*
 * run-all holds the lock and passes its descriptor down: a reproducer
 * given that descriptor shares the lock; any other is refused, also one
 * given a descriptor of the same file that does not hold it.
 */
static void test_lock_inherited(void)
{
	char p[256], num[16], holder[128] = "";
	int fd, other;

	setup();
	path(p, sizeof(p), "lock");
	fd = open(p, O_RDWR | O_CREAT, 0644);
	other = open(p, O_RDWR);
	CHECK(fd >= 0 && other >= 0);
	CHECK_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
	snprintf(num, sizeof(num), "%d", fd);
	setenv("RMAP_REPRO_LOCK_FD", num, 1);
	CHECK_EQ(rr_lock_acquire("reproducer", NULL, 0), 0);
	rr_lock_release();
	/* still held through the parent's descriptor */
	snprintf(num, sizeof(num), "%d", other);
	setenv("RMAP_REPRO_LOCK_FD", num, 1);
	CHECK_EQ(rr_lock_acquire("stranger", holder, sizeof(holder)), -EBUSY);
	unsetenv("RMAP_REPRO_LOCK_FD");
	CHECK_EQ(rr_lock_acquire("stranger", NULL, 0), -EBUSY);
	close(fd);
	close(other);
	CHECK_EQ(rr_lock_acquire("after", NULL, 0), 0);
	rr_lock_release();
}

/* kpageflags of a stand-in /proc: frame 3 is HWPoison (bit 19). */
static void stand_in_frames(void)
{
	uint64_t flags[5] = { 0, 0, 0, 1ULL << 19, 0 };
	char p[256];
	int fd;

	path(p, sizeof(p), "proc");
	CHECK_EQ(mkdir(p, 0755), 0);
	path(p, sizeof(p), "proc/kpageflags");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, flags, sizeof(flags)), (ssize_t)sizeof(flags));
	close(fd);
	path(p, sizeof(p), "proc");
	setenv("RMAP_REPRO_PROC_DIR", p, 1);
	snprintf(p, sizeof(p), "mkdir -p %s/sys/kernel/debug/hwpoison", dir);
	CHECK_EQ(system(p), 0);
	path(p, sizeof(p), "sys");
	setenv("RMAP_REPRO_SYS_DIR", p, 1);
	put("sys/kernel/debug/hwpoison/unpoison-pfn", "");
}

/*
 * A frame soft offline retired: given back through unpoison-pfn, and
 * checked in kpageflags. One not retired is left alone; one that stays
 * retired (the stand-in file cannot clear the flag, as the kernel
 * refuses some) is left, and said, after one try.
 */
static void test_unpoison_undo(void)
{
	struct rr_replay st;

	setup();
	stand_in_frames();
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_UNPOISON, "2", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_EQ(st.undone, 1);
	CHECK_STR(get("sys/kernel/debug/hwpoison/unpoison-pfn"), "");

	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_UNPOISON, "3", ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	/* the run's own frame, retired until reboot: not someone else's */
	CHECK_EQ(st.retired, 1);
	CHECK_EQ(st.left, 0);
	CHECK_EQ(st.failures, 0);
	CHECK_STR(get("sys/kernel/debug/hwpoison/unpoison-pfn"), "3");
	unsetenv("RMAP_REPRO_PROC_DIR");
	unsetenv("RMAP_REPRO_SYS_DIR");
}

/*
 * A leftover journal whose replay fails: no run starts on top of it, and
 * the next tries the kept journal again before it starts.
 */
static void test_begin_refuses_failed_replay(void)
{
	char a[128], failed[256];

	setup();
	path(a, sizeof(a), "subdir");
	CHECK_EQ(mkdir(a, 0755), 0);
	CHECK_EQ(journal_begin("killed", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_KNOB, a, "1"), 0);
	journal_forget();
	why[0] = '\0';
	CHECK_EQ(journal_begin("next", why, sizeof(why)), -EUCLEAN);
	CHECK_CONTAINS(why, "scripts/restore --journal");
	snprintf(failed, sizeof(failed), "%s.failed", journal_path());
	CHECK(rr_path_exists(failed));
	CHECK(!journal_exists());
	/* still failing: still refused */
	CHECK_EQ(journal_begin("next", why, sizeof(why)), -EUCLEAN);
	/* the cause gone (a file the value can be written to): it starts */
	CHECK_EQ(rmdir(a), 0);
	put("subdir", "0");
	CHECK_EQ(journal_begin("next", why, sizeof(why)), 0);
	CHECK(!rr_path_exists(failed));
	CHECK_STR(get("subdir"), "1");
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 0);
}

/*
 * The fault hook: the Nth change is refused as the kernel would, before
 * it is recorded or made; a knob's first value and its record are one
 * change; every change is listed, also with N=0 (count only).
 */
static void test_fail_nth_change(void)
{
	char a[128], b[128], list[1024];
	struct rr_replay st;

	setup();
	put("knob_a", "1");
	put("knob_b", "2");
	path(a, sizeof(a), "knob_a");
	path(b, sizeof(b), "knob_b");
	setenv("RMAP_REPRO_TEST_FAIL_CHANGE", "3", 1);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(a, "10"), 0);		/* change 1 */
	CHECK_EQ(journal_knob_set(a, "11"), 0);		/* change 2 */
	CHECK_EQ(journal_knob_set(b, "20"), -EINVAL);	/* 3: refused */
	CHECK_STR(get("knob_b"), "2");			/* not made */
	CHECK_EQ(count_records(), 1);			/* nor recorded */
	CHECK_EQ(journal_record(J_CGROUP, "/nowhere/rmap-repro-1", ""), 0); /* 4 */
	path(list, sizeof(list), "test-changes");
	CHECK_EQ(rr_read_file(list, list, sizeof(list)), 0);
	CHECK_CONTAINS(list, "1\tknob\t");
	CHECK_CONTAINS(list, "2\twrote\t");
	CHECK_CONTAINS(list, "3\tknob\t");
	CHECK_CONTAINS(list, "4\tcgroup\t/nowhere/rmap-repro-1");
	CHECK(!strstr(list, "5\t"));
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_STR(get("knob_a"), "1");
	/* count only: nothing refused, the list starts again */
	setenv("RMAP_REPRO_TEST_FAIL_CHANGE", "0", 1);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(b, "21"), 0);
	path(list, sizeof(list), "test-changes");
	CHECK_EQ(rr_read_file(list, list, sizeof(list)), 0);
	CHECK_CONTAINS(list, "1\tknob\t");
	CHECK(!strstr(list, "2\t"));
	CHECK_EQ(rr_undo_cgroup.refusal, ENOSPC);
	CHECK_EQ(rr_undo_swapon.refusal, EBUSY);
	unsetenv("RMAP_REPRO_TEST_FAIL_CHANGE");
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	CHECK_STR(get("knob_b"), "2");
}

/* A broken undo (the test hook) leaves its change: what chaos must see. */
static void test_broken_undo(void)
{
	char a[128];
	struct rr_replay st;

	setup();
	put("knob_a", "1");
	path(a, sizeof(a), "knob_a");
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_knob_set(a, "7"), 0);
	setenv("RMAP_REPRO_TEST_BREAK_UNDO", "knob", 1);
	CHECK_EQ(journal_replay(journal_path(), false, &st), 0);
	unsetenv("RMAP_REPRO_TEST_BREAK_UNDO");
	CHECK_STR(get("knob_a"), "7");
}

TEST_MAIN(T(test_record_once_and_replay), T(test_module_undo),
	  T(test_undo_table), T(test_reverse_order),
	  T(test_bracketed_value), T(test_empty_original),
	  T(test_escaping_and_torn_line),
	  T(test_gone_objects_are_fine), T(test_failure_is_kept),
	  T(test_unreadable_is_a_failure),
	  T(test_dynevent), T(test_changed_since_is_left),
	  T(test_volatile_knob), T(test_list_compare), T(test_other_boot),
	  T(test_begin_replays_leftover), T(test_lock),
	  T(test_lock_inherited), T(test_unpoison_undo),
	  T(test_begin_refuses_failed_replay), T(test_fail_nth_change),
	  T(test_broken_undo))
