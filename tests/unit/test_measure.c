// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring lifecycle (measure.c) with a fake trigger, a fake meter
 * and a fake reproducer whose cases are small anonymous mappings: no
 * root, no tracefs, no KSM. What it owes on any kernel: each case is
 * built, fired, collected and torn down once per pass (every build torn
 * down, on every path); a trigger that can miss is fired again on fresh
 * pages up to --attempts and then fails the case; a failed case is not
 * run again and its error reaches the verdict; the victim gets its own
 * pass when apart, shares the probe's when same; the bare pass is not
 * metered; a meter that cannot open is a skip (-ENODEV) or an error;
 * the verdict follows from the samples the meter gave.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "core/runner.h"
#include "harness.h"
#include "lib/util.h"
#include "measure/measure.h"
#include "measure/meter.h"
#include "model/repro.h"
#include "probe/bracket.h"
#include "figure/figure.h"
#include "report/report.h"
#include "trigger/trigger.h"

#define PAGES 16

/* What the fakes saw, and what they are told to do. */
static struct {
	int setups, builds, teardowns, merges, live;
	int fires, fires_with_pattern, fire_fail_at, fire_err;
	int build_fail_at;
	int refuse_case;	/* +1: the kernel refuses this case */
	long merging;		/* what merge reports */
	int opens, closes, open_err;
	int arms[RR_PASS_MAX], starts, stops, collects;
	int misses;		/* collects that count nothing, first */
	int miss_type;		/* +1: a case type never reached */
	int cur;		/* the case being built, by its place */
	int bad_ranges;		/* arm's range disagrees with may_miss */
	bool may_miss, probe_cost;
	double ms[RR_MAX_CASES];	/* each case's sample, by place */
	int samples_per_collect;
	int part_arms;		/* arms asked to time the trigger's part */
	int part_wrong_pass;	/* ... in a pass other than the probe's */
	/* per run (by the case's collects): the subject's sample, if set */
	double subject_by_run[8];
	unsigned long long lost_by_run[8];	/* ... events lost */
	int lost_case;		/* +1: the case that loses them */
	int case_collects[RR_MAX_CASES];
	int grows;
	unsigned int max_runs;	/* --max-runs; 0: the default */
	bool waits;		/* the meter records lock waits */
	uint64_t t_arm;		/* when the last firing was armed */
	int waits_arms[RR_PASS_MAX];
} f;

static const struct rr_repro repro, *cur_repro;

static void reset(void)
{
	memset(&f, 0, sizeof(f));
	cur_repro = &repro;
	f.merging = 4;
	f.ms[0] = 300;		/* the cases, in their places */
	f.ms[1] = 1;
	f.ms[2] = 2;
	f.samples_per_collect = 2;
	rr_cfg.runs = 2;
	rr_cfg.attempts = 3;
	rr_cfg.victim = RR_VICTIM_OFF;
	rr_cfg.min_free_mb = 64;
	rr_set_quiet(true);
}

/* The reproducer. */
static const struct rr_case cases[] = {
	{ .type = RR_PT_KSM, .role = RR_SUBJECT },
	{ .type = RR_PT_ANON },
	{ .type = RR_PT_FILE },
};

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->type = c->type;
	s->pages = PAGES;
}

static int fsetup(const struct rr_repro *r, struct rr_result *res,
		  char *why, size_t len)
{
	f.setups++;
	return 0;
}

static int fbuild(const struct rr_repro *r, const struct rr_case *c,
		  struct rr_pattern *p, char *why, size_t len)
{
	size_t sz = PAGES * rr_page_size();

	f.builds++;
	f.cur = c - r->cases;
	if (f.refuse_case == f.cur + 1) {
		snprintf(why, len, "the kernel refuses: \"can't handle it\"");
		return -EOPNOTSUPP;
	}
	if (f.build_fail_at && f.builds == f.build_fail_at) {
		snprintf(why, len, "fake build failed");
		return -ENOMEM;
	}
	p->addr = mmap(NULL, sz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p->addr == MAP_FAILED) {
		p->addr = NULL;
		return -errno;
	}
	f.live++;
	p->len = sz;
	p->filled = PAGES;
	p->vmas = 1;
	p->victim = p->addr;
	return 0;
}

