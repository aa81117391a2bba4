// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <string.h>

#include "figure/figure.h"
#include "lib/util.h"
#include "model/hostcpu.h"
#include "model/kline.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "report/report.h"
#include "trigger/trigger.h"

#define WIDTH 72
#define INDENT 9

/* "Label    text wrapped at 72 columns under an indent" */
static void field(FILE *f, const char *label, const char *text)
{
	fprintf(f, "%-*s", INDENT, label);
	rr_wrap(f, text, INDENT, INDENT, WIDTH);
}

static const struct rr_stats *latency_of(const struct rr_case_result *c)
{
	return &c->latency;
}

static unsigned long long lost_of(const struct rr_case_result *c)
{
	return c->lost_events;
}

static const struct rr_stats *victim_of(const struct rr_case_result *c)
{
	return &c->victim;
}

static unsigned long long errors_of(const struct rr_case_result *c)
{
	return c->victim_errors;
}

static void histograms(FILE *f, const struct rr_result *r)
{
	char label[64], line[512];
	int i, b;

	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		size_t o = 0;

		if (!c->latency.count)
			continue;
		for (b = 0; b < RR_HIST_BUCKETS; b++) {
			if (!c->latency.hist[b])
				continue;
			rr_hist_label(b, label, sizeof(label));
			o += snprintf(line + o, sizeof(line) - o, "%s%s %lu",
				      o ? ", " : "", label, c->latency.hist[b]);
			if (o >= sizeof(line))
				break;
		}
		snprintf(label, sizeof(label), "  %s", c->name);
		field(f, label, line);
	}
}

static void restore_line(FILE *f, const struct rr_result *r)
{
	char buf[384];
	size_t o;

	if (!r->restore_ran)
		return;
	if (r->restore_failures)
		o = snprintf(buf, sizeof(buf),
			     "FAILED: %d of %d journaled changes could not be undone; see scripts/restore",
			     r->restore_failures,
			     r->restored + r->restore_failures +
			     r->restore_left + r->restore_retired);
	else if (r->restore_left)
		o = snprintf(buf, sizeof(buf),
			     "%d journaled changes undone; %d left as they are: changed by someone else since the run made them (see the messages)",
			     r->restored, r->restore_left);
	else if (r->restore_retired)
		o = snprintf(buf, sizeof(buf),
			     "%d journaled changes undone", r->restored);
	else
		o = snprintf(buf, sizeof(buf),
			     "%d journaled changes undone; the machine is as found",
			     r->restored);
	if (r->restore_retired && o < sizeof(buf))
		snprintf(buf + o, sizeof(buf) - o,
			 "; %d frame%s retired by this run (memory failure, soft offline) stay%s retired until reboot: the kernel would not give %s back",
			 r->restore_retired,
			 r->restore_retired == 1 ? "" : "s",
			 r->restore_retired == 1 ? "s" : "",
			 r->restore_retired == 1 ? "it" : "them");
	field(f, "Restore", buf);
}

/* What a reader needs to repeat the run: the suite and the kernel. */
static void footer(FILE *f, const struct rr_result *r)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "rmap-repro %s; repeat, as root: %s",
		 r->sys.suite_version, r->options);
	field(f, "Suite", buf);
	field(f, "Kconfig", r->sys.kconfig[0] ? r->sys.kconfig :
	      "not readable (no /proc/config.gz or /boot/config-RELEASE)");
}

