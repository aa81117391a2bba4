/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KSM control: knobs through the journal, opting memory in, and waiting
 * for merging by polling counters with a bound (never a fixed sleep).
 */
#ifndef RR_KSM_H
#define RR_KSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/opts.h"

#define KSM_DIR "/sys/kernel/mm/ksm"

/* KSM_DIR, or RMAP_REPRO_KSM_DIR (unit tests: a directory of files). */
const char *rr_ksm_dir(void);

struct rr_ksm_opts {
	unsigned long long pages_to_scan;
	unsigned long long sleep_ms;
	unsigned long long max_page_sharing;
	unsigned long long merge_timeout_s;
};

extern struct rr_ksm_opts rr_ksm_opts;
/* Options every KSM reproducer accepts. */
extern const struct rr_opt rr_ksm_opt_table[];

struct rr_ksm_counters {
	unsigned long long pages_shared;	/* KSM pages in the system */
	unsigned long long pages_sharing;	/* mappings saved by them */
	unsigned long long full_scans;
	unsigned long long max_page_sharing;
	long long merging_pages;	/* this process; -1 if unknown */
	/* what rr_ksm_merge waited: full scans, and how long */
	unsigned long long merge_scans;
	uint64_t merge_ns;
};

bool rr_ksm_available(void);
/*
 * Journal and set pages_to_scan, sleep_millisecs and max_page_sharing.
 * If KSM holds no merged page now, the suite owns KSM state for the run:
 * rr_ksm_reset() may then unmerge between cases and the journal unmerges
 * at the end. Returns 0 or -errno with a reason in why.
 */
int rr_ksm_setup(char *why, size_t len);
bool rr_ksm_owned(void);
int rr_ksm_run(bool on);
/* Unmerge everything between cases, only when the suite owns KSM. */
int rr_ksm_reset(void);
int rr_ksm_read(struct rr_ksm_counters *c);
int rr_ksm_opt_in(void *addr, size_t len);
/*
 * Run ksmd until this process has `expected` merging pages, or merging
 * stopped growing for two full scans, or merge_timeout_s passed (an
 * error). ksmd is stopped (run=0, which keeps pages merged) on return, so
 * that a trigger does not race with ksmd. Returns 0 or -errno with why.
 */
int rr_ksm_merge(unsigned long long expected, struct rr_ksm_counters *c,
		 char *why, size_t len);

#endif
