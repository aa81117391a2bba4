/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Retired frames and the kernel's hwpoison injector (debugfs
 * hwpoison/, CONFIG_HWPOISON_INJECT): a frame the suite retires (soft
 * offline, memory failure) is journaled first and given back through
 * unpoison-pfn, checked in /proc/kpageflags, by the run or by
 * scripts/restore.
 */
#ifndef RR_HWPOISON_H
#define RR_HWPOISON_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How the hwpoison trigger injects: debugfs corrupt-pfn (by frame
 * number, from the measuring process), or madvise(MADV_HWPOISON) by the
 * member that maps the page (kernels without the injector); auto: the
 * first where the injector can be reached.
 */
enum rr_injector { RR_INJ_AUTO, RR_INJ_CORRUPT_PFN, RR_INJ_MADVISE };

extern const char *const rr_injector_names[];

/* An injector file (corrupt-pfn, unpoison-pfn) under debugfs. */
const char *rr_hwpoison_file(const char *name);
/*
 * Can the injector be reached: its files, or debugfs to mount, or its
 * module to load? Changes nothing.
 */
bool rr_hwpoison_reachable(char *why, size_t len);
/* Reach it: mount debugfs, load hwpoison_inject, each journaled. */
int rr_hwpoison_setup(char *why, size_t len);
/* Journal a frame before it is retired: the replay gives it back. */
int rr_hwpoison_journal(unsigned long long pfn);
/* Is the frame marked HWPoison? 1, 0, or -errno. */
int rr_frame_poisoned(unsigned long long pfn);
/* Give a retired frame back, and check: 0 (or not retired), -errno. */
int rr_unpoison(unsigned long long pfn);

/* Its kind of journal record, and its undo handler (core/undo.c). */
#define J_UNPOISON	"unpoison"	/* a frame soft offline retires */
struct journal_undo;
extern const struct journal_undo rr_undo_unpoison;

#endif