/* "NAME: VERDICT", the reason, the runs and the evidence beside it. */
static void verdict_head(FILE *f, const struct rr_result *r)
{
	char buf[1536];
	const char *p;

	fprintf(f, "%s: ", r->reproducer);
	/* a benchmark without a bound judged nothing: no verdict's word */
	for (p = rr_measured_only(r) ? "measured" : rr_verdict_names[r->verdict];
	     *p; p++)
		fputc(toupper((unsigned char)*p), f);
	fputc('\n', f);
	field(f, "", r->reason);
	if (rr_kernel_line(r, buf, sizeof(buf))[0])
		field(f, "Line", buf);
	if (r->nr_cases && r->runs) {
		rr_runs_text(r, buf, sizeof(buf));
		field(f, "Runs", buf);
		rr_cpu_pressure_text(r, buf, sizeof(buf));
		field(f, "Host CPU", buf);
	}
	rr_evidence_text(r, buf, sizeof(buf));
	if (buf[0])
		field(f, "Evidence", buf);
	fputc('\n', f);
}

/* The Kernel and Command lines. */
static void machine_lines(FILE *f, const struct rr_result *r)
{
	char buf[256];

	snprintf(buf, sizeof(buf),
		 "%s (%s), %ld CPUs, %.1f GiB, %d NUMA node%s, THP %s",
		 r->sys.release, r->sys.machine, r->sys.cpus,
		 r->sys.mem_kb / 1048576.0, r->sys.numa_nodes,
		 r->sys.numa_nodes == 1 ? "" : "s", r->sys.thp);
	field(f, "Kernel", buf);
	if (r->sys.exact)
		field(f, "Clock", RR_EXACT_CLOCK ". Every time in this report is that clock's: the walks' cost is exact; the victim's stalls, the lock waits and the phases follow the vCPUs' turns in QEMU's one thread, not a kernel's scheduling, and are not latencies.");
	field(f, "Command", r->options);
}

/* The Pattern, KSM and Cases lines: what was built and merged. */
static void pattern_lines(FILE *f, const struct rr_result *r)
{
	const struct rr_case_result *ksm = rr_result_case(r, RR_PT_KSM);
	char buf[1536], what[192];
	int i;

	field(f, "Pattern", r->pattern_text[0] ? r->pattern_text :
	      "(the reproducer did not describe it)");
	if (ksm && ksm->ksm.full_scans && ksm->procs > 1) {
		snprintf(buf, sizeof(buf),
			 "pages_shared %llu, pages_sharing %llu: %llu KSM pages, %llu mappings merged by ksmd (max_page_sharing %llu); ksm_merging_pages summed over the %u processes %lld (pages a child inherited by fork are mapped, not merged: neither figure counts them)",
			 ksm->ksm.pages_shared, ksm->ksm.pages_sharing,
			 ksm->ksm.pages_shared,
			 ksm->ksm.pages_shared + ksm->ksm.pages_sharing,
			 ksm->ksm.max_page_sharing, ksm->procs,
			 ksm->ksm.merging_pages);
		field(f, "KSM", buf);
	} else if (ksm && ksm->ksm.full_scans) {
		snprintf(buf, sizeof(buf),
			 "pages_shared %llu, pages_sharing %llu: %llu KSM pages mapped %llu times (max_page_sharing %llu); ksm_merging_pages of the process %lld",
			 ksm->ksm.pages_shared, ksm->ksm.pages_sharing,
			 ksm->ksm.pages_shared,
			 ksm->ksm.pages_shared + ksm->ksm.pages_sharing,
			 ksm->ksm.max_page_sharing, ksm->ksm.merging_pages);
		field(f, "KSM", buf);
	}
	for (i = 0; i < r->nr_cases; i++) {
		rr_case_what(&r->cases[i], what, sizeof(what));
		snprintf(buf, sizeof(buf), "%s: %s", r->cases[i].name, what);
		field(f, i ? "" : "Cases", buf);
	}
}

