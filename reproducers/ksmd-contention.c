// SPDX-License-Identifier: GPL-2.0
/*
 * ksmd-contention: ksmd behind a busy mmap lock (the ksmd mmap-trylock
 * thread). A contender process, opted in to KSM with a region of its
 * own, runs threads that loop mmap()/munmap() of a page: each takes its
 * mmap lock for write, and ksmd, visiting that process in every full
 * scan, waits for it. Meanwhile this process holds --victim-mb of pages
 * in pairs of equal content, all of which KSM should merge. The
 * ksm-scan trigger runs ksmd until they are merged, and the report
 * gives the time that took (the trigger's calls, which the verdict
 * judges), ksmd's scan rate, its CPU per page scanned, the share of
 * samples it spent in D state and the memory saved. Control: the same
 * without the contender.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "mm/ksm.h"
#include "model/repro.h"
#include "trigger/trigger.h"

static unsigned long long victim_mb = 64;
static unsigned long long threads = 2;
static unsigned long long contender_mb = 16;

static const struct rr_opt opts[] = {
	{ "victim-mb", OPT_UINT, &victim_mb, "MB",
	  "memory of this process in pairs of equal pages, all of which KSM merges",
	  .min = 1, .max = 65536 },
	{ "contender-threads", OPT_UINT, &threads, "N",
	  "threads of the contender looping mmap()/munmap() (its mmap lock for write)",
	  .min = 1, .max = 64 },
	{ "contender-mb", OPT_UINT, &contender_mb, "MB",
	  "the contender's own region opted in to KSM (ksmd visits it every scan)",
	  .min = 1, .max = 65536 },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", NULL };
static const int triggers[] = { RR_TRIG_KSM_SCAN, 0 };

static const struct rr_case cases[] = {
	{ .name = "busy", .type = RR_PT_ANON, .role = RR_SUBJECT,
	  .what = "a contender process keeps its mmap lock busy for write (mmap/munmap threads) while ksmd merges this process's pages" },
	{ .name = "alone", .type = RR_PT_ANON,
	  .what = "the same merge with no contender (control)" },
};

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	s->type = c->type;
	s->pages = victim_mb * (1 << 20) / rr_page_size();
}

/* The contender's threads: a page mapped and unmapped, forever. */
static void *churn(void *arg)
{
	size_t ps = rr_page_size();

	for (;;) {
		void *a = mmap(NULL, ps, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (a != MAP_FAILED)
			munmap(a, ps);
	}
	return arg;
}

static void contender(int ready)
{
	size_t len = contender_mb << 20, i;
	char *r;
	pthread_t t;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	r = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		_exit(1);
	madvise(r, len, MADV_NOHUGEPAGE);
	/* unique pages: ksmd scans them every time, merges none */
	for (i = 0; i < len; i += sizeof(uint64_t))
		*(uint64_t *)(r + i) = i * 0x9e3779b97f4a7c15ULL + 1;
	if (rr_ksm_opt_in(r, len))
		_exit(1);
	for (i = 0; i < threads; i++)
		if (pthread_create(&t, NULL, churn, NULL))
			_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

/* Start the contender; its pid, once it is ready, or -errno. */
static int start_contender(char *why, size_t len)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		close(fds[0]);
		contender(fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		close(fds[0]);
		waitpid(pid, NULL, 0);
		snprintf(why, len, "the contender did not start");
		return -ECHILD;
	}
	close(fds[0]);
	return pid;
}

/* Pages 2k and 2k + 1 alike: every page merges, half are saved. */
static void fill_pairs(char *page, size_t ps, size_t i, void *arg)
{
	size_t w;

	for (w = 0; w < ps / sizeof(uint64_t); w++)
		((uint64_t *)page)[w] = (i / 2 + 1) * 0x9e3779b97f4a7c15ULL + w;
}

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	int err, pid;

	spec(c, &p->spec);
	err = rr_pattern_map_mergeable(p, p->spec.pages & ~1UL, fill_pairs,
				       NULL, why, len);
	if (err)
		return err;
	p->ksm_goal = p->filled;
	if (c->role != RR_SUBJECT)
		return 0;
	pid = start_contender(why, len);
	if (pid < 0)
		return pid;
	p->priv = (void *)(intptr_t)pid;
	return 0;
}

static void teardown(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p)
{
	pid_t pid = (pid_t)(intptr_t)p->priv;

	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		p->priv = NULL;
	}
	rr_pattern_free(p);
	rr_ksm_reset();
}

static void describe(struct rr_result *res)
{
	res->pages = victim_mb * (1 << 20) / rr_page_size();
	rr_result_param(res, "victim_mb", victim_mb);
	rr_result_param(res, "contender_threads", threads);
	rr_result_param(res, "contender_mb", contender_mb);
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu MiB of this process in pairs of equal pages (THP off, MADV_MERGEABLE), merged by ksmd (pages_to_scan %llu, sleep_millisecs %llu) while a contender process with %llu MiB opted in to KSM runs %llu threads looping mmap()/munmap(); the control merges with no contender",
		 victim_mb, rr_ksm_opts.pages_to_scan, rr_ksm_opts.sleep_ms,
		 contender_mb, threads);
}

static const struct rr_repro_ops ops = {
	.build = build,
	.teardown = teardown,
};

static const struct rr_repro ksmd_contention = {
	.name = "ksmd-contention",
	.summary = "Reproduce ksmd stalled behind a busy mmap lock: a contender process opted in to KSM runs --contender-threads threads looping mmap()/munmap() (its mmap lock for write) while ksmd merges --victim-mb MiB of this process's pages (pairs of equal pages). The ksm-scan trigger runs ksmd until every page is merged and times it; the verdict compares that merge time with the control's (no contender) by --min-ratio. The report gives ksmd's scan rate, CPU per page scanned, share of samples in D state, pages merged, and each full scan (ksm/ksm_start_scan .. ksm_stop_scan; before Linux 6.8, KSM's full_scans read every 1 ms).",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.policy = RR_POLICY_LATENCY,
	.judge_calls = true,
	.uses_ksm = true,
	.check = rr_victim_none,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
	.ops = &ops,
	.triggers = triggers,
	.triggers_why = "ksmd-contention measures ksmd's own merging",
};

int main(int argc, char **argv)
{
	return rr_main(&ksmd_contention, argc, argv);
}
