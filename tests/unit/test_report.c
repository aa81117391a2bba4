// SPDX-License-Identifier: GPL-2.0
/* Verdict rules and the three report formats. */
#include <ctype.h>
#include <stdlib.h>

#include "harness.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "figure/figure.h"
#include "report/report.h"
#include "trigger/trigger.h"

static void fill_case(struct rr_case_result *c, enum rr_page_type t,
		      double max)
{
	double v[3] = { max / 100, max / 2, max };
	int i;

	memset(c, 0, sizeof(*c));
	c->type = t;
	snprintf(c->name, sizeof(c->name), "%s", rr_page_type_name(t));
	c->role = t == RR_PT_KSM ? RR_SUBJECT : RR_CONTROL;
	c->ran = true;
	c->runs = 3;
	c->pages = 20000;
	c->vmas = 20000;
	rr_stats_compute(v, 3, &c->latency);
	rr_stats_compute(v, 3, &c->victim);
	/* three runs, each with its own maximum the case's */
	for (i = 0; i < 3; i++)
		c->run[i] = (struct rr_run_fig){ .count = 1, .p50 = max,
						 .max = max };
	c->kept = rr_samples_thin(v, 3, c->keep, RR_KEEP_SAMPLES);
}

static void base(struct rr_result *r, double ksm, double anon, double file)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->reproducer, sizeof(r->reproducer), "ksm-mprotect-split");
	snprintf(r->options, sizeof(r->options), "ksm-mprotect-split --runs 3");
	snprintf(r->sys.release, sizeof(r->sys.release), "6.18.0-test");
	snprintf(r->sys.suite_version, sizeof(r->sys.suite_version),
		 "v1-test");
	snprintf(r->sys.kconfig, sizeof(r->sys.kconfig),
		 "KSM=y NUMA=y HZ=250");
	snprintf(r->reason, sizeof(r->reason), "quote \" and\ttab");
	r->trigger = RR_TRIG_RECLAIM;
	r->probe.bracket = RR_BR_MEMCG_RECLAIM;
	r->threshold_ms = 10;
	r->min_ratio = 5;
	r->runs = 3;
	r->runs_asked = 3;
	r->max_runs = 9;
	r->pages = 20000;
	rr_result_param(r, "split_every", 2);
	rr_result_param(r, "identical_pages", 512);
	snprintf(r->pattern_text, sizeof(r->pattern_text),
		 "one 20000-page mapping, every other page mprotect(PROT_READ): 20000 VMAs (counted in /proc/self/maps) on one anon_vma; 512 pages of identical content, spread evenly, the rest unpopulated");
	r->nr_cases = 3;
	fill_case(&r->cases[0], RR_PT_KSM, ksm);
	fill_case(&r->cases[1], RR_PT_ANON, anon);
	fill_case(&r->cases[2], RR_PT_FILE, file);
	r->cases[0].ksm.pages_shared = 2;
	r->cases[0].ksm.pages_sharing = 510;
	r->cases[0].ksm.max_page_sharing = 256;
	r->cases[0].ksm.merging_pages = 512;
	r->cases[0].ksm.full_scans = 3;
}

static void test_verdicts(void)
{
	struct rr_result r;

	base(&r, 125.8, 4.1, 3.9);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason, "125.800 ms");
	CHECK_EQ(rr_exit_code(r.verdict), 1);
	CHECK_EQ(rr_bisect_code(r.verdict), 1);		/* bad */

	base(&r, 8.0, 4.1, 3.9);	/* under the threshold */
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_EQ(rr_exit_code(r.verdict), 0);
	CHECK_EQ(rr_bisect_code(r.verdict), 0);		/* good */

	base(&r, 40.0, 12.0, 3.9);	/* over it, but not 5x a control */
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(r.reason, "less than 5x");

	base(&r, 125.8, 4.1, 3.9);	/* a control measured nothing */
	memset(&r.cases[2].latency, 0, sizeof(r.cases[2].latency));
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "file case");
	CHECK_EQ(rr_exit_code(r.verdict), 2);
	/* an error cannot judge this kernel: git bisect skips it */
	CHECK_EQ(rr_bisect_code(r.verdict), 125);
	CHECK_EQ(rr_bisect_code(RR_SKIP), 125);

	base(&r, 125.8, 4.1, 3.9);	/* a case failed */
	snprintf(r.cases[1].error, sizeof(r.cases[1].error), "no memory");
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "anon case: no memory");

	base(&r, 125.8, 4.1, 3.9);	/* a skip stays a skip */
	rr_set_verdict(&r, RR_SKIP, "needs root");
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_SKIP);
	CHECK_EQ(rr_exit_code(r.verdict), 4);
}

