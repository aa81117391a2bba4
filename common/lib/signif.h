/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is one set of samples longer than another, beyond noise? Two tests a
 * reviewer can check by hand or in any statistics package:
 *
 * - Mann-Whitney U (the Wilcoxon rank-sum test): U counts the pairs
 *   (x, y) with x > y, a tie counting one half. Under the hypothesis that
 *   both sets come from one distribution, the p-value is exact for small
 *   samples without ties (the null distribution of U, counted), exact too
 *   when every x lies above (or below) every y (1 / C(nx + ny, nx), ties
 *   within a set or not), and otherwise
 *   from the normal approximation with the tie and continuity
 *   corrections.
 * - The ratio of the medians (nearest rank, as the reports' p50) with a
 *   95% percentile bootstrap confidence interval: both sets resampled
 *   with replacement RR_BOOT_ITERS times from a fixed seed, so that the
 *   same samples always give the same interval. A set of more than 4,000
 *   samples is first thinned to 4,000 evenly spaced order statistics
 *   (rr_samples_thin()), which bounds the time and keeps the shape.
 */
#ifndef RR_SIGNIF_H
#define RR_SIGNIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RR_BOOT_ITERS 1000
#define RR_BOOT_SEED 0x726d6170ULL	/* "rmap" */

enum rr_mwu_method { RR_MWU_NONE, RR_MWU_EXACT, RR_MWU_NORMAL };

extern const char *const rr_mwu_method_names[];

struct rr_mwu {
	size_t nx, ny;
	double u;		/* pairs with x > y, ties one half */
	double p_greater;	/* one-sided: x tends to be larger */
	double p_less;		/* one-sided: x tends to be smaller */
	double p_two;		/* two-sided: 2 x the smaller, at most 1 */
	/*
	 * The smallest one-sided p-value these sizes can give, 1 /
	 * C(nx + ny, nx) (ties can only raise it): with 3 samples against
	 * 3 it is 0.05, so no difference could be called significant at
	 * 1%.
	 */
	double p_min;
	bool ties;
	enum rr_mwu_method method;
};

/* 0, or -EINVAL when a set is empty, -ENOMEM. */
int rr_mwu(const double *x, size_t nx, const double *y, size_t ny,
	   struct rr_mwu *out);

struct rr_ratio_ci {
	bool defined;		/* false: a median was 0 (nothing to divide) */
	double ratio;		/* median(x) / median(y) */
	double lo, hi;		/* the 95% bootstrap interval */
	unsigned int iters;
};

/* 0, or -EINVAL when a set is empty, -ENOMEM. */
int rr_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
		struct rr_ratio_ci *out);

/* The nearest-rank median (the reports' p50); NaN of nothing. */
double rr_median(const double *v, size_t n);

/*
 * At most cap samples that keep the distribution's shape: all of them
 * sorted when they fit, else cap evenly spaced order statistics (the
 * smallest and the largest always among them). Returns how many were
 * written to out.
 */
size_t rr_samples_thin(const double *v, size_t n, double *out, size_t cap);

#endif
