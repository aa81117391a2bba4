// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <string.h>

#include "lib/util.h"
#include "model/kline.h"
#include "model/verdict.h"
#include "probe/bracket.h"
#include "probe/iters.h"
#include "report/report.h"
#include "trigger/trigger.h"

#define WIDTH 72
#define INDENT 9

void rr_case_what(const struct rr_case_result *c, char *buf, size_t len)
{
	rr_case_words(c->type, c->role, c->what, buf, len);
}

bool rr_call_split(const struct rr_result *r, const struct rr_case_result *c,
		   struct rr_split *sp)
{
	memset(sp, 0, sizeof(*sp));
	/* only walks split a call: a bracket around ksmd's scans does not */
	if (!c->calls.count || !rr_brackets[r->probe.bracket].walk)
		return false;
	sp->calls = c->calls.mean * c->calls.count;
	sp->walks = c->latency.mean * c->latency.count;
	sp->part_timed = rr_part_timed(&r->part, c->type, sp->part_why,
				       sizeof(sp->part_why));
	if (sp->part_timed)
		sp->part = c->part.mean * c->part.count;
	/* disjoint in time, but two clocks: never a negative rest */
	sp->rest = sp->calls > sp->walks + sp->part ?
		   sp->calls - sp->walks - sp->part : 0;
	return true;
}

void rr_part_text(const struct rr_result *r, char *buf, size_t size)
{
	const struct rr_bracket_def *d = &rr_brackets[RR_BR_PART];
	char fns[192];
	size_t o = 0;
	int t;

	if (!r->part.timed) {
		snprintf(buf, size, "%s: not timed apart: %s", r->part.what,
			 r->part.why);
		return;
	}
	fns[0] = '\0';
	for (t = 0; t < RR_PT_MAX && o < sizeof(fns); t++) {
		const struct rr_walkfn *f = &r->part.fns[t];
		int u;

		/* each function once (collect_procs serves two types) */
		for (u = 0; u < t && (!r->part.fns[u].found ||
				      strcmp(r->part.fns[u].name, f->name)); u++)
			;
		if (f->found && u == t)
			o += snprintf(fns + o, sizeof(fns) - o, "%s%s",
				      o ? ", " : "", f->name);
	}
	snprintf(buf, size,
		 "%s: %s/%s_TYPE (kprobe) .. %s_TYPE_ret (kretprobe) on %s, paired per task, timed by %s. One interval: %s. It bounds: %s.",
		 r->part.what, d->system, d->prefix, d->prefix, fns,
		 rr_probe_clock(RR_BR_PART), d->what, d->bounds);
}

void rr_split_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size)
{
	const struct rr_trigger_ops *t = rr_trigger_get(r->trigger);
	const char *walks = t && t->walks_what ? t->walks_what :
			    "walking the rmap";
	const char *rest = t && t->call_rest ? t->call_rest :
			   "the call's work outside the walks";
	struct rr_split sp;
	size_t o;

	buf[0] = '\0';
	if (!rr_call_split(r, c, &sp))
		return;
	o = snprintf(buf, size, "%zu call(s), %.3f ms in all: ",
		     c->calls.count, sp.calls);
	if (sp.part_timed && o < size)
		o += snprintf(buf + o, size - o, "%.3f ms %s (%s, %s), ",
			      sp.part, r->part.what, r->part.fns[c->type].name,
			      rr_brackets[RR_BR_PART].id);
	if (o < size)
		o += snprintf(buf + o, size - o, "%.3f ms %s (rmap walks, %s), ",
			      sp.walks, walks,
			      rr_brackets[r->probe.bracket].id);
	if (o >= size)
		return;
	if (sp.part_timed || !r->part.what[0])
		snprintf(buf + o, size - o, "%.3f ms the rest: %s, not timed apart",
			 sp.rest, rest);
	else
		snprintf(buf + o, size - o,
			 "%.3f ms the rest: %s (not timed apart: %s), %s",
			 sp.rest, r->part.what, sp.part_why, rest);
}

void rr_walkers_text(const struct rr_result *r, const struct rr_case_result *c,
		     char *buf, size_t size)
{
	size_t o = 0;
	int k;

	buf[0] = '\0';
	if (!c->ran)
		return;
	for (k = 0; k < RR_TASK_MAX && o < size; k++)
		o += snprintf(buf + o, size - o, "%s%s %llu", k ? ", " : "",
			      rr_task_kind_words[k], c->walkers[k]);
	if (o < size)
		snprintf(buf + o, size - o,
			 " (intervals by task; the reproducer's own are left out of the figures)");
}

