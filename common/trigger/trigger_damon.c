// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger damon: DAMON's physical-address monitoring (mm/damon/paddr.c),
 * the data-access monitor that proactive reclaim and memory tiering build
 * on. Each sample interval, kdamond picks one address in each region,
 * clears the accessed bit of every PTE that maps its page
 * (damon_folio_mkold) and, a sample later, checks it
 * (damon_folio_young): two rmap walks whose rmap_walk_control has no
 * try_lock, so they never back off, and a writer of the page's anon_vma
 * waits for each.
 *
 * For each firing, the regions of one kdamond of the suite's own are the
 * pattern's frames (contiguous frames merged into one region), and
 * kdamond monitors them for --damon-ms; turning it off returns once the
 * walk in flight has ended. The walks run in kdamond, not in the
 * reproducer: the probes trace every task and say which did the walks.
 * The kdamond is journaled and removed at the end, with all its
 * settings; a machine whose DAMON sysfs interface is already in use is
 * left alone (a skip).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal/fault.h"
#include "lib/util.h"
#include "mm/damon.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/tasks.h"
#include "trigger/trigger.h"

static const char *const kconfig[] = { "DAMON", "DAMON_PADDR",
				       "DAMON_SYSFS", NULL };

/* One region per frame at most: DAMON's regions take up to this many. */
#define MAX_RANGES 1000

static unsigned long long damon_ms = 2000;
static unsigned long long sample_us = 5000;

static const struct rr_opt opts[] = {
	{ "damon-ms", OPT_UINT, &damon_ms, "MS",
	  "the damon trigger keeps kdamond monitoring the pattern's frames for MS ms per firing (and until the walk in flight ends)",
	  .min = 10, .max = 600000 },
	{ "damon-sample-us", OPT_UINT, &sample_us, "US",
	  "the damon trigger's sampling interval: each one, kdamond walks one page of each region twice (mkold, then young)",
	  .min = 100, .max = 10000000 },
	RR_OPT_END
};

static bool available(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (frame numbers, DAMON sysfs)");
		return false;
	}
	return rr_damon_available(why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	struct rr_damon_attrs a = {
		.sample_us = sample_us,
		/* DAMON's own ratios: 20 samples an aggregation */
		.aggr_us = sample_us * 20,
		.update_us = sample_us * 200,
		.max_regions = MAX_RANGES,
	};

	rr_phase(res, "setup: DAMON");
	return rr_damon_setup(&a, why, len);
}

/* kdamond on over the ranges for damon_ms, then off: ms it took to stop. */
static int monitor(const struct rr_damon_range *r, size_t nr, int *pid,
		   double *stop_ms, char *how, size_t len)
{
	uint64_t t0;
	int err;

	err = rr_damon_set_regions(r, nr);
	if (!err)
		err = rr_damon_state(true);
	if (err) {
		snprintf(how, len, "DAMON regions or state: %s",
			 strerror(-err));
		return err;
	}
	*pid = rr_damon_pid();
	if (*pid > 0)
		rr_tasks_add(RR_TASK_KDAMOND, *pid);
	/* a test's signal, kdamond on (fault.h) */
	rr_test_hold("trigger damon: kdamond on");
	rr_sleep_ms((unsigned int)damon_ms);
	t0 = rr_now_ns();
	err = rr_damon_state(false);
	*stop_ms = (double)(rr_now_ns() - t0) / NSEC_PER_MSEC;
	if (err)
		snprintf(how, len, "cannot turn kdamond off: %s",
			 strerror(-err));
	return err;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	struct rr_damon_range *r;
	unsigned long long *pfn = NULL;
	double stop_ms = 0;
	size_t n = 0, nr;
	int err, pid = 0;

	err = rr_pattern_pfns(ctx->pattern, &pfn, &n, how, len);
	r = err ? NULL : calloc(MAX_RANGES, sizeof(*r));
	if (err || !r) {
		free(pfn);
		return err ? err : -ENOMEM;
	}
	nr = rr_damon_ranges(pfn, n, rr_page_size(), r, MAX_RANGES);
	free(pfn);
	if (!nr) {
		free(r);
		snprintf(how, len, "no present frame to monitor");
		return -ENODATA;
	}
	err = monitor(r, nr, &pid, &stop_ms, how, len);
	free(r);
	if (err)
		return err;
	ctx->moved += n;
	/* short: rr_result.trigger_how holds 256 characters */
	snprintf(how, len,
		 "kdamond (pid %d, paddr) sampled %zu frames in %zu regions every %llu us for %llu ms; off after %.1f ms more (the walk in flight)",
		 pid, n, nr, sample_us, damon_ms, stop_ms);
	return 0;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu present frames of the filled pages monitored by kdamond (DAMON paddr), summed over the firings",
		 c->moved);
}

const struct rr_trigger_ops rr_trigger_damon = {
	.name = "damon",
	.help = "DAMON physical-address monitoring of the pattern's frames by a kdamond of the suite's own (rmap walks that never back off, in kdamond); needs a walk-level probe",
	.opts = opts,
	.kconfig = kconfig,
	.bracket = -1,			/* no stock bracket: a walk probe */
	.anywhere = true,		/* the walks run in kdamond */
	.available = available,
	.setup = setup,
	.fire = fire,
	.walks_what = "checking and clearing the accessed bits of the page's mappings",
	.reach = reach,
};
