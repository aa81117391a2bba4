/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where root may write (docs/running.md, "What the suite trusts"). An
 * output directory is trusted as root only if nobody else can change
 * what its path leads to: the directory itself is root's and no group
 * or other user can write it, and so is every existing directory above
 * it, except that one above may be a sticky directory of root's (such
 * as /tmp), where others cannot rename or remove what root made. The
 * part of the path that does not exist yet is made here, one mkdir per
 * level, which fails on any name that appeared meanwhile (a planted
 * link): those directories are root's alone from the start. The path
 * is resolved once, and the resolved path is the one to write to from
 * then on: a link on the way that another user could turn elsewhere is
 * not followed again. A user who is not root needs no such rule: the
 * files are theirs to lose.
 */
#ifndef RR_OUTDIR_H
#define RR_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * path as a directory to write into: 0 with the resolved, absolute path
 * in resolved; with make, the missing part is created, else only
 * checked to be creatable. -EPERM when the rule above refuses it,
 * another -errno when it cannot be; why says which, naming the
 * directory at fault.
 */
int rr_out_dir(const char *path, bool make, char *resolved, size_t size,
	       char *why, size_t len);

#endif
