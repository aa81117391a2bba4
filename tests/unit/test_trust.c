// SPDX-License-Identifier: GPL-2.0
/*
 * What a replay trusts (journal/trust.h), on hostile inputs: a file
 * without the journal's header, a journal that is a symbolic link, one
 * that others can write or that lies in a directory others can write, a
 * state directory or lock that is a link or open to others, and records
 * whose targets the suite never makes (a knob outside the kernel's, one
 * reached through a link, a fake cgroup whose cgroup.procs names a live
 * process, modules, mounts, devices, instances and events of other
 * names). Each is refused with nothing done: no file created, changed or
 * removed, no process signalled; a refused record is a failure of the
 * replay, and the rest of the journal goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/undo.h"
#include "harness.h"
#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/hooks.h"
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

static char dir[256];		/* the state directory, and the stand-ins */
static char out[256];		/* outside every stand-in */
static char why[512];

static void path(char *buf, size_t size, const char *base, const char *name)
{
	snprintf(buf, size, "%s/%s", base, name);
}

static void put(const char *p, const char *val)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(write(fd, val, strlen(val)), (ssize_t)strlen(val));
	close(fd);
}

static const char *get(const char *p)
{
	static char buf[512];

	if (rr_read_file(p, buf, sizeof(buf)))
		return "(unreadable)";
	return buf;
}

