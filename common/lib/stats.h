/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency statistics. Samples are milliseconds (double). Percentiles use
 * the nearest-rank method on the sorted samples: pN is the smallest sample
 * such that at least N% of the samples are <= it. No interpolation, so
 * every figure printed is a latency that was actually measured.
 */
#ifndef RR_STATS_H
#define RR_STATS_H

#include <stddef.h>

/* bucket 0: [0, 1) us; bucket k >= 1: [2^(k-1), 2^k) us */
#define RR_HIST_BUCKETS 36

struct rr_stats {
	size_t count;
	double min, mean, p50, p90, p99, max;
	unsigned long hist[RR_HIST_BUCKETS];
};

struct rr_samples {
	double *v;
	size_t n, cap;
};

int rr_samples_add(struct rr_samples *s, double ms);
int rr_samples_merge(struct rr_samples *dst, const struct rr_samples *src);
void rr_samples_free(struct rr_samples *s);

void rr_stats_compute(const double *v, size_t n, struct rr_stats *st);
int rr_hist_bucket(double ms);
/* Bounds of bucket b in microseconds. */
void rr_hist_bounds(int b, double *lo_us, double *hi_us);
/*
 * The least-squares slope of log(y) on log(x), over the points with both
 * positive (a NaN y is left out): how a latency grows with a pattern's
 * size (scripts/sweep, through rmap-stat --fit). Returns the points used;
 * *slope is NaN with fewer than two, or with one x.
 */
size_t rr_loglog_slope(const double *x, const double *y, size_t n,
		       double *slope);
/* A bucket in words: "[128 ms, 256 ms)" */
void rr_hist_label(int b, char *buf, size_t size);

#endif
