// SPDX-License-Identifier: GPL-2.0
/* Statistics: nearest-rank percentiles, mean, log2 histogram. */
#include <math.h>

#include "harness.h"
#include "lib/stats.h"

static void test_empty(void)
{
	struct rr_stats st;

	rr_stats_compute(NULL, 0, &st);
	CHECK_EQ(st.count, 0);
	CHECK_NEAR(st.max, 0, 0);
}

static void test_one_to_hundred(void)
{
	double v[100];
	struct rr_stats st;
	int i;

	/* Shuffled input: the result must not depend on order. */
	for (i = 0; i < 100; i++)
		v[i] = (double)((i * 37) % 100 + 1);
	rr_stats_compute(v, 100, &st);
	CHECK_EQ(st.count, 100);
	CHECK_NEAR(st.min, 1, 0);
	CHECK_NEAR(st.max, 100, 0);
	CHECK_NEAR(st.mean, 50.5, 1e-9);
	CHECK_NEAR(st.p50, 50, 0);
	CHECK_NEAR(st.p90, 90, 0);
	CHECK_NEAR(st.p99, 99, 0);
}

static void test_nearest_rank_small(void)
{
	double v[] = { 5.0, 1.0, 3.0 };
	struct rr_stats st;

	rr_stats_compute(v, 3, &st);
	/* ceil(0.5 * 3) = 2nd smallest; ceil(0.9 * 3) = 3rd */
	CHECK_NEAR(st.p50, 3.0, 0);
	CHECK_NEAR(st.p90, 5.0, 0);
	CHECK_NEAR(st.p99, 5.0, 0);
	CHECK_NEAR(st.mean, 3.0, 1e-12);
}

static void test_single(void)
{
	double v = 705.12;
	struct rr_stats st;

	rr_stats_compute(&v, 1, &st);
	CHECK_NEAR(st.min, 705.12, 0);
	CHECK_NEAR(st.p50, 705.12, 0);
	CHECK_NEAR(st.p99, 705.12, 0);
	CHECK_NEAR(st.max, 705.12, 0);
}

static void test_histogram(void)
{
	/* ms: 0.0005 (0.5 us), 0.001 (1 us), 0.0015, 0.002, 1.0, 705 */
	double v[] = { 0.0005, 0.001, 0.0015, 0.002, 1.0, 705.0 };
	struct rr_stats st;
	double lo, hi;
	unsigned long sum = 0;
	int b;

	CHECK_EQ(rr_hist_bucket(0.0005), 0);
	CHECK_EQ(rr_hist_bucket(0.001), 1);	/* [1, 2) us */
	CHECK_EQ(rr_hist_bucket(0.0015), 1);
	CHECK_EQ(rr_hist_bucket(0.002), 2);	/* [2, 4) us */
	CHECK_EQ(rr_hist_bucket(1.0), 10);	/* 1000 us in [512, 1024) */
	rr_hist_bounds(10, &lo, &hi);
	CHECK_NEAR(lo, 512, 0);
	CHECK_NEAR(hi, 1024, 0);
	CHECK_EQ(rr_hist_bucket(1e12), RR_HIST_BUCKETS - 1);
	rr_stats_compute(v, 6, &st);
	for (b = 0; b < RR_HIST_BUCKETS; b++)
		sum += st.hist[b];
	CHECK_EQ(sum, 6);
	CHECK_EQ(st.hist[1], 2);
	CHECK_EQ(st.hist[rr_hist_bucket(705.0)], 1);
}

static void test_samples_grow(void)
{
	struct rr_samples s = { 0 }, t = { 0 };
	int i;

	for (i = 0; i < 1000; i++)
		CHECK_EQ(rr_samples_add(&s, i), 0);
	CHECK_EQ(s.n, 1000);
	CHECK_EQ(rr_samples_merge(&t, &s), 0);
	CHECK_EQ(rr_samples_merge(&t, &s), 0);
	CHECK_EQ(t.n, 2000);
	CHECK_NEAR(t.v[1999], 999, 0);
	rr_samples_free(&s);
	rr_samples_free(&t);
	CHECK_EQ(s.n, 0);
}

/* scripts/sweep's fit: log(y) on log(x), over the positive points. */
static void test_loglog_slope(void)
{
	const double x[] = { 1, 10, 100 }, line[] = { 2, 20, 200 };
	const double flat[] = { 3, 3, 3 }, gap[] = { 1, NAN, 1000 };
	const double same_x[] = { 5, 5 }, two[] = { 1, 2 };
	double s;

	CHECK_EQ(rr_loglog_slope(x, line, 3, &s), 3);
	CHECK_NEAR(s, 1.0, 1e-12);
	CHECK_EQ(rr_loglog_slope(x, flat, 3, &s), 3);
	CHECK_NEAR(s, 0.0, 1e-12);
	CHECK_EQ(rr_loglog_slope(x, gap, 3, &s), 2);
	CHECK_NEAR(s, 1.5, 1e-12);
	CHECK_EQ(rr_loglog_slope(x, line, 1, &s), 1);
	CHECK(isnan(s));
	CHECK_EQ(rr_loglog_slope(same_x, two, 2, &s), 2);
	CHECK(isnan(s));
	/* a zero or negative figure has no logarithm: left out */
	CHECK_EQ(rr_loglog_slope((const double[]){ 0, 10, 100 }, line, 3, &s),
		 2);
	CHECK_NEAR(s, 1.0, 1e-12);
}

TEST_MAIN(T(test_empty), T(test_one_to_hundred),
	  T(test_nearest_rank_small), T(test_single),
	  T(test_histogram), T(test_samples_grow), T(test_loglog_slope))
