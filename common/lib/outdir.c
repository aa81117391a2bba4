// SPDX-License-Identifier: GPL-2.0
/*
 * The output directory's rule (outdir.h): resolve the part of the path
 * that exists, check it and every directory above it, then make the
 * rest a level at a time.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outdir.h"

/*
 * One directory of the chain, as root: root's, and writable by no one
 * else, or (above the target only) a sticky directory of root's.
 */
static int trusted(const char *dir, const struct stat *st, bool target,
		   char *why, size_t len)
{
	unsigned int mode = st->st_mode & 07777;

	if (st->st_uid) {
		snprintf(why, len,
			 "%s belongs to another user (uid %u): as root, files go only where every directory on the way is root's alone (a sticky one such as /tmp aside); name a directory of root's, or a new one under one",
			 dir, (unsigned int)st->st_uid);
		return -EPERM;
	}
	if (!(mode & (S_IWGRP | S_IWOTH)) || (!target && (mode & S_ISVTX)))
		return 0;
	snprintf(why, len,
		 "other users can write to %s (mode %04o): as root, files go only where every directory on the way is root's alone (a sticky one such as /tmp aside, for a new directory under it); name a new one (it is made) or one of root's",
		 dir, mode);
	return -EPERM;
}

/* The chain from dir (resolved, absolute) up to /, as root. */
static int chain_trusted(const char *dir, bool target, char *why,
			 size_t len)
{
	char cur[PATH_MAX], *slash;
	struct stat st;
	int ret;

	snprintf(cur, sizeof(cur), "%s", dir);
	for (;;) {
		if (stat(cur, &st)) {
			ret = -errno;
			snprintf(why, len, "%s: %s", cur, strerror(errno));
			return ret;
		}
		ret = trusted(cur, &st, target, why, len);
		if (ret)
			return ret;
		target = false;
		if (!strcmp(cur, "/"))
			return 0;
		slash = strrchr(cur, '/');
		if (slash == cur)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/*
 * Split path into the longest part that exists, resolved into resolved,
 * and the rest (the offset of its first component in path, or -1).
 */
static int split_existing(const char *path, char *resolved, size_t size,
			  const char **rest, char *why, size_t len)
{
	char head[PATH_MAX], real[PATH_MAX];
	const char *p = path, *end;
	struct stat st;
	size_t n;

	*rest = NULL;
	snprintf(head, sizeof(head), "%s", *path == '/' ? "/" : ".");
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, '/');
		n = strlen(head);
		if (snprintf(head + n, sizeof(head) - n, "%s%.*s",
			     head[n - 1] == '/' ? "" : "/", (int)(end - p),
			     p) >= (int)(sizeof(head) - n)) {
			snprintf(why, len, "%s: too long", path);
			return -ENAMETOOLONG;
		}
		if (stat(head, &st)) {
			if (errno != ENOENT) {
				snprintf(why, len, "%s: %s", head,
					 strerror(errno));
				return -errno;
			}
			head[n] = '\0';
			*rest = p;
			break;
		}
		p = end;
	}
	if (!realpath(head, real)) {
		snprintf(why, len, "%s: %s", head, strerror(errno));
		return -errno;
	}
	if (stat(real, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s exists and is not a directory", real);
		return -ENOTDIR;
	}
	if (snprintf(resolved, size, "%s", real) >= (int)size) {
		snprintf(why, len, "%s: too long", path);
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * mkdir found dir there: a name that appeared meanwhile is checked,
 * never followed (lstat: a link is refused).
 */
static int exists_trusted(const char *dir, char *why, size_t len)
{
	struct stat st;
	int e = errno;

	if (e != EEXIST) {
		snprintf(why, len, "cannot create %s: %s", dir, strerror(e));
		return -e;
	}
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, len,
			 "cannot create %s: something that is not a directory appeared there",
			 dir);
		return -EEXIST;
	}
	return geteuid() ? 0 : trusted(dir, &st, true, why, len);
}

/* Make (or, without make, check) each component of rest under dir. */
static int make_rest(char *dir, size_t size, const char *rest, bool make,
		     char *why, size_t len)
{
	const char *p = rest, *end;
	size_t n;

	while (p && *p) {
		end = strchrnul(p, '/');
		if ((end - p == 1 && *p == '.') ||
		    (end - p == 2 && !strncmp(p, "..", 2))) {
			snprintf(why, len,
				 "%s: '.' or '..' in the part that is to be made",
				 rest);
			return -EINVAL;
		}
		n = strlen(dir);
		if (snprintf(dir + n, size - n, "%s%.*s",
			     dir[n - 1] == '/' ? "" : "/", (int)(end - p),
			     p) >= (int)(size - n)) {
			snprintf(why, len, "%s: too long", dir);
			return -ENAMETOOLONG;
		}
		if (!make) {
			/* its parent must let this process make it */
			dir[n] = '\0';
			if (access(dir, W_OK | X_OK)) {
				snprintf(why, len, "cannot create it in %s: %s",
					 dir, strerror(errno));
				return -errno;
			}
			return 0;
		}
		if (mkdir(dir, 0755)) {
			int ret = exists_trusted(dir, why, len);

			if (ret)
				return ret;
		}
		for (p = end; *p == '/'; p++)
			;
	}
	return 0;
}

int rr_out_dir(const char *path, bool make, char *resolved, size_t size,
	       char *why, size_t len)
{
	const char *rest;
	int ret;

	why[0] = '\0';
	if (!path || !*path) {
		snprintf(why, len, "an empty directory name");
		return -EINVAL;
	}
	ret = split_existing(path, resolved, size, &rest, why, len);
	if (ret)
		return ret;
	if (!geteuid()) {
		/* the target itself when it exists; else what is above it */
		ret = chain_trusted(resolved, !rest, why, len);
		if (ret)
			return ret;
	}
	if (!rest && access(resolved, W_OK | X_OK)) {
		ret = -errno;
		snprintf(why, len, "%s: not writable: %s", resolved,
			 strerror(errno));
		return ret;
	}
	return make_rest(resolved, size, rest, make, why, len);
}
