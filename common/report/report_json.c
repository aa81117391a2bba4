// SPDX-License-Identifier: GPL-2.0
#include "figure/figure.h"
#include "lib/json.h"
#include "lib/util.h"
#include "model/hostcpu.h"
#include "model/kline.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "report/report.h"
#include "trigger/trigger.h"

/* Each run's judged figure, and what its probe pass may have missed. */
static void per_run(struct rr_json *j, const struct rr_result *r,
		    const struct rr_case_result *c)
{
	unsigned int i;

	json_arr_begin(j, "per_run");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++) {
		const struct rr_run_fig *f = &c->run[i];

		json_obj_begin(j, NULL);
		json_uint(j, "run", i + 1);
		json_uint(j, "count", f->count);
		if (f->count) {
			json_num(j, "p50", f->p50, 4);
			json_num(j, "max", f->max, 4);
		} else {
			json_null(j, "p50");
			json_null(j, "max");
		}
		json_uint(j, "lost_events", f->lost);
		json_uint(j, "unpaired_events", f->unpaired);
		json_uint(j, "counter_read_errors", f->read_errors);
		json_bool(j, "incomplete", rr_run_fig_lossy(r, f));
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The judged samples, thinned to the cap (signif.h). */
static void samples(struct rr_json *j, const struct rr_result *r,
		    const struct rr_case_result *c)
{
	unsigned int i;

	json_obj_begin(j, "samples_ms");
	json_str(j, "of", r->judge_calls ? "trigger_call_ms" : "latency_ms");
	json_uint(j, "count", rr_judged(r, c)->count);
	json_uint(j, "kept", c->kept);
	json_uint(j, "cap", RR_KEEP_SAMPLES);
	json_str(j, "kept_how",
		 "every sample, sorted, up to the cap; past it, the cap's number of evenly spaced order statistics (the smallest and the largest among them)");
	json_arr_begin(j, "values");
	for (i = 0; i < c->kept; i++)
		json_num(j, NULL, c->keep[i], 6);
	json_arr_end(j);
	json_obj_end(j);
}

/* A control's: the subject's samples against its own (verdict.h). */
static void test(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	const struct rr_case_test *t = &c->test;
	const struct rr_case_result *s = rr_result_subject(r);

	if (!t->ran || !s) {
		json_null(j, "test");
		return;
	}
	json_obj_begin(j, "test");
	json_str(j, "subject", s->name);
	json_str(j, "test",
		 "Mann-Whitney U, one-sided: the subject's samples longer than this case's");
	json_str(j, "method", rr_mwu_method_names[t->mwu.method]);
	json_uint(j, "n_subject", t->mwu.nx);
	json_uint(j, "n_control", t->mwu.ny);
	json_num(j, "u", t->mwu.u, 1);
	json_sig(j, "p", t->mwu.p_greater, 4);
	json_sig(j, "p_two_sided", t->mwu.p_two, 4);
	json_sig(j, "p_min", t->mwu.p_min, 4);
	json_num(j, "alpha", RR_ALPHA, 2);
	json_bool(j, "significant", t->mwu.p_greater < RR_ALPHA);
	if (t->ratio.defined) {
		json_sig(j, "ratio_of_medians", t->ratio.ratio, 6);
		json_arr_begin(j, "ratio_ci95");
		json_sig(j, NULL, t->ratio.lo, 6);
		json_sig(j, NULL, t->ratio.hi, 6);
		json_arr_end(j);
	} else {
		json_null(j, "ratio_of_medians");
		json_null(j, "ratio_ci95");
	}
	json_uint(j, "bootstrap_resamples", t->ratio.iters);
	json_obj_end(j);
}

/* What the verdict of a case rests on: its runs, samples and test. */
static void verdict_figures(struct rr_json *j, const struct rr_result *r,
			    const struct rr_case_result *c)
{
	per_run(j, r, c);
	samples(j, r, c);
	test(j, r, c);
}

/* The run's object of each trigger that keeps one (key). */
static void trigger_own(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_trigger_ops *ops;
	char text[2048];
	int t;

	rr_for_each_trigger(t, ops) {
		if (!ops->key)
			continue;
		if (t != r->trigger) {
			json_null(j, ops->key);
			continue;
		}
		json_obj_begin(j, ops->key);
		if (ops->json)
			ops->json(r, j);
		ops->summary(r, text, sizeof(text));
		json_str(j, "text", text);
		json_obj_end(j);
	}
}

/* Which probe measured the case, and what one interval is. */
static void probe_detail(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_bracket_def *d = &rr_brackets[r->probe.bracket];

	json_obj_begin(j, "probe_detail");
	json_str(j, "events", r->probe.events);
	json_str(j, "clock", rr_probe_clock(r->probe.bracket));
	json_str(j, "interval", d->what);
	json_str(j, "bounds", d->bounds);
	json_bool(j, "walk_level", d->walk);
	json_str(j, "buffer", d->poll_counter ? "none (polled)" :
		 r->probe.top ? "top-level" : r->instance);
	json_str(j, "chosen_because", r->probe_why[0] ? r->probe_why :
		 "the best probe this kernel offers");
	json_obj_end(j);
}

/* The case's name, role and probe, and whether it ran. */
static void case_head(struct rr_json *j, const struct rr_result *r,
		      const struct rr_case_result *c)
{
	const struct rr_bracket_def *d = &rr_brackets[r->probe.bracket];
	char what[192];

	json_str(j, "name", c->name);
	json_str(j, "role", rr_role_names[c->role]);
	json_str(j, "page_type", rr_page_type_name(c->type));
	rr_case_what(c, what, sizeof(what));
	json_str(j, "what", what);
	json_str(j, "trigger", rr_trigger_name(r->trigger));
	json_str(j, "probe", d->id);
	probe_detail(j, r);
	json_bool(j, "ran", c->ran);
	rr_json_str_or_null(j, "error", c->error);
	rr_json_str_or_null(j, "refused", c->refused);
	rr_json_str_or_null(j, "not_reached", c->not_reached);
	json_uint(j, "runs", c->runs);
}

/* The verdict's kernel line (model/kline.h), or null where none applies. */
static void kernel_line(struct rr_json *j, const struct rr_result *r)
{
	char buf[512];

	if (rr_kernel_line(r, buf, sizeof(buf))[0])
		json_str(j, "kernel_line", buf);
	else
		json_null(j, "kernel_line");
	if (rr_release_has_fix(r->sys.release) < 0)
		json_null(j, "release_has_walk_fix");
	else
		json_bool(j, "release_has_walk_fix",
			  rr_release_has_fix(r->sys.release));
}

static void one_case(struct rr_json *j, const struct rr_result *r,
		     const struct rr_case_result *c)
{
	const struct rr_figure *fig;
	int i;

	json_obj_begin(j, NULL);
	case_head(j, r, c);
	verdict_figures(j, r, c);
	rr_json_stats(j, "latency_ms", &c->latency);
	rr_json_stats(j, "victim_stall_ms", &c->victim);
	rr_for_each_figure(i, fig)
		if (fig->json)
			fig->json(j, r, c);
	json_obj_begin(j, "timing_s");
	json_num(j, "setup", c->setup_s, 3);
	json_num(j, "merge", c->merge_s, 3);
	json_num(j, "trigger", rr_case_trigger_s(c), 3);
	json_obj_end(j);
	json_obj_end(j);
}

/* The headline test beside the verdict: against which control. */
static void evidence(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_case_result *c = rr_evidence_case(r);
	char text[1024];

	if (!c) {
		json_null(j, "evidence");
		return;
	}
	json_obj_begin(j, "evidence");
	json_str(j, "control", c->name);
	json_sig(j, "p", c->test.mwu.p_greater, 4);
	if (c->test.ratio.defined)
		json_sig(j, "ratio_of_medians", c->test.ratio.ratio, 6);
	else
		json_null(j, "ratio_of_medians");
	json_bool(j, "significant", c->test.mwu.p_greater < RR_ALPHA);
	rr_evidence_text(r, text, sizeof(text));
	json_str(j, "text", text);
	json_obj_end(j);
}

/* How busy the host was in each run (model/hostcpu.h). */
static void cpu_pressure(struct rr_json *j, const struct rr_result *r)
{
	char text[1024];
	unsigned int i;

	json_obj_begin(j, "cpu_pressure");
	json_str(j, "source", RR_CPU_PRESSURE_SOURCE);
	json_arr_begin(j, "per_run_pct");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++)
		rr_json_num_or_null(j, NULL, r->cpu_pressure[i] >= 0 ?
				    r->cpu_pressure[i] : 0.0 / 0.0, 1);
	json_arr_end(j);
	json_num(j, "heavy_at_pct", RR_CPU_HEAVY_PCT, 0);
	json_bool(j, "heavy", rr_cpu_pressure_heavy(r));
	rr_cpu_pressure_text(r, text, sizeof(text));
	json_str(j, "text", text);
	json_obj_end(j);
}

