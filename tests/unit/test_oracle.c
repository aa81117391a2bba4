// SPDX-License-Identifier: GPL-2.0
/*
 * The frames oracle: judging frames before and after, then the same on
 * real pages of this process and of a forked child, where copy on write
 * stands in for a migration that moves one mapping and misses another.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "measure/oracle.h"

static char base[8 * 4096];

/* n mappings: mapping i at base + i pages, in pid pids[i]. */
static void frames_of(struct rr_frames *f, size_t n, const uint64_t *pfn,
		      const int *pids)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->base = base;
	f->map = calloc(n, sizeof(*f->map));
	f->pfn = calloc(n, sizeof(*f->pfn));
	f->sum = calloc(n, sizeof(*f->sum));
	for (i = 0; i < n; i++) {
		f->map[i].pid = pids ? pids[i] : 0;
		f->map[i].addr = base + i * 4096;
		f->pfn[i] = pfn[i];
	}
}

/* Every page moved, every mapping with it: clean. */
static void test_judge_clean(void)
{
	/* two frames, of 3 and 1 mappings */
	const uint64_t before[] = { 10, 10, 20, 10 };
	const uint64_t after[] = { 30, 30, 40, 30 };
	const bool changed[4] = { 0 };
	struct rr_oracle o = { 0 };
	struct rr_frames f;

	frames_of(&f, 4, before, NULL);
	rr_frames_judge(&f, after, changed, &o);
	CHECK(o.ran);
	CHECK_EQ(o.pages_checked, 2);
	CHECK_EQ(o.mappings_checked, 4);
	CHECK_EQ(o.pages_failed, 0);
	CHECK_EQ(o.mappings_missed, 0);
	CHECK(!rr_oracle_failed(&o));
	rr_frames_free(&f);
}

/* A page that did not move; a mapping left behind; a content changed. */
static void test_judge_failures(void)
{
	const uint64_t before[] = { 10, 10, 20, 20, 20 };
	const uint64_t after[] = { 10, 10, 40, 20, 40 };
	const int pids[] = { 0, 7, 0, 7, 8 };
	bool changed[5] = { 0 };
	struct rr_oracle o = { 0 };
	struct rr_frames f;

	frames_of(&f, 5, before, pids);
	rr_frames_judge(&f, after, changed, &o);
	CHECK_EQ(o.pages_checked, 2);
	CHECK_EQ(o.mappings_checked, 5);
	CHECK_EQ(o.pages_failed, 1);
	CHECK_EQ(o.mappings_missed, 1);
	CHECK(rr_oracle_failed(&o));
	/* the first failure is the one told: frame 10, sorted first */
	CHECK_STR(o.reason, "the page of 2 mapping(s) at +0 did not move");

	memset(&o, 0, sizeof(o));
	f.pfn[0] = f.pfn[1] = 30;	/* now frame 20 comes first */
	rr_frames_judge(&f, after, changed, &o);
	CHECK_EQ(o.mappings_missed, 1);
	CHECK_STR(o.reason,
		  "1 of 3 mappings of the page at +8192 did not follow it to its new frame (first: +12288 in pid 7)");

	/* A mapping gone (0 after) is missed; a changed content too. */
	memset(&o, 0, sizeof(o));
	f.pfn[0] = f.pfn[1] = 10;
	{
		const uint64_t gone[] = { 50, 0, 40, 40, 40 };

		changed[4] = true;
		rr_frames_judge(&f, gone, changed, &o);
	}
	CHECK_EQ(o.pages_failed, 0);
	CHECK_EQ(o.mappings_missed, 2);
	CHECK_CONTAINS(o.reason, "1 of 2 mappings of the page at +0");
	rr_frames_free(&f);
}

/*
 * Real pages: the parent's and a forked child's mappings of the same
 * frames. The parent rewrites one page (copy on write gives it a new
 * frame, the child keeps the old one: a mapping that did not follow),
 * and the child's copy of another is rewritten with other content.
 */