static int fmerge(const struct rr_repro *r, struct rr_pattern *p,
		  struct rr_ksm_counters *k, char *why, size_t len)
{
	f.merges++;
	k->merging_pages = f.merging;
	return 0;
}

static void fteardown(const struct rr_repro *r, const struct rr_case *c,
		      struct rr_pattern *p)
{
	f.teardowns++;
	if (p->addr) {
		munmap(p->addr, p->len);
		f.live--;
	}
	p->addr = NULL;
}

static const struct rr_repro_ops fops = {
	.setup = fsetup,
	.build = fbuild,
	.merge = fmerge,
	.teardown = fteardown,
};

static const struct rr_repro repro = {
	.name = "fake",
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.spec = spec,
	.ops = &fops,
};

/* The trigger. */
static int ffire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	f.fires++;
	/* long enough for the victim to time a few calls */
	rr_sleep_ms(3);
	if (ctx->pattern && ctx->pattern->addr)
		f.fires_with_pattern++;
	snprintf(how, len, "fake firing %d", f.fires);
	if (f.fire_fail_at && f.fires == f.fire_fail_at)
		return f.fire_err;
	return 0;
}

static struct rr_trigger_ops trig = {
	.name = "fake",
	.bracket = RR_BR_MEMCG_RECLAIM,
	.fire = ffire,
};

/* The meter. */
static int mopen(struct rr_meter *m, char *why, size_t len)
{
	f.opens++;
	if (f.open_err) {
		snprintf(why, len, "fake meter cannot open");
		return f.open_err;
	}
	snprintf(m->res->instance, sizeof(m->res->instance), "fake");
	m->res->waits = f.waits;
	return 0;
}

static int marm(struct rr_meter *m, const struct rr_meter_arm *a, char *why,
		size_t len)
{
	f.arms[a->pass]++;
	if (a->part) {
		f.part_arms++;
		f.part_wrong_pass += a->pass != RR_PASS_PROBE || !a->part_res;
	}
	if (!a->lo || !!a->hi != f.may_miss)
		f.bad_ranges++;
	if (a->waits) {
		f.waits_arms[a->pass]++;
		f.t_arm = rr_now_ns();
	}
	return 0;
}

/*
 * Each waiter waited on a lock of its own from the arming to now, the
 * whole firing; and once on a spinlock.
 */
static void fake_waits(const struct rr_meter_arm *a)
{
	uint64_t now = rr_now_ns();
	int k;

	for (k = 0; k < a->nwaiters; k++) {
		rr_waits_begin(a->waits, a->pids[k], f.t_arm, 0x1000 + k,
			       RR_LCB_WRITE);
		rr_waits_end(a->waits, a->pids[k], now, 0x1000 + k);
	}
	rr_waits_begin(a->waits, a->pids[0], now, 0x2000, RR_LCB_SPIN);
	rr_waits_end(a->waits, a->pids[0], now + 1, 0x2000);
	rr_waits_finish(a->waits);
}

static void mstart(struct rr_meter *m)
{
	f.starts++;
}

static void mstop(struct rr_meter *m)
{
	f.stops++;
}

static int mcollect(struct rr_meter *m, const struct rr_meter_arm *a,
		    struct rr_samples **outs, struct rr_bprobe_result *pres,
		    struct rr_iter_counts *ic, char *why, size_t len)
{
	int i;

	int run = f.case_collects[f.cur]++;
	double ms = f.ms[f.cur];

	if (a->waits)
		fake_waits(a);
	if (a->pass == RR_PASS_VICTIM)
		return 0;
	f.collects++;
	if (f.collects <= f.misses || (f.miss_type && (int)a->type == f.miss_type - 1))
		return 0;
	if (!f.cur && run < 8 && f.subject_by_run[run])
		ms = f.subject_by_run[run];
	if (f.lost_case == f.cur + 1 && run < 8)
		pres[0].lost = f.lost_by_run[run];
	for (i = 0; i < f.samples_per_collect; i++)
		rr_samples_add(outs[0], ms / (i + 1));
	pres[0].intervals = pres[0].counted = f.samples_per_collect;
	if (a->part) {
		rr_samples_add(a->part, f.ms[f.cur] / 2);
		a->part_res->unpaired = 1;
	}
	return 0;
}

