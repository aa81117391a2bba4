// SPDX-License-Identifier: GPL-2.0
/* What a replay trusts (trust.h). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "journal/trust.h"
#include "lib/hooks.h"

int journal_trust_stat(const struct stat *st, const char *what, char *why,
		       size_t len)
{
	if (st->st_uid != geteuid()) {
		snprintf(why, len, "%s belongs to uid %u, not to uid %u",
			 what, (unsigned int)st->st_uid,
			 (unsigned int)geteuid());
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "%s can be written by %s (mode %04o)", what,
			 st->st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned int)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int journal_trust_parent(const char *path, char *why, size_t len)
{
	char copy[PATH_MAX], *dir;
	struct stat st;

	snprintf(copy, sizeof(copy), "%s", path);
	dir = dirname(copy);
	if (stat(dir, &st)) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -EPERM;
	}
	/* root's own directories hold the files of every user */
	if (st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	return journal_trust_stat(&st, dir, why, len);
}

static bool fs_is(const char *path, unsigned int fs)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return false;
	switch ((unsigned long)sf.f_type) {
	case SYSFS_MAGIC:
		return fs & RR_FS_SYSFS;
	case PROC_SUPER_MAGIC:
		return fs & RR_FS_PROC;
	case TRACEFS_MAGIC:
		return fs & RR_FS_TRACEFS;
	case DEBUGFS_MAGIC:
		return fs & RR_FS_DEBUGFS;
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
		return fs & RR_FS_CGROUP;
	}
	return false;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) &&
	       (dir[n - 1] == '/' || path[n] == '/' || !path[n]);
}

/* A test build's stand-in for sysfs, procfs or the KSM knobs. */
static bool under_stand_in(const char *resolved)
{
	static const char *const vars[] = {
		"RMAP_REPRO_SYS_DIR", "RMAP_REPRO_PROC_DIR",
		"RMAP_REPRO_KSM_DIR", NULL
	};
	char root[PATH_MAX];
	const char *v;
	int i;

	for (i = 0; vars[i]; i++) {
		v = rr_hook_env(vars[i]);
		if (v && realpath(v, root) && under(resolved, root))
			return true;
	}
	return false;
}

int journal_trust_path(const char *path, const char *const prefixes[],
		       unsigned int fs, char *resolved, size_t size,
		       char *why, size_t len)
{
	char real[PATH_MAX];
	int i;

	if (!realpath(path, real)) {
		if (errno == ENOENT)
			return -ENOENT;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -EPERM;
	}
	if (snprintf(resolved, size, "%s", real) >= (int)size) {
		snprintf(why, len, "%s: %s", path, strerror(ENAMETOOLONG));
		return -EPERM;
	}
	if (under_stand_in(real))
		return 0;
	for (i = 0; prefixes[i]; i++)
		if (under(real, prefixes[i]) && fs_is(real, fs))
			return 0;
	if (strcmp(path, real))
		snprintf(why, len,
			 "%s (resolved: %s) is not where the suite makes such a change",
			 path, real);
	else
		snprintf(why, len, "%s is not where the suite makes such a change",
			 path);
	return -EPERM;
}

bool journal_trust_name(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p;

	if (strncmp(name, prefix, n) || !name[n])
		return false;
	for (p = name + n; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

bool journal_trust_one_of(const char *s, const char *const list[])
{
	int i;

	for (i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}
