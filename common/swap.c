// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/swap.h>

#include "journal.h"
#include "swap.h"
#include "sysinfo.h"
#include "util.h"

#define HOT_ADD "/sys/class/zram-control/hot_add"

bool rr_swap_active(struct rr_swap *s)
{
	char line[512], dev[256], type[32];
	unsigned long long size, used;
	bool found = false;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return false;
	/* Header line first; then "Filename Type Size Used Priority". */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %llu %llu", dev, type, &size,
			   &used) != 4)
			continue;
		if (s && !found) {
			memset(s, 0, sizeof(*s));
			snprintf(s->dev, sizeof(s->dev), "%s", dev);
			s->size_kb = size;
			s->used_kb = used;
		}
		found = true;
	}
	fclose(f);
	return found;
}

bool rr_swap_zram_possible(char *why, size_t len)
{
	char val[8];

	if (rr_path_exists(HOT_ADD))
		return true;
	if (rr_kconfig("ZRAM", val, sizeof(val)) == 1 && !strcmp(val, "m") &&
	    !rr_path_exists("/sys/module/zram"))
		return true;
	snprintf(why, len, "no swap is active and zram is not available (%s missing)",
		 HOT_ADD);
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

	if (rr_swap_active(s))
		return 0;
	memset(s, 0, sizeof(*s));
	err = load_zram(why, len);
	if (err)
		return err;
	/*
	 * Reading hot_add creates the device and names it in one step; a
	 * SIGKILL between that read and the journal record below would
	 * leave an empty, unused zram device behind (no swap on it).
	 */
	err = rr_read_file(HOT_ADD, id, sizeof(id));
	/* Its identity: a replay must never reset a device made later. */
	if (!err)
		err = journal_zram_ident(id, ident, sizeof(ident));
	if (!err)
		err = journal_record(J_ZRAM, id, ident);
	if (err) {
		snprintf(why, len, "zram hot_add: %s", strerror(-err));
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
	if (!err && swapon(s->dev, 0))
		err = -errno;
	if (err)
		snprintf(why, len, "swapon %s: %s", s->dev, strerror(-err));
	return err;
}

void rr_swap_describe(const struct rr_swap *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s (%s%llu MiB, %s)", s->dev,
		 strncmp(s->dev, "/dev/zram", 9) ? "" : "zram, ",
		 s->size_kb >> 10,
		 s->created ? "created for the run" : "already active");
}
