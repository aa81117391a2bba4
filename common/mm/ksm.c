// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "journal/journal.h"
#include "lib/hooks.h"
#include "lib/util.h"
#include "mm/ksm.h"

struct rr_ksm_opts rr_ksm_opts = {
	.pages_to_scan = 20000,
	.sleep_ms = 0,
	.max_page_sharing = 256,
	.merge_timeout_s = 60,
};

const struct rr_opt rr_ksm_opt_table[] = {
	{ "pages-to-scan", OPT_UINT, &rr_ksm_opts.pages_to_scan, "N",
	  "KSM pages_to_scan while merging", .min = 1, .max = 10000000 },
	{ "sleep-ms", OPT_UINT, &rr_ksm_opts.sleep_ms, "MS",
	  "KSM sleep_millisecs while merging", .min = 0, .max = 10000 },
	{ "max-page-sharing", OPT_UINT, &rr_ksm_opts.max_page_sharing, "N",
	  "KSM max_page_sharing: mappings per KSM page; only written if it differs, and only possible while KSM holds no merged page",
	  .min = 2, .max = 1000000 },
	{ "merge-timeout", OPT_UINT, &rr_ksm_opts.merge_timeout_s, "SEC",
	  "give up waiting for KSM to merge after SEC seconds",
	  .min = 1, .max = 3600 },
	RR_OPT_END
};

static bool owned;

const char *rr_ksm_dir(void)
{
	const char *dir = rr_hook_env("RMAP_REPRO_KSM_DIR");

	return dir ? dir : KSM_DIR;
}

static void path_of(char *buf, size_t size, const char *knob)
{
	snprintf(buf, size, "%s/%s", rr_ksm_dir(), knob);
}

static int get(const char *knob, unsigned long long *val)
{
	char path[PATH_MAX];

	path_of(path, sizeof(path), knob);
	return rr_read_ull(path, val);
}

static int set(const char *knob, unsigned long long val)
{
	char path[PATH_MAX], v[32];

	path_of(path, sizeof(path), knob);
	snprintf(v, sizeof(v), "%llu", val);
	return journal_knob_set(path, v);
}

bool rr_ksm_available(void)
{
	char path[PATH_MAX];

	path_of(path, sizeof(path), "run");
	return rr_path_exists(path);
}

bool rr_ksm_owned(void)
{
	return owned;
}

int rr_ksm_setup(char *why, size_t len)
{
	unsigned long long shared = 0, sharing = 0, mps = 0;
	int err;

	if (!rr_ksm_available()) {
		snprintf(why, len, "KSM is not available (no %s)",
			 rr_ksm_dir());
		return -ENOENT;
	}
	get("pages_shared", &shared);
	get("pages_sharing", &sharing);
	owned = !shared && !sharing;

	err = set("pages_to_scan", rr_ksm_opts.pages_to_scan);
	if (!err)
		err = set("sleep_millisecs", rr_ksm_opts.sleep_ms);
	if (err) {
		snprintf(why, len, "cannot set KSM knobs: %s", strerror(-err));
		return err;
	}
	get("max_page_sharing", &mps);
	if (mps != rr_ksm_opts.max_page_sharing) {
		err = set("max_page_sharing", rr_ksm_opts.max_page_sharing);
		if (err == -EBUSY) {
			snprintf(why, len,
				 "max_page_sharing is %llu and cannot change to %llu while KSM holds merged pages of other processes",
				 mps, rr_ksm_opts.max_page_sharing);
			return err;
		}
		if (err) {
			snprintf(why, len, "cannot set max_page_sharing: %s",
				 strerror(-err));
			return err;
		}
	}
	/*
	 * Recorded after max_page_sharing so that it is undone before it:
	 * max_page_sharing can only be written back once KSM holds no page.
	 */
	if (owned) {
		char run[PATH_MAX];

		/* the run knob's path: a stand-in's in the unit tests */
		path_of(run, sizeof(run), "run");
		err = journal_record(J_KSM_UNMERGE, run, "");
		if (err) {
			snprintf(why, len, "journal: %s", strerror(-err));
			return err;
		}
	}
	return 0;
}

int rr_ksm_run(bool on)
{
	return set("run", on ? 1 : 0);
}