/* A small recursive-descent JSON checker: enough to reject bad output. */
static const char *js;

static void ws(void)
{
	while (isspace((unsigned char)*js))
		js++;
}

static bool value(void);

static bool string(void)
{
	if (*js != '"')
		return false;
	for (js++; *js && *js != '"'; js++) {
		if ((unsigned char)*js < 0x20)
			return false;
		if (*js == '\\' && !*++js)
			return false;
	}
	return *js++ == '"';
}

static bool members(char close, bool keyed)
{
	ws();
	if (*js == close) {
		js++;
		return true;
	}
	for (;;) {
		ws();
		if (keyed) {
			if (!string())
				return false;
			ws();
			if (*js++ != ':')
				return false;
		}
		if (!value())
			return false;
		ws();
		if (*js == ',') {
			js++;
			continue;
		}
		return *js++ == close;
	}
}

static bool value(void)
{
	ws();
	if (*js == '{')
		return js++, members('}', true);
	if (*js == '[')
		return js++, members(']', false);
	if (*js == '"')
		return string();
	if (!strncmp(js, "true", 4) || !strncmp(js, "null", 4))
		return js += 4, true;
	if (!strncmp(js, "false", 5))
		return js += 5, true;
	if (*js == '-' || isdigit((unsigned char)*js)) {
		char *end;

		strtod(js, &end);
		js = end;
		return true;
	}
	return false;
}

static bool valid_json(const char *s)
{
	js = s;
	if (!value())
		return false;
	ws();
	return !*js;
}

static char *render(void (*fn)(FILE *, const struct rr_result *),
		    const struct rr_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, r);
	fclose(f);
	return buf;
}

static void test_json(void)
{
	struct rr_result r;
	char *s;

	base(&r, 125.8, 4.1, 3.9);
	rr_verdict_compute(&r);
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"verdict\": \"reproduced\"");
	CHECK_CONTAINS(s, "\"reproducer\": \"ksm-mprotect-split\"");
	CHECK_CONTAINS(s, "\"release\": \"6.18.0-test\"");
	CHECK_CONTAINS(s, "\"suite_version\": \"v1-test\"");
	CHECK_CONTAINS(s, "\"config\": \"KSM=y NUMA=y HZ=250\"");
	CHECK_CONTAINS(s, "\"ksm_pages_shared\": 2");
	CHECK_CONTAINS(s, "\"ksm_pages_sharing\": 510");
	CHECK_CONTAINS(s, "\"vmas\": 20000");
	CHECK_CONTAINS(s, "\"page_type\": \"file\"");
	CHECK_CONTAINS(s, "\"probe\": \"memcg-reclaim\"");
	CHECK_CONTAINS(s, "\"max\": 125.8000");
	CHECK_CONTAINS(s, "\"victim_stall_ms\"");
	CHECK_CONTAINS(s, "\"lost_events\": 0");
	CHECK_CONTAINS(s, "\"timing_s\"");
	free(s);

	/* An unmeasured case has nulls, still valid JSON. */
	base(&r, 125.8, 4.1, 3.9);
	memset(&r.cases[2].latency, 0, sizeof(r.cases[2].latency));
	rr_set_verdict(&r, RR_ERROR, "x");
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"max\": null");
	free(s);
	CHECK(!valid_json("{\"a\": 1,}"));
	CHECK(!valid_json("{\"a\": \"x\ty\"}"));
}