void rr_reach_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size)
{
	const struct rr_trigger_ops *t = rr_trigger_get(r->trigger);

	if (t && t->reach)
		t->reach(c, buf, size);
	else
		snprintf(buf, size,
			 "%llu of %llu filled pages unmapped (pagemap)",
			 c->gone, c->filled);
}

static void unit(double us, char *buf, size_t size)
{
	if (us >= 1e6)
		snprintf(buf, size, "%g s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, size, "%g ms", us / 1e3);
	else
		snprintf(buf, size, "%g us", us);
}

const char *rr_probe_clock(int bracket)
{
	const struct rr_bracket_def *d = &rr_brackets[bracket];

	if (d->poll_counter)
		return "CLOCK_MONOTONIC of the measuring process, read when the polled counter was seen to change";
	if (d->call_field)
		return "the tracer's own calltime and rettime (trace_clock_local)";
	if (d->dur_field)
		return "the kernel's own duration field";
	return "mono (the instance's trace_clock)";
}

void rr_cost_text(const struct rr_result *r, const struct rr_case_result *c,
		  char *buf, size_t size)
{
	double with = c->pass_s[RR_PASS_PROBE], without = c->pass_s[RR_PASS_BARE];

	buf[0] = '\0';
	if (!c->passes[RR_PASS_BARE])
		return;
	snprintf(buf, size,
		 "the trigger took %.3f s with the probe, %.3f s without it (%+.1f%%), over %u run(s) each on fresh patterns",
		 with, without, without > 0 ? (with - without) / without * 100 : 0,
		 c->passes[RR_PASS_BARE]);
}

double rr_step_cost_us(const struct rr_result *r,
		       const struct rr_case_result *c)
{
	double steps;

	/* a bracket's interval is not one walk: no cost per step */
	if (!c->passes[RR_PASS_COUNT] || !c->count_walks ||
	    !rr_brackets[r->probe.bracket].walk || !c->latency.count)
		return -1;
	steps = (double)(c->iter_first + c->iter_next) / c->count_walks;
	return steps > 0 ? c->latency.mean * 1000 / steps : -1;
}

void rr_iter_text(const struct rr_result *r, const struct rr_case_result *c,
		  char *buf, size_t size)
{
	unsigned long long steps = c->iter_first + c->iter_next;
	size_t o;

	buf[0] = '\0';
	if (!c->passes[RR_PASS_COUNT])
		return;
	if (!c->count_walks || !c->iter_first) {
		snprintf(buf, size,
			 "%llu interval-tree steps counted over %llu walks: nothing to divide",
			 steps, c->count_walks);
		return;
	}
	o = snprintf(buf, size,
		     "%.0f interval-tree steps per walk and %.0f per rmap_item (means: %llu steps, %llu iter_first calls, %llu walks)",
		     (double)steps / c->count_walks,
		     (double)steps / c->iter_first, steps, c->iter_first,
		     c->count_walks);
	if (c->walk_steps.count && o < size)
		o += snprintf(buf + o, size - o,
			      "; per walk max %.0f, p50 %.0f over %zu walks; per rmap_item max %.0f, p50 %.0f, mean %.0f over %zu rmap_item visits",
			      c->walk_steps.max, c->walk_steps.p50,
			      c->walk_steps.count, c->item_steps.max,
			      c->item_steps.p50, c->item_steps.mean,
			      c->item_steps.count);
	if (c->walks_without_items && o < size)
		o += snprintf(buf + o, size - o,
			      " (%llu of the walks reached no rmap_item: 0 steps)",
			      c->walks_without_items);
	if (c->items_dropped && o < size)
		o += snprintf(buf + o, size - o,
			      " (%llu rmap_items DROPPED: hist full, maxima incomplete)",
			      c->items_dropped);
	if (o < size)
		o += snprintf(buf + o, size - o,
			      "; counting made the walks %.1fx slower (mean %.3f ms against %.3f ms uncounted)",
			      c->latency.mean > 0 ?
			      c->count_lat.mean / c->latency.mean : 0,
			      c->count_lat.mean, c->latency.mean);
	if (rr_step_cost_us(r, c) >= 0 && o < size)
		o += snprintf(buf + o, size - o,
			      "; %.3f us per step (the probe pass's mean walk over the counting pass's mean steps per walk: whether a change removed steps or made them cheaper)",
			      rr_step_cost_us(r, c));
	if (o < size)
		rr_callers_text(&c->iter_callers, buf + o, size - o);
}

void rr_callers_text(const struct rr_iter_callers *cl, char *buf,
		     size_t size)
{
	const char *sep = "; by caller (the kernel stack of each step): ";
	size_t o = 0;
	int i;

	buf[0] = '\0';
	if (!cl->counted)
		return;
	for (i = 0; i <= rr_iter_nr_callers && o < size; i++) {
		enum rr_kfn k = i < rr_iter_nr_callers ?
				rr_iter_caller_roles[i] : RR_KFN_NONE;
		unsigned long long f = cl->first[k], steps = f + cl->next[k];

		if (!steps)
			continue;
		o += snprintf(buf + o, size - o, "%s%s %llu steps in %llu iter_first calls",
			      sep, k == RR_KFN_NONE ? "other callers" :
			      cl->name[k], steps, f);
		if (f && o < size)
			o += snprintf(buf + o, size - o, " (%.1f each)",
				      (double)steps / f);
		sep = ", ";
	}
}

void rr_victim_text(const struct rr_result *r, char *buf, size_t size)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);
	const char *how, *backs_off = ops && ops->backs_off ?
				      ops->backs_off_why : NULL;

	switch (r->victim) {
	case RR_VICTIM_OFF:
		snprintf(buf, size, "off (--victim off)");
		return;
	case RR_VICTIM_SAME:
		how = " It ran during the probe's pass, so the walks it waited for also waited for it.";
		break;
	default:
		how = " It ran in a pass of its own, on a fresh copy of the pattern, so that the probe's pass measured the walks undisturbed.";
	}
	snprintf(buf, size, "%s; CLOCK_MONOTONIC around each call.%s%s%s",
		 r->victim_what[0] ? r->victim_what :
		 "a thread toggling mprotect() on one page inside the split mapping during the trigger; each call merges or splits VMAs and so needs the rmap lock (anon_vma or i_mmap) for write",
		 how, backs_off ? " " : "", backs_off ? backs_off : "");
}

