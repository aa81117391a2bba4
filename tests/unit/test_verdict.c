// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict on runs (verdict.h), on figures alone: each run judged by
 * the rule, two thirds of the runs decide, a split asks for more runs
 * and ends inconclusive, lost figures never pass as "not reproduced".
 * The figures are those of ksm-fork on the shared 6.12 test kernels
 * under QEMU TCG (quick preset, 5 runs each): the fixed kernel's KSM
 * walks up to 2.04 ms against anon 0.42 ms, the unfixed one's 100 ms
 * and more.
 */
#include <stdlib.h>

#include "harness.h"
#include "lib/util.h"
#include "model/verdict.h"
#include "report/report.h"

static struct rr_result r;

/* runs x (ksm, anon, file) maxima; p50 a tenth of each */
static void figures(unsigned int runs, const double (*max)[3])
{
	unsigned int i, k;

	memset(&r, 0, sizeof(r));
	snprintf(r.reproducer, sizeof(r.reproducer), "ksm-fork");
	r.threshold_ms = 10;
	r.min_ratio = 5;
	r.runs = r.runs_asked = runs;
	r.max_runs = 3 * runs;
	r.nr_cases = 3;
	for (k = 0; k < 3; k++) {
		struct rr_case_result *c = &r.cases[k];
		double all[RR_MAX_RUNS];

		c->type = k == 0 ? RR_PT_KSM : k == 1 ? RR_PT_ANON : RR_PT_FILE;
		c->role = k ? RR_CONTROL : RR_SUBJECT;
		snprintf(c->name, sizeof(c->name), "%s",
			 rr_page_type_name(c->type));
		c->ran = true;
		for (i = 0; i < runs; i++) {
			c->run[i].count = 10;
			c->run[i].max = max[i][k];
			c->run[i].p50 = max[i][k] / 10;
			all[i] = max[i][k];
		}
		rr_stats_compute(all, runs, &c->latency);
		c->runs = runs;
	}
}

static const double fixed[3][3] = {
	{ 2.04, 0.42, 0.27 }, { 1.31, 0.38, 0.21 }, { 1.77, 0.40, 0.26 },
};

/* One emulation hiccup in one run of the fixed kernel: not a flip. */
static void test_outlier_does_not_flip(void)
{
	double f[3][3];

	memcpy(f, fixed, sizeof(f));
	figures(3, fixed);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(r.reason, "3 of 3 runs: KSM case max within 10 ms");

	f[1][0] = 24.7;			/* one walk of run 2 */
	figures(3, f);
	CHECK(!rr_runs_more(&r));
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_EQ(r.run_verdict[1], RR_RUN_REPRODUCED);
	CHECK_EQ(r.runs_agreeing, 2);
	CHECK_CONTAINS(r.reason, "2 of 3 runs");
	CHECK_CONTAINS(r.reason, "1 other run: 1 reproduced");
	/* the same figures, the old rule on the maximum of every run */
	CHECK(r.cases[0].latency.max > r.threshold_ms &&
	      r.cases[0].latency.max >= 5 * r.cases[1].latency.max);
}

/* A real regression shows in every run: reproduced, all runs agreeing. */
static void test_regression_in_every_run(void)
{
	const double bad[3][3] = {
		{ 705.1, 0.42, 0.27 }, { 802.3, 0.38, 0.21 },
		{ 1320.4, 0.40, 0.26 },
	};

	figures(3, bad);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_EQ(r.runs_agreeing, 3);
	CHECK_CONTAINS(r.reason,
		       "3 of 3 runs: KSM case max over 10 ms and at least 5x the controls' max in the same run (KSM 705.100 to 1320.400 ms;");
	CHECK_EQ(rr_exit_code(r.verdict), 1);
}

/* The rule compares within a run: a control's outlier in another run
 * does not hide this run's long walk. */
static void test_same_run_controls(void)
{
	const double mix[3][3] = {
		{ 150, 0.4, 0.3 }, { 160, 0.4, 0.3 }, { 170, 100, 0.3 },
	};

	figures(3, mix);
	rr_verdict_compute(&r);
	CHECK_EQ(r.run_verdict[2], RR_RUN_NOT_REPRODUCED);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason, "2 of 3 runs");
}

