// SPDX-License-Identifier: GPL-2.0
/*
 * full-result: print a reproducer's report with every optional part
 * filled in (a pressure trigger with a timed part, trigger calls split,
 * cross-checks, the probe's cost, step counts, ksmd, walkers, an
 * oracle, the kernel's log, per-run figures, samples and the tests),
 * so that tests/noroot/docs.sh can check that every key the JSON
 * writer can emit is documented in docs/results.md and kept in a sample.
 * The figures are made up and mean nothing: only the keys count.
 *
 * A trigger's own figures are its example() hook's: one trigger per
 * report, pressure unless named.
 *
 * Usage: full-result [text|ktap|json [TRIGGER]]   (default json pressure)
 *        full-result --triggers   the triggers with figures of their own
 *        full-result --figures    each figure (figure.h): NAME KEY...
 */
#include <string.h>

#include "figure/figure.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "report/report.h"
#include "trigger/trigger.h"

/* The frame's figures of case i; each figure's own come from its example. */
static void fill_case(struct rr_result *r, int i, enum rr_page_type t,
		      double ms)
{
	struct rr_case_result *c = &r->cases[i];
	double v[4] = { ms / 4, ms / 2, ms, ms * 2 };
	const struct rr_figure *fig;
	int k;

	c->type = t;
	c->role = i ? RR_CONTROL : RR_SUBJECT;
	snprintf(c->name, sizeof(c->name), "%s", rr_page_type_name(t));
	c->ran = true;
	c->runs = 2;
	c->pages = c->vmas = 2000;
	c->procs = 2;
	rr_stats_compute(v, 4, &c->latency);
	rr_stats_compute(v, 4, &c->victim);
	for (k = 0; k < 2; k++)
		c->run[k] = (struct rr_run_fig){ .count = 2, .p50 = ms / 2,
						 .max = ms * 2 };
	c->kept = rr_samples_thin(v, 4, c->keep, RR_KEEP_SAMPLES);
	rr_for_each_figure(k, fig)
		if (fig->example)
			fig->example(r, c, ms);
}

/* "NAME KEY KEY": the JSON members each figure writes in a case. */
static int list_figures(void)
{
	const struct rr_figure *fig;
	int i, k;

	rr_for_each_figure(i, fig) {
		printf("%s", fig->name);
		for (k = 0; fig->keys && fig->keys[k]; k++)
			printf(" %s", fig->keys[k]);
		putchar('\n');
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct rr_result r;
	static const double *v[3];
	static size_t n[3];
	const char *fmt = argc > 1 ? argv[1] : "json";
	const char *trig = argc > 2 ? argv[2] : "pressure";
	const struct rr_trigger_ops *ops;
	int i, t;

	if (!strcmp(fmt, "--figures"))
		return list_figures();
	if (!strcmp(fmt, "--triggers")) {
		for (t = 1; (ops = rr_trigger_get(t)); t++)
			if (ops->example)
				printf("%s\n", ops->name);
		return 0;
	}
	for (t = 1; (ops = rr_trigger_get(t)) && strcmp(ops->name, trig); t++)
		;
	if (!ops) {
		fprintf(stderr, "full-result: no trigger %s\n", trig);
		return 2;
	}

	snprintf(r.reproducer, sizeof(r.reproducer), "full-result");
	snprintf(r.options, sizeof(r.options), "full-result");
	snprintf(r.sys.kconfig, sizeof(r.sys.kconfig), "KSM=y");
	snprintf(r.sys.release, sizeof(r.sys.release), "7.3.0");
	r.sys.exact = true;		/* scripts/vm-run --exact: exact_clock */
	r.trigger = t;
	r.probe.bracket = RR_BR_RMAP_WALK;
	r.threshold_ms = 10;
	r.min_ratio = 5;
	r.bench_ms_per_gb = 1;
	r.runs = r.runs_asked = 2;
	r.max_runs = 6;
	/* the host's CPU pressure: an idle run, then a heavy one */
	r.cpu_pressure[0] = 3.25;
	r.cpu_pressure[1] = 31.5;
	r.nr_params = 0;
	rr_result_param(&r, "split_every", 2);
	r.nr_cases = 3;
	fill_case(&r, 0, RR_PT_KSM, 500);
	fill_case(&r, 1, RR_PT_ANON, 1);
	fill_case(&r, 2, RR_PT_FILE, 2);
	for (i = 0; i < 3 && ops->example; i++)
		ops->example(&r, &r.cases[i]);
	for (i = 0; i < 3; i++) {
		v[i] = r.cases[i].keep;
		n[i] = r.cases[i].kept;
	}
	rr_evidence_compute(&r, v, n);
	rr_verdict_compute(&r);
	r.restore_ran = true;
	if (!strcmp(fmt, "text"))
		rr_report_text(stdout, &r);
	else if (!strcmp(fmt, "ktap"))
		rr_report_ktap(stdout, &r);
	else
		rr_report_json(stdout, &r);
	return 0;
}