void rr_hist_label(int b, char *buf, size_t size)
{
	char lo[32], hi[32];
	double l, h;

	rr_hist_bounds(b, &l, &h);
	unit(l, lo, sizeof(lo));
	unit(h, hi, sizeof(hi));
	snprintf(buf, size, "[%s, %s)", b ? lo : "0", hi);
}

/* "Label    text wrapped at 72 columns under an indent" */
static void field(FILE *f, const char *label, const char *text)
{
	fprintf(f, "%-*s", INDENT, label);
	rr_wrap(f, text, INDENT, INDENT, WIDTH);
}

/* T_ALONE: the victim with no trigger (--victim-alone) */
enum table { T_PROBE, T_VICTIM, T_CALLS, T_ALONE };

static void stats_table(FILE *f, const struct rr_result *r, enum table t)
{
	bool victim = t == T_VICTIM;
	int i;

	bool plain = t == T_CALLS || t == T_ALONE;	/* no last column */

	fprintf(f, "%-5s %6s %9s %9s %9s %9s %9s", "case", "n", "min",
		"p50", "p90", "p99", "max");
	if (plain)
		fputc('\n', f);
	else
		fprintf(f, " %6s\n", victim ? "err" : "lost");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];
		const struct rr_stats *s = victim ? &c->victim :
					   t == T_CALLS ? &c->calls :
					   t == T_ALONE ? &c->victim_alone :
					   &c->latency;

		if (!c->ran)
			continue;
		if (!s->count) {
			fprintf(f, "%-5s %6s  %s%s\n", c->name,
				"0", c->refused[0] ? "refused: " :
				!c->error[0] && c->not_reached[0] ?
				"not reached: " : "",
				c->refused[0] ? c->refused :
				c->error[0] ? c->error :
				c->not_reached[0] ? c->not_reached :
				"nothing measured");
			continue;
		}
		fprintf(f, "%-5s %6zu %9.3f %9.3f %9.3f %9.3f %9.3f", c->name,
			s->count, s->min, s->p50, s->p90, s->p99, s->max);
		if (plain)
			fputc('\n', f);
		else
			fprintf(f, " %6llu\n", victim ?
				(unsigned long long)c->victim_errors :
				c->lost_events);
	}
}