static void test_ktap(void)
{
	struct rr_result r;
	char *s;

	base(&r, 125.8, 4.1, 3.9);
	rr_verdict_compute(&r);
	s = render(rr_report_ktap, &r);
	CHECK(!strncmp(s, "KTAP version 1\n1..1\n", 20));
	CHECK_CONTAINS(s, "\n# rmap-repro v1-test: ksm-mprotect-split --runs 3\n# kernel 6.18.0-test config: KSM=y NUMA=y HZ=250\n");
	CHECK_CONTAINS(s, "    KTAP version 1\n    # Subtest: ksm-mprotect-split\n    1..3\n");
	CHECK_CONTAINS(s, "    not ok 1 ksm\n");
	CHECK_CONTAINS(s, "    ok 2 anon\n");
	CHECK_CONTAINS(s, "    ok 3 file\n");
	CHECK_CONTAINS(s, "\nnot ok 1 ksm-mprotect-split\n");
	free(s);

	base(&r, 8.0, 4.1, 3.9);
	rr_verdict_compute(&r);
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "\nok 1 ksm-mprotect-split\n");
	free(s);

	base(&r, 0, 0, 0);
	r.nr_cases = 0;
	rr_set_verdict(&r, RR_SKIP, "needs root");
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "ok 1 ksm-mprotect-split # SKIP needs root\n");
	free(s);

	/*
	 * A case that measured, then failed: its figures, then the error
	 * line right before its result line.
	 */
	base(&r, 125.8, 4.1, 3.9);
	snprintf(r.cases[0].error, sizeof(r.cases[0].error),
		 "run 1: cannot start ksmd: Invalid argument");
	rr_verdict_compute(&r);
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "    # ksm: max 125.800 ms, p50 62.900 ms over 3 intervals");
	CHECK_CONTAINS(s, "    # ksm: error: run 1: cannot start ksmd: Invalid argument\n    not ok 1 ksm\n");
	free(s);
	/* one that measured nothing: the error alone */
	memset(&r.cases[0].latency, 0, sizeof(r.cases[0].latency));
	s = render(rr_report_ktap, &r);
	CHECK(!strstr(s, "# ksm: max"));
	CHECK_CONTAINS(s, "    # ksm: error: run 1: cannot start ksmd");
	free(s);
}

static void test_text(void)
{
	struct rr_result r;
	char *s, *line, *save = NULL;
	int long_lines = 0;

	base(&r, 125.8, 4.1, 3.9);
	rr_verdict_compute(&r);
	s = render(rr_report_text, &r);
	CHECK(!strncmp(s, "ksm-mprotect-split: REPRODUCED\n", 31));
	CHECK_CONTAINS(s, "20000 VMAs");
	CHECK_CONTAINS(s, "memcg-reclaim");
	CHECK_CONTAINS(s, "ksm        3");
	/* the footer: the suite's version, the command, the kernel's config */
	CHECK_CONTAINS(s, "\nSuite    rmap-repro v1-test; repeat, as root: ksm-mprotect-split --runs\n         3\n");
	CHECK_CONTAINS(s, "\nKconfig  KSM=y NUMA=y HZ=250\n");
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 72 && strchr(line, ' ') != NULL &&
		    strlen(strrchr(line, ' ') + 1) < 40)
			long_lines++;
	/* Lines fit 72 columns unless one word alone is longer. */
	CHECK_EQ(long_lines, 0);
	free(s);
}

/*
 * A run that stopped before it measured (tracefs could not be mounted):
 * the report names no pattern, trigger, probe or safety figure it never
 * had, only the reason and what was undone.
 */
static void test_unstarted(void)
{
	struct rr_result r;
	char *s;

	base(&r, 0, 0, 0);
	r.nr_cases = 0;
	r.trigger = RR_TRIG_AUTO;
	r.restore_ran = true;
	r.restored = 1;
	rr_set_verdict(&r, RR_ERROR,
		       "cannot start: cannot mount tracefs on /sys/kernel/tracing: Permission denied");
	s = render(rr_report_text, &r);
	CHECK(!strncmp(s, "ksm-mprotect-split: ERROR\n", 26));
	CHECK_CONTAINS(s, "cannot mount tracefs");
	CHECK_CONTAINS(s, "Restore  1 journaled changes undone");
	CHECK(!strstr(s, "VMAs"));
	CHECK(!strstr(s, "Trigger"));
	CHECK(!strstr(s, "Probe"));
	CHECK(!strstr(s, "OOM"));
	free(s);
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"vmas\": null");
	CHECK_CONTAINS(s, "\"name\": null");
	CHECK_CONTAINS(s, "\"oom_kill_before\": null");
	free(s);
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "# error: cannot start: cannot mount tracefs");
	CHECK_CONTAINS(s, "\nnot ok 1 ksm-mprotect-split\n");
	free(s);
}