/* The Trigger (with the trigger's own lines), Probe, Part, Victim lines. */
static void method_lines(FILE *f, const struct rr_result *r)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);
	const struct rr_bracket_def *d = &rr_brackets[r->probe.bracket];
	char buf[1536], how[256];

	snprintf(buf, sizeof(buf), "%s, %u run%s per case (%s); last: %s",
		 rr_trigger_name(r->trigger), r->runs,
		 r->runs == 1 ? "" : "s", r->trigger_why, r->trigger_how);
	field(f, "Trigger", buf);
	/* the trigger's own lines (its memcg, its load, ...) */
	if (ops && ops->text)
		ops->text(r, f, field);
	if (d->poll_counter)
		snprintf(how, sizeof(how), "timed by %s",
			 rr_probe_clock(r->probe.bracket));
	else
		snprintf(how, sizeof(how),
			 "paired per task, timed by %s, private instance %s",
			 rr_probe_clock(r->probe.bracket), r->instance);
	snprintf(buf, sizeof(buf),
		 "%s: %s, %s. One interval: %s. It bounds: %s.%s%s",
		 d->id, r->probe.events, how, d->what, d->bounds,
		 r->probe_why[0] ? " Chosen because: " : "", r->probe_why);
	field(f, "Probe", buf);
	if (r->part.what[0]) {
		rr_part_text(r, buf, sizeof(buf));
		field(f, "Part", buf);
	}
	rr_victim_text(r, buf, sizeof(buf));
	field(f, "Victim", buf);
}

/* The tables: probe intervals, victim, each figure's, histograms. */
static void tables(FILE *f, const struct rr_result *r)
{
	const struct rr_figure *fig;
	int i;

	fprintf(f, "Probe intervals (%s), ms:\n",
		rr_brackets[r->probe.bracket].id);
	rr_fig_stats_table(f, r, latency_of, "lost", lost_of);
	fprintf(f, "\nVictim %s %s, ms:\n",
		r->victim_call[0] ? r->victim_call : "mprotect()",
		r->sys.exact ? "time (icount: not a latency)" : "latency");
	rr_fig_stats_table(f, r, victim_of, "err", errors_of);
	rr_for_each_figure(i, fig)
		if (fig->table)
			fig->table(f, r);
	fprintf(f, "\nLog2 histogram of the probe intervals:\n");
	histograms(f, r);
}

/* Per case: each figure's block of sentences. */
static void case_lines(FILE *f, const struct rr_result *r)
{
	const struct rr_figure *fig;
	int i;

	rr_for_each_figure(i, fig)
		rr_fig_text(fig, f, r, field);
}

/* The Timing and Safety lines. */
static void timing_and_safety(FILE *f, const struct rr_result *r)
{
	double setup, merge, trigger;
	char buf[256];

	rr_result_timing(r, &setup, &merge, &trigger);
	snprintf(buf, sizeof(buf),
		 "setup %.2f s, merge %.2f s, trigger %.2f s (sums over cases and runs); total %.2f s",
		 setup, merge, trigger, r->total_s);
	field(f, "Timing", buf);
	if (r->oom_unknown)
		snprintf(buf, sizeof(buf),
			 "whether the OOM killer ran is unknown: no oom_kill in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS off); see the kernel log line");
	else if (r->oom_kill_after != r->oom_kill_before)
		snprintf(buf, sizeof(buf),
			 "WARNING: oom_kill in /proc/vmstat moved from %llu to %llu",
			 r->oom_kill_before, r->oom_kill_after);
	else
		snprintf(buf, sizeof(buf),
			 "the OOM killer did not run (oom_kill in /proc/vmstat stayed %llu)",
			 r->oom_kill_before);
	field(f, "Safety", buf);
}

void rr_report_text(FILE *f, const struct rr_result *r)
{
	verdict_head(f, r);
	machine_lines(f, r);
	/*
	 * Stopped before it measured anything (a skip, or an error before
	 * the measuring process began): no pattern, trigger, probe or
	 * safety figure exists to print, only what was undone.
	 */
	if (!r->nr_cases) {
		restore_line(f, r);
		footer(f, r);
		return;
	}
	pattern_lines(f, r);
	method_lines(f, r);
	fputc('\n', f);
	tables(f, r);
	fputc('\n', f);
	case_lines(f, r);
	timing_and_safety(f, r);
	restore_line(f, r);
	footer(f, r);
}