static double pct(double a, double b)
{
	return b > 0 ? (a - b) / b * 100.0 : 0;
}

/* The same walks, measured by the other walk-level probes. */
static void cross_table(FILE *f, const struct rr_result *r)
{
	int i, k;

	fprintf(f, "\nCross-check, the same walks by other probes in the same pass, ms\n(vs %s):\n",
		rr_brackets[r->probe.bracket].id);
	fprintf(f, "%-5s %-10s %6s %10s %7s %10s %7s\n", "case", "probe", "n",
		"mean", "diff", "max", "diff");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];

		for (k = 0; k < r->nr_cross; k++) {
			const struct rr_stats *s = &c->cross[k];

			if (!c->ran)
				continue;
			fprintf(f, "%-5s %-10s %6zu %10.3f %+6.1f%% %10.3f %+6.1f%%\n",
				c->name,
				rr_brackets[r->cross[k].bracket].id, s->count,
				s->mean, pct(s->mean, c->latency.mean), s->max,
				pct(s->max, c->latency.max));
		}
	}
}

/* One "case: sentence" line per case that has one, under a label. */
static void per_case(FILE *f, const struct rr_result *r, const char *label,
		     const char *prefix,
		     void (*text)(const struct rr_result *,
				  const struct rr_case_result *, char *,
				  size_t))
{
	char buf[1024], line[1100];
	int i, shown = 0;

	for (i = 0; i < r->nr_cases; i++) {
		text(r, &r->cases[i], buf, sizeof(buf));
		if (!buf[0])
			continue;
		snprintf(line, sizeof(line), "%s%s: %s", prefix,
			 r->cases[i].name, buf);
		field(f, shown++ ? "" : label, line);
	}
}

static void oracle_text(const struct rr_result *r,
			 const struct rr_case_result *c, char *buf,
			size_t size)
{
	const struct rr_oracle *o = &c->oracle;

	buf[0] = '\0';
	if (!o->ran)
		return;
	snprintf(buf, size,
		 "%s: %llu of %llu pages not acted on, %llu of %llu mappings missed; %s",
		 rr_oracle_failed(o) ? "FAILED" : "clean", o->pages_failed,
		 o->pages_checked, o->mappings_missed, o->mappings_checked,
		 o->reason);
}

static void klog_text(const struct rr_result *r,
			 const struct rr_case_result *c, char *buf,
		      size_t size)
{
	const struct rr_klog *k = &c->klog;
	size_t o = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < k->lines && o < size; i++)
		o += snprintf(buf + o, size - o, "%s%s", i ? " | " : "",
			      k->line[i]);
	if (k->more && o < size)
		snprintf(buf + o, size - o, " (and %u more)", k->more);
}

/*
 * The kernel's log while the cases ran: the lines that matter, per
 * case, or a line saying there were none (or why it was not read).
 */