/* A control out of the trigger's reach, in the verdict and every format. */
static void test_not_reached(void)
{
	struct rr_result r;
	char *s;

	base(&r, 125.8, 4.1, 3.9);
	memset(&r.cases[2].latency, 0, sizeof(r.cases[2].latency));
	memset(r.cases[2].run, 0, sizeof(r.cases[2].run));
	snprintf(r.cases[2].not_reached, sizeof(r.cases[2].not_reached),
		 "run 1: compact did not reach the pattern in 10 attempts");
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason,
		       "controls' max over the runs: anon 4.100 ms; not reached: file)");
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "    ok 3 file # SKIP not reached: run 1: compact");
	free(s);
	s = render(rr_report_text, &r);
	CHECK_CONTAINS(s, "file       0  not reached: run 1: compact");
	free(s);
	s = render(rr_report_json, &r);
	CHECK_CONTAINS(s, "\"not_reached\": \"run 1: compact did not reach");
	CHECK_CONTAINS(s, "\"not_reached\": null");
	free(s);

	/* every control out of reach: nothing to compare with */
	memset(&r.cases[1].latency, 0, sizeof(r.cases[1].latency));
	snprintf(r.cases[1].not_reached, sizeof(r.cases[1].not_reached),
		 "run 1: missed");
	r.verdict = RR_REPRODUCED;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "no control was reached by the trigger (anon, file)");
}

static void oracle_of(struct rr_case_result *c, unsigned long long failed,
		      unsigned long long missed)
{
	c->oracle.ran = true;
	c->oracle.pages_checked = 10;
	c->oracle.mappings_checked = 40;
	c->oracle.pages_failed = failed;
	c->oracle.mappings_missed = missed;
	snprintf(c->oracle.reason, sizeof(c->oracle.reason), "%s",
		 failed || missed ? "a mapping stayed" : "all moved");
}

/* An oracle's outcome in the verdict, under each policy. */
static void test_oracle_policy(void)
{
	struct rr_result r;
	char *s;

	/* both (the default): a fast subject that missed a mapping */
	base(&r, 2.0, 1.0, 1.0);
	oracle_of(&r.cases[0], 0, 3);
	oracle_of(&r.cases[1], 0, 0);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason,
		       "correctness: KSM case: 0 of 10 pages not acted on, 3 of 40 mappings missed (a mapping stayed); KSM case max 2.000 ms");
	/* a control that failed: nothing to compare with */
	base(&r, 125.8, 4.1, 3.9);
	oracle_of(&r.cases[2], 1, 0);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "file case (control): the oracle failed");
	/* clean: the latency decides, the oracle is named */
	base(&r, 125.8, 4.1, 3.9);
	oracle_of(&r.cases[0], 0, 0);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason, "; oracle clean: 10 pages, 40 mappings checked");

	/* latency: a failed oracle is told, not judged */
	base(&r, 2.0, 1.0, 1.0);
	r.policy = RR_POLICY_LATENCY;
	oracle_of(&r.cases[0], 0, 3);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(r.reason, "; oracle FAILED (not judged): 10 pages");

	/* correctness: a slow, clean subject is not reproduced */
	base(&r, 125.8, 4.1, 3.9);
	r.policy = RR_POLICY_CORRECTNESS;
	oracle_of(&r.cases[0], 0, 0);
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(r.reason, "oracle clean: 10 pages, 40 mappings checked; KSM case max 125.800 ms (latency not judged)");
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"verdict_policy\": \"correctness\"");
	CHECK_CONTAINS(s, "\"name\": \"ksm\",\n      \"role\": \"subject\"");
	CHECK_CONTAINS(s, "\"name\": \"anon\",\n      \"role\": \"control\"");
	free(s);
	/* ... and without an oracle that ran, there is no verdict */
	base(&r, 125.8, 4.1, 3.9);
	r.policy = RR_POLICY_CORRECTNESS;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "its oracle did not run");
}

/* The kernel's log in the three formats: nothing, or its lines. */
static void test_kernel_log(void)
{
	struct rr_result r;
	char *s;
	int i;

	base(&r, 125.8, 4.1, 3.9);
	rr_verdict_compute(&r);
	for (i = 0; i < 3; i++) {
		r.cases[i].klog.read = true;
		r.cases[i].klog.records = 2;
	}
	s = render(rr_report_text, &r);
	CHECK_CONTAINS(s, "Kernel   log: nothing that matters during the cases");
	CHECK_CONTAINS(s, "(/dev/kmsg, 6");
	free(s);
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"kernel_log\": [],");
	free(s);

	rr_klog_add(&r.cases[0].klog,
		    "watchdog: BUG: soft lockup - CPU#1 stuck for 23s!");
	rr_klog_add(&r.cases[0].klog, "taint changed from 0 to 16384");
	r.cases[0].klog.more = 3;
	s = render(rr_report_text, &r);
	CHECK_CONTAINS(s, "Kernel   log, ksm: watchdog: BUG: soft lockup - CPU#1");
	CHECK_CONTAINS(s, "(and 3 more)");
	free(s);
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "    # ksm: kernel log: watchdog: BUG: soft lockup");
	free(s);
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"watchdog: BUG: soft lockup - CPU#1 stuck for 23s!\",");
	CHECK_CONTAINS(s, "\"kernel_log_more\": 3");
	free(s);

	/* not readable: said why */
	base(&r, 125.8, 4.1, 3.9);
	snprintf(r.cases[0].klog.why, sizeof(r.cases[0].klog.why),
		 "/dev/kmsg: Permission denied");
	s = render(rr_report_text, &r);
	CHECK_CONTAINS(s, "Kernel   log: not read (/dev/kmsg: Permission denied)");
	free(s);
	s = render(rr_report_json, &r);
	CHECK_CONTAINS(s, "\"kernel_log\": null");
	free(s);
}