int rr_ksm_reset(void)
{
	int err;

	if (!owned)
		return 0;
	err = set("run", 2);
	if (!err)
		err = set("run", 0);
	return err;
}

int rr_ksm_read(struct rr_ksm_counters *c)
{
	long merging;
	int err;

	memset(c, 0, sizeof(*c));
	err = get("pages_shared", &c->pages_shared);
	if (!err)
		err = get("pages_sharing", &c->pages_sharing);
	if (!err)
		err = get("full_scans", &c->full_scans);
	if (!err)
		err = get("max_page_sharing", &c->max_page_sharing);
	if (rr_read_long("/proc/self/ksm_merging_pages", &merging))
		merging = -1;
	c->merging_pages = merging;
	return err;
}

int rr_ksm_opt_in(void *addr, size_t len)
{
	return madvise(addr, len, MADV_MERGEABLE) ? -errno : 0;
}

/*
 * ksmd's smart scan (6.7+) skips a page that has not merged for a few
 * scans, for up to 8 scans at a time, and keeps that age per address:
 * a pattern mapped again where the last one was (the next case, or
 * run) inherits old ages and waits out their skips. The suite unmerges
 * everything between cases (run=2, which forgets the ages) only where
 * it owns KSM; beside a user's merged pages it cannot, and the merge
 * then stopped at "no growth" before ksmd looked at the pattern. Off
 * while the suite merges (journaled), back on for what is measured.
 */
static int smart_scan_off(unsigned long long *was)
{
	*was = 0;
	if (get("smart_scan", was) || !*was)
		return 0;
	return set("smart_scan", 0);
}

int rr_ksm_merge(unsigned long long expected, struct rr_ksm_counters *c,
		 char *why, size_t len)
{
	unsigned long long scans0, last_growth_scan, smart;
	long long last = -1;
	struct rr_progress prog;
	uint64_t deadline;
	int err;

	err = rr_ksm_read(c);
	if (err) {
		snprintf(why, len, "cannot read KSM counters: %s",
			 strerror(-err));
		return err;
	}
	scans0 = last_growth_scan = c->full_scans;
	err = smart_scan_off(&smart);
	if (err) {
		snprintf(why, len, "cannot set KSM smart_scan 0: %s",
			 strerror(-err));
		return err;
	}
	err = rr_ksm_run(true);
	if (err) {
		snprintf(why, len, "cannot start ksmd: %s", strerror(-err));
		return err;
	}
	deadline = rr_now_ns() + rr_ksm_opts.merge_timeout_s * NSEC_PER_SEC;
	rr_progress_start(&prog, "merge");
	for (;;) {
		rr_sleep_ms(10);
		err = rr_ksm_read(c);
		if (err)
			break;
		if (c->merging_pages > last) {
			last = c->merging_pages;
			last_growth_scan = c->full_scans;
		}
		if (c->merging_pages >= (long long)expected)
			break;
		/* ksmd needs two scans to merge; four with no growth: done */
		if (c->full_scans >= scans0 + 4 &&
		    c->full_scans >= last_growth_scan + 2)
			break;
		if (rr_now_ns() > deadline) {
			err = -ETIMEDOUT;
			break;
		}
		rr_progress(&prog, "%lld of %llu pages merged, %llu full scans",
			    c->merging_pages, expected,
			    c->full_scans - scans0);
	}
	/* Stop ksmd with run=0, which keeps the merged pages merged. */
	if (rr_ksm_run(false) && !err)
		err = -EIO;
	if (smart && set("smart_scan", smart) && !err)
		err = -EIO;
	if (err == -ETIMEDOUT)
		snprintf(why, len,
			 "KSM merged %lld of %llu pages in %llu s (%llu full scans)",
			 c->merging_pages, expected,
			 rr_ksm_opts.merge_timeout_s, c->full_scans - scans0);
	else if (err)
		snprintf(why, len, "KSM: %s", strerror(-err));
	if (!err)
		err = rr_ksm_read(c);
	/* for a reason if nothing merged: how far ksmd got */
	c->merge_scans = c->full_scans - scans0;
	c->merge_ns = rr_now_ns() - (deadline -
		      rr_ksm_opts.merge_timeout_s * NSEC_PER_SEC);
	return err;
}
