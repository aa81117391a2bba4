// SPDX-License-Identifier: GPL-2.0
/*
 * The tests beside the verdict: Mann-Whitney U against values that
 * scipy.stats.mannwhitneyu 1.10 gives for the same samples (exact and
 * asymptotic with the continuity correction), and against a count of
 * every ordering; the bootstrap interval of the ratio of medians; the
 * thinning of samples kept in the JSON.
 */
#include <errno.h>
#include <stdlib.h>

#include "harness.h"
#include "lib/signif.h"

static void test_exact_small(void)
{
	double x[] = { 1.1, 2.3, 3.5, 4.2, 5.9, 7.7 };
	double y[] = { 0.5, 0.9, 1.4, 2.0, 2.8 };
	struct rr_mwu m;

	CHECK_EQ(rr_mwu(x, 6, y, 5, &m), 0);
	CHECK_EQ(m.method, RR_MWU_EXACT);
	CHECK_NEAR(m.u, 26, 0);
	/* scipy: exact 0.025974025974025976, two-sided 0.0519480519 */
	CHECK_NEAR(m.p_greater, 0.025974025974025976, 1e-12);
	CHECK_NEAR(m.p_two, 0.05194805194805195, 1e-12);
	CHECK(m.p_less > 0.97);
	CHECK(!m.ties);
}

/* Every way to draw nx of n ranks: how many give U >= u. */
static double brute_upper(int nx, int ny, double u)
{
	int n = nx + ny, above = 0, all = 0;
	unsigned int mask;

	for (mask = 0; mask < 1u << n; mask++) {
		int r, seen_y = 0;
		double uu = 0;

		if (__builtin_popcount(mask) != nx)
			continue;
		/* rank r is an x when its bit is set */
		for (r = 0; r < n; r++) {
			if (mask & (1u << r)) {
				uu += seen_y;
			} else {
				seen_y++;
			}
		}
		all++;
		above += uu >= u;
	}
	return (double)above / all;
}