/*
 * A verdict on the trigger's own calls (memory_failure()): a fast walk
 * inside a slow call is still a reproduction; the split says where
 * the time went.
 */
static void test_judge_calls(void)
{
	double v[1] = { 830.0 }, w[1] = { 5.0 }, p[1] = { 600.0 };
	struct rr_result r;
	char buf[1024];
	char *s;
	int i;

	base(&r, 2.3, 0.2, 0.3);	/* the walks: fast */
	r.judge_calls = true;
	r.trigger = RR_TRIG_HWPOISON;
	r.probe.bracket = RR_BR_RMAP_WALK;
	for (i = 0; i < 3; i++) {
		double x = i ? w[0] : v[0];

		rr_stats_compute(i ? w : v, 1, &r.cases[i].calls);
		/* the judged figure of each run: the calls' */
		for (int k = 0; k < 3; k++)
			r.cases[i].run[k] = (struct rr_run_fig){
				.count = 1, .p50 = x, .max = x };
	}
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason, "3 of 3 runs: KSM case longest trigger call over 10 ms and at least 5x the controls' longest trigger call in the same run (KSM 830.000 ms; controls' longest trigger call over the runs: anon 5.000 ms, file 5.000 ms)");
	/* the part is not timed here: it stays in the rest, with why */
	rr_part_choose("finding the processes that map the page",
		       rr_trigger_hwpoison.part_roles,
		       "ffffffff81000000 T collect_procs_ksm\n", false,
		       &r.part);
	s = render(rr_report_text, &r);
	CHECK_CONTAINS(s, "Split    ksm: 1 call(s), 830.000 ms in all:");
	CHECK_CONTAINS(s, "Part     finding the processes that map the page: not");
	CHECK_CONTAINS(s, "Trigger calls (hwpoison)");
	free(s);
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "# ksm: split: 1 call(s), 830.000 ms in all: 3.473 ms unmapping it (rmap walks, rmap-tp), 826.527 ms the rest: finding the processes that map the page (not timed apart: no kprobe_events (CONFIG_KPROBE_EVENTS off)), killing them and retiring the frame\n");
	free(s);
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"verdict_on\": \"trigger calls\"");
	CHECK_CONTAINS(s, "\"calls_ms\": 830");
	CHECK_CONTAINS(s, "\"part_ms\": null");
	CHECK_CONTAINS(s, "\"part_not_timed\": \"no kprobe_events");
	free(s);

	/* timed: part, walks and rest add up to the calls */
	rr_part_choose("finding the processes that map the page",
		       rr_trigger_hwpoison.part_roles,
		       "ffffffff81000000 T collect_procs_ksm\n", true, &r.part);
	rr_stats_compute(p, 1, &r.cases[0].part);
	s = render(rr_report_text, &r);
	CHECK_CONTAINS(s, "Part     finding the processes that map the page:");
	CHECK_CONTAINS(s, "rmap_repro/rr_part_TYPE (kprobe) .. rr_part_TYPE_ret");
	free(s);
	/* each function named once, collect_procs after collect_procs_ksm */
	rr_part_choose("finding the processes that map the page",
		       rr_trigger_hwpoison.part_roles,
		       "ffffffff81000000 T collect_procs_ksm\nffffffff81000100 t collect_procs\n",
		       true, &r.part);
	rr_part_text(&r, buf, sizeof(buf));
	CHECK_CONTAINS(buf, " on collect_procs_ksm, collect_procs, paired");
	rr_part_choose("finding the processes that map the page",
		       rr_trigger_hwpoison.part_roles,
		       "ffffffff81000000 T collect_procs_ksm\n", true, &r.part);
	s = render(rr_report_json, &r);
	CHECK(valid_json(s));
	CHECK_CONTAINS(s, "\"timed\": true");
	CHECK_CONTAINS(s, "\"part_ms\": 600");
	CHECK_CONTAINS(s, "\"part_function\": \"collect_procs_ksm\"");
	free(s);
	s = render(rr_report_ktap, &r);
	CHECK_CONTAINS(s, "# ksm: split: 1 call(s), 830.000 ms in all: 600.000 ms finding the processes that map the page (collect_procs_ksm, kprobe), 3.473 ms unmapping it (rmap walks, rmap-tp), 226.527 ms the rest: killing them and retiring the frame, not timed apart\n");
	/* the anon control's function is inlined: its part is in the rest */
	CHECK_CONTAINS(s, "# anon: split: 1 call(s), 5.000 ms in all: ");
	CHECK_CONTAINS(s, "(not timed apart: no function of the anon page type in /proc/kallsyms (inlined))");
	free(s);

	/* no call timed: an error, not a verdict */
	memset(&r.cases[1].calls, 0, sizeof(r.cases[1].calls));
	r.verdict = RR_REPRODUCED;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_ERROR);
	CHECK_CONTAINS(r.reason, "anon case: no trigger call was timed");
}

