// SPDX-License-Identifier: GPL-2.0
/*
 * A reproducer's command line: the common options, --help, the checks of
 * the options together (a usage error: exit 2, or 128 under --bisect),
 * and the command line as the reports give it back.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include "core/runner.h"
#include "lib/outdir.h"
#include "lib/util.h"
#include "mm/ksm.h"
#include "trigger/trigger.h"

static const char *const format_names[] = { "text", "ktap", "json", NULL };

static const struct rr_opt common_opts[] = {
	{ "runs", OPT_UINT, &rr_cfg.runs, "N",
	  "build each case's pattern and fire the trigger N times; statistics cover all runs. Each run is judged on its own; the verdict is the one two thirds of the runs give",
	  .min = 1, .max = RR_MAX_RUNS },
	{ "max-runs", OPT_UINT, &rr_cfg.max_runs, "N",
	  "while the runs disagree (no two thirds of them give one verdict), or lost figures, make more runs, up to N in all; then the verdict is inconclusive (exit 3). Default: three times --runs",
	  .min = 1, .max = RR_MAX_RUNS },
	{ "attempts", OPT_UINT, &rr_cfg.attempts, "N",
	  "for a trigger that can miss the pattern (--trigger says which may), rebuild the pattern and fire again up to N times until it reaches it",
	  .min = 1, .max = 1000 },
	{ "probe", OPT_ENUM, &rr_cfg.probe, "NAME",
	  "what measures: rmap-tp (the rmap tracepoints of patched kernels), funcgraph (function_graph on the walk functions; Linux 6.11+, or --funcgraph-top), kprobe (kprobe + kretprobe on them), brackets (the stock tracepoints around the trigger's work), poll (the kernel counter standing in for a bracket whose tracepoints are missing: KSM's full_scans), or auto (the first of these available)",
	  .choices = rr_probe_names },
	{ "funcgraph-top", OPT_FLAG, &rr_funcgraph_top, NULL,
	  "let funcgraph run function_graph in the top-level (global) trace buffer, as kernels before 6.11 require: taken only while global tracing is idle (nop tracer, no event or filter, empty buffer), every global file journaled and restored, the buffer left empty" },
	{ "cross-check", OPT_FLAG, &rr_cfg.cross_check, NULL,
	  "also run every other walk-level probe available (rmap-tp, funcgraph, kprobe) on the same walks, in the same pass, and report their figures beside the chosen probe's" },
	{ "probe-cost", OPT_FLAG, &rr_cfg.probe_cost, NULL,
	  "also fire each trigger once more on a fresh pattern with nothing traced, and report how much longer it took with the probe" },
	{ "iterations", OPT_FLAG, &rr_cfg.iterations, NULL,
	  "also count the interval-tree steps of the walks (kprobes on the tree iterators, anon_rmap_tree_iter_first/_next since 7.3 and anon_vma_interval_tree_iter_first/_next before, feeding hist triggers) in a pass of their own, and report them per walk and per rmap_item with how much the counting slowed the walks" },
	{ "victim", OPT_ENUM, &rr_cfg.victim, "MODE",
	  "when the victim runs: apart (a pass of its own, on a fresh copy of the pattern, so that the probe measures undisturbed walks), same (during the probe's pass), off, or auto (apart, but same for compaction, which cannot be repeated on the same pages)",
	  .choices = rr_victim_names },
	{ "victim-alone", OPT_UINT, &rr_cfg.victim_alone_ms, "MS",
	  "before each firing the victim runs in, let it run MS ms with no trigger: its calls without walks, and its rate of calls with the walks against without them (0: not)",
	  .max = 600000, .zero_ok = true },
	{ "threshold-ms", OPT_DOUBLE, &rr_cfg.threshold_ms, "MS",
	  "latency bound: a run reproduces when the subject's (KSM case's) largest interval in it exceeds it",
	  .dmin = 0.001, .dmax = 1e6 },
	{ "min-ratio", OPT_DOUBLE, &rr_cfg.min_ratio, "X",
	  "and when that interval is at least X times the largest of every control in the same run",
	  .dmin = 1, .dmax = 1e6 },
	{ "format", OPT_ENUM, &rr_cfg.format, "FMT",
	  "report on stdout: text (72 columns, for mail), ktap or json",
	  .choices = format_names },
	{ "label", OPT_STRING, &rr_cfg.label, "NAME",
	  "name the report, and the --out files, NAME instead of the reproducer's own name (run-all gives a preset's variant section [NAME@VARIANT] this label); letters, digits and @._-" },
	{ "out", OPT_STRING, &rr_cfg.out, "DIR",
	  "also write DIR/NAME.txt, DIR/NAME.ktap and DIR/NAME.json" },
	{ "timeout", OPT_UINT, &rr_cfg.timeout_s, "SEC",
	  "stop the run after SEC seconds, restore, and report an error",
	  .min = 1, .max = 86400 },
	{ "min-free-mb", OPT_UINT, &rr_cfg.min_free_mb, "MB",
	  "free-memory floor: a case needing memory below MemAvailable minus this is not run",
	  .min = 64, .max = 1 << 20 },
	{ "trace-buffer-kb", OPT_UINT, &rr_cfg.buffer_kb, "KB",
	  "per-CPU ring buffer of the private tracefs instance",
	  .min = 64, .max = 1 << 20 },
	{ "bisect", OPT_FLAG, &rr_cfg.bisect, NULL,
	  "exit with git bisect run's codes: 0 not reproduced (good), 1 reproduced (bad), 125 skip or error (this kernel cannot be judged), 128 a usage error (abort the bisection)" },
	{ "parse-only", OPT_FLAG, &rr_cfg.parse_only, NULL,
	  "check the options, and stop: exit 0 if they are valid, 2 (a usage error, said) if not. Nothing runs and nothing changes: run-all checks a preset's lines this way for every reproducer before it runs any" },
	{ "quiet", OPT_FLAG, &rr_cfg.quiet, NULL,
	  "no progress lines on stderr" },
	RR_OPT_END
};

/* --label: a file name of its own, not a path. */
static bool check_label(const char *label, char *err, size_t len)
{
	const char *p;

	if (!*label || strlen(label) >= sizeof(((struct rr_result *)0)->reproducer)) {
		snprintf(err, len, "--label: needs 1 to 63 characters");
		return false;
	}
	for (p = label; *p; p++) {
		if (!isalnum((unsigned char)*p) && !strchr("@._-", *p)) {
			snprintf(err, len,
				 "--label %s: only letters, digits and @._- are allowed",
				 label);
			return false;
		}
	}
	return true;
}