static void test_decide(void)
{
	struct {
		struct rr_tally t;
		unsigned int want, max;
		enum rr_decision d;
	} cases[] = {
		/* too few runs yet */
		{ { .made = 1, .reproduced = 1 }, 3, 9, RR_DECIDE_MORE },
		{ { .made = 3, .reproduced = 3 }, 3, 9, RR_DECIDE_REPRODUCED },
		{ { .made = 3, .reproduced = 2, .not_reproduced = 1 }, 3, 9,
		  RR_DECIDE_REPRODUCED },
		{ { .made = 2, .reproduced = 1, .not_reproduced = 1 }, 2, 6,
		  RR_DECIDE_MORE },
		{ { .made = 2, .reproduced = 1, .not_reproduced = 1 }, 2, 2,
		  RR_DECIDE_INCONCLUSIVE },
		/* 3 of 5 is no two-thirds majority */
		{ { .made = 5, .reproduced = 3, .not_reproduced = 2 }, 3, 9,
		  RR_DECIDE_MORE },
		{ { .made = 6, .reproduced = 4, .not_reproduced = 2 }, 3, 9,
		  RR_DECIDE_REPRODUCED },
		/* one run asked: one run decides */
		{ { .made = 1, .not_reproduced = 1 }, 1, 3,
		  RR_DECIDE_NOT_REPRODUCED },
		/* an incomplete run is made again */
		{ { .made = 1, .incomplete = 1 }, 1, 3, RR_DECIDE_MORE },
		{ { .made = 3, .incomplete = 3 }, 1, 3, RR_DECIDE_INCOMPLETE },
		{ { .made = 3, .incomplete = 1, .not_reproduced = 2 }, 1, 3,
		  RR_DECIDE_NOT_REPRODUCED },
		/* nothing to compare in most runs */
		{ { .made = 3, .unjudged = 2, .reproduced = 1 }, 3, 3,
		  RR_DECIDE_INCONCLUSIVE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum rr_decision d = rr_runs_decide(&cases[i].t, cases[i].want,
						    cases[i].max);

		if (d != cases[i].d) {
			printf("    # case %zu: %d, expected %d\n", i, d,
			       cases[i].d);
			t_failed_checks++;
		}
	}
}

/* A disagreement asks for another run while runs are left. */
static void test_more_runs(void)
{
	double f[3][3];

	memcpy(f, fixed, sizeof(f));
	f[0][0] = 30;
	figures(2, f);
	CHECK(rr_runs_more(&r));
	r.max_runs = 2;
	CHECK(!rr_runs_more(&r));
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_INCONCLUSIVE);
	CHECK_CONTAINS(r.reason, "runs disagree: 1 of 2 reproduced");
	CHECK_CONTAINS(r.reason, "--max-runs 2");
}

/* Inconclusive in every format: a KTAP skip, 3, git bisect's 125. */
static void test_inconclusive_formats(void)
{
	double f[3][3];
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	memcpy(f, fixed, sizeof(f));
	f[0][0] = 30;
	figures(2, f);
	r.max_runs = 2;
	rr_verdict_compute(&r);
	CHECK_EQ(rr_exit_code(r.verdict), 3);
	CHECK_EQ(rr_bisect_code(r.verdict), 125);
	m = open_memstream(&s, &len);
	rr_report_ktap(m, &r);
	fclose(m);
	CHECK_CONTAINS(s, "\nok 1 ksm-fork # SKIP inconclusive: runs disagree");
	CHECK_CONTAINS(s, "# runs: 2 made (--runs 2, --max-runs 2): 1 reproduced, 1 not");
	free(s);
	m = open_memstream(&s, &len);
	rr_report_json(m, &r);
	fclose(m);
	CHECK_CONTAINS(s, "\"verdict\": \"inconclusive\"");
	CHECK_CONTAINS(s, "\"run_verdicts\": [");
	CHECK_CONTAINS(s, "\"reproduced\",");
	CHECK_CONTAINS(s, "\"not-reproduced\"\n");
	free(s);
	m = open_memstream(&s, &len);
	rr_report_text(m, &r);
	fclose(m);
	CHECK(!strncmp(s, "ksm-fork: INCONCLUSIVE\n", 23));
	free(s);
}

/* An incomplete run never passes as not reproduced. */
static void test_incomplete(void)
{
	figures(3, fixed);
	r.cases[1].run[0].lost = 40;
	r.cases[2].run[1].read_errors = 1;
	r.cases[2].run[2].unpaired = 3;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "figures incomplete: 3 of 3 runs");
	CHECK_CONTAINS(r.reason, "run 1, anon case: 40 events lost");

	/* unpaired events of a trigger that works anywhere are its edges */
	figures(3, fixed);
	r.anywhere = true;
	r.cases[2].run[2].unpaired = 3;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
}

/* The test beside the verdict, in words and in each format. */
static void test_evidence(void)
{
	double ksm[20], anon[200], file[200];
	const double *v[3] = { ksm, anon, file };
	size_t n[3] = { 20, 200, 200 }, i;
	char buf[1024];

	figures(3, fixed);
	for (i = 0; i < 20; i++)
		ksm[i] = 700 + i;
	for (i = 0; i < 200; i++) {
		anon[i] = 0.5 + i * 0.001;
		file[i] = 0.6 + i * 0.001;
	}
	rr_evidence_compute(&r, v, n);
	CHECK(!r.cases[0].test.ran);
	CHECK(r.cases[1].test.ran && r.cases[2].test.ran);
	/* least above: file's median is the larger */
	CHECK(rr_evidence_case(&r) == &r.cases[2]);
	rr_evidence_text(&r, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "ratio of medians 1,014x, 95% CI [");
	CHECK_CONTAINS(buf, "KSM case against file, the control with the smallest ratio; Mann-Whitney U one-sided p < 1e-12 (exact, 20 against 200 samples): longer, significant at 1%");

	/* three calls against three: the test cannot reach 1% */
	n[0] = n[1] = n[2] = 3;
	rr_evidence_compute(&r, v, n);
	rr_evidence_text(&r, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "p = 0.05");
	CHECK_CONTAINS(buf, "cannot give p below 0.05");
}

TEST_MAIN(T(test_outlier_does_not_flip), T(test_regression_in_every_run),
	  T(test_same_run_controls), T(test_decide), T(test_more_runs),
	  T(test_inconclusive_formats), T(test_incomplete), T(test_evidence))