static void test_real_cow(void)
{
	size_t ps = rr_page_size();
	char *a = mmap(NULL, 4 * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rr_pattern p = { 0 };
	struct rr_frames f = { 0 };
	struct rr_oracle o = { 0 };
	char why[256] = "", x = 'x';
	char mem[64];
	int fd;
	int hold[2], pid, err;

	CHECK(a != MAP_FAILED);
	if (a == MAP_FAILED)
		return;
	memset(a, 'a', 4 * ps);
	CHECK_EQ(pipe(hold), 0);
	pid = fork();
	if (!pid) {
		char b;

		close(hold[1]);
		while (read(hold[0], &b, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(hold[0]);
	p.addr = a;
	p.len = 4 * ps;
	p.spec.pages = 4;
	p.filled = 4;
	p.pids = &pid;
	p.nr_pids = 1;
	err = rr_frames_note(&f, &p, false, why, sizeof(why));
	if (err == -EPERM) {
		/* Without CAP_SYS_ADMIN pagemap hides frames: said so. */
		CHECK_CONTAINS(why, "CAP_SYS_ADMIN");
		goto out;
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(f.n, 8);
	/*
	 * Nothing moved: every page "did not move". Reading the child's
	 * pages to hash them must not unshare them (a pin would).
	 */
	CHECK_EQ(rr_frames_check(&f, &o), 0);
	CHECK_EQ(o.pages_checked, 4);
	CHECK_EQ(o.pages_failed, 4);
	CHECK_CONTAINS(o.reason, "did not move");

	a[ps] = 'a';		/* the parent's page 1: a new frame */
	/* the child's page 2: changed, through /proc/PID/mem (a COW) */
	snprintf(mem, sizeof(mem), "/proc/%d/mem", pid);
	fd = open(mem, O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ(pwrite(fd, &x, 1, (off_t)(uintptr_t)(a + 2 * ps)), 1);
	close(fd);
	memset(&o, 0, sizeof(o));
	CHECK_EQ(rr_frames_check(&f, &o), 0);
	CHECK_EQ(o.pages_checked, 4);
	CHECK_EQ(o.mappings_checked, 8);
	/* pages 0 and 3 stayed where they were */
	CHECK_EQ(o.pages_failed, 2);
	/*
	 * Page 1: the child's mapping stayed behind. Page 2: the child's
	 * copy "moved" and the parent's stayed; the child's content
	 * changed.
	 */
	CHECK_EQ(o.mappings_missed, 3);
out:
	close(hold[1]);
	waitpid(pid, NULL, 0);
	rr_frames_free(&f);
	munmap(a, 4 * ps);
}

/*
 * Swap-out (reclaim): each page must leave memory with every mapping of
 * it, and pswpout must count at least the pages that left.
 */
static void test_judge_swap(void)
{
	/* a KSM page of 3 mappings, an anon page of 1 */
	const uint64_t before[] = { 10, 10, 20, 10 };
	const uint64_t gone[] = { 0, 0, 0, 0 };
	/* the walk missed the third mapping of the KSM page */
	const uint64_t kept[] = { 0, 10, 0, 0 };
	const uint64_t stayed[] = { 10, 10, 0, 10 };
	bool changed[4] = { 0 };
	struct rr_oracle o = { 0 };
	struct rr_frames f;

	frames_of(&f, 4, before, NULL);
	rr_frames_judge_swap(&f, gone, changed, 2, &o);
	CHECK(o.ran);
	CHECK_EQ(o.pages_checked, 2);
	CHECK_EQ(o.mappings_checked, 4);
	CHECK(!rr_oracle_failed(&o));

	/* not counted (no VM event counters): no count to fail */
	memset(&o, 0, sizeof(o));
	rr_frames_judge_swap(&f, gone, changed, ULLONG_MAX, &o);
	CHECK(!rr_oracle_failed(&o));

	/* one mapping kept the folio in memory: a miss, named */
	memset(&o, 0, sizeof(o));
	rr_frames_judge_swap(&f, kept, changed, 1, &o);
	CHECK_EQ(o.mappings_missed, 1);
	CHECK_EQ(o.pages_failed, 0);
	CHECK(rr_oracle_failed(&o));
	CHECK(strstr(o.reason, "1 of 3 mappings of the page at +0 kept it in memory (first: +4096)") != NULL);

	/* the whole page stayed: not swapped out */
	memset(&o, 0, sizeof(o));
	rr_frames_judge_swap(&f, stayed, changed, 1, &o);
	CHECK_EQ(o.pages_failed, 1);
	CHECK(strstr(o.reason, "the page of 3 mapping(s) at +0 stayed in memory") != NULL);

	/* both left, pswpout counted one */
	memset(&o, 0, sizeof(o));
	rr_frames_judge_swap(&f, gone, changed, 1, &o);
	CHECK_EQ(o.pages_failed, 1);
	CHECK_STR(o.reason, "pswpout grew by 1 while 2 pages left memory");

	/* a content that came back changed */
	memset(&o, 0, sizeof(o));
	changed[2] = true;
	rr_frames_judge_swap(&f, gone, changed, 2, &o);
	CHECK_EQ(o.mappings_missed, 1);
	CHECK(strstr(o.reason, "the content at +8192 changed") != NULL);
	rr_frames_free(&f);
}

TEST_MAIN(T(test_judge_clean), T(test_judge_failures), T(test_real_cow),
	  T(test_judge_swap))