/* The runs made, how they were judged, and the rule's parameters. */
static void runs_and_rule(struct rr_json *j, const struct rr_result *r)
{
	unsigned int i;

	json_uint(j, "runs", r->runs);
	json_uint(j, "runs_asked", r->runs_asked);
	json_uint(j, "max_runs", r->max_runs);
	json_arr_begin(j, "run_verdicts");
	for (i = 0; i < r->runs && i < RR_MAX_RUNS; i++)
		json_str(j, NULL, rr_run_verdict_names[r->run_verdict[i]]);
	json_arr_end(j);
	if (r->runs_agreeing)
		json_uint(j, "runs_agreeing", r->runs_agreeing);
	else
		json_null(j, "runs_agreeing");
	cpu_pressure(j, r);
	evidence(j, r);
	rr_json_num_or_null(j, "ratio_to_controls", rr_ratio_to_controls(r), 6);
	json_uint(j, "trace_buffer_kb", r->buffer_kb);
	json_num(j, "threshold_ms", r->threshold_ms, 3);
	json_num(j, "min_ratio", r->min_ratio, 3);
	json_str(j, "verdict_policy", rr_policy_names[r->policy]);
	if (r->bench_ms_per_gb > 0)
		json_num(j, "max_ms_per_gb", r->bench_ms_per_gb, 3);
	else
		json_null(j, "max_ms_per_gb");
	json_str(j, "verdict_on", r->judge_calls ? "trigger calls" :
		 "probe intervals");
}