static void setup(void)
{
	const char *tmp = getenv("TEST_TMPDIR");

	snprintf(dir, sizeof(dir), "%s/rr-trust-XXXXXX", tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(out, sizeof(out), "%s/rr-outside-XXXXXX", tmp ? tmp : "/tmp");
	CHECK(mkdtemp(out) != NULL);
	setenv("RMAP_REPRO_STATE_DIR", dir, 1);
	/* the state directory's knobs stand in for the kernel's */
	setenv("RMAP_REPRO_PROC_DIR", dir, 1);
}

/* A journal of the suite's form at p: its header, then text. */
static void journal_at(const char *p, const char *text)
{
	char buf[2048];

	snprintf(buf, sizeof(buf), "%s: pid 1 (test)\nboot\t%s\t\n%s",
		 JOURNAL_HEADER, rr_boot_id(), text);
	put(p, buf);
}

static void knob_journal(const char *p, const char *knob)
{
	char text[512];

	snprintf(text, sizeof(text), "knob\t%s\torig\n", knob);
	journal_at(p, text);
}

/* A refused file: one failure, said, and the file exactly as it was. */
static void check_refused_file(const char *p, const char *reason)
{
	char before[2048], after[2048], failed[300];
	struct rr_replay st;
	struct stat a, b;

	CHECK_EQ(lstat(p, &a), 0);
	snprintf(before, sizeof(before), "%s", get(p));
	CHECK_EQ(journal_replay(p, false, &st), 1);
	CHECK_EQ(st.failures, 1);
	CHECK_EQ(st.undone, 0);
	CHECK_CONTAINS(st.unread, reason);
	CHECK_EQ(journal_check_file(p, why, sizeof(why)), -EPERM);
	CHECK_CONTAINS(why, reason);
	CHECK_EQ(lstat(p, &b), 0);
	CHECK_EQ(a.st_ino, b.st_ino);
	snprintf(after, sizeof(after), "%s", get(p));
	CHECK_STR(after, before);
	snprintf(failed, sizeof(failed), "%s.failed", p);
	CHECK(!rr_path_exists(failed));
}

static void test_no_header(void)
{
	char knob[300], text[512];

	setup();
	path(knob, sizeof(knob), dir, "knob");
	put(knob, "changed");
	snprintf(text, sizeof(text), "knob\t%s\torig\n", knob);
	put(journal_path(), text);
	check_refused_file(journal_path(), "does not start with");
	CHECK_STR(get(knob), "changed");
	/* a run does not start beside it, and leaves it too */
	snprintf(text, sizeof(text), "%s", get(journal_path()));
	CHECK_EQ(journal_begin("test", why, sizeof(why)), -EUCLEAN);
	CHECK_CONTAINS(why, "not replayed");
	CHECK_STR(get(journal_path()), text);
	CHECK_STR(get(knob), "changed");
}

static void test_symlinked_journal(void)
{
	char knob[300], real[300];

	setup();
	path(knob, sizeof(knob), dir, "knob");
	put(knob, "changed");
	path(real, sizeof(real), dir, "elsewhere");
	knob_journal(real, knob);
	CHECK_EQ(symlink(real, journal_path()), 0);
	check_refused_file(journal_path(), "symbolic link");
	CHECK_STR(get(knob), "changed");
	CHECK(rr_path_exists(real));
	/* nor is a new journal written through it */
	CHECK_EQ(journal_begin("test", why, sizeof(why)), -EUCLEAN);
	CHECK_CONTAINS(get(real), "knob\t");
}

static void test_writable_journal(void)
{
	char knob[300];

	setup();
	path(knob, sizeof(knob), dir, "knob");
	put(knob, "changed");
	knob_journal(journal_path(), knob);
	CHECK_EQ(chmod(journal_path(), 0666), 0);
	check_refused_file(journal_path(), "every user");
	CHECK_EQ(chmod(journal_path(), 0620), 0);
	check_refused_file(journal_path(), "its group");
	if (!geteuid()) {
		/* as root: a journal of another user's is theirs */
		CHECK_EQ(chmod(journal_path(), 0644), 0);
		CHECK_EQ(chown(journal_path(), 65534, 65534), 0);
		check_refused_file(journal_path(), "belongs to uid 65534");
	}
	CHECK_STR(get(knob), "changed");
}

/* scripts/restore --journal FILE, FILE in a directory open to others */
static void test_writable_directory(void)
{
	char knob[300], sub[300], p[300];

	setup();
	path(knob, sizeof(knob), dir, "knob");
	put(knob, "changed");
	path(sub, sizeof(sub), out, "shared");
	CHECK_EQ(mkdir(sub, 0755), 0);
	CHECK_EQ(chmod(sub, 01777), 0);
	path(p, sizeof(p), sub, "journal");
	knob_journal(p, knob);
	check_refused_file(p, "every user");
	CHECK_STR(get(knob), "changed");
}

static void test_state_directory(void)
{
	char real[300], lock[300], other[300];

	setup();
	/* a link where the state directory is */
	path(real, sizeof(real), out, "real-state");
	CHECK_EQ(mkdir(real, 0755), 0);
	path(lock, sizeof(lock), out, "state-link");
	CHECK_EQ(symlink(real, lock), 0);
	setenv("RMAP_REPRO_STATE_DIR", lock, 1);
	CHECK_EQ(rr_lock_acquire("test", NULL, 0), -EPERM);
	CHECK_CONTAINS(rr_lock_why(), "symbolic link");
	path(other, sizeof(other), real, "lock");
	CHECK(!rr_path_exists(other));
	/* a state directory every user can write */
	CHECK_EQ(chmod(real, 0777), 0);
	setenv("RMAP_REPRO_STATE_DIR", real, 1);
	CHECK_EQ(rr_lock_acquire("test", NULL, 0), -EPERM);
	CHECK_CONTAINS(rr_lock_why(), "every user");
	CHECK(!rr_path_exists(other));
	/* a link where the lock is */
	setenv("RMAP_REPRO_STATE_DIR", dir, 1);
	path(other, sizeof(other), out, "victim");
	put(other, "victim's");
	path(lock, sizeof(lock), dir, "lock");
	CHECK_EQ(symlink(other, lock), 0);
	CHECK_EQ(rr_lock_acquire("test", NULL, 0), -ELOOP);
	CHECK_CONTAINS(rr_lock_why(), "symbolic link");
	CHECK_STR(get(other), "victim's");
}

/* A process standing in for someone's, listed in a fake cgroup. */
static pid_t bystander(const char *cg)
{
	char p[400], pid[32];
	pid_t c = fork();

	if (c == 0) {
		pause();
		_exit(0);
	}
	CHECK_EQ(mkdir(cg, 0755), 0);
	snprintf(pid, sizeof(pid), "%d\n", c);
	path(p, sizeof(p), cg, "cgroup.procs");
	put(p, pid);
	return c;
}

/* One journal of hostile records and one good one, replayed. */
static int hostile(const char *knob, const char *far, const char *link,
		   const char *cg)
{
	const char *recs[][3] = {
		{ J_KNOB, far, "orig" },	/* outside the kernel's */
		{ J_KNOB, link, "orig" },	/* through a link */
		{ J_CGROUP, cg, "" },		/* not a cgroup file system */
		{ J_MODULE, "ext4", "" },
		{ J_SWAPON, "/dev/sda1", "" },
		{ J_ZRAM, "0; reboot", "" },
		{ J_MOUNT, "/home", "" },
		{ J_INSTANCE, "/sys/kernel/tracing/instances/user", "" },
		{ J_DYNEVENT, "kprobes/user", "/sys/kernel/tracing" },
		{ J_UNPOISON, "12abc", "" },
		{ J_DAMON, out, "" },
		{ J_KSM_UNMERGE, far, "" },
		{ "exec", "/bin/sh", "" },
	};
	size_t i;

	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_KNOB, knob, "orig"), 0);
	for (i = 0; i < ARRAY_SIZE(recs); i++)
		CHECK_EQ(journal_record(recs[i][0], recs[i][1], recs[i][2]), 0);
	return ARRAY_SIZE(recs);
}

