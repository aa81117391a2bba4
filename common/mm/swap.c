// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>

#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/util.h"
#include "mm/swap.h"
#include "mm/sysinfo.h"

#define HOT_ADD "/sys/class/zram-control/hot_add"
#define HOT_REMOVE "/sys/class/zram-control/hot_remove"

/* ---- undo (listed in core/undo.c) and the ids it checks ---- */

static bool swap_active(const char *dev)
{
	char line[512];
	size_t len = strlen(dev);
	bool found = false;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, dev, len) &&
		    (line[len] == ' ' || line[len] == '\t'))
			found = true;
	fclose(f);
	return found;
}

/* "ino=N": the sysfs inode of /sys/block/zramID, new for each device. */
static int zram_ident(const char *id, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/block/zram%s", id);
	if (stat(path, &st))
		return -errno;
	snprintf(buf, size, "ino=%llu", (unsigned long long)st.st_ino);
	return 0;
}

/*
 * Is /sys/block/zramID still the device the record describes? ident
 * holds "ino=N" and, for a swap, "disksize=BYTES"; a record with
 * neither (an older journal) is trusted as before.
 */
static bool zram_is_ours(const char *id, const char *ident, char *why,
			 size_t len)
{
	unsigned long long want, now = 0;
	struct stat st = { 0 };
	char path[PATH_MAX];
	const char *p;

	snprintf(path, sizeof(path), "/sys/block/zram%s", id);
	p = strstr(ident, "ino=");
	if (p && sscanf(p, "ino=%llu", &want) == 1 &&
	    (stat(path, &st) || st.st_ino != want)) {
		snprintf(why, len,
			 "it is another device than the one this run created (sysfs inode %llu, not %llu)",
			 (unsigned long long)st.st_ino, want);
		return false;
	}
	p = strstr(ident, "disksize=");
	snprintf(path, sizeof(path), "/sys/block/zram%s/disksize", id);
	if (p && sscanf(p, "disksize=%llu", &want) == 1 &&
	    (rr_read_ull(path, &now) || now != want)) {
		snprintf(why, len,
			 "its disksize is %llu bytes, not the %llu this run set",
			 now, want);
		return false;
	}
	return true;
}

static int undo_swapon(const char *dev, const char *ident, bool verbose)
{
	char why[256];

	if (!swap_active(dev))
		return 0;
	if (!strncmp(dev, "/dev/zram", 9) &&
	    !zram_is_ours(dev + 9, ident, why, sizeof(why))) {
		rr_warn("left swap on %s: %s", dev, why);
		return JOURNAL_LEFT;
	}
	if (swapoff(dev))
		return -errno;
	if (verbose)
		rr_msg("swapoff %s", dev);
	return 0;
}

/*
 * reset and hot_remove refuse with EBUSY while the device is still open,
 * as it may be for a moment after swapoff: try again for up to 2 s.
 */
static int write_busy(const char *path, const char *val)
{
	int err, i;

	for (i = 0; i < 40; i++) {
		err = rr_write_file(path, val);
		if (err != -EBUSY)
			break;
		rr_sleep_ms(50);
	}
	return err;
}

static int undo_zram(const char *id, const char *ident, bool verbose)
{
	char path[PATH_MAX], why[256];
	int err;

	snprintf(path, sizeof(path), "/sys/block/zram%s", id);
	if (!rr_path_exists(path))
		return 0;
	snprintf(path, sizeof(path), "/dev/zram%s", id);
	if (!zram_is_ours(id, ident, why, sizeof(why)) || swap_active(path)) {
		rr_warn("left /dev/zram%s: %s", id, swap_active(path) ?
			"it is in use as swap, not by this run" : why);
		return JOURNAL_LEFT;
	}
	snprintf(path, sizeof(path), "/sys/block/zram%s/reset", id);
	err = write_busy(path, "1");
	if (err)
		return err;
	err = write_busy(HOT_REMOVE, id);
	if (!err && verbose)
		rr_msg("removed /dev/zram%s", id);
	return err;
}


