// SPDX-License-Identifier: GPL-2.0
#include "figure/figure.h"
#include "model/hostcpu.h"
#include "model/kline.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "report/report.h"
#include "trigger/trigger.h"

/*
 * Did the verdict find the pathology in this case? The subject of a
 * reproduced run, or a case whose oracle failed. A control's long
 * figures are a control's: said in its diagnostics, not failed, so that
 * a case is "not ok" only under a "not ok" parent.
 */
static bool case_failed(const struct rr_result *r,
			const struct rr_case_result *c)
{
	if (rr_oracle_failed(&c->oracle))
		return true;
	return c->role == RR_SUBJECT && r->verdict == RR_REPRODUCED;
}

/*
 * One test per reproducer, with one subtest per case. A case is "not ok"
 * when the pathology was found in it (case_failed()). The reproducer is "not
 * ok" when the pathology was reproduced (by two thirds of the runs),
 * "ok" when not, "# SKIP" when a prerequisite is missing or when the
 * runs stayed inconclusive (git bisect skips such a kernel too), and
 * "not ok" with an error diagnostic when it could not measure. Plan
 * lines follow version lines (KUnit's "# Subtest: NAME" header alone
 * between them); diagnostics come after the plan.
 */
/* "# ksm: per run (max ms): 705.120 802.300 1320.400" */
static void per_run(FILE *f, const struct rr_result *r,
		    const struct rr_case_result *c)
{
	unsigned int i;

	fprintf(f, "    # %s: per run, %s max ms:", c->name,
		r->judge_calls ? "trigger call" : "interval");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++)
		if (c->run[i].count)
			fprintf(f, " %.3f", c->run[i].max);
		else
			fprintf(f, " -");
	fputc('\n', f);
}

/* The nested test's version, plan, and the run's diagnostics. */
static void cases_header(FILE *f, const struct rr_result *r)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);
	char text[2048];

	/*
	 * KUnit's subtest header between the version and the plan: the
	 * kernel's parser (kunit.py) names the group by it.
	 */
	fprintf(f, "    KTAP version 1\n");
	fprintf(f, "    # Subtest: %s\n", r->reproducer);
	fprintf(f, "    1..%d\n", r->nr_cases);
	fprintf(f, "    # trigger %s, probe %s (%s), %u run(s), threshold %.3g ms\n",
		rr_trigger_name(r->trigger),
		rr_brackets[r->probe.bracket].id, r->probe.events, r->runs,
		r->threshold_ms);
	if (!r->waits && r->waits_why[0])
		fprintf(f, "    # lock waits not recorded: %s\n", r->waits_why);
	else if (!r->giveups && r->giveups_why[0])
		fprintf(f, "    # give-ups not counted: %s\n", r->giveups_why);
	/* the trigger's own line (its load's phases, ...) */
	if (ops && ops->key && ops->summary) {
		ops->summary(r, text, sizeof(text));
		fprintf(f, "    # %s: %s\n", ops->key, text);
	}
}

/* Each figure's lines of case c: those that come first, or the rest. */
static void figure_lines(FILE *f, const struct rr_result *r,
			 const struct rr_case_result *c, bool first)
{
	const struct rr_figure *fig;
	int i;

	rr_for_each_figure(i, fig)
		if (fig->ktap_first == first)
			rr_fig_ktap(fig, f, r, c);
}

/* The figures of a case that measured something. */
static void case_figures(FILE *f, const struct rr_result *r,
			 const struct rr_case_result *c)
{
	fprintf(f, "    # %s: max %.3f ms, p50 %.3f ms over %zu intervals; victim max %.3f ms; %llu events lost\n",
		c->name, c->latency.max, c->latency.p50, c->latency.count,
		c->victim.max, c->lost_events);
	per_run(f, r, c);
	figure_lines(f, r, c, false);
}

