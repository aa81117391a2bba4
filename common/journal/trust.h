/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a replay trusts (docs/running.md, "What the suite trusts"). A
 * journal is read only when the file and its directory are the running
 * user's own (root's, as root) and nobody else can write them, the file
 * is not a symbolic link, and it starts with the journal's header; and
 * each record is checked against what the suite itself records before
 * anything is done with it: a knob among the kernel's memory and tracing
 * knobs, a cgroup or tracefs instance of the suite's own name on the
 * kernel's own file system, a module, mount or device from the fixed
 * set the suite makes.
 *
 * In the test build (lib/hooks.h) the stand-in directories of
 * RMAP_REPRO_SYS_DIR, RMAP_REPRO_PROC_DIR and RMAP_REPRO_KSM_DIR count
 * as kernel file systems too.
 */
#ifndef RR_JOURNAL_TRUST_H
#define RR_JOURNAL_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#define JOURNAL_HEADER "# rmap-repro journal v1"

/*
 * st (of what) is the running user's, and no group or other user can
 * write it: 0, or -EPERM with why.
 */
int journal_trust_stat(const struct stat *st, const char *what, char *why,
		       size_t len);
/* The directory that holds path: the same rule. */
int journal_trust_parent(const char *path, char *why, size_t len);

/* A kernel file system a record may name (a mask of them). */
#define RR_FS_SYSFS	0x1
#define RR_FS_PROC	0x2
#define RR_FS_TRACEFS	0x4
#define RR_FS_DEBUGFS	0x8
#define RR_FS_CGROUP	0x10

/*
 * path, resolved (realpath) into resolved, is one of prefixes
 * (NULL-terminated) or lies beneath it, on a file system of fs, or
 * under a test build's stand-in: 0; -ENOENT when it does not exist;
 * -EPERM with why otherwise.
 */
int journal_trust_path(const char *path, const char *const prefixes[],
		       unsigned int fs, char *resolved, size_t size,
		       char *why, size_t len);
/* name is prefix followed by decimal digits only (a pid, a device). */
bool journal_trust_name(const char *name, const char *prefix);
/* s is one of list (NULL-terminated). */
bool journal_trust_one_of(const char *s, const char *const list[]);

#endif
