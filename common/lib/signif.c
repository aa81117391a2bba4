// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/signif.h"

/* The exact null distribution is counted up to this many per set. */
#define EXACT_MAX 50
/* Sets larger than this are thinned before the bootstrap (its time). */
#define BOOT_MAX 4000

const char *const rr_mwu_method_names[] = {
	[RR_MWU_NONE] = "none",
	[RR_MWU_EXACT] = "exact",
	[RR_MWU_NORMAL] = "normal approximation",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct tagged {
	double v;
	int from_x;
};

static int cmp_tagged(const void *a, const void *b)
{
	return cmp_double(&((const struct tagged *)a)->v,
			  &((const struct tagged *)b)->v);
}

/* ln C(n, k) */
static double log_choose(size_t n, size_t k)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/*
 * P(U >= u) under the null hypothesis, without ties, by counting the
 * orderings: f(i, j, u) = f(i - 1, j, u - j) + f(i, j - 1, u), the
 * largest of i + j values being an x (above all j values of y) or a y.
 */
static int exact_upper(size_t nx, size_t ny, double u, double *p)
{
	size_t umax = nx * ny, w = umax + 1, i, j, k;
	double *prev, *cur, all = 0, above = 0;

	prev = calloc((ny + 1) * w, sizeof(*prev));
	cur = calloc((ny + 1) * w, sizeof(*cur));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	/* i = 0: one ordering of j values of y, with U = 0 */
	for (j = 0; j <= ny; j++)
		prev[j * w] = 1;
	for (i = 1; i <= nx; i++) {
		memset(cur, 0, (ny + 1) * w * sizeof(*cur));
		cur[0] = 1;
		for (j = 1; j <= ny; j++) {
			double *c = cur + j * w, *below = cur + (j - 1) * w;
			const double *p = prev + j * w;

			for (k = 0; k <= i * j; k++)
				c[k] = (k >= j ? p[k - j] : 0) + below[k];
		}
		/* j = 0 with i values of x: U = 0 */
		memcpy(prev, cur, (ny + 1) * w * sizeof(*cur));
		prev[0] = 1;
	}
	for (k = 0; k <= umax; k++) {
		all += prev[ny * w + k];
		if ((double)k >= u - 1e-9)
			above += prev[ny * w + k];
	}
	*p = above / all;
	free(prev);
	free(cur);
	return 0;
}

static double clamp01(double p)
{
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

int rr_mwu(const double *x, size_t nx, const double *y, size_t ny,
	   struct rr_mwu *out)
{
	size_t n = nx + ny, i, j;
	struct tagged *all;
	double rx = 0, ties = 0, mu, var, z;
	int err;

	memset(out, 0, sizeof(*out));
	out->nx = nx;
	out->ny = ny;
	out->p_greater = out->p_less = out->p_two = out->p_min = 1;
	if (!nx || !ny)
		return -EINVAL;
	all = malloc(n * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < nx; i++)
		all[i] = (struct tagged){ x[i], 1 };
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct tagged){ y[i], 0 };
	qsort(all, n, sizeof(*all), cmp_tagged);
	/* ranks 1..n, a tie group sharing its mean rank */
	for (i = 0; i < n; i = j) {
		double t, rank;

		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		t = j - i;
		rank = (i + 1 + j) / 2.0;
		if (t > 1) {
			out->ties = true;
			ties += t * t * t - t;
		}
		for (size_t k = i; k < j; k++)
			if (all[k].from_x)
				rx += rank;
	}
	free(all);
	out->u = rx - nx * (nx + 1) / 2.0;
	/* one ordering of C(n, nx); ties can only raise it */
	out->p_min = exp(-log_choose(n, nx));
	if (out->u >= nx * ny || out->u <= 0) {
		/*
		 * Every x above every y (or below): whatever the ties within
		 * a set, one labelling of C(n, nx) does that.
		 */
		out->method = RR_MWU_EXACT;
		out->p_greater = out->u > 0 ? out->p_min : 1;
		out->p_less = out->u > 0 ? 1 : out->p_min;
	} else if (!out->ties && nx <= EXACT_MAX && ny <= EXACT_MAX) {
		out->method = RR_MWU_EXACT;
		err = exact_upper(nx, ny, out->u, &out->p_greater);
		/* U' = nx ny - U has the same null distribution */
		if (!err)
			err = exact_upper(nx, ny, nx * ny - out->u,
					  &out->p_less);
		if (err)
			return err;
	} else {
		out->method = RR_MWU_NORMAL;
		mu = nx * ny / 2.0;
		var = nx * ny / 12.0 *
		      ((n + 1) - ties / ((double)n * (n - 1)));
		if (var <= 0) {
			/* every value the same: nothing to tell apart */
			out->p_greater = out->p_less = 1;
		} else {
			z = (out->u - mu - 0.5) / sqrt(var);
			out->p_greater = 0.5 * erfc(z / M_SQRT2);
			z = (out->u - mu + 0.5) / sqrt(var);
			out->p_less = 0.5 * erfc(-z / M_SQRT2);
		}
	}
	out->p_greater = clamp01(out->p_greater);
	out->p_less = clamp01(out->p_less);
	out->p_two = clamp01(2 * fmin(out->p_greater, out->p_less));
	return 0;
}

/*
 * The k-th smallest of v[0..n) (0-based), reordering v: Wirth's
 * selection, partitioning around v[k] until k sits between the parts.
 */
static double select_kth(double *v, size_t n, size_t k)
{
	long l = 0, m = (long)n - 1, i, j, kk = (long)k;

	while (l < m) {
		double x = v[kk];

		i = l;
		j = m;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				double t = v[i];

				v[i++] = v[j];
				v[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return v[kk];
}

/* nearest rank: the ceil(n / 2)-th smallest */
static size_t median_rank(size_t n)
{
	return (n + 1) / 2 - 1;
}

double rr_median(const double *v, size_t n)
{
	double *t, m;

	if (!n)
		return NAN;
	t = malloc(n * sizeof(*t));
	if (!t)
		return NAN;
	memcpy(t, v, n * sizeof(*t));
	m = select_kth(t, n, median_rank(n));
	free(t);
	return m;
}

size_t rr_samples_thin(const double *v, size_t n, double *out, size_t cap)
{
	double *sorted;
	size_t i;

	if (!n || !cap)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return 0;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	if (n <= cap) {
		memcpy(out, sorted, n * sizeof(*out));
	} else if (cap == 1) {
		out[0] = sorted[n - 1];
	} else {
		/* i (n - 1) / (cap - 1), rounded: 0 and n - 1 included */
		for (i = 0; i < cap; i++)
			out[i] = sorted[(size_t)((double)i * (n - 1) /
						 (cap - 1) + 0.5)];
	}
	free(sorted);
	return n <= cap ? n : cap;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The median of n values drawn with replacement from v. */
static double resampled_median(const double *v, size_t n, double *tmp,
			       uint64_t *seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = v[splitmix64(seed) % n];
	return select_kth(tmp, n, median_rank(n));
}

int rr_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
		struct rr_ratio_ci *out)
{
	double *tx = NULL, *ty = NULL, *tmp = NULL, *r = NULL, my;
	uint64_t seed = RR_BOOT_SEED;
	unsigned int b, k = 0;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!nx || !ny)
		return -EINVAL;
	my = rr_median(y, ny);
	if (!(my > 0))
		return 0;
	out->ratio = rr_median(x, nx) / my;
	out->defined = true;
	/* large sets: evenly spaced order statistics keep the shape */
	tx = malloc((nx < BOOT_MAX ? nx : BOOT_MAX) * sizeof(*tx));
	ty = malloc((ny < BOOT_MAX ? ny : BOOT_MAX) * sizeof(*ty));
	tmp = malloc((nx > ny ? nx : ny) * sizeof(*tmp));
	r = malloc(RR_BOOT_ITERS * sizeof(*r));
	if (!tx || !ty || !tmp || !r)
		goto out;
	nx = rr_samples_thin(x, nx, tx, BOOT_MAX);
	ny = rr_samples_thin(y, ny, ty, BOOT_MAX);
	if (!nx || !ny)
		goto out;
	for (b = 0; b < RR_BOOT_ITERS; b++) {
		double a = resampled_median(tx, nx, tmp, &seed);
		double d = resampled_median(ty, ny, tmp, &seed);

		/* a resample whose median is 0: an unbounded ratio */
		r[k++] = d > 0 ? a / d : INFINITY;
	}
	qsort(r, k, sizeof(*r), cmp_double);
	out->iters = k;
	out->lo = r[(size_t)ceil(0.025 * k) - 1];
	out->hi = r[(size_t)ceil(0.975 * k) - 1];
	err = 0;
out:
	free(tx);
	free(ty);
	free(tmp);
	free(r);
	return err;
}
