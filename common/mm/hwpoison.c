// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "journal/journal.h"
#include "lib/util.h"
#include "mm/hwpoison.h"
#include "mm/pageflags.h"
#include "mm/sysinfo.h"

#define DEBUGFS		"/sys/kernel/debug"

const char *const rr_injector_names[] = {
	[RR_INJ_AUTO] = "auto",
	[RR_INJ_CORRUPT_PFN] = "corrupt-pfn",
	[RR_INJ_MADVISE] = "madvise",
	NULL
};

/* Under rr_sys_dir(): a test's stand-in tree. */
const char *rr_hwpoison_file(const char *name)
{
	static char path[2][PATH_MAX];
	static int k;

	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s/kernel/debug/hwpoison/%s",
		 rr_sys_dir(), name);
	return path[k];
}

int rr_frame_poisoned(unsigned long long pfn)
{
	unsigned long long flags;
	int err = rr_kpageflags(pfn, &flags);

	return err ? err : (int)(flags >> RR_KPF_HWPOISON & 1);
}

int rr_unpoison(unsigned long long pfn)
{
	char val[32];
	int err = rr_frame_poisoned(pfn);

	if (err <= 0)
		return err;
	snprintf(val, sizeof(val), "%llu", pfn);
	err = rr_write_file(rr_hwpoison_file("unpoison-pfn"), val);
	if (err)
		return err;
	err = rr_frame_poisoned(pfn);
	return err > 0 ? -EBUSY : err;
}

int rr_hwpoison_journal(unsigned long long pfn)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", pfn);
	return journal_record(J_UNPOISON, val, "");
}

static int undo_unpoison(const char *pfn_text, const char *unused,
			 bool verbose)
{
	unsigned long long pfn;
	int err;

	if (rr_parse_dec(pfn_text, &pfn))
		return -EINVAL;
	err = rr_unpoison(pfn);
	if (!err && verbose)
		rr_msg("frame %llu is back in use (unpoison-pfn)", pfn);
	/*
	 * The kernel gives back only some frames (not one still
	 * referenced, or after a real hardware error, and none without
	 * the injector's unpoison-pfn, ENOENT): the others stay
	 * retired until reboot, which is said, not retried: this run
	 * retired them, nobody else changed them.
	 */
	if (err == -EBUSY || err == -EOPNOTSUPP || err == -EINVAL ||
	    err == -ENOENT) {
		rr_warn("frame %llu stays retired (HWPoison) until reboot: the kernel would not unpoison it (%s)",
			pfn, strerror(-err));
		return JOURNAL_RETIRED;
	}
	return err;
}

static int check_unpoison(const char *pfn_text, const char *unused,
			  char *why, size_t len)
{
	unsigned long long pfn;

	if (!rr_parse_dec(pfn_text, &pfn))
		return 0;
	snprintf(why, len, "not a frame number");
	return -EPERM;
}

const struct journal_undo rr_undo_unpoison = {
	J_UNPOISON, undo_unpoison, check_unpoison, EBUSY
};

bool rr_hwpoison_reachable(char *why, size_t len)
{
	char val[8] = "";
	const char *argv[] = { "modprobe", "-n", "-q", "hwpoison_inject",
			       NULL };

	if (rr_path_exists(rr_hwpoison_file("unpoison-pfn")))
		return true;
	if (rr_kconfig("HWPOISON_INJECT", val, sizeof(val)) > 0 &&
	    val[0] == 'y')
		return true;
	if (rr_have_command("modprobe") && !rr_run(argv, true))
		return true;
	snprintf(why, len,
		 "no hwpoison injector to give retired frames back: no %s and no hwpoison_inject module (CONFIG_HWPOISON_INJECT)",
		 rr_hwpoison_file("unpoison-pfn"));
	return false;
}

int rr_hwpoison_setup(char *why, size_t len)
{
	const char *argv[] = { "modprobe", "hwpoison_inject", NULL };
	const char *file = rr_hwpoison_file("unpoison-pfn");
	int err = 0;

	if (rr_path_exists(file))
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
	if (rr_path_exists(file))
		return 0;
	err = journal_record(J_MODULE, "hwpoison_inject", "");
	if (!err && rr_run(argv, true))
		err = -ENOENT;
	if (!err && !rr_path_exists(file))
		err = -ENOENT;
	if (err)
		snprintf(why, len, "no %s after modprobe hwpoison_inject",
			 file);
	return err;
}