static void klog_lines(FILE *f, const struct rr_result *r)
{
	unsigned long long records = 0;
	int i, read = 0, lines = 0;
	const char *why = "";
	char buf[256];

	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_klog *k = &r->cases[i].klog;

		if (!r->cases[i].ran)
			continue;
		if (k->read)
			read++;
		else if (k->why[0])
			why = k->why;
		records += k->records;
		lines += k->lines;
	}
	if (lines) {
		per_case(f, r, "Kernel", "log, ", klog_text);
		return;
	}
	if (read)
		snprintf(buf, sizeof(buf),
			 "log: nothing that matters during the cases (/dev/kmsg, %llu records read; taint unchanged)",
			 records);
	else
		snprintf(buf, sizeof(buf), "log: not read (%s)",
			 why[0] ? why : "no case ran");
	field(f, "Kernel", buf);
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
	for (p = rr_verdict_names[r->verdict]; *p; p++)
		fputc(toupper((unsigned char)*p), f);
	fputc('\n', f);
	field(f, "", r->reason);
	if (rr_kernel_line(r, buf, sizeof(buf))[0])
		field(f, "Line", buf);
	if (r->nr_cases && r->runs) {
		rr_runs_text(r, buf, sizeof(buf));
		field(f, "Runs", buf);
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

/* The tables: probe intervals, victim, trigger calls, histograms. */
static void tables(FILE *f, const struct rr_result *r)
{
	int i;

	fprintf(f, "Probe intervals (%s), ms:\n",
		rr_brackets[r->probe.bracket].id);
	stats_table(f, r, T_PROBE);
	if (r->nr_cross)
		cross_table(f, r);
	fprintf(f, "\nVictim %s %s, ms:\n",
		r->victim_call[0] ? r->victim_call : "mprotect()",
		r->sys.exact ? "time (icount: not a latency)" : "latency");
	stats_table(f, r, T_VICTIM);
	if (r->victim_alone_ms) {
		fprintf(f, "\nVictim %s latency with no trigger (--victim-alone %llu ms before each firing), ms:\n",
			r->victim_call[0] ? r->victim_call : "mprotect()",
			r->victim_alone_ms);
		stats_table(f, r, T_ALONE);
	}
	rr_waits_table(f, r);
	for (i = 0; i < r->nr_cases && !r->cases[i].calls.count; i++)
		;
	if (i < r->nr_cases) {
		fprintf(f, "\nTrigger calls (%s), each timed by the trigger (CLOCK_MONOTONIC), ms:\n",
			rr_trigger_name(r->trigger));
		stats_table(f, r, T_CALLS);
	}
	fprintf(f, "\nLog2 histogram of the probe intervals:\n");
	histograms(f, r);
}

static void waits_not(FILE *f, const struct rr_result *r, const char *key,
		      const char *why)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "not recorded: %s", why);
	field(f, key, buf);
}

/* What counted the steps: the iterators by name, as this kernel has them. */
static void iter_how(FILE *f, const struct rr_result *r)
{
	const struct rr_iter_syms *s = &r->iter_syms;
	char buf[1024];
	size_t o;

	o = snprintf(buf, sizeof(buf),
		     "counted in the kernel: kprobes on %s (the anon_vma tree's iterators",
		     s->fns[0]);
	if (s->found[1] && o < sizeof(buf))
		o += snprintf(buf + o, sizeof(buf) - o,
			      "; file pages: %s", s->fns[1]);
	if (o < sizeof(buf))
		snprintf(buf + o, sizeof(buf) - o,
			 "), hist triggers per task%s; an rmap_item's steps are its iter_first call and its iter_next calls",
			 r->iter_items ? " and, through synthetic/" RR_STEP_SYNTH "(wid, sid), per rmap_item and walk (a kprobe on the walk function gives the walk's id)" : "");
	field(f, "", buf);
}

/* Per case: what the trigger reached, and the blocks of sentences. */
static void case_lines(FILE *f, const struct rr_result *r)
{
	const struct rr_trigger_ops *ops = rr_trigger_get(r->trigger);
	char buf[1536], reach[256];
	int i;

	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];

		if (!c->ran)
			continue;
		rr_reach_text(r, c, reach, sizeof(reach));
		snprintf(buf, sizeof(buf), "%s: %s; %lu intervals paired, %lu dropped unpaired%s",
			 c->name, reach, c->intervals,
			 c->unpaired,
			 c->lost_events ? "; EVENTS LOST: figures incomplete" : "");
		field(f, i ? "" : "Reach", buf);
	}
	if (r->anywhere)
		per_case(f, r, "Walkers", "", rr_walkers_text);
	per_case(f, r, "Rate", "", rr_rate_text);
	per_case(f, r, "Waits", "", rr_waits_text);
	if (r->waits)
		field(f, "", rr_waits_how);
	else if (r->waits_why[0])
		waits_not(f, r, "Waits", r->waits_why);
	per_case(f, r, "Give-ups", "", rr_giveups_text);
	if (r->waits && !r->giveups && r->giveups_why[0])
		waits_not(f, r, "Give-ups", r->giveups_why);
	/* the trigger's own block per case (ksmd's use, ...) */
	if (ops && ops->case_key && ops->case_summary)
		per_case(f, r, ops->case_key, "", ops->case_summary);
	per_case(f, r, "Split", "", rr_split_text);
	per_case(f, r, "Oracle", "", oracle_text);
	klog_lines(f, r);
	per_case(f, r, "Cost", "", rr_cost_text);
	per_case(f, r, "Steps", "", rr_iter_text);
	if (r->iterations && !r->iter_items)
		field(f, "", r->iter_items_note[0] ? r->iter_items_note :
		      "steps per rmap_item not counted");
	if (r->iterations)
		iter_how(f, r);
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