static void mclose(struct rr_meter *m)
{
	f.closes++;
}

static int mgrow(struct rr_meter *m, unsigned long long *kb)
{
	f.grows++;
	*kb = 4096ULL << f.grows;
	return 0;
}

static const struct rr_meter_ops meter = {
	.grow = mgrow,
	.open = mopen,
	.arm = marm,
	.start = mstart,
	.stop = mstop,
	.collect = mcollect,
	.close = mclose,
};

static struct rr_result res;

static void measure(void)
{
	memset(&res, 0, sizeof(res));
	res.threshold_ms = 10;
	res.min_ratio = 5;
	res.probe.bracket = RR_BR_MEMCG_RECLAIM;
	res.probe_cost = f.probe_cost;
	res.max_runs = f.max_runs;
	trig.may_miss = f.may_miss;
	rr_measure(cur_repro, &res, &trig, &meter);
}

/* Every build torn down; the meter opened and closed once. */
static void check_balanced(void)
{
	CHECK_EQ(f.teardowns, f.builds);
	CHECK_EQ(f.live, 0);
	CHECK_EQ(f.opens, 1);
	CHECK_EQ(f.closes, 1);
	CHECK_EQ(f.starts, f.stops);
	CHECK_EQ(f.bad_ranges, 0);
}

