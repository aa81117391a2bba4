// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger soft-offline: madvise(MADV_SOFT_OFFLINE) of every filled page
 * of the measuring process. The kernel migrates each page to a new frame
 * (the two walks of a migration, on any node: one node is enough) and
 * retires the old frame: marked HWPoison and kept from the allocator
 * until reboot. No process is killed. Each frame is journaled before it
 * is retired and given back after the firing through the hwpoison
 * injector's unpoison-pfn (debugfs, CONFIG_HWPOISON_INJECT); without a
 * way to give frames back the trigger is unavailable, so a run never
 * leaves memory retired. scripts/restore gives back what a killed run
 * retired.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "bracket.h"
#include "journal.h"
#include "result.h"
#include "sysinfo.h"
#include "trigger.h"
#include "util.h"

#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

#define DEBUGFS		"/sys/kernel/debug"
#define UNPOISON	"kernel/debug/hwpoison/unpoison-pfn"	/* in /sys */
#define KPF_HWPOISON	19		/* /proc/kpageflags */

static const char *const kconfig[] = { "MEMORY_FAILURE", "MIGRATION", NULL };

/* The injector's unpoison file (rr_sys_dir(): a test's stand-in). */
static const char *unpoison_file(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", rr_sys_dir(), UNPOISON);
	return path;
}

/* Is the frame marked HWPoison? 1, 0, or -errno. */
static int frame_poisoned(unsigned long long pfn)
{
	char path[PATH_MAX];
	uint64_t flags;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/kpageflags", rr_proc_dir());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, &flags, sizeof(flags), (off_t)(pfn * sizeof(flags)));
	close(fd);
	if (n != sizeof(flags))
		return n < 0 ? -errno : -EIO;
	return flags >> KPF_HWPOISON & 1;
}

/* Give a retired frame back, and check that it is. */
static int unpoison(unsigned long long pfn)
{
	char val[32];
	int err = frame_poisoned(pfn);

	if (err <= 0)
		return err;
	snprintf(val, sizeof(val), "%llu", pfn);
	err = rr_write_file(unpoison_file(), val);
	if (err)
		return err;
	err = frame_poisoned(pfn);
	return err > 0 ? -EBUSY : err;
}

static int undo_unpoison(const char *pfn_text, const char *unused,
			 bool verbose)
{
	unsigned long long pfn;
	int err;

	if (rr_parse_dec(pfn_text, &pfn))
		return -EINVAL;
	err = unpoison(pfn);
	if (!err && verbose)
		rr_msg("frame %llu is back in use (unpoison-pfn)", pfn);
	return err;
}

const struct journal_undo rr_undo_unpoison = { J_UNPOISON, undo_unpoison };

/*
 * How the frames get back: the injector's file, or what would make it
 * (debugfs to mount, the module to load). NULL: no way.
 */
static const char *unpoison_way(void)
{
	char val[8] = "";
	const char *argv[] = { "modprobe", "-n", "-q", "hwpoison_inject",
			       NULL };

	if (rr_path_exists(unpoison_file()))
		return "unpoison-pfn";
	if (rr_kconfig("HWPOISON_INJECT", val, sizeof(val)) > 0 &&
	    val[0] == 'y')
		return "debugfs";
	if (rr_have_command("modprobe") && !rr_run(argv, true))
		return "module";
	return NULL;
}

static bool available(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (CAP_SYS_ADMIN)");
		return false;
	}
	if (!unpoison_way()) {
		snprintf(why, len,
			 "the frames it retires could not be given back: no %s and no hwpoison_inject module (CONFIG_HWPOISON_INJECT)",
			 unpoison_file());
		return false;
	}
	return rr_bracket_available(RR_BR_MIGRATE, why, len);
}

/* Make unpoison-pfn reachable, every change journaled. */
static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	const char *argv[] = { "modprobe", "hwpoison_inject", NULL };
	int err = 0;

	if (rr_path_exists(unpoison_file()))
		return 0;
	if (!rr_mounted(DEBUGFS, "debugfs")) {
		err = journal_record(J_MOUNT, DEBUGFS, "");
		if (!err && mount("debugfs", DEBUGFS, "debugfs", 0, NULL))
			err = -errno;
		if (err) {
			snprintf(why, len, "cannot mount debugfs on %s: %s",
				 DEBUGFS, strerror(-err));
			return err;
		}
	}
	if (rr_path_exists(unpoison_file()))
		return 0;
	err = journal_record(J_MODULE, "hwpoison_inject", "");
	if (!err && rr_run(argv, true))
		err = -ENOENT;
	if (!err && !rr_path_exists(unpoison_file()))
		err = -ENOENT;
	if (err)
		snprintf(why, len, "no %s after modprobe hwpoison_inject",
			 unpoison_file());
	return err;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	unsigned long moved = 0, failed = 0, back = 0, kept = 0;
	unsigned long long hc0 = 0, hc1 = 0, *pfn = NULL;
	struct rr_page_ref *f = NULL;
	struct rr_pagemap_ent e;
	size_t n = 0, i;
	char val[32];
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
		snprintf(val, sizeof(val), "%llu", pfn[i]);
		if (!err)
			err = journal_record(J_UNPOISON, val, "");
	}
	if (fd >= 0)
		close(fd);
	rr_read_keyed("/proc/meminfo", "HardwareCorrupted", &hc0);
	for (i = 0; !err && i < n; i++) {
		if (!madvise(f[i].addr, rr_page_size(), MADV_SOFT_OFFLINE)) {
			moved++;
			continue;
		}
		failed++;
		if (!first)
			first = errno;
	}
	/* Give every retired frame back, whatever happened. */
	for (i = 0; pfn && i < n; i++) {
		int e2 = pfn[i] ? frame_poisoned(pfn[i]) : 0;

		if (e2 > 0) {
			e2 = unpoison(pfn[i]);
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
	.kconfig = kconfig,
	.bracket = RR_BR_MIGRATE,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
};