/* A zram device with a disk size: set up by someone. Names it. */
static bool zram_configured(char *dev, size_t size)
{
	char path[PATH_MAX], v[32];
	struct dirent *d;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/block", rr_sys_dir());
	dir = opendir(path);
	while (dir && !found && (d = readdir(dir))) {
		if (strncmp(d->d_name, "zram", 4))
			continue;
		snprintf(path, sizeof(path), "%s/block/%s/disksize",
			 rr_sys_dir(), d->d_name);
		if (!rr_read_file(path, v, sizeof(v)) && strcmp(v, "0")) {
			snprintf(dev, size, "/dev/%s", d->d_name);
			found = true;
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

static int undo_module(const char *name, bool verbose)
{
	const char *argv[] = { "modprobe", "-r", name, NULL };
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/module/%s", rr_sys_dir(), name);
	if (!rr_path_exists(path))
		return 0;
	/* Unloading zram removes every zram device, also a user's. */
	if (!strcmp(name, "zram") && zram_configured(path, sizeof(path))) {
		rr_warn("left module zram loaded: %s is configured (not by this run)",
			path);
		return JOURNAL_LEFT;
	}
	ret = rr_run(argv, true);
	if (ret)
		return ret < 0 ? ret : -EBUSY;
	if (verbose)
		rr_msg("unloaded module %s", name);
	return 0;
}

bool rr_swap_active(struct rr_swap *s)
{
	char line[512], dev[256], type[32];
	unsigned long long size, used;
	bool found = false;
	int prio;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return false;
	if (s)
		memset(s, 0, sizeof(*s));
	/* Header line first; then "Filename Type Size Used Priority". */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %llu %llu %d", dev, type, &size,
			   &used, &prio) != 5)
			continue;
		if (s && !found) {
			snprintf(s->dev, sizeof(s->dev), "%s", dev);
			s->top_prio = prio;
		}
		if (s) {
			s->size_kb += size;
			s->used_kb += used;
			if (prio > s->top_prio)
				s->top_prio = prio;
			s->devices++;
		}
		found = true;
	}
	fclose(f);
	return found;
}

bool rr_swap_zram_possible(char *why, size_t len)
{
	char val[8];

	/* A zram swap is made with util-linux's mkswap: a need, declared. */
	if (!rr_have_command("mkswap")) {
		snprintf(why, len,
			 "no swap is active and mkswap (util-linux) is not in PATH to make a zram swap");
		return false;
	}
	if (rr_path_exists(HOT_ADD))
		return true;
	if (rr_kconfig("ZRAM", val, sizeof(val)) == 1 && !strcmp(val, "m") &&
	    !rr_path_exists("/sys/module/zram"))
		return true;
	snprintf(why, len, "no swap is active and zram is not available (%s missing)",
		 HOT_ADD);
	return false;
}

/* Room left on the active swap rr_swap_active() summed. */
static unsigned long long free_kb(const struct rr_swap *s)
{
	return s->size_kb - s->used_kb;
}

bool rr_swap_possible(unsigned long long mb, char *why, size_t len)
{
	struct rr_swap had;
	char zram[192];

	if (rr_swap_active(&had) && free_kb(&had) >= mb << 10)
		return true;
	if (rr_swap_zram_possible(zram, sizeof(zram)))
		return true;
	if (had.devices)
		snprintf(why, len,
			 "the active swap has %llu MiB free, under the %llu MiB the run needs (--swap-mb), and %s",
			 free_kb(&had) >> 10, mb,
			 strstr(zram, "and ") ? strstr(zram, "and ") + 4 :
			 zram);
	else
		snprintf(why, len, "%s", zram);
	return false;
}

static int load_zram(char *why, size_t len)
{
	const char *argv[] = { "modprobe", "zram", NULL };
	int ret;

	if (rr_path_exists(HOT_ADD))
		return 0;
	ret = journal_record(J_MODULE, "zram", "");
	if (!ret)
		ret = rr_run(argv, true);
	if (ret || !rr_path_exists(HOT_ADD)) {
		snprintf(why, len, "modprobe zram failed");
		return -ENODEV;
	}
	return 0;
}

static int wait_node(const char *dev)
{
	int i;

	/* devtmpfs creates the node right after hot_add; allow a moment. */
	for (i = 0; i < 200 && !rr_path_exists(dev); i++)
		rr_sleep_ms(10);
	return rr_path_exists(dev) ? 0 : -ENOENT;
}

