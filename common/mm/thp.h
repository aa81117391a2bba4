/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transparent huge pages for the large-folio patterns: which folio sizes
 * the kernel offers (the PMD size, and since Linux 6.8 the mTHP sizes of
 * /sys/kernel/mm/transparent_hugepage/hugepages-*kB), and the settings
 * that make MADV_HUGEPAGE take folios of one size, changed through the
 * journal.
 */
#ifndef RR_THP_H
#define RR_THP_H

#include <stdbool.h>
#include <stddef.h>

/* The PMD (THP) size in KiB, or 0 without THP. */
unsigned long rr_thp_pmd_kb(void);
/* Is size_kb a folio size offered here (the PMD size or an mTHP size)? */
bool rr_thp_offered(unsigned long size_kb, char *why, size_t len);
/*
 * Make a fault in a MADV_HUGEPAGE range take a folio of size_kb: that
 * size enabled (madvise, where it was never), the larger ones never,
 * the top-level setting madvise where it was never; each change
 * journaled. 0, or -errno with why.
 */
int rr_thp_setup(unsigned long size_kb, char *why, size_t len);

#endif
