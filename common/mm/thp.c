// SPDX-License-Identifier: GPL-2.0
/*
 * THP settings for large-folio patterns (thp.h). A size's "enabled" is
 * always, madvise, never, or (mTHP) inherit: the top-level setting.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal/journal.h"
#include "lib/util.h"
#include "mm/thp.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

static void value(const char *path, char *out, size_t size)
{
	char raw[128];

	out[0] = '\0';
	if (!rr_read_file(path, raw, sizeof(raw)))
		rr_knob_value(raw, out, size);
}

unsigned long rr_thp_pmd_kb(void)
{
	unsigned long long b;

	return rr_read_ull(THP_DIR "/hpage_pmd_size", &b) ? 0 : b >> 10;
}

static void size_path(unsigned long kb, char *buf, size_t size)
{
	snprintf(buf, size, THP_DIR "/hugepages-%lukB/enabled", kb);
}

bool rr_thp_offered(unsigned long kb, char *why, size_t len)
{
	char path[PATH_MAX];

	if (!rr_thp_pmd_kb()) {
		snprintf(why, len, "no transparent huge pages (%s)", THP_DIR);
		return false;
	}
	size_path(kb, path, sizeof(path));
	if (kb == rr_thp_pmd_kb() || rr_path_exists(path))
		return true;
	snprintf(why, len,
		 "no %lu KiB folios here: the PMD size is %lu KiB, and mTHP sizes (Linux 6.8+) are the hugepages-*kB of %s",
		 kb, rr_thp_pmd_kb(), THP_DIR);
	return false;
}

/* Is a size with this setting taken by a MADV_HUGEPAGE fault? */
static bool taken(const char *v, const char *top)
{
	if (!strcmp(v, "inherit"))
		v = top;
	return !strcmp(v, "always") || !strcmp(v, "madvise");
}

int rr_thp_setup(unsigned long kb, char *why, size_t len)
{
	char top[32], v[32], path[PATH_MAX];
	struct dirent *d;
	unsigned long k;
	DIR *dir;
	int err = 0;

	value(THP_DIR "/enabled", top, sizeof(top));
	if (!strcmp(top, "never")) {
		err = journal_knob_set(THP_DIR "/enabled", "madvise");
		snprintf(top, sizeof(top), "madvise");
	}
	size_path(kb, path, sizeof(path));
	value(path, v, sizeof(v));
	/* before 6.8 there are no per-size settings: the top level rules */
	if (!err && v[0] && !taken(v, top))
		err = journal_knob_set(path, "madvise");
	dir = opendir(THP_DIR);
	while (!err && dir && (d = readdir(dir))) {
		if (sscanf(d->d_name, "hugepages-%lukB", &k) != 1 || k <= kb)
			continue;
		size_path(k, path, sizeof(path));
		value(path, v, sizeof(v));
		if (taken(v, top))
			err = journal_knob_set(path, "never");
	}
	if (dir)
		closedir(dir);
	if (err)
		snprintf(why, len, "cannot set the THP sizes (%s): %s", THP_DIR,
			 strerror(-err));
	return err;
}