int rr_swap_ensure(struct rr_swap *s, unsigned long long mb, char *why,
		   size_t len)
{
	const char *mkswap[] = { "mkswap", NULL, NULL };
	char id[16], path[128], size[32], ident[96];
	int err;

	struct rr_swap had;
	int flags = 0, prio = -1;

	/*
	 * Swap the machine already has serves when it has room for what the
	 * run swaps out. A small or full one (the user's 64 MiB zram, say)
	 * would be filled by the first pages reclaim takes, and the pattern
	 * would never go: the suite then adds its own, used before theirs
	 * (a higher priority), so that their swap is left as it was where
	 * the run's own suffices.
	 */
	if (rr_swap_active(&had)) {
		if (free_kb(&had) >= mb << 10) {
			*s = had;
			return 0;
		}
		prio = had.top_prio < 0 ? 0 : had.top_prio + 1;
		if (prio > SWAP_FLAG_PRIO_MASK)
			prio = SWAP_FLAG_PRIO_MASK;
		flags = SWAP_FLAG_PREFER | (prio << SWAP_FLAG_PRIO_SHIFT);
	}
	memset(s, 0, sizeof(*s));
	s->beside = had.devices;
	s->beside_free_kb = free_kb(&had);
	s->top_prio = prio;
	err = load_zram(why, len);
	if (err)
		return err;
	/*
	 * Reading hot_add creates the device and names it in one step; a
	 * SIGKILL between that read and the journal record below would
	 * leave an empty, unused zram device behind (no swap on it).
	 */
	err = rr_read_file(HOT_ADD, id, sizeof(id));
	if (err) {
		snprintf(why, len, "zram hot_add: %s", strerror(-err));
		return err;
	}
	/* Its identity: a replay must never reset a device made later. */
	err = zram_ident(id, ident, sizeof(ident));
	if (!err)
		err = journal_record(J_ZRAM, id, ident);
	if (err) {
		/*
		 * Not journaled, so no undo will remove it: the device
		 * was made a moment ago and is unused; remove it now.
		 */
		rr_write_file(HOT_REMOVE, id);
		snprintf(why, len, "zram hot_add: journal: %s", strerror(-err));
		return err;
	}
	snprintf(s->dev, sizeof(s->dev), "/dev/zram%s", id);
	s->created = true;
	s->size_kb = mb << 10;

	snprintf(path, sizeof(path), "/sys/block/zram%s/disksize", id);
	snprintf(size, sizeof(size), "%lluM", mb);
	err = rr_write_file(path, size);
	if (!err)
		err = wait_node(s->dev);
	if (err) {
		snprintf(why, len, "zram%s: %s", id, strerror(-err));
		return err;
	}
	mkswap[1] = s->dev;
	err = rr_run(mkswap, true);
	if (err) {
		snprintf(why, len, "mkswap %s failed (%d)", s->dev, err);
		return -EIO;
	}
	snprintf(ident + strlen(ident), sizeof(ident) - strlen(ident),
		 " disksize=%llu", mb << 20);
	err = journal_record(J_SWAPON, s->dev, ident);
	if (!err && swapon(s->dev, flags))
		err = -errno;
	if (err)
		snprintf(why, len, "swapon %s: %s", s->dev, strerror(-err));
	return err;
}

void rr_swap_describe(const struct rr_swap *s, char *buf, size_t size)
{
	if (!s->created) {
		snprintf(buf, size, "%s (%s%llu MiB, %llu MiB free, already active%s)",
			 s->dev,
			 strncmp(s->dev, "/dev/zram", 9) ? "" : "zram, ",
			 s->size_kb >> 10, free_kb(s) >> 10,
			 s->devices > 1 ? "; the sizes of all active swap" :
			 "");
		return;
	}
	if (!s->beside) {
		snprintf(buf, size, "%s (zram, %llu MiB, created for the run)",
			 s->dev, s->size_kb >> 10);
		return;
	}
	snprintf(buf, size,
		 "%s (zram, %llu MiB, created for the run; the active swap had too little room, %llu MiB free: this one is used first, priority %d)",
		 s->dev, s->size_kb >> 10, s->beside_free_kb >> 10,
		 s->top_prio);
}

static int undo_module_rec(const char *name, const char *unused,
			   bool verbose)
{
	return undo_module(name, verbose);
}

/* The swap a run turns on is a zram device of its own, nothing else. */
static int check_swapon(const char *dev, const char *ident, char *why,
			size_t len)
{
	if (journal_trust_name(dev, "/dev/zram"))
		return 0;
	snprintf(why, len, "not a zram device (/dev/zramN)");
	return -EPERM;
}

static int check_zram(const char *id, const char *ident, char *why,
		      size_t len)
{
	if (journal_trust_name(id, ""))
		return 0;
	snprintf(why, len, "not a zram device number");
	return -EPERM;
}

/* The modules a run may load (swap.c, hwpoison.c), and no other. */
static int check_module(const char *name, const char *unused, char *why,
			size_t len)
{
	static const char *const ours[] = { "zram", "hwpoison_inject", NULL };

	if (journal_trust_one_of(name, ours))
		return 0;
	snprintf(why, len, "not a module the suite loads (zram, hwpoison_inject)");
	return -EPERM;
}

const struct journal_undo rr_undo_swapon = {
	J_SWAPON, undo_swapon, check_swapon, EBUSY
};
const struct journal_undo rr_undo_zram = {
	J_ZRAM, undo_zram, check_zram, ENOSPC	/* no free device */
};
const struct journal_undo rr_undo_module = {
	J_MODULE, undo_module_rec, check_module, EBUSY
};

void rr_swaps_text(char *buf, size_t size)
{
	char line[512], dev[256], type[32];
	unsigned long long kib, used;
	FILE *f = fopen("/proc/swaps", "re");
	size_t o = 0;
	int prio;

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f) && o < size) {
		if (sscanf(line, "%255s %31s %llu %llu %d", dev, type, &kib,
			   &used, &prio) != 5)
			continue;
		o += snprintf(buf + o, size - o, "%s%s (%llu KiB, %llu used)",
			      o ? "; " : "", dev, kib, used);
	}
	if (f)
		fclose(f);
	if (!buf[0])
		snprintf(buf, size, "none");
}