/*
 * A benchmark: nothing judged without a bound; with one, the subject's
 * longest interval per GiB of its pattern (20000 pages: 0.0763 GiB).
 */
static void test_benchmark(void)
{
	struct rr_result r;
	char *text;

	base(&r, 76.3, 500, 900);	/* controls are not compared */
	r.policy = RR_POLICY_BENCHMARK;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(r.reason, "nothing judged");
	/* it measured: the text's head and KTAP say so, not a verdict */
	CHECK(rr_measured_only(&r));
	text = render(rr_report_text, &r);
	CHECK(!strncmp(text, "ksm-mprotect-split: MEASURED\n", 29));
	free(text);
	text = render(rr_report_ktap, &r);
	CHECK_CONTAINS(text, "\n# benchmark: measured, nothing judged");
	CHECK_CONTAINS(text, "\nok 1 ksm-mprotect-split\n");
	free(text);

	base(&r, 76.3, 500, 900);
	r.policy = RR_POLICY_BENCHMARK;
	r.bench_ms_per_gb = 900;	/* 76.3 ms is about 1000 ms per GiB */
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_REPRODUCED);
	CHECK_CONTAINS(r.reason, "over the bound of 900 ms per GiB");
	CHECK(!rr_measured_only(&r));	/* judged against its bound */

	base(&r, 76.3, 500, 900);
	r.policy = RR_POLICY_BENCHMARK;
	r.bench_ms_per_gb = 1100;
	rr_verdict_compute(&r);
	CHECK_EQ(r.verdict, RR_NOT_REPRODUCED);
	CHECK_CONTAINS(r.reason, "within the bound of 1100 ms per GiB");
}

/* The pattern sentence's counts: every case, built or not. */
static void test_counts_text(void)
{
	static struct rr_result r;
	char buf[256];

	memset(&r, 0, sizeof(r));
	r.nr_cases = 3;
	snprintf(r.cases[0].name, sizeof(r.cases[0].name), "many");
	r.cases[0].procs = 8;
	r.cases[0].vmas = 3200;
	snprintf(r.cases[1].name, sizeof(r.cases[1].name), "one");
	r.cases[1].procs = 1;
	r.cases[1].vmas = 400;
	snprintf(r.cases[2].name, sizeof(r.cases[2].name), "file");
	CHECK_EQ(rr_result_counts_text(&r, buf, sizeof(buf)), strlen(buf));
	CHECK_STR(buf, " Processes and VMAs of the pattern summed over their /proc/PID/maps: many 8 processes, 3200 VMAs; one 1 process, 400 VMAs; file never built");
	/* cut short: what snprintf() would have written */
	CHECK(rr_result_counts_text(&r, buf, 20) > 20);
	CHECK_EQ(strlen(buf), 19);
}

TEST_MAIN(T(test_verdicts), T(test_counts_text), T(test_not_reached), T(test_json), T(test_ktap), T(test_text),
	  T(test_unstarted), T(test_oracle_policy), T(test_kernel_log),
	  T(test_judge_calls), T(test_benchmark))