/* Case i's subtest: its diagnostics, then its result line. */
static void one_case(FILE *f, const struct rr_result *r, int i)
{
	const struct rr_case_result *c = &r->cases[i];
	const char *name = c->name;

	if (!c->ran) {
		fprintf(f, "    ok %d %s # SKIP not run\n", i + 1, name);
		return;
	}
	/* first: a stall or a BUG explains what follows */
	figure_lines(f, r, c, true);
	if (c->refused[0]) {
		fprintf(f, "    ok %d %s # SKIP %s\n", i + 1, name, c->refused);
		return;
	}
	if (!c->error[0] && !c->latency.count && c->not_reached[0]) {
		fprintf(f, "    ok %d %s # SKIP not reached: %s\n", i + 1, name,
			c->not_reached);
		return;
	}
	if (c->error[0] || !c->latency.count) {
		/* what it measured before the error, as JSON and text give it */
		if (c->latency.count)
			case_figures(f, r, c);
		fprintf(f, "    # %s: error: %s\n", name,
			c->error[0] ? c->error : "nothing measured");
		fprintf(f, "    not ok %d %s\n", i + 1, name);
		return;
	}
	case_figures(f, r, c);
	if (r->verdict == RR_INCONCLUSIVE && c->role == RR_SUBJECT)
		fprintf(f, "    ok %d %s # SKIP inconclusive\n", i + 1, name);
	else
		fprintf(f, "    %s %d %s\n", case_failed(r, c) ? "not ok" : "ok",
			i + 1, name);
}

/* The verdict's diagnostics and the reproducer's result line. */
static void verdict_lines(FILE *f, const struct rr_result *r)
{
	char text[1024];

	fprintf(f, "# %s: %s\n", rr_verdict_names[r->verdict], r->reason);
	if (rr_measured_only(r))
		fprintf(f, "# benchmark: measured, nothing judged (no --max-ms-per-gb): ok is not a verdict\n");
	rr_runs_text(r, text, sizeof(text));
	if (r->nr_cases && text[0])
		fprintf(f, "# runs: %s\n", text);
	rr_cpu_pressure_text(r, text, sizeof(text));
	if (r->nr_cases && text[0])
		fprintf(f, "# host cpu: %s\n", text);
	rr_evidence_text(r, text, sizeof(text));
	if (text[0])
		fprintf(f, "# evidence: %s\n", text);
	if (rr_kernel_line(r, text, sizeof(text))[0])
		fprintf(f, "# kernel line: %s\n", text);
	if (r->restore_ran && r->restore_failures)
		fprintf(f, "# restore: %d changes could not be undone\n",
			r->restore_failures);
	if (r->restore_retired)
		fprintf(f, "# restore: %d frames retired by this run until reboot\n",
			r->restore_retired);
	if (r->verdict == RR_INCONCLUSIVE)
		fprintf(f, "ok 1 %s # SKIP inconclusive: %s\n", r->reproducer,
			r->reason);
	else
		fprintf(f, "%s 1 %s\n",
			r->verdict == RR_NOT_REPRODUCED ? "ok" : "not ok",
			r->reproducer);
}

void rr_report_ktap(FILE *f, const struct rr_result *r)
{
	int i;

	fprintf(f, "KTAP version 1\n1..1\n");
	/* what repeats the run: kselftest runners keep the diagnostics */
	fprintf(f, "# rmap-repro %s: %s\n", r->sys.suite_version, r->options);
	fprintf(f, "# kernel %s config: %s\n", r->sys.release,
		r->sys.kconfig[0] ? r->sys.kconfig : "not readable");
	if (r->sys.exact)
		fprintf(f, "# clock: %s\n", RR_EXACT_CLOCK);
	if (r->verdict == RR_SKIP) {
		fprintf(f, "ok 1 %s # SKIP %s\n", r->reproducer, r->reason);
		return;
	}
	if (r->nr_cases)
		cases_header(f, r);
	for (i = 0; i < r->nr_cases; i++)
		one_case(f, r, i);
	verdict_lines(f, r);
}