static void test_normal(void)
{
	int i;

	reset();
	measure();
	check_balanced();
	CHECK_EQ(f.setups, 1);
	CHECK_EQ(res.nr_cases, 3);
	/* 2 runs x 3 cases, the probe's pass only (victim off) */
	CHECK_EQ(f.builds, 6);
	CHECK_EQ(f.fires, 6);
	CHECK_EQ(f.fires_with_pattern, 6);
	CHECK_EQ(f.merges, 2);
	CHECK_EQ(f.arms[RR_PASS_PROBE], 6);
	for (i = 0; i < 3; i++) {
		struct rr_case_result *c = &res.cases[i];

		CHECK(c->ran);
		CHECK_EQ(c->runs, 2);
		CHECK_EQ(c->passes[RR_PASS_PROBE], 2);
		CHECK_EQ(c->latency.count, 4);
		CHECK_EQ(c->intervals, 4);
		CHECK_NEAR(c->latency.max, f.ms[i], 1e-9);
		CHECK_NEAR(c->latency.min, f.ms[i] / 2, 1e-9);
		CHECK_EQ(c->pages, PAGES);
		CHECK_EQ(c->vmas, 1);
		CHECK_STR(c->error, "");
	}
	CHECK_EQ(res.cases[0].ksm.merging_pages, 4);
	CHECK_EQ(res.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(res.reason,
		       "2 of 2 runs: KSM case max over 10 ms and at least 5x");
	CHECK_CONTAINS(res.reason, "(KSM 300.000 ms;");
	CHECK_EQ(res.runs, 2);
	CHECK_EQ(res.runs_agreeing, 2);
	CHECK_EQ(res.cases[0].run[1].count, 2);
	CHECK_NEAR(res.cases[0].run[1].max, 300, 1e-9);
	CHECK_NEAR(res.cases[0].run[1].p50, 150, 1e-9);
	/* the evidence beside the verdict: 4 samples against 4 */
	CHECK(res.cases[1].test.ran);
	CHECK_NEAR(res.cases[1].test.ratio.ratio, 300, 1e-9);
	CHECK_EQ(res.cases[1].test.mwu.nx, 4);
	CHECK_EQ(res.cases[0].kept, 4);
	CHECK_CONTAINS(res.trigger_how, "fake firing 6");
	CHECK_STR(res.instance, "fake");
	CHECK_STR(res.phase, "end");
	CHECK_EQ(res.victim, RR_VICTIM_OFF);
}

/* The verdict follows the samples: a fast KSM case is not reproduced. */
static void test_not_reproduced(void)
{
	reset();
	f.ms[0] = 3;
	measure();
	check_balanced();
	CHECK_EQ(res.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(res.reason, "within 10 ms");
}

/* A trigger that may miss: fired again on fresh pages until it counts. */
static void test_miss_then_reach(void)
{
	reset();
	f.may_miss = true;
	f.misses = 2;
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_AUTO;
	measure();
	check_balanced();
	/* auto: compaction-like triggers keep the victim in the same pass */
	CHECK_EQ(res.victim, RR_VICTIM_SAME);
	CHECK_EQ(res.cases[0].passes[RR_PASS_PROBE], 3);
	CHECK_EQ(res.cases[1].passes[RR_PASS_PROBE], 1);
	CHECK_EQ(f.builds, 5);
	CHECK_EQ(f.merges, 3);
	CHECK_EQ(res.cases[0].runs, 1);
	CHECK_EQ(res.verdict, RR_REPRODUCED);
}

static void test_miss_exhausts_attempts(void)
{
	reset();
	f.may_miss = true;
	f.misses = 100;
	rr_cfg.runs = 2;
	measure();
	check_balanced();
	/*
	 * each case tries 3 times in run 1; the subject fails for good,
	 * the controls are not reached and tried again in run 2
	 */
	CHECK_EQ(f.fires, 15);
	CHECK_EQ(f.builds, 15);
	CHECK_CONTAINS(res.cases[1].not_reached, "run 2: fake did not reach");
	CHECK_CONTAINS(res.cases[0].error,
		       "run 1: fake did not reach the pattern in 3 attempts");
	CHECK_EQ(res.cases[0].runs, 0);
	CHECK_EQ(res.verdict, RR_ERROR);
	CHECK_CONTAINS(res.reason, "ksm case: run 1: fake did not reach");
}

/*
 * A control out of the trigger's reach is named and left out of the
 * verdict, which compares the controls it reached; the subject out of
 * reach, or every control, is an error.
 */
static void test_control_not_reached(void)
{
	reset();
	f.may_miss = true;
	f.miss_type = RR_PT_FILE + 1;
	measure();
	check_balanced();
	CHECK_STR(res.cases[2].error, "");
	CHECK_CONTAINS(res.cases[2].not_reached,
		       "fake did not reach the pattern in 3 attempts");
	CHECK_EQ(res.cases[2].runs, 0);
	/* tried in every run: 3 attempts x 2 runs */
	CHECK_EQ(res.cases[2].passes[RR_PASS_PROBE], 6);
	CHECK_EQ(res.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(res.reason,
		       "controls' max over the runs: anon 1.000 ms; not reached: file)");

	reset();
	f.may_miss = true;
	f.miss_type = RR_PT_KSM + 1;
	measure();
	check_balanced();
	CHECK_CONTAINS(res.cases[0].error, "did not reach the pattern");
	CHECK_EQ(res.verdict, RR_ERROR);
}

/* A failed firing fails its case for good; the others go on. */
static void test_fire_error(void)
{
	reset();
	f.fire_fail_at = 2;		/* anon, run 1 */
	f.fire_err = -EIO;
	measure();
	check_balanced();
	CHECK_EQ(f.fires, 5);
	CHECK_EQ(res.cases[0].runs, 2);
	CHECK_EQ(res.cases[1].runs, 0);
	CHECK_EQ(res.cases[2].runs, 2);
	CHECK_CONTAINS(res.cases[1].error, "run 1: trigger fake: ");
	CHECK_CONTAINS(res.cases[1].error, strerror(EIO));
	/* what the failed firing measured still counts */
	CHECK_EQ(res.cases[1].latency.count, 2);
	CHECK_EQ(res.verdict, RR_ERROR);
	CHECK_CONTAINS(res.reason, "anon case: run 1: trigger fake");
}

/*
 * A trigger whose bound passed before it reached the pattern (-ENODATA:
 * pressure): a control is noted as not reached, with what was measured;
 * the subject is an error.
 */
static void test_bound_missed(void)
{
	reset();
	f.fire_fail_at = 2;		/* anon, run 1 */
	f.fire_err = -ENODATA;
	measure();
	check_balanced();
	CHECK_STR(res.cases[1].error, "");
	CHECK_CONTAINS(res.cases[1].not_reached, "run 1: trigger fake: ");
	CHECK_CONTAINS(res.cases[1].not_reached, "(fake firing 2)");
	/* run 2 reached it: its figures and the missed run's both count */
	CHECK_EQ(res.cases[1].runs, 1);
	CHECK_EQ(res.cases[1].latency.count, 4);
	CHECK(res.verdict != RR_ERROR);

	reset();
	f.fire_fail_at = 1;		/* ksm, the subject */
	f.fire_err = -ENODATA;
	measure();
	check_balanced();
	CHECK_CONTAINS(res.cases[0].error, "run 1: trigger fake: ");
	CHECK_EQ(res.verdict, RR_ERROR);
}

static void test_build_error(void)
{
	reset();
	f.build_fail_at = 1;
	measure();
	check_balanced();
	CHECK_EQ(res.cases[0].runs, 0);
	CHECK_STR(res.cases[0].error, "run 1: fake build failed");
	CHECK_EQ(res.cases[0].passes[RR_PASS_PROBE], 0);
	CHECK_EQ(res.cases[1].runs, 2);
	CHECK_EQ(res.verdict, RR_ERROR);
}

static void test_merged_nothing(void)
{
	reset();
	f.merging = 0;
	measure();
	check_balanced();
	/* and how far ksmd got: what the fake's merge reported */
	CHECK_STR(res.cases[0].error,
		  "run 1: KSM merged no page: ksmd made 0 full scans in 0.0 s; pages_shared 0, pages_sharing 0");
	CHECK_EQ(res.cases[0].passes[RR_PASS_PROBE], 0);
	CHECK_EQ(res.verdict, RR_ERROR);
}

/* apart: a pass of its own for the victim, unmetered; bare: unmetered. */
static void test_victim_apart_and_bare(void)
{
	int i;

	reset();
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_APART;
	f.probe_cost = true;
	measure();
	check_balanced();
	CHECK_EQ(f.fires, 9);
	CHECK_EQ(f.builds, 9);
	CHECK_EQ(f.arms[RR_PASS_PROBE], 3);
	CHECK_EQ(f.arms[RR_PASS_VICTIM], 0);
	CHECK_EQ(f.arms[RR_PASS_BARE], 0);
	CHECK_EQ(f.collects, 3);
	for (i = 0; i < 3; i++) {
		const struct rr_case_result *c = &res.cases[i];

		CHECK_EQ(c->passes[RR_PASS_PROBE], 1);
		CHECK_EQ(c->passes[RR_PASS_VICTIM], 1);
		CHECK_EQ(c->passes[RR_PASS_BARE], 1);
		CHECK_EQ(c->latency.count, 2);
		/* the victim's mprotect() calls were timed in its pass */
		CHECK(c->victim.count > 0);
		CHECK_EQ(c->victim_errors, 0);
	}
	CHECK_EQ(res.verdict, RR_REPRODUCED);
}

static void test_victim_same(void)
{
	reset();
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_SAME;
	measure();
	check_balanced();
	CHECK_EQ(f.fires, 3);
	CHECK_EQ(res.cases[0].passes[RR_PASS_VICTIM], 0);
	CHECK(res.cases[0].victim.count > 0);
}

static void test_meter_open_fails(void)
{
	reset();
	f.open_err = -ENODEV;
	measure();
	CHECK_EQ(f.setups, 0);
	CHECK_EQ(f.builds, 0);
	CHECK_EQ(f.closes, 1);
	CHECK_EQ(res.verdict, RR_SKIP);
	CHECK_STR(res.reason, "setup: fake meter cannot open");
	/* the cases exist, none ran: the report says so */
	CHECK_EQ(res.nr_cases, 3);
	CHECK(!res.cases[0].ran);

	reset();
	f.open_err = -EIO;
	measure();
	CHECK_EQ(res.verdict, RR_ERROR);
	CHECK_EQ(f.builds, 0);
}

/* No sample from any firing: an error, never a verdict on nothing. */
static void test_nothing_measured(void)
{
	reset();
	f.samples_per_collect = 0;
	measure();
	check_balanced();
	CHECK_EQ(res.verdict, RR_ERROR);
	CHECK_CONTAINS(res.reason, "produced no measurable interval");
}

/*
 * Named cases: two of the same page type (the subject, the pattern in a
 * family; a control, the same pages in one process), no KSM at all.
 */
static const struct rr_case family_cases[] = {
	{ .name = "family", .type = RR_PT_ANON, .role = RR_SUBJECT,
	  .what = "a family of processes" },
	{ .name = "single", .type = RR_PT_ANON },
	{ .type = RR_PT_FILE },
};

static const struct rr_repro family = {
	.name = "fake-family",
	.cases = family_cases,
	.nr_cases = ARRAY_SIZE(family_cases),
	.spec = spec,
	.ops = &fops,
};

static void test_named_cases(void)
{
	char what[192];

	reset();
	cur_repro = &family;
	measure();
	check_balanced();
	CHECK_EQ(f.merges, 0);		/* no case of KSM pages */
	CHECK_STR(res.cases[0].name, "family");
	CHECK_EQ(res.cases[0].role, RR_SUBJECT);
	CHECK_EQ(res.cases[0].type, RR_PT_ANON);
	CHECK_STR(res.cases[1].name, "single");
	CHECK_EQ(res.cases[1].role, RR_CONTROL);
	CHECK_STR(res.cases[2].name, "file");
	CHECK(rr_result_subject(&res) == &res.cases[0]);
	CHECK_EQ(res.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(res.reason, "family case max over 10 ms");
	CHECK_CONTAINS(res.reason, "(family 300.000 ms;");
	CHECK_CONTAINS(res.reason, "single 1.000 ms, file 2.000 ms");
	/* the declared words, and the default's role */
	rr_case_what(&res.cases[0], what, sizeof(what));
	CHECK_STR(what, "a family of processes");
	rr_case_what(&res.cases[1], what, sizeof(what));
	CHECK_STR(what,
		  "the same pattern, plain anonymous pages, no KSM (rmap_walk_anon, control)");

	/* The subject is not the first case: the verdict follows it. */
	reset();
	cur_repro = &family;
	f.ms[0] = 1;
	f.ms[1] = 300;
	measure();
	CHECK_EQ(res.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(res.reason,
		       "2 of 2 runs: family case max within 10 ms (family 1.000 ms;");
}

/*
 * Runs that disagree get more runs, up to the maximum: one run's
 * outlier does not decide, and a split that stays is inconclusive.
 */
static void test_runs_disagree(void)
{
	reset();
	rr_cfg.runs = 2;
	f.ms[0] = 3;			/* a fixed kernel's subject */
	f.subject_by_run[0] = 40;	/* one outlier, in run 1 */
	measure();
	check_balanced();
	CHECK_EQ(res.runs, 3);		/* 1 of 2 disagreed: a third */
	CHECK_EQ(res.run_verdict[0], RR_RUN_REPRODUCED);
	CHECK_EQ(res.run_verdict[1], RR_RUN_NOT_REPRODUCED);
	CHECK_EQ(res.run_verdict[2], RR_RUN_NOT_REPRODUCED);
	CHECK_EQ(res.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(res.reason, "2 of 3 runs: KSM case max within 10 ms");
	CHECK_CONTAINS(res.reason, "1 other run: 1 reproduced");
	CHECK_EQ(f.builds, 9);

	/* a split that --max-runs leaves no room to settle: inconclusive */
	reset();
	rr_cfg.runs = 2;
	f.ms[0] = 3;
	f.subject_by_run[0] = 40;
	f.max_runs = 2;
	measure();
	CHECK_EQ(res.runs, 2);
	CHECK_EQ(res.verdict, RR_INCONCLUSIVE);
	CHECK_CONTAINS(res.reason, "runs disagree: 1 of 2 reproduced");
	CHECK_EQ(rr_exit_code(res.verdict), 3);
	CHECK_EQ(rr_bisect_code(res.verdict), 125);
}

/*
 * A run that lost events and did not reproduce is made again with a
 * larger buffer; when every run loses them, the verdict is an error
 * naming the loss, never "not reproduced".
 */
static void test_lost_events(void)
{
	reset();
	rr_cfg.runs = 1;
	f.ms[0] = 3;
	f.lost_case = 2;		/* anon */
	f.lost_by_run[0] = 17;
	measure();
	check_balanced();
	CHECK_EQ(f.grows, 1);
	CHECK_EQ(res.runs, 3);		/* run 1 again, then a majority */
	CHECK_EQ(res.run_verdict[0], RR_RUN_INCOMPLETE);
	CHECK_EQ(res.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(res.reason, "2 of 3 runs");
	CHECK_CONTAINS(res.reason, "lost figures: run 1, anon case: 17 events lost");
	CHECK_EQ(res.buffer_kb, 8192);

	reset();
	rr_cfg.runs = 1;
	f.ms[0] = 3;
	f.lost_case = 2;
	f.lost_by_run[0] = f.lost_by_run[1] = f.lost_by_run[2] = 5;
	measure();
	CHECK_EQ(res.runs, 3);
	CHECK_EQ(res.verdict, RR_ERROR);
	CHECK_CONTAINS(res.reason, "figures incomplete: 3 of 3 runs lost figures");

	/* lost events in a run that reproduced: the walks seen are real */
	reset();
	rr_cfg.runs = 1;
	f.lost_case = 2;
	f.lost_by_run[0] = 5;
	measure();
	CHECK_EQ(res.runs, 1);
	CHECK_EQ(res.verdict, RR_REPRODUCED);
}

/* A declaration the runner refuses: a bug, said before anything runs. */
static void test_declaration(void)
{
	const struct rr_case none[] = {
		{ .type = RR_PT_KSM }, { .type = RR_PT_ANON },
	};
	const struct rr_case two[] = {
		{ .type = RR_PT_KSM, .role = RR_SUBJECT },
		{ .type = RR_PT_ANON, .role = RR_SUBJECT },
	};
	const struct rr_case twice[] = {
		{ .type = RR_PT_ANON, .role = RR_SUBJECT },
		{ .type = RR_PT_ANON },
	};
	const struct rr_case bad[] = {
		{ .type = RR_PT_KSM, .role = RR_SUBJECT },
		{ .name = "One Process", .type = RR_PT_ANON },
	};
	struct rr_repro r = { .name = "fake", .spec = spec };
	char why[256] = "";

	r.cases = cases;
	r.nr_cases = ARRAY_SIZE(cases);
	CHECK(rr_repro_valid(&r, why, sizeof(why)));
	r.nr_cases = 1;
	CHECK(!rr_repro_valid(&r, why, sizeof(why)));
	CHECK_CONTAINS(why, "1 cases");
	r.cases = none;
	r.nr_cases = 2;
	CHECK(!rr_repro_valid(&r, why, sizeof(why)));
	CHECK_STR(why, "0 subject cases: one is needed");
	r.cases = two;
	CHECK(!rr_repro_valid(&r, why, sizeof(why)));
	CHECK_STR(why, "2 subject cases: one is needed");
	r.cases = twice;
	CHECK(!rr_repro_valid(&r, why, sizeof(why)));
	CHECK_STR(why, "two cases named anon");
	r.cases = bad;
	CHECK(!rr_repro_valid(&r, why, sizeof(why)));
	CHECK_CONTAINS(why, "'One Process'");
}

/* A command it declares and this machine lacks: a skip, saying which. */
static void test_needs_command(void)
{
	static const char *const cmds[] = { "sh", "rr-no-such-command", NULL };
	struct rr_repro r = repro;

	r.commands = cmds;
	memset(&res, 0, sizeof(res));
	CHECK(!rr_prerequisites(&r, &res));
	CHECK_EQ(res.verdict, RR_SKIP);
	CHECK_STR(res.reason,
		  "needs the command rr-no-such-command, not found in $PATH");
}

/*
 * A trigger whose calls have a part timed apart: the meter is asked for
 * it in the probe's pass only, and its intervals become the case's part.
 */
static void test_part(void)
{
	int i;

	reset();
	rr_cfg.runs = 2;
	rr_cfg.victim = RR_VICTIM_APART;
	f.probe_cost = true;
	trig.part_what = "finding the processes";
	measure();
	trig.part_what = NULL;
	check_balanced();
	CHECK_EQ(f.part_arms, 6);
	CHECK_EQ(f.part_wrong_pass, 0);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(res.cases[i].part.count, 2);
		CHECK_NEAR(res.cases[i].part.max, f.ms[i] / 2, 1e-9);
		CHECK_EQ(res.cases[i].part_unpaired, 2);
	}

	/* no part: never asked */
	reset();
	measure();
	CHECK_EQ(f.part_arms, 0);
	CHECK_EQ(res.cases[0].part.count, 0);
}

/* A case the kernel refuses: a skip quoting it, not an error. */
static void test_refused(void)
{
	reset();
	f.refuse_case = 1;
	measure();
	check_balanced();
	CHECK_EQ(res.verdict, RR_SKIP);
	CHECK_STR(res.reason,
		  "KSM case: the kernel refuses: \"can't handle it\"");
	CHECK_STR(res.cases[0].error, "");
	/* refused once, not tried again; the controls ran */
	CHECK_EQ(res.cases[0].passes[RR_PASS_PROBE], 0);
	CHECK_EQ(res.cases[1].runs, 2);
}

/*
 * Lock waits, victim apart: the victim's pass is armed for them alone;
 * the victim's waits come from its pass, the trigger's tasks' from the
 * probe's; the victim's longest call lies inside its wait, whole.
 */
static void test_waits_apart(void)
{
	int i;

	reset();
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_APART;
	f.waits = true;
	measure();
	check_balanced();
	CHECK(res.waits);
	CHECK_EQ(f.waits_arms[RR_PASS_PROBE], 3);
	CHECK_EQ(f.waits_arms[RR_PASS_VICTIM], 3);
	CHECK_EQ(f.arms[RR_PASS_VICTIM], 3);
	/* the victim's pass gave no probe samples */
	CHECK_EQ(f.collects, 3);
	for (i = 0; i < 3; i++) {
		const struct rr_case_result *c = &res.cases[i];

		CHECK_EQ(c->latency.count, 2);
		CHECK(c->waits_victim.recorded);
		CHECK(c->waits_walker.recorded);
		CHECK_EQ(c->waits_victim.ms.count, 1);
		CHECK_EQ(c->waits_victim.writes, 1);
		CHECK_EQ(c->waits_victim.locks, 1);
		/* the main task's waits of the victim's pass are not its */
		CHECK_EQ(c->waits_walker.ms.count, 1);
		CHECK_EQ(c->waits_spins, 2);
		CHECK(c->stall_ms > 0);
		CHECK_NEAR(c->stall_waited_ms, c->stall_ms, 1e-6);
		CHECK_EQ(c->stall_flags, RR_LCB_WRITE);
	}
}

/* Victim in the probe's pass: both from it; victim off: none. */
static void test_waits_same_and_off(void)
{
	char text[1024];

	reset();
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_SAME;
	f.waits = true;
	measure();
	CHECK_EQ(f.waits_arms[RR_PASS_PROBE], 3);
	CHECK_EQ(f.waits_arms[RR_PASS_VICTIM], 0);
	CHECK_EQ(res.cases[0].waits_victim.ms.count, 1);
	CHECK_EQ(res.cases[0].waits_walker.ms.count, 1);
	rr_waits_text(&res, &res.cases[0], text, sizeof(text));
	CHECK_CONTAINS(text, "waiting for a write lock");
	CHECK_CONTAINS(text, "the trigger's tasks waited 1 time ");

	reset();
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_OFF;
	f.waits = true;
	measure();
	CHECK(!res.cases[0].waits_victim.recorded);
	CHECK(res.cases[0].waits_walker.recorded);
	CHECK_EQ(res.cases[0].stall_ms, 0);
	rr_waits_text(&res, &res.cases[0], text, sizeof(text));
	CHECK(!strstr(text, "stalled"));

	/* not recorded: nothing armed, nothing said per case */
	reset();
	rr_cfg.runs = 1;
	rr_cfg.victim = RR_VICTIM_APART;
	measure();
	CHECK_EQ(f.waits_arms[RR_PASS_PROBE], 0);
	CHECK_EQ(f.arms[RR_PASS_VICTIM], 0);
	CHECK(!res.cases[0].waits_victim.recorded);
	rr_waits_text(&res, &res.cases[0], text, sizeof(text));
	CHECK_STR(text, "");
}

TEST_MAIN(T(test_normal), T(test_not_reproduced), T(test_miss_then_reach),
	  T(test_miss_exhausts_attempts), T(test_control_not_reached),
	  T(test_fire_error), T(test_bound_missed),
	  T(test_build_error), T(test_merged_nothing),
	  T(test_victim_apart_and_bare), T(test_victim_same),
	  T(test_meter_open_fails), T(test_nothing_measured),
	  T(test_named_cases), T(test_declaration), T(test_needs_command),
	  T(test_refused), T(test_part), T(test_runs_disagree),
	  T(test_lost_events), T(test_waits_apart),
	  T(test_waits_same_and_off))
