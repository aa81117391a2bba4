// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger soft-offline: madvise(MADV_SOFT_OFFLINE) of every filled page
 * of the measuring process. The kernel migrates each page to a new frame
 * (the two walks of a migration, on any node: one node is enough) and
 * retires the old frame: marked HWPoison and kept from the allocator
 * until reboot. No process is killed. Each frame is journaled before it
 * is retired and given back after the firing (hwpoison.h); without a
 * way to give frames back the trigger is unavailable, so a run never
 * leaves memory retired. scripts/restore gives back what a killed run
 * retired.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "journal/fault.h"
#include "lib/util.h"
#include "mm/hwpoison.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "trigger/trigger.h"

#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

static const char *const kconfig[] = { "MEMORY_FAILURE", "MIGRATION", NULL };

static bool available(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (CAP_SYS_ADMIN)");
		return false;
	}
	if (!rr_hwpoison_reachable(why, len))
		return false;
	return rr_bracket_available(RR_BR_MIGRATE, why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	return rr_hwpoison_setup(why, len);
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	unsigned long moved = 0, failed = 0, back = 0, kept = 0;
	unsigned long long hc0 = 0, hc1 = 0, *pfn = NULL;
	struct rr_page_ref *f = NULL;
	struct rr_pagemap_ent e;
	size_t n = 0, i;
	int err, first = 0, fd;

	/*
	 * One mapping of each distinct frame: a frame is soft-offlined once
	 * (through a second mapping of a KSM page, the page, already moved,
	 * would be moved again and one more frame retired).
	 */
	err = rr_pattern_frame_refs(p, true, &f, &n);
	pfn = calloc(n ? n : 1, sizeof(*pfn));
	if (!err && !pfn)
		err = -ENOMEM;
	fd = err ? -1 : rr_pagemap_open(0);
	if (fd < 0 && !err)
		err = fd;
	/* Every frame journaled before any is retired. */
	for (i = 0; !err && i < n; i++) {
		err = rr_pagemap_read(fd, f[i].addr, &e);
		pfn[i] = e.pfn;
		if (!err)
			err = rr_hwpoison_journal(pfn[i]);
	}
	if (fd >= 0)
		close(fd);
	rr_read_keyed("/proc/meminfo", "HardwareCorrupted", &hc0);
	for (i = 0; !err && i < n; i++) {
		if (!madvise(f[i].addr, rr_page_size(), MADV_SOFT_OFFLINE)) {
			moved++;
			/* a test's signal, a frame retired (fault.h) */
			rr_test_hold("trigger soft-offline: after a frame");
			continue;
		}
		failed++;
		if (!first)
			first = errno;
	}
	/* Give every retired frame back, whatever happened. */
	for (i = 0; pfn && i < n; i++) {
		int e2 = pfn[i] ? rr_frame_poisoned(pfn[i]) : 0;

		if (e2 > 0) {
			e2 = rr_unpoison(pfn[i]);
			back += !e2;
		}
		if (e2 < 0) {
			kept++;
			if (!err)
				err = e2;
		}
	}
	rr_read_keyed("/proc/meminfo", "HardwareCorrupted", &hc1);
	free(f);
	free(pfn);
	ctx->moved += moved;
	ctx->failed += failed;
	snprintf(how, len,
		 "madvise(MADV_SOFT_OFFLINE) through one mapping of each of the %zu frames of %zu filled pages: %lu on new frames, %lu failed%s%s; %lu retired frames given back (unpoison-pfn)%s; HardwareCorrupted %llu kB before, %llu kB after",
		 n, p->filled, moved, failed, failed ? ": " : "",
		 failed ? strerror(first) : "", back,
		 kept ? ", SOME COULD NOT BE: see scripts/restore" : "",
		 hc0, hc1);
	if (err)
		return err;
	/* A frame retired that the run does not know of: said, an error. */
	if (hc1 > hc0)
		return -EBUSY;
	/* Every page accounted for: failures are the oracle's to judge. */
	if (failed && !ctx->failures_are_data)
		return -first;
	return 0;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu of %llu frames of the filled pages soft-offlined onto new frames (madvise), %llu failed",
		 c->moved, c->moved + c->move_failed, c->move_failed);
}

const struct rr_trigger_ops rr_trigger_soft_offline = {
	.name = "soft-offline",
	.help = "madvise(MADV_SOFT_OFFLINE) of the pattern's pages: each migrates to a new frame, the old one is retired, then given back",
	.kconfig = kconfig,
	.bracket = RR_BR_MIGRATE,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
};