/* Whether the OOM killer ran, and what the restore undid. */
static void safety(struct rr_json *j, const struct rr_result *r)
{
	json_obj_begin(j, "safety");
	if (r->nr_cases && !r->oom_unknown) {
		json_uint(j, "oom_kill_before", r->oom_kill_before);
		json_uint(j, "oom_kill_after", r->oom_kill_after);
	} else {
		json_null(j, "oom_kill_before");
		json_null(j, "oom_kill_after");
	}
	json_bool(j, "restore_ran", r->restore_ran);
	json_int(j, "restored_changes", r->restored);
	json_int(j, "restore_left", r->restore_left);
	json_int(j, "restore_retired", r->restore_retired);
	json_int(j, "restore_failures", r->restore_failures);
	json_obj_end(j);
}

/* The kernel and the machine the run measured. */
static void kernel_and_system(struct rr_json *j, const struct rr_result *r)
{
	json_obj_begin(j, "kernel");
	json_str(j, "release", r->sys.release);
	json_str(j, "version", r->sys.version);
	json_str(j, "machine", r->sys.machine);
	json_str(j, "cmdline", r->sys.cmdline);
	rr_json_str_or_null(j, "config", r->sys.kconfig);
	json_obj_end(j);

	json_obj_begin(j, "system");
	json_int(j, "cpus", r->sys.cpus);
	json_uint(j, "mem_kb", r->sys.mem_kb);
	json_int(j, "numa_nodes", r->sys.numa_nodes);
	json_str(j, "thp", r->sys.thp);
	/* scripts/vm-run --exact: what every time of the run measures */
	if (r->sys.exact)
		json_str(j, "exact_clock", RR_EXACT_CLOCK);
	json_obj_end(j);
}

/* The pattern's parameters, the reproducer's own among them, and KSM's. */
static void pattern(struct rr_json *j, const struct rr_result *r)
{
	const struct rr_case_result *ksm = rr_result_case(r, RR_PT_KSM);
	const struct rr_case_result *subject = rr_result_subject(r);
	int i;

	json_obj_begin(j, "pattern");
	json_uint(j, "pages", r->pages);
	if (subject && subject->vmas)
		json_uint(j, "vmas", subject->vmas);
	else
		json_null(j, "vmas");
	for (i = 0; i < r->nr_params; i++) {
		if (r->params[i].text[0])
			json_str(j, r->params[i].name, r->params[i].text);
		else
			json_uint(j, r->params[i].name, r->params[i].value);
	}
	json_uint(j, "max_page_sharing", ksm ? ksm->ksm.max_page_sharing :
		  r->max_page_sharing);
	json_uint(j, "ksm_pages_shared", ksm ? ksm->ksm.pages_shared : 0);
	json_uint(j, "ksm_pages_sharing", ksm ? ksm->ksm.pages_sharing : 0);
	json_int(j, "ksm_merging_pages", ksm ? ksm->ksm.merging_pages : -1);
	json_obj_end(j);
}

