/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel line a verdict on a KSM walk was reached on. The KSM
 * walk fix ("ksm: optimize rmap_walk_ksm by passing a suitable page
 * index", with its memory-failure follow-ups) is in mainline since
 * Linux 7.3-rc1: there a reproduced KSM walk is a regression to report,
 * not the known bug. Before 7.3 a distribution may carry a backport,
 * which the version does not tell and the step count does
 * (scripts/fingerprint).
 */
#ifndef RR_KLINE_H
#define RR_KLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"

#define RR_FIX_MAJOR 7
#define RR_FIX_MINOR 3

/*
 * Is a release string ("7.3.0-rc1", "6.12.118+deb13-amd64") at or past
 * the line with the fix? -1 when it cannot be read.
 */
int rr_release_has_fix(const char *release);
/*
 * The sentence for the verdict, or "" where none applies (no KSM
 * subject, or no verdict on the walk: skip, error, inconclusive).
 */
const char *rr_kernel_line(const struct rr_result *r, char *buf,
			   size_t len);

#endif
