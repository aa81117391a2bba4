// SPDX-License-Identifier: GPL-2.0
#include "bracket.h"
#include "report.h"
#include "trigger.h"
#include "verdict.h"

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
 * lines follow version lines; diagnostics come after the plan.
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

void rr_report_ktap(FILE *f, const struct rr_result *r)
{
	const char *v = rr_verdict_names[r->verdict];
	char text[768];
	int i, k;

	fprintf(f, "KTAP version 1\n1..1\n");
	/* what repeats the run: kselftest runners keep the diagnostics */
	fprintf(f, "# rmap-repro %s: %s\n", r->sys.suite_version, r->options);
	fprintf(f, "# kernel %s config: %s\n", r->sys.release,
		r->sys.kconfig[0] ? r->sys.kconfig : "not readable");
	if (r->verdict == RR_SKIP) {
		fprintf(f, "ok 1 %s # SKIP %s\n", r->reproducer, r->reason);
		return;
	}
	if (r->nr_cases) {
		fprintf(f, "    KTAP version 1\n");
		fprintf(f, "    1..%d\n", r->nr_cases);
		fprintf(f, "    # trigger %s, probe %s (%s), %u run(s), threshold %.3g ms\n",
			rr_trigger_names[r->trigger],
			rr_brackets[r->probe.bracket].id, r->probe.events,
			r->runs, r->threshold_ms);
		if (r->trigger == RR_TRIG_PRESSURE) {
			rr_pressure_text(r, text, sizeof(text));
			fprintf(f, "    # pressure: %s\n", text);
		}
	}
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		const char *name = c->name;

		if (!c->ran) {
			fprintf(f, "    ok %d %s # SKIP not run\n", i + 1, name);
			continue;
		}
		/* first: a stall or a BUG explains what follows */
		for (k = 0; k < (int)c->klog.lines; k++)
			fprintf(f, "    # %s: kernel log: %s\n", name,
				c->klog.line[k]);
		if (c->refused[0]) {
			fprintf(f, "    ok %d %s # SKIP %s\n", i + 1, name,
				c->refused);
			continue;
		}
		if (!c->error[0] && !c->latency.count && c->not_reached[0]) {
			fprintf(f, "    ok %d %s # SKIP not reached: %s\n", i + 1,
				name, c->not_reached);
			continue;
		}
		if (c->error[0] || !c->latency.count) {
			fprintf(f, "    # %s: error: %s\n", name,
				c->error[0] ? c->error : "nothing measured");
			fprintf(f, "    not ok %d %s\n", i + 1, name);
			continue;
		}
		fprintf(f, "    # %s: max %.3f ms, p50 %.3f ms over %zu intervals; victim max %.3f ms; %llu events lost\n",
			name, c->latency.max, c->latency.p50, c->latency.count,
			c->victim.max, c->lost_events);
		per_run(f, r, c);
		if (c->calls.count) {
			fprintf(f, "    # %s: trigger call max %.3f ms, p50 %.3f ms over %zu calls (CLOCK_MONOTONIC)\n",
				name, c->calls.max, c->calls.p50,
				c->calls.count);
			rr_split_text(r, c, text, sizeof(text));
			if (text[0])
				fprintf(f, "    # %s: split: %s\n", name,
					text);
		}
		if (r->anywhere) {
			rr_walkers_text(r, c, text, sizeof(text));
			fprintf(f, "    # %s: walkers: %s\n", name, text);
		}
		rr_ksmd_text(r, c, text, sizeof(text));
		if (text[0])
			fprintf(f, "    # %s: ksmd: %s\n", name, text);
		rr_iter_text(r, c, text, sizeof(text));
		if (text[0])
			fprintf(f, "    # %s: %s\n", name, text);
		rr_cost_text(r, c, text, sizeof(text));
		if (text[0])
			fprintf(f, "    # %s: probe cost: %s\n", name, text);
		for (k = 0; k < r->nr_cross; k++)
			fprintf(f, "    # %s: cross-check %s: max %.3f ms, mean %.3f ms over %zu walks\n",
				name, rr_brackets[r->cross[k].bracket].id,
				c->cross[k].max, c->cross[k].mean,
				c->cross[k].count);
		if (c->oracle.ran)
			fprintf(f, "    # %s: oracle: %llu of %llu pages not acted on, %llu of %llu mappings missed: %s\n",
				name, c->oracle.pages_failed,
				c->oracle.pages_checked,
				c->oracle.mappings_missed,
				c->oracle.mappings_checked, c->oracle.reason);
		if (r->verdict == RR_INCONCLUSIVE && c->role == RR_SUBJECT)
			fprintf(f, "    ok %d %s # SKIP inconclusive\n", i + 1,
				name);
		else
			fprintf(f, "    %s %d %s\n",
				case_failed(r, c) ? "not ok" : "ok", i + 1,
				name);
	}
	fprintf(f, "# %s: %s\n", v, r->reason);
	rr_runs_text(r, text, sizeof(text));
	if (r->nr_cases && text[0])
		fprintf(f, "# runs: %s\n", text);
	rr_evidence_text(r, text, sizeof(text));
	if (text[0])
		fprintf(f, "# evidence: %s\n", text);
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
