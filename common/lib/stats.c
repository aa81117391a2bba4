// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

int rr_samples_add(struct rr_samples *s, double ms)
{
	double *v;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;

		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = ms;
	return 0;
}

int rr_samples_merge(struct rr_samples *dst, const struct rr_samples *src)
{
	size_t i;
	int err;

	for (i = 0; i < src->n; i++) {
		err = rr_samples_add(dst, src->v[i]);
		if (err)
			return err;
	}
	return 0;
}

void rr_samples_free(struct rr_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int rr_hist_bucket(double ms)
{
	double us = ms * 1000.0;
	int b;

	if (us < 1.0)
		return 0;
	b = (int)floor(log2(us)) + 1;
	return b < RR_HIST_BUCKETS ? b : RR_HIST_BUCKETS - 1;
}

void rr_hist_bounds(int b, double *lo_us, double *hi_us)
{
	*lo_us = b ? ldexp(1.0, b - 1) : 0.0;
	*hi_us = ldexp(1.0, b);
}

static void unit(double us, char *buf, size_t size)
{
	if (us >= 1e6)
		snprintf(buf, size, "%g s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, size, "%g ms", us / 1e3);
	else
		snprintf(buf, size, "%g us", us);
}

void rr_hist_label(int b, char *buf, size_t size)
{
	char lo[32], hi[32];
	double l, h;

	rr_hist_bounds(b, &l, &h);
	unit(l, lo, sizeof(lo));
	unit(h, hi, sizeof(hi));
	snprintf(buf, size, "[%s, %s)", b ? lo : "0", hi);
}

static double rank(const double *sorted, size_t n, double pct)
{
	size_t r = (size_t)ceil(pct / 100.0 * (double)n);

	if (r < 1)
		r = 1;
	return sorted[r - 1];
}

void rr_stats_compute(const double *v, size_t n, struct rr_stats *st)
{
	double *sorted, sum = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (i = 0; i < n; i++) {
		sum += sorted[i];
		st->hist[rr_hist_bucket(sorted[i])]++;
	}
	st->count = n;
	st->min = sorted[0];
	st->max = sorted[n - 1];
	st->mean = sum / (double)n;
	st->p50 = rank(sorted, n, 50);
	st->p90 = rank(sorted, n, 90);
	st->p99 = rank(sorted, n, 99);
	free(sorted);
}

size_t rr_loglog_slope(const double *x, const double *y, size_t n,
		       double *slope)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;
	size_t i, used = 0;

	for (i = 0; i < n; i++) {
		if (!(x[i] > 0) || !(y[i] > 0))
			continue;
		mx += log(x[i]);
		my += log(y[i]);
		used++;
	}
	*slope = NAN;
	if (used < 2)
		return used;
	mx /= used;
	my /= used;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0) || !(y[i] > 0))
			continue;
		sxx += (log(x[i]) - mx) * (log(x[i]) - mx);
		sxy += (log(x[i]) - mx) * (log(y[i]) - my);
	}
	if (sxx > 0)
		*slope = sxy / sxx;
	return used;
}
