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
 */
#include <string.h>

#include "model/verdict.h"
#include "probe/bracket.h"
#include "report/report.h"
#include "trigger/trigger.h"

/* Lock waits: the victim's on one lock, the trigger's tasks' on two. */
static void fill_waits(struct rr_case_result *c, double ms)
{
	struct rr_wait_acc a = { 0 };
	struct rr_wait w = { .pid = 1, .flags = RR_LCB_WRITE,
			     .addr = 0xffff888100001000ULL, .start = 0 };
	int k;

	for (k = 1; k <= 3; k++) {
		w.end = (uint64_t)(ms * k / 3 * 1e6);
		rr_wait_acc_add(&a, &w);
	}
	rr_wait_acc_fig(&a, &c->waits_victim);
	c->waits_victim.recorded = true;
	w.addr = 0xffff888100002000ULL;
	w.flags = RR_LCB_READ | RR_WAIT_MMAP;
	rr_wait_acc_add(&a, &w);
	rr_wait_acc_fig(&a, &c->waits_walker);
	c->waits_walker.recorded = true;
	rr_wait_acc_free(&a);
	c->stall_ms = ms * 2;
	c->stall_waited_ms = ms;
	c->stall_flags = RR_LCB_WRITE;
	c->waits_unpaired = 1;
	c->ref_calls[0] = 500;
	c->ref_calls[1] = 400;
	c->ref_giveups[1] = 12;
	snprintf(c->wait_caller, sizeof(c->wait_caller),
		 "vma_prepare < __split_vma < vma_modify");
	c->wait_caller_hits = 3;
	c->wait_stack_hits = 4;
	c->waits_spins = 2;
}

static void fill_case(struct rr_result *r, int i, enum rr_page_type t,
		      double ms)
{
	struct rr_case_result *c = &r->cases[i];
	double v[4] = { ms / 4, ms / 2, ms, ms * 2 };
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
	rr_stats_compute(v, 4, &c->victim_alone);
	c->victim_alone_s = 1;
	c->victim_with_s = 4;
	rr_stats_compute(v, 4, &c->calls);
	rr_stats_compute(v, 4, &c->part);
	rr_stats_compute(v, 4, &c->count_lat);
	rr_stats_compute(v, 4, &c->walk_steps);
	rr_stats_compute(v, 4, &c->item_steps);
	rr_stats_compute(v, 4, &c->cross[0]);
	for (k = 0; k < 2; k++)
		c->run[k] = (struct rr_run_fig){ .count = 2, .p50 = ms / 2,
						 .max = ms * 2 };
	c->kept = rr_samples_thin(v, 4, c->keep, RR_KEEP_SAMPLES);
	c->passes[RR_PASS_BARE] = c->passes[RR_PASS_COUNT] = 2;
	c->pass_s[RR_PASS_PROBE] = c->pass_s[RR_PASS_BARE] = 1;
	c->iter_first = 20;
	c->iter_next = 2000;
	c->count_walks = 4;
	/* by caller: the walk's steps and another caller's */
	c->iter_callers.counted = true;
	c->iter_callers.first[RR_KFN_WALK_KSM] = 20;
	c->iter_callers.next[RR_KFN_WALK_KSM] = 1990;
	snprintf(c->iter_callers.name[RR_KFN_WALK_KSM],
		 sizeof(c->iter_callers.name[0]), "rmap_walk_ksm");
	c->iter_callers.next[RR_KFN_NONE] = 10;
	c->oracle.ran = true;
	snprintf(c->oracle.reason, sizeof(c->oracle.reason), "checked");
	c->klog.read = true;
	c->klog.lines = 1;
	snprintf(c->klog.line[0], sizeof(c->klog.line[0]), "a line");
	c->walkers[RR_TASK_KSWAPD] = 4;
	fill_waits(c, ms);
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
	r.nr_cross = 1;
	r.cross[0].bracket = RR_BR_RMAP_WALK;
	r.anywhere = true;
	r.waits = r.waits_mmap = r.giveups = r.waits_stack = true;
	r.victim_alone_ms = 1000;
	r.iterations = r.iter_items = true;
	r.iter_syms.found[0] = r.iter_syms.found[1] = true;
	snprintf(r.iter_syms.fns[0], sizeof(r.iter_syms.fns[0]),
		 "anon_rmap_tree_iter_first and anon_rmap_tree_iter_next");
	snprintf(r.iter_syms.fns[1], sizeof(r.iter_syms.fns[1]),
		 "mapping_rmap_tree_iter_first and mapping_rmap_tree_iter_next");
	snprintf(r.part.what, sizeof(r.part.what), "finding the processes");
	r.part.timed = true;
	r.threshold_ms = 10;
	r.min_ratio = 5;
	r.bench_ms_per_gb = 1;
	r.runs = r.runs_asked = 2;
	r.max_runs = 6;
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