static void test_hostile_records(void)
{
	char knob[300], far[300], link[300], cg[300], failed[300];
	struct rr_replay st;
	pid_t victim;
	int n;

	setup();
	path(knob, sizeof(knob), dir, "knob");
	put(knob, "changed");
	path(far, sizeof(far), out, "shadow");
	put(far, "secret");
	path(link, sizeof(link), dir, "link");
	CHECK_EQ(symlink(far, link), 0);
	path(cg, sizeof(cg), out, "rmap-repro-1");
	victim = bystander(cg);
	n = hostile(knob, far, link, cg);
	CHECK_EQ(journal_replay(journal_path(), false, &st), n);
	CHECK_EQ(st.refused, n);
	CHECK_EQ(st.failures, n);
	CHECK_EQ(st.undone, 1);			/* the rest went on */
	CHECK_STR(get(knob), "orig");
	CHECK_STR(get(far), "secret");		/* nothing written */
	CHECK(rr_path_exists(cg));		/* nothing removed */
	CHECK_EQ(kill(victim, 0), 0);		/* nobody signalled */
	snprintf(failed, sizeof(failed), "%s.failed", journal_path());
	CHECK(rr_path_exists(failed));		/* kept, refusals and all */
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
	unlink(failed);
}

/* A group of the suite's name is still refused outside cgroupfs. */
static void test_cgroup_name_and_place(void)
{
	char cg[300];
	pid_t victim;

	setup();
	CHECK(rr_memcg_name_ours("rmap-repro-12"));
	CHECK(rr_memcg_name_ours("rmap-repro-load-12"));
	CHECK(!rr_memcg_name_ours("rmap-repro-"));
	CHECK(!rr_memcg_name_ours("rmap-repro-Load-1"));
	CHECK(!rr_memcg_name_ours("user.slice"));
	CHECK(!rr_memcg_name_ours("rmap-repro-1/../x"));
	path(cg, sizeof(cg), out, "user.slice");
	victim = bystander(cg);
	CHECK_EQ(journal_begin("test", why, sizeof(why)), 0);
	CHECK_EQ(journal_record(J_CGROUP, cg, ""), 0);
	CHECK_EQ(journal_replay(journal_path(), false, NULL), 1);
	CHECK(rr_path_exists(cg));
	CHECK_EQ(kill(victim, 0), 0);
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
}

/* This is the test build: hooks on, and none refused. */
static void test_hooks_on(void)
{
	CHECK(rr_test_build());
	setenv("RMAP_REPRO_TEST_HOLD_MS", "1", 1);
	CHECK(rr_hook_set() == NULL);
	CHECK_STR(rr_hook_env("RMAP_REPRO_TEST_HOLD_MS"), "1");
	CHECK_EQ(rr_hooks_refuse("test", 2), 0);
	unsetenv("RMAP_REPRO_TEST_HOLD_MS");
	CHECK(rr_hook_env("RMAP_REPRO_TEST_HOLD_MS") == NULL);
}

TEST_MAIN(T(test_no_header), T(test_symlinked_journal),
	  T(test_writable_journal), T(test_writable_directory),
	  T(test_state_directory), T(test_hostile_records),
	  T(test_cgroup_name_and_place), T(test_hooks_on))