/*
 * --out must be a directory this process can write to, checked before
 * anything runs so that no result is lost at the end. As root, it and
 * every directory above it must be root's alone (lib/outdir.h): in one
 * that others can write, a link planted at a report's name, or at the
 * directory's own, would have root write over its target. The missing
 * part is made now (it would be at the end anyway), and the reports go
 * to the resolved path: a link on the way is not followed again.
 */
static bool check_out(char *err, size_t len)
{
	static char resolved[PATH_MAX];
	char why[768];

	if (rr_out_dir(rr_cfg.out, !rr_cfg.parse_only, resolved,
		       sizeof(resolved), why, sizeof(why))) {
		snprintf(err, len, "--out %s: %s", rr_cfg.out, why);
		return false;
	}
	if (!rr_cfg.parse_only)
		rr_cfg.out = resolved;
	return true;
}

/*
 * One argument as a shell would read it back: as it is when it is made
 * of plain characters, else quoted, and a control character (a line
 * break that would start a KTAP line of its own) escaped in $'...'.
 */
static size_t quote_arg(char *o, size_t size, const char *a)
{
	bool plain = *a, ctrl = false;
	size_t n = 0;
	const char *p;

	for (p = a; *p; p++) {
		unsigned char c = *p;

		if (!isalnum(c) && !strchr("@%+=:,./_-", c))
			plain = false;
		if (c < ' ' || c == 0x7f)
			ctrl = true;
	}
	if (plain)
		return snprintf(o, size, "%s", a);
	n = snprintf(o, size, "%s'", ctrl ? "$" : "");
	for (p = a; *p && n + 6 < size; p++) {
		unsigned char c = *p;

		if (c == '\'' && !ctrl)
			n += snprintf(o + n, size - n, "'\\''");
		else if (ctrl && (c == '\'' || c == '\\'))
			n += snprintf(o + n, size - n, "\\%c", c);
		else if (ctrl && (c == '\n' || c == '\t'))
			n += snprintf(o + n, size - n, "\\%c",
				      c == '\n' ? 'n' : 't');
		else if (ctrl && (c < ' ' || c == 0x7f))
			n += snprintf(o + n, size - n, "\\x%02x", c);
		else
			o[n++] = c;
	}
	o[n < size ? n : size - 1] = '\0';
	return n + snprintf(o + n, n < size ? size - n : 0, "'");
}

void rr_command_line(struct rr_result *res, int argc, char **argv)
{
	size_t o = 0;
	int i;

	o = snprintf(res->options, sizeof(res->options), "%s",
		     res->reproducer);
	for (i = 1; i < argc && o + 1 < sizeof(res->options); i++) {
		res->options[o++] = ' ';
		o += quote_arg(res->options + o, sizeof(res->options) - o,
			       argv[i]);
	}
	if (o >= sizeof(res->options))
		res->options[sizeof(res->options) - 1] = '\0';
}