/* The trigger: which, why, what it did last, and its own object. */
static void trigger(struct rr_json *j, const struct rr_result *r)
{
	char text[1024];

	json_obj_begin(j, "trigger");
	if (r->nr_cases)
		json_str(j, "name", rr_trigger_name(r->trigger));
	else
		json_null(j, "name");
	json_str(j, "why", r->trigger_why);
	json_str(j, "how", r->trigger_how);
	json_str(j, "memcg", r->memcg);
	json_str(j, "swap", r->swap);
	if (r->part.what[0]) {
		json_obj_begin(j, "part");
		json_str(j, "what", r->part.what);
		json_bool(j, "timed", r->part.timed);
		rr_part_text(r, text, sizeof(text));
		json_str(j, "text", text);
		json_obj_end(j);
	} else {
		json_null(j, "part");
	}
	trigger_own(j, r);
	json_obj_end(j);
}

/* The victim: its mode, its call, and what it does. */
static void victim(struct rr_json *j, const struct rr_result *r)
{
	char text[1024];

	json_obj_begin(j, "victim");
	json_str(j, "mode", rr_victim_names[r->victim]);
	json_uint(j, "alone_ms", r->victim_alone_ms);
	json_str(j, "call", r->victim_call[0] ? r->victim_call :
		 "mprotect()");
	rr_victim_text(r, text, sizeof(text));
	json_str(j, "what", text);
	json_obj_end(j);
	json_obj_begin(j, "lock_waits");
	json_bool(j, "recorded", r->waits);
	json_str(j, "events", "lock:contention_begin .. lock:contention_end");
	json_str(j, "how", rr_waits_how);
	json_bool(j, "mmap_lock_told_apart", r->waits_mmap);
	json_bool(j, "stacks_kept", r->waits_stack);
	if (r->waits_stack)
		json_null(j, "stacks_why_not");
	else
		json_str(j, "stacks_why_not", r->waits_stack_why);
	json_bool(j, "giveups_counted", r->giveups);
	if (r->giveups)
		json_null(j, "giveups_why_not");
	else
		json_str(j, "giveups_why_not", r->giveups_why);
	if (r->waits)
		json_null(j, "why_not");
	else
		json_str(j, "why_not", r->waits_why);
	json_obj_end(j);
}

/* The run's phase times, summed over its cases. */
static void timing(struct rr_json *j, const struct rr_result *r)
{
	double setup, merge, trigger;

	json_obj_begin(j, "timing_s");
	rr_result_timing(r, &setup, &merge, &trigger);
	json_num(j, "setup", setup, 3);
	json_num(j, "merge", merge, 3);
	json_num(j, "trigger", trigger, 3);
	json_num(j, "total", r->total_s, 3);
	json_obj_end(j);
}

void rr_report_json(FILE *f, const struct rr_result *r)
{
	struct rr_json j;
	int i;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "rmap-repro-result/1");
	json_str(&j, "reproducer", r->reproducer);
	json_str(&j, "verdict", rr_verdict_names[r->verdict]);
	json_str(&j, "reason", r->reason);
	kernel_line(&j, r);
	json_str(&j, "command", r->options);
	json_str(&j, "suite_version", r->sys.suite_version);
	kernel_and_system(&j, r);
	pattern(&j, r);
	trigger(&j, r);
	victim(&j, r);
	runs_and_rule(&j, r);
	json_arr_begin(&j, "cases");
	for (i = 0; i < r->nr_cases; i++)
		one_case(&j, r, &r->cases[i]);
	json_arr_end(&j);
	timing(&j, r);
	json_int(&j, "max_rss_kb", r->max_rss_kb);
	safety(&j, r);
	json_obj_end(&j);
	json_finish(&j);
}