static void test_exact_against_counting(void)
{
	double x[4], y[5];
	struct rr_mwu m;
	int u, i, bad = 0;

	/* every U of 4 against 5, by placing x's values among y's */
	for (u = 0; u <= 20; u++) {
		int left = u;

		for (i = 0; i < 5; i++)
			y[i] = 10 * (i + 1);
		/* x[i] above k of the y's: k = 5 for as many as fit */
		for (i = 0; i < 4; i++) {
			int k = left > 5 ? 5 : left;

			x[i] = 10 * k + 1 + i;
			left -= k;
		}
		CHECK_EQ(rr_mwu(x, 4, y, 5, &m), 0);
		CHECK(!m.ties);
		CHECK_NEAR(m.u, u, 0);
		if (fabs(m.p_greater - brute_upper(4, 5, u)) > 1e-12) {
			printf("    # U=%d: %g, counted %g\n", u, m.p_greater,
			       brute_upper(4, 5, u));
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
}

static void test_ties_normal(void)
{
	double x[] = { 3, 4, 4, 5, 6, 6, 6, 8 };
	double y[] = { 1, 2, 3, 3, 4, 5 };
	struct rr_mwu m;

	CHECK_EQ(rr_mwu(x, 8, y, 6, &m), 0);
	CHECK(m.ties);
	CHECK_EQ(m.method, RR_MWU_NORMAL);
	CHECK_NEAR(m.u, 41.5, 0);
	/* scipy asymptotic, continuity corrected */
	CHECK_NEAR(m.p_greater, 0.012982610727567612, 1e-9);
	CHECK_NEAR(m.p_less, 0.9908061164649132, 1e-9);
}

static const double big_x[] = {
	12.576370, 12.898891, 10.132672, 8.470913, 7.815654, 10.062669,
	7.955794, 7.126341, 10.398624, 10.266749, 11.092937, 8.172058,
	10.010011, 9.870516, 6.988342, 11.075994, 10.641422, 14.778224,
	10.405938, 9.710595, 12.465514, 10.397582, 11.818062, 9.268911,
	10.436344, 12.048577, 11.392494, 10.256944, 7.835384, 10.890444,
	10.153727, 11.440935, 10.432466, 12.176371, 9.896879, 10.403928,
	11.333553, 7.826231, 9.196679, 8.999943, 13.961231, 9.814276,
	11.304440, 11.238750, 9.438253, 6.898326, 11.929688, 9.185606,
	11.435913, 7.389470, 9.124034, 12.513643, 12.862008, 7.395083,
	7.334385, 9.911471, 11.456483, 10.321009, 10.607109, 8.022327,
};

static const double big_y[] = {
	10.173583, 11.233705, 8.128655, 6.133024, 7.482358, 10.523316,
	5.532606, 8.816246, 7.017983, 8.737731, 8.510957, 9.031714,
	12.002415, 9.841421, 11.667425, 8.717175, 8.040827, 9.757621,
	3.328418, 8.920222, 9.320340, 6.529583, 9.928730, 7.881510,
	4.081800, 8.573363, 7.042309, 7.958808, 8.695431, 11.501951,
	9.206296, 8.943029, 9.778009, 5.375815, 11.480248, 6.845826,
	9.878190, 6.746439, 7.047029, 8.207424, 12.791497, 10.395329,
	7.791607, 8.431380, 6.697203, 8.931680, 7.853855, 10.443776,
	6.285865, 8.330714, 7.315983, 7.562583, 10.422323, 9.252612,
	10.170398, 11.378150, 11.299139, 6.256415, 10.073931, 5.477463,
	8.872280, 12.838237, 8.612683, 8.261616, 9.340662, 9.035857,
	9.053187, 7.485428, 11.163493, 10.778120,
};

static void test_large_normal(void)
{
	struct rr_mwu m;

	CHECK_EQ(rr_mwu(big_x, 60, big_y, 70, &m), 0);
	CHECK_EQ(m.method, RR_MWU_NORMAL);
	CHECK_NEAR(m.u, 2964, 0);
	CHECK_NEAR(m.p_greater, 2.7573360882371734e-05, 1e-9);
	/* the same samples the other way round: the other tail */
	CHECK_EQ(rr_mwu(big_y, 70, big_x, 60, &m), 0);
	CHECK_NEAR(m.p_less, 2.7573360882371734e-05, 1e-9);
}

static void test_all_above(void)
{
	double x[4] = { 700, 720, 900, 1300 }, *y = malloc(1000 * sizeof(*y));
	struct rr_mwu m;
	int i;

	for (i = 0; i < 1000; i++)
		y[i] = 0.001 * (i + 1);
	CHECK_EQ(rr_mwu(x, 4, y, 1000, &m), 0);
	CHECK_EQ(m.method, RR_MWU_EXACT);
	/* 1 / C(1004, 4) = 24 / (1004 1003 1002 1001) */
	CHECK_NEAR(m.p_greater / (24.0 / (1004.0 * 1003 * 1002 * 1001)), 1,
		   1e-9);
	CHECK_NEAR(m.p_min, m.p_greater, 1e-30);
	/* ties among the y only: still one labelling of C(1004, 4) */
	for (i = 0; i < 1000; i++)
		y[i] = 0.001 * (i / 10 + 1);
	CHECK_EQ(rr_mwu(x, 4, y, 1000, &m), 0);
	CHECK(m.ties);
	CHECK_EQ(m.method, RR_MWU_EXACT);
	CHECK_NEAR(m.p_greater / (24.0 / (1004.0 * 1003 * 1002 * 1001)), 1,
		   1e-9);
	free(y);
}

static void test_p_min(void)
{
	double x[] = { 4, 5, 6 }, y[] = { 1, 2, 3 };
	struct rr_mwu m;

	CHECK_EQ(rr_mwu(x, 3, y, 3, &m), 0);
	/* 1 / C(6, 3): three runs against three never reach 1% */
	CHECK_NEAR(m.p_min, 0.05, 1e-12);
	CHECK_NEAR(m.p_greater, 0.05, 1e-12);
	CHECK_EQ(rr_mwu(x, 0, y, 3, &m), -EINVAL);
}

static void test_ratio_ci(void)
{
	double x[200], y[300];
	struct rr_ratio_ci a, b;
	int i;

	for (i = 0; i < 200; i++)
		x[i] = 10.0 * (1 + (i * 7919 % 200) / 200.0);
	for (i = 0; i < 300; i++)
		y[i] = 1.0 + (i * 104729 % 300) / 300.0;
	CHECK_EQ(rr_ratio_ci(x, 200, y, 300, &a), 0);
	CHECK(a.defined);
	CHECK_NEAR(a.ratio, rr_median(x, 200) / rr_median(y, 300), 1e-12);
	CHECK(a.lo <= a.ratio && a.ratio <= a.hi);
	CHECK(a.lo > 8 && a.hi < 12);
	CHECK_EQ(a.iters, RR_BOOT_ITERS);
	/* a fixed seed: the same samples give the same interval */
	CHECK_EQ(rr_ratio_ci(x, 200, y, 300, &b), 0);
	CHECK_NEAR(a.lo, b.lo, 0);
	CHECK_NEAR(a.hi, b.hi, 0);
	/* a median of 0: nothing to divide */
	for (i = 0; i < 300; i++)
		y[i] = i < 200 ? 0 : 1;
	CHECK_EQ(rr_ratio_ci(x, 200, y, 300, &a), 0);
	CHECK(!a.defined);
}

static void test_median(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	CHECK_NEAR(rr_median(odd, 3), 3, 0);
	/* nearest rank: the 2nd of 4, as the reports' p50 */
	CHECK_NEAR(rr_median(even, 4), 2, 0);
	CHECK(isnan(rr_median(odd, 0)));
}

static void test_thin(void)
{
	double v[1000], out[100];
	size_t n, i;

	for (i = 0; i < 1000; i++)
		v[i] = (double)((i * 389) % 1000);
	n = rr_samples_thin(v, 10, out, 100);
	CHECK_EQ(n, 10);
	for (i = 1; i < n; i++)
		CHECK(out[i - 1] <= out[i]);
	n = rr_samples_thin(v, 1000, out, 100);
	CHECK_EQ(n, 100);
	CHECK_NEAR(out[0], 0, 0);
	CHECK_NEAR(out[99], 999, 0);
	/* evenly spaced: the middle one is the median, near 500 */
	CHECK(fabs(out[50] - 505) <= 10);
}

TEST_MAIN(T(test_exact_small), T(test_exact_against_counting),
	  T(test_ties_normal), T(test_large_normal), T(test_all_above),
	  T(test_p_min), T(test_ratio_ci), T(test_median), T(test_thin))