/*
 * A usage error: 2, or under --bisect 128, which aborts git bisect run
 * (asked for anywhere on the command line: parsing may stop before it).
 */
int rr_usage_error(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--bisect"))
			return RR_BISECT_ABORT;
	return 2;
}

/*
 * The parsed options together, before anything runs: false, with why,
 * is a usage error.
 */
static bool options_valid(const struct rr_repro *r, char *err, size_t len)
{
	if (r->check && !r->check(err, len))
		return false;
	if (rr_cfg.label && !check_label(rr_cfg.label, err, len))
		return false;
	/* one of those it takes only when asked, or one of its list */
	if (!(r->asked_triggers && rr_cfg.trigger &&
	      rr_trigger_check(rr_cfg.trigger, r->asked_triggers, NULL, err,
			       len)) &&
	    !rr_trigger_check(rr_cfg.trigger, r->triggers, r->triggers_why,
			      err, len))
		return false;
	if (!rr_trigger_opts_valid(err, len))
		return false;
	if (rr_cfg.max_runs && rr_cfg.max_runs < rr_cfg.runs) {
		snprintf(err, len, "--max-runs %llu is less than --runs %llu",
			 rr_cfg.max_runs, rr_cfg.runs);
		return false;
	}
	/* Last: a usage error must not leave a new directory behind. */
	return !rr_cfg.out || check_out(err, len);
}

/*
 * --help's head: the usage, the summary, and the cases, each in the
 * words the report gives it (the subject first).
 */
static void help_head(const struct rr_repro *r)
{
	char head[64], what[256];
	int i;

	printf("Usage: %s [OPTIONS]\n\n", r->name);
	rr_wrap(stdout, r->summary, 0, 0, 78);
	printf("\nCases (the subject first, then %s):\n",
	       r->policy == RR_POLICY_BENCHMARK ? "the others" :
	       "the controls it is judged against");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case *c = &r->cases[i];

		snprintf(head, sizeof(head), "  %s",
			 c->name ? c->name : rr_page_type_name(c->type));
		printf("%-26s", head);
		rr_case_words(c->type, c->role, rr_case_declared_what(r, c),
			      what, sizeof(what));
		rr_wrap(stdout, what, 26, 26, 78);
	}
}

/* The exit codes, for --help: the same for every reproducer. */
static void exit_codes_help(const struct rr_repro *r)
{
	fputc('\n', stdout);
	rr_wrap(stdout, r->policy == RR_POLICY_BENCHMARK ?
		"Exit: 0 within the bound (or no bound given), 1 over it (KTAP not ok), 2 error, 3 inconclusive (the runs kept disagreeing up to --max-runs), 4 skip; with --bisect, git bisect run's 0, 1, 125 (skip, error, inconclusive) and 128 (usage)." :
		"Exit: 0 not reproduced, 1 reproduced (KTAP not ok), 2 error, 3 inconclusive (the runs kept disagreeing up to --max-runs), 4 skip; with --bisect, git bisect run's 0, 1, 125 (skip, error, inconclusive) and 128 (usage).",
		0, 0, 78);
}

/*
 * Parse and check the options: true to go on; false with the exit code
 * in *code (0 after --help, that of a usage error).
 */
bool rr_parse_options(const struct rr_repro *r, int argc, char **argv,
		      int *code)
{
	/* the common options, the triggers', KSM's, the reproducer's */
	const struct rr_opt *tables[4 + RR_TRIGGER_OPT_TABLES] = {
		common_opts
	};
	char err[512];
	int n = 1, ret;

	n += rr_trigger_opt_tables(tables + n, RR_TRIGGER_OPT_TABLES);
	if (rr_repro_has_ksm(r))
		tables[n++] = rr_ksm_opt_table;
	if (r->opts)
		tables[n++] = r->opts;
	ret = rr_opts_parse(tables, argc, argv, err, sizeof(err));
	if (ret == 1) {
		help_head(r);
		rr_opts_help_options(stdout, tables);
		exit_codes_help(r);
		*code = 0;
		return false;
	}
	if (!ret && !options_valid(r, err, sizeof(err)))
		ret = -1;
	if (ret < 0) {
		fprintf(stderr, "%s: %s\nTry '%s --help'.\n", r->name, err,
			r->name);
		*code = rr_usage_error(argc, argv);
		return false;
	}
	rr_set_quiet(rr_cfg.quiet);
	return true;
}
