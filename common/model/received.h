/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A received file is data (docs/running.md, "What the suite trusts"):
 * a results.json of run-all or vm-run, a reproducer's own JSON, or a
 * sweep.json, often from someone else, is checked before any script
 * reads a figure of it, and refused whole, with the reason, when it
 * breaks one rule:
 *
 *   - strict JSON (lib/json_read.h): one value, no key twice, finite
 *     numbers, UTF-8;
 *   - names (reproducer, case, probe, the samples' figure, a sweep's
 *     cases) follow the suite's name rule, [A-Za-z0-9@._-]+;
 *   - no string holds a control character (below 0x20 but tab, 0x7f,
 *     U+0080 to U+009F), a line or paragraph separator, or a bidi
 *     override: each would reach a terminal or a file drawn from it;
 *   - times (any number under a key that ends in _ms, _us, _ns or _s)
 *     are not negative;
 *   - samples: kept is a whole number equal to the values' count, at
 *     most RR_KEEP_SAMPLES;
 *   - sizes within the suite's own: the bounds below, which its own
 *     runs never reach.
 */
#ifndef RR_MODEL_RECEIVED_H
#define RR_MODEL_RECEIVED_H

#include <stddef.h>

#include "lib/json_read.h"

/* results in one run-all results.json (the full preset has 33) */
#define RR_RECV_MAX_RESULTS	256
/* elements of any one array (histograms, kernel log lines, points) */
#define RR_RECV_MAX_ARRAY	4096
/* bytes of any one string (a kernel's config line is under 1 KiB) */
#define RR_RECV_MAX_STRING	65536

/* 0, or -EINVAL with why. */
int rr_received_results(const struct rr_jv *root, char *why, size_t len);
int rr_received_sweep(const struct rr_jv *root, char *why, size_t len);

/* The name rule, [A-Za-z0-9@._-]+, at most 63 characters. */
int rr_received_name(const char *s);

#endif
