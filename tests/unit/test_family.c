// SPDX-License-Identifier: GPL-2.0
/*
 * A family of processes mapping a pattern: its size, every member ready
 * and counted, reaped to the last one, dead with the process that forked
 * it; and the frames of a family's pages, one mapping each.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "pattern/family.h"
#include "pattern/pattern.h"

/* A process that is gone, or a zombie nobody reaped yet. */
static bool gone(pid_t pid)
{
	char path[64], st[256] = "", *p;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (rr_read_file(path, st, sizeof(st)))
		return true;
	p = strrchr(st, ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

static bool all_gone(const int *pids, int n, int wait_ms)
{
	int i, t;

	for (t = 0; t <= wait_ms; t += 10) {
		for (i = 0; i < n && gone(pids[i]); i++)
			;
		if (i == n)
			return true;
		rr_sleep_ms(10);
	}
	return false;
}

static void test_size(void)
{
	CHECK_EQ(rr_family_size(8, 1), 8);
	CHECK_EQ(rr_family_size(2, 2), 6);
	CHECK_EQ(rr_family_size(2, 3), 14);
	CHECK(rr_family_size(8, 4) > RR_FAMILY_MAX);
}

static void test_fits(void)
{
	char why[128] = "";

	CHECK(rr_family_fits(1024, 1, "procs", why, sizeof(why)));
	CHECK_STR(why, "");
	CHECK(!rr_family_fits(32, 3, "children", why, sizeof(why)));
	CHECK_STR(why, "--children 32 --depth 3: more than 1024 members");
}

static atomic_int *prepared;

static void count_prep(struct rr_pattern *p)
{
	atomic_fetch_add(prepared, 1);
}

static void fail_prep(struct rr_pattern *p)
{
	_exit(1);
}

static void build(struct rr_pattern *p, size_t identical)
{
	struct rr_pattern_spec s = {
		.type = RR_PT_ANON, .pages = 32, .split_every = 2,
		.identical = identical,
	};
	char why[256] = "";

	CHECK_EQ(rr_pattern_build(p, &s, why, sizeof(why)), 0);
}

/* A tree of 2 x 2: six members, each prepared, ready, counted. */
static void test_spawn_and_reap(void)
{
	struct rr_pattern p;
	int pids[RR_FAMILY_MAX], n, i;
	size_t vmas;
	char why[256] = "";

	prepared = mmap(NULL, sizeof(*prepared), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	build(&p, 4);
	vmas = p.vmas;
	CHECK_EQ(rr_family_spawn(&p, 2, 2, count_prep, why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_EQ(p.nr_pids, 6);
	CHECK_EQ(atomic_load(prepared), 6);
	/* every member's VMAs of the pattern, counted in its maps */
	CHECK_EQ(p.vmas, 7 * vmas);
	n = p.nr_pids;
	memcpy(pids, p.pids, n * sizeof(*pids));
	for (i = 0; i < n; i++)
		CHECK(!gone(pids[i]));
	rr_family_reap(&p);
	CHECK_EQ(p.nr_pids, 0);
	CHECK(p.pids == NULL);
	CHECK(p.family == NULL);
	/* reaped: no zombie left either */
	for (i = 0; i < n; i++)
		CHECK(kill(pids[i], 0) && errno == ESRCH);
	rr_family_reap(&p);		/* twice: nothing */
	rr_pattern_free(&p);
	munmap(prepared, sizeof(*prepared));
}

/* Members that die before they are ready: an error, nothing left. */
static void test_spawn_fails(void)
{
	struct rr_pattern p;
	char why[256] = "";

	build(&p, 4);
	CHECK_EQ(rr_family_spawn(&p, 3, 1, fail_prep, why, sizeof(why)),
		 -ECHILD);
	CHECK_STR(why, "0 of 3 members of the family got ready");
	CHECK_EQ(p.nr_pids, 0);
	CHECK(p.family == NULL);
	CHECK_EQ(waitpid(-1, NULL, WNOHANG), -1);
	CHECK_EQ(rr_family_spawn(&p, 8, 4, NULL, why, sizeof(why)), -E2BIG);
	rr_pattern_free(&p);
}

/* The measuring process killed: the family dies with it. */
static void test_dies_with_parent(void)
{
	int fd[2], pids[RR_FAMILY_MAX], n = 0;
	pid_t mid;

	CHECK_EQ(pipe(fd), 0);
	mid = fork();
	if (!mid) {
		struct rr_pattern p;
		char why[256];

		close(fd[0]);
		build(&p, 4);
		if (rr_family_spawn(&p, 2, 2, NULL, why, sizeof(why)))
			_exit(1);
		if (write(fd[1], p.pids, p.nr_pids * sizeof(int)) < 0)
			_exit(1);
		close(fd[1]);
		pause();
		_exit(0);
	}
	close(fd[1]);
	/* six, not EOF: the members hold the pipe's write end too */
	while (n < 6 && read(fd[0], &pids[n], sizeof(int)) == sizeof(int))
		n++;
	close(fd[0]);
	CHECK_EQ(n, 6);
	kill(mid, SIGKILL);
	waitpid(mid, NULL, 0);
	CHECK(all_gone(pids, n, 5000));
}

/*
 * One mapping per frame: a family that shares the parent's frames gives
 * the parent's pages; members with copies of their own add theirs.
 */
static void rewrite(struct rr_pattern *p)
{
	if (rr_pattern_rewrite(p, SIZE_MAX))
		_exit(1);
}

static void test_frame_refs(void)
{
	struct rr_page_ref *refs;
	struct rr_pattern p;
	char why[256] = "";
	size_t n, i;
	int err;

	build(&p, 8);
	CHECK_EQ(rr_family_spawn(&p, 2, 1, NULL, why, sizeof(why)), 0);
	err = rr_pattern_frame_refs(&p, false, &refs, &n);
	if (err == -EPERM) {
		/* Without CAP_SYS_ADMIN pagemap hides frame numbers. */
		printf("    # not root: no frame numbers, and it says so\n");
		rr_family_reap(&p);
		rr_pattern_free(&p);
		return;
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(n, 8);
	for (i = 0; i < n; i++)
		CHECK_EQ(refs[i].pid, 0);
	free(refs);
	rr_family_reap(&p);

	CHECK_EQ(rr_family_spawn(&p, 2, 1, rewrite, why, sizeof(why)), 0);
	CHECK_EQ(rr_pattern_frame_refs(&p, false, &refs, &n), 0);
	CHECK_EQ(n, 24);
	/* by process: this one's first (pid 0), then the members' */
	CHECK_EQ(refs[0].pid, 0);
	CHECK_EQ(refs[7].pid, 0);
	CHECK(refs[8].pid > 0);
	free(refs);
	CHECK_EQ(rr_pattern_frame_refs(&p, true, &refs, &n), 0);
	CHECK_EQ(n, 8);
	free(refs);
	rr_family_reap(&p);
	rr_pattern_free(&p);
}

/*
 * A member asked to madvise() its own page: it makes the call, times it
 * and answers; a bad advice is its errno; a member that is gone cannot
 * answer; a SIGBUS still kills it, of SIGBUS (the oracle of
 * ksm-memory-failure counts on that).
 */
static void no_core(struct rr_pattern *p)
{
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
}

static void test_member_madvise(void)
{
	struct rr_member_call mc;
	struct rr_pattern p;
	char why[256] = "";
	int st, pid;

	build(&p, 4);
	CHECK_EQ(rr_family_spawn(&p, 2, 1, no_core, why, sizeof(why)), 0);
	pid = p.pids[1];
	CHECK_EQ(rr_family_madvise(&p, pid, p.addr, MADV_DONTNEED, &mc), 0);
	CHECK_EQ(mc.err, 0);
	CHECK(!mc.sigbus);
	CHECK(mc.ms >= 0 && mc.ms < 10000);
	CHECK(!gone(pid));
	/* the member answers again, and its errno comes back */
	CHECK_EQ(rr_family_madvise(&p, pid, p.addr, 12345, &mc), 0);
	CHECK_EQ(mc.err, EINVAL);
	/* not a member: nobody is asked */
	CHECK_EQ(rr_family_madvise(&p, getpid(), p.addr, MADV_DONTNEED, &mc),
		 -ESRCH);
	/* killed by SIGBUS outside a call: dies of it */
	kill(p.pids[0], SIGBUS);
	CHECK_EQ(waitpid(p.pids[0], &st, 0), p.pids[0]);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS);
	p.pids[0] = -1;
	/* gone without answering (a zombie here): -ECHILD, no hang */
	kill(pid, SIGKILL);
	CHECK(all_gone(&pid, 1, 5000));
	CHECK_EQ(rr_family_madvise(&p, pid, p.addr, MADV_DONTNEED, &mc),
		 -ECHILD);
	rr_family_reap(&p);
	rr_pattern_free(&p);
}

TEST_MAIN(T(test_size), T(test_fits), T(test_spawn_and_reap), T(test_spawn_fails),
	  T(test_dies_with_parent), T(test_frame_refs),
	  T(test_member_madvise))
