// SPDX-License-Identifier: GPL-2.0
/*
 * The lifecycle every reproducer shares:
 *
 *   parse options (nothing changed yet; bad value: exit 2)
 *   take the run lock, replay a journal left by a killed run
 *   check prerequisites (missing: SKIP, exit 4)
 *   fork: the child measures; the parent supervises
 *   the parent waits for the child, a signal or the timeout, kills the
 *   child if needed, replays the journal, then reports
 *
 * All restore work happens in the parent, from the journal, after the
 * child is gone: the same code path for a normal end, an error, a crash
 * of the child, SIGINT/SIGTERM/SIGHUP and the timeout. After SIGKILL of
 * the parent, the child dies too (PR_SET_PDEATHSIG) and scripts/restore
 * replays the same journal.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/undo.h"
#include "journal/journal.h"
#include "lib/hooks.h"
#include "lib/util.h"
#include "mm/ksm.h"
#include "mm/sysinfo.h"
#include "model/repro.h"
#include "probe/iters.h"
#include "probe/probe.h"
#include "probe/trace.h"
#include "report/report.h"
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

bool rr_repro_valid(const struct rr_repro *r, char *why, size_t len)
{
	int i, j, subjects = 0;

	if (r->nr_cases < 2 || r->nr_cases > RR_MAX_CASES) {
		snprintf(why, len, "%d cases: a subject and 1 to %d controls",
			 r->nr_cases, RR_MAX_CASES - 1);
		return false;
	}
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case *c = &r->cases[i];
		const char *n = c->name ? c->name : rr_page_type_name(c->type);

		if (c->type >= RR_PT_MAX) {
			snprintf(why, len, "case %d: no page type", i + 1);
			return false;
		}
		subjects += c->role == RR_SUBJECT;
		for (j = 0; j < i; j++) {
			const struct rr_case *o = &r->cases[j];

			if (!strcmp(n, o->name ? o->name :
				    rr_page_type_name(o->type))) {
				snprintf(why, len, "two cases named %s", n);
				return false;
			}
		}
		if (strlen(n) >= sizeof(((struct rr_case_result *)0)->name) ||
		    strspn(n, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
		    strlen(n)) {
			snprintf(why, len,
				 "case name '%s': lower case letters, digits and '-', at most 23",
				 n);
			return false;
		}
	}
	if (subjects != 1) {
		snprintf(why, len, "%d subject cases: one is needed", subjects);
		return false;
	}
	return true;
}

bool rr_victim_none(char *why, size_t len)
{
	if (rr_cfg.victim == RR_VICTIM_AUTO)
		rr_cfg.victim = RR_VICTIM_OFF;
	if (rr_cfg.victim == RR_VICTIM_OFF)
		return true;
	snprintf(why, len,
		 "--victim %s: this reproducer has no victim thread (its pattern has no rmap lock for one to wait on)",
		 rr_victim_names[rr_cfg.victim]);
	return false;
}

/* A KSM case, or KSM itself is what it measures (uses_ksm). */
static bool has_ksm_case(const struct rr_repro *r)
{
	int i;

	if (r->uses_ksm)
		return true;
	for (i = 0; i < r->nr_cases; i++)
		if (r->cases[i].type == RR_PT_KSM)
			return true;
	return false;
}

/* Bytes of the largest case's pattern: what one case maps at a time. */
static unsigned long long largest_pattern(const struct rr_repro *r)
{
	struct rr_pattern_spec spec;
	unsigned long long most = 0;
	int i;

	for (i = 0; i < r->nr_cases; i++) {
		memset(&spec, 0, sizeof(spec));
		r->spec(&r->cases[i], &spec);
		if (spec.pages * rr_page_size() > most)
			most = spec.pages * rr_page_size();
	}
	return most;
}

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
 * As root, reports go only to a directory that root alone can write (or
 * that the run makes): in one that others can write, a link planted at
 * a report's name would have root write over its target.
 */
static bool out_trusted(const char *dir, const struct stat *st, char *err,
			size_t len)
{
	if (geteuid() || (!st->st_uid && !(st->st_mode & (S_IWGRP | S_IWOTH))))
		return true;
	snprintf(err, len,
		 "--out %s: %s (mode %04o): as root, reports go only to a directory that root alone can write; name a new one (it is made) or one of root's",
		 dir, st->st_uid ? "it belongs to another user" :
		 "other users can write to it",
		 (unsigned int)(st->st_mode & 07777));
	return false;
}

/*
 * --out must be a directory this process can write to, checked before
 * anything runs so that no result is lost at the end. A missing last
 * component is created (it would be at the end anyway).
 */
static bool check_out(const char *dir, char *err, size_t len)
{
	struct stat st;
	char copy[PATH_MAX];
	int e;

	if (stat(dir, &st) && rr_cfg.parse_only) {
		/* would it be made? its parent must be a writable directory */
		e = errno;
		snprintf(copy, sizeof(copy), "%s", dir);
		if (e == ENOENT && access(dirname(copy), W_OK | X_OK))
			e = errno;
		else if (e == ENOENT)
			return true;
		snprintf(err, len, "--out %s: cannot create it: %s", dir,
			 strerror(e));
		return false;
	}
	if (stat(dir, &st)) {
		if (errno != ENOENT || mkdir(dir, 0755)) {
			snprintf(err, len, "--out %s: cannot create it: %s",
				 dir, strerror(errno));
			return false;
		}
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(err, len, "--out %s: exists and is not a directory",
			 dir);
		return false;
	} else if (!out_trusted(dir, &st, err, len)) {
		return false;
	}
	if (access(dir, W_OK | X_OK)) {
		snprintf(err, len, "--out %s: not writable: %s", dir,
			 strerror(errno));
		return false;
	}
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

static void command_line(struct rr_result *res, int argc, char **argv)
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

static void write_one(const struct rr_result *res, const char *dir,
		      const char *ext,
		      void (*fn)(FILE *, const struct rr_result *))
{
	char path[4096], tmp[4096];
	FILE *f;
	int fd, err;

	/*
	 * Written aside and renamed over the name: whatever is at the
	 * name (a link someone planted) is replaced, never written through.
	 */
	snprintf(path, sizeof(path), "%s/%s.%s", dir, res->reproducer, ext);
	snprintf(tmp, sizeof(tmp), "%s/.%s.%s.XXXXXX", dir, res->reproducer,
		 ext);
	fd = mkostemp(tmp, O_CLOEXEC);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rr_warn("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return;
	}
	fn(f, res);
	err = ferror(f) | fchmod(fd, 0644);
	if (fclose(f) || err || rename(tmp, path)) {
		rr_warn("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
}

static void report(const struct rr_result *res)
{
	static void (*const fns[])(FILE *, const struct rr_result *) = {
		[RR_FMT_TEXT] = rr_report_text,
		[RR_FMT_KTAP] = rr_report_ktap,
		[RR_FMT_JSON] = rr_report_json,
	};

	fns[rr_cfg.format](stdout, res);
	fflush(stdout);
	if (!rr_cfg.out)
		return;
	if (mkdir(rr_cfg.out, 0755) && errno != EEXIST) {
		rr_warn("cannot create %s: %s", rr_cfg.out, strerror(errno));
		return;
	}
	write_one(res, rr_cfg.out, "txt", rr_report_text);
	write_one(res, rr_cfg.out, "ktap", rr_report_ktap);
	write_one(res, rr_cfg.out, "json", rr_report_json);
}

/*
 * The probe of a trigger with no rmap walk: its bracket, or where the
 * bracket's tracepoints are missing, the counter polled in their stead
 * (--probe auto); --probe brackets or poll asks for one of them.
 */
static int select_bracket(const struct rr_trigger_ops *to, int t,
			  struct rr_result *res)
{
	size_t len = sizeof(res->probe_why);
	int tb = rr_trigger_bracket(t);
	char w[sizeof(res->probe_why)];

	if (rr_cfg.probe != RR_PROBE_AUTO)
		return rr_probe_select(rr_cfg.probe, tb, &res->probe,
				       res->probe_why, len);
	if (!rr_probe_select(RR_PROBE_BRACKETS, tb, &res->probe, w,
			     sizeof(w))) {
		snprintf(res->probe_why, len,
			 "trigger %s has no rmap walk to time: its bracket is the probe",
			 to->name);
		return 0;
	}
	if (!rr_probe_select(RR_PROBE_POLL, tb, &res->probe, res->probe_why,
			     len)) {
		snprintf(res->probe_why, len,
			 "trigger %s has no rmap walk to time and its bracket is unavailable (%s): the kernel counter standing in for it is polled",
			 to->name, w);
		return 0;
	}
	snprintf(res->probe_why, len, "%s", w);
	return -ENODEV;
}

/* Kill every task whose parent we are: the measuring process is gone. */
static int kill_children(void)
{
	char path[64], line[512], *p;
	struct dirent *d;
	int ppid, n = 0;
	DIR *dir = opendir("/proc");
	FILE *f;

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		/* "pid (comm) state ppid": comm may hold spaces */
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (p && sscanf(p + 1, " %*c %d", &ppid) == 1 &&
		    ppid == getpid() && !kill(atoi(d->d_name), SIGKILL))
			n++;
	}
	closedir(dir);
	return n;
}

/*
 * Tasks the measuring process leaves behind when it is killed (a load's
 * workers, a pattern's processes) come to us, a child subreaper, rather
 * than to init, which may not reap them (a container's init): once the
 * restore has emptied the run's cgroups, end and reap whatever is left,
 * so that nothing of the run outlives it, not even a zombie.
 */
static void reap_orphans(void)
{
	pid_t pid;
	int i;

	for (i = 0; i < 100; i++) {
		do
			pid = waitpid(-1, NULL, WNOHANG);
		while (pid > 0);
		if (pid < 0 && errno == ECHILD)
			return;
		if (i == 10)
			kill_children();
		rr_sleep_ms(20);
	}
	rr_warn("tasks of the run still not reaped after 2 s");
}

/*
 * Undo the run's journal. A change that could not be undone leaves the
 * machine changed: whatever was measured, the run is an error.
 */
static void restore(struct rr_result *res)
{
	char was[sizeof(res->reason)];
	struct rr_replay st;

	rr_phase(res, "restore");
	/* only the journal this run began: never one it found and refused */
	if (journal_is_ours())
		journal_replay(journal_path(), !rr_cfg.quiet, &st);
	else
		memset(&st, 0, sizeof(st));
	reap_orphans();
	res->restore_ran = true;
	res->restored = st.undone;
	res->restore_left = st.left;
	res->restore_retired = st.retired;
	res->restore_failures = st.failures;
	if (!st.failures)
		return;
	snprintf(was, sizeof(was), "%s", res->reason);
	rr_set_verdict(res, RR_ERROR,
		       "restore failed: %d of %d journaled changes could not be undone (the journal is kept: see the warning above, and scripts/restore); what the run found: %s",
		       st.failures, st.failures + st.undone + st.left, was);
}

/* Prerequisites (repro.h). */
bool rr_prerequisites(const struct rr_repro *r, struct rr_result *res)
{
	const char *missing = rr_kconfig_missing(r->kconfig);
	const struct rr_trigger_ops *to;
	char why[512];
	enum rr_trigger t;
	int k;

	if (missing) {
		rr_set_verdict(res, RR_SKIP, "CONFIG_%s is not set in this kernel",
			       missing);
		return false;
	}
	for (k = 0; r->commands && r->commands[k]; k++) {
		if (!rr_have_command(r->commands[k])) {
			rr_set_verdict(res, RR_SKIP,
				       "needs the command %s, not found in $PATH",
				       r->commands[k]);
			return false;
		}
	}
	if (has_ksm_case(r) && !rr_ksm_available()) {
		rr_set_verdict(res, RR_SKIP, "KSM is not available (no %s)",
			       rr_ksm_dir());
		return false;
	}
	t = rr_trigger_choose(rr_cfg.trigger, r->triggers, r->triggers_why,
			      res->trigger_why, sizeof(res->trigger_why),
			      why, sizeof(why));
	if (!t) {
		rr_set_verdict(res, RR_SKIP, "%s", why);
		return false;
	}
	res->trigger = t;
	to = rr_trigger_get(t);
	/* a trigger with no rmap walk: its bracket is the probe */
	if (to->bracket_only && rr_cfg.probe != RR_PROBE_AUTO &&
	    rr_cfg.probe != RR_PROBE_BRACKETS && rr_cfg.probe != RR_PROBE_POLL) {
		rr_set_verdict(res, RR_SKIP,
			       "probe %s: trigger %s has no rmap walk to time; only its bracket measures it",
			       rr_probe_names[rr_cfg.probe], to->name);
		return false;
	}
	if (to->bracket_only ? select_bracket(to, t, res) :
	    rr_probe_select(rr_cfg.probe, rr_trigger_bracket(t), &res->probe,
			    res->probe_why, sizeof(res->probe_why))) {
		rr_set_verdict(res, RR_SKIP, "%s", res->probe_why);
		return false;
	}
	if (to->part_what)
		rr_part_select(to->part_what, to->part_roles, &res->part);
	res->probe_cost = rr_cfg.probe_cost;
	res->iterations = rr_cfg.iterations;
	if (res->iterations &&
	    !rr_iters_available(&res->iter_syms, why, sizeof(why))) {
		rr_set_verdict(res, RR_SKIP, "--iterations: %s", why);
		return false;
	}
	for (k = RR_PROBE_RMAP_TP; rr_cfg.cross_check && !to->bracket_only &&
	     k < RR_PROBE_BRACKETS; k++) {
		if (k == res->probe.kind || res->nr_cross == RR_MAX_CROSS ||
		    rr_probe_select(k, rr_trigger_bracket(t),
				    &res->cross[res->nr_cross], why,
				    sizeof(why)))
			continue;
		res->nr_cross++;
	}
	return true;
}

/*
 * Wait for the child, a signal, or the timeout. Returns the signal that
 * interrupted the run (0 if none); *timed_out tells the timeout.
 */
/* When the run began (after its options): --timeout counts from here. */
static uint64_t run_began;

static int supervise(pid_t child, const sigset_t *set, int *status,
		     bool *timed_out)
{
	uint64_t deadline = run_began + rr_cfg.timeout_s * NSEC_PER_SEC;
	struct rr_progress prog;
	struct timespec ts = { .tv_sec = 1 };
	siginfo_t si;
	int sig = 0, s;

	*timed_out = false;
	/*
	 * The child's end first: a stop signal still pending then is taken
	 * after the restore (stopped_in_restore), never dropped here. The
	 * deadline before the wait: it may have passed before the child
	 * began (the run's start counts).
	 */
	for (;;) {
		if (waitpid(child, status, WNOHANG) == child)
			return 0;
		if (rr_now_ns() > deadline) {
			*timed_out = true;
			rr_msg("timeout after %llu s: stopping the run and restoring",
			       rr_cfg.timeout_s);
			break;
		}
		s = sigtimedwait(set, &si, &ts);
		if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
			sig = s;
			rr_msg("%s: stopping the run and restoring",
			       strsignal(s));
			break;
		}
	}
	kill(child, SIGKILL);
	rr_progress_start(&prog, "stop");
	/* The child may sit in the kernel for a while before it dies. */
	while (waitpid(child, status, WNOHANG) != child) {
		rr_progress(&prog, "waiting for the measuring process %d to exit",
			    child);
		rr_sleep_ms(20);
	}
	return sig;
}

/*
 * A stop signal that came during the restore (blocked there: a restore
 * is never cut short): the run still dies of it, once restored, and its
 * report says so. 0 if none came.
 */
static int stopped_in_restore(struct rr_result *res)
{
	struct timespec now = { 0 };
	sigset_t set;
	char was[sizeof(res->reason)];
	int s;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	s = sigtimedwait(&set, NULL, &now);
	if (s <= 0)
		return 0;
	snprintf(was, sizeof(was), "%s", res->reason);
	rr_set_verdict(res, RR_ERROR,
		       "interrupted by SIG%s during the restore, which was finished first; what the run found: %s",
		       sigabbrev_np(s), was);
	return s;
}

static int finish(const struct rr_repro *r, struct rr_result *res, int sig)
{
	if (res->nr_cases && r->sentence)
		r->sentence(res, res->pattern_text, sizeof(res->pattern_text));
	report(res);
	rr_lock_release();
	if (sig) {
		/* Die of the same signal, as a shell expects of Ctrl-C. */
		sigset_t set;

		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	return rr_cfg.bisect ? rr_bisect_code(res->verdict) :
			       rr_exit_code(res->verdict);
}

/*
 * A usage error: 2, or under --bisect 128, which aborts git bisect run
 * (asked for anywhere on the command line: parsing may stop before it).
 */
static int usage_error(int argc, char **argv)
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
	return !rr_cfg.out || check_out(rr_cfg.out, err, len);
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
static bool parse(const struct rr_repro *r, int argc, char **argv, int *code)
{
	/* the common options, the triggers', KSM's, the reproducer's */
	const struct rr_opt *tables[4 + RR_TRIGGER_OPT_TABLES] = {
		common_opts
	};
	char err[512];
	int n = 1, ret;

	n += rr_trigger_opt_tables(tables + n, RR_TRIGGER_OPT_TABLES);
	if (has_ksm_case(r))
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
		*code = usage_error(argc, argv);
		return false;
	}
	rr_set_quiet(rr_cfg.quiet);
	return true;
}

/*
 * The result, in memory shared with the measuring child, with what is
 * known before anything runs; NULL if it cannot be had.
 */
static struct rr_result *new_result(const struct rr_repro *r, int argc,
				    char **argv)
{
	struct rr_result *res;

	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		perror("mmap");
		return NULL;
	}
	memset(res, 0, sizeof(*res));
	snprintf(res->reproducer, sizeof(res->reproducer), "%s", r->name);
	command_line(res, argc, argv);
	if (rr_cfg.label)
		snprintf(res->reproducer, sizeof(res->reproducer), "%s",
			 rr_cfg.label);
	rr_sysinfo_read(&res->sys);
	res->runs_asked = rr_cfg.runs;
	res->max_runs = rr_max_runs(rr_cfg.runs, rr_cfg.max_runs);
	res->threshold_ms = rr_cfg.threshold_ms;
	res->min_ratio = rr_cfg.min_ratio;
	if (r->describe)
		r->describe(res);
	return res;
}

/*
 * Root, the memory floor, the run lock, the journal (a leftover one
 * replayed first), tracefs and the prerequisites: true to go on; false
 * with res's verdict set and whatever was changed undone.
 */
static bool start(const struct rr_repro *r, struct rr_result *res)
{
	char holder[160], why[512];
	int ret;

	if (geteuid()) {
		rr_set_verdict(res, RR_SKIP, "needs root");
		return false;
	}
	/* Before the lock and the journal: a skip changes nothing. */
	if (rr_memory_floor(largest_pattern(r), rr_cfg.min_free_mb, why,
			    sizeof(why))) {
		rr_set_verdict(res, RR_SKIP, "%s", why);
		return false;
	}
	ret = rr_lock_acquire(r->name, holder, sizeof(holder));
	if (ret) {
		rr_set_verdict(res, RR_ERROR,
			       ret == -EBUSY ?
			       "another rmap-repro run holds %s/lock: %s; wait for it to end (or, if it was killed, run scripts/restore)" :
			       "cannot take the run lock in %s: %s",
			       rr_state_dir(),
			       ret == -EBUSY ? holder : *rr_lock_why() ?
			       rr_lock_why() : strerror(-ret));
		rr_warn("%s", res->reason);
		return false;
	}
	ret = journal_begin(r->name, why, sizeof(why));
	if (ret == -EUCLEAN) {
		/* nothing of this run's to undo: the failed journal stays */
		rr_set_verdict(res, RR_ERROR, "cannot start: %s", why);
		return false;
	}
	if (!ret && rr_trace_mount(why, sizeof(why)))
		ret = -EIO;
	if (ret) {
		rr_set_verdict(res, RR_ERROR, "cannot start: %s", why);
		restore(res);
		return false;
	}
	if (!rr_prerequisites(r, res)) {
		restore(res);
		return false;
	}
	return true;
}

/*
 * Fork the measuring child and supervise it: the signal that stopped
 * the run (0 if none), with its status and whether it timed out; -1 if
 * it could not be forked (res says why). The signals waited for stay
 * blocked, so that a second Ctrl-C cannot stop the restore.
 */
static int run_child(const struct rr_repro *r, struct rr_result *res,
		     int *status, bool *timed_out)
{
	struct rusage ru;
	sigset_t set, old;
	pid_t child;
	int i, sig;

	/*
	 * Block the signals we wait for before the child exists. A signal
	 * ignored by whoever started us (SIGINT for a background job of a
	 * script, SIGHUP under nohup) stays ignored.
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (i = 0; i < 3; i++) {
		int s = (int[]){ SIGINT, SIGTERM, SIGHUP }[i];
		struct sigaction sa;

		if (!sigaction(s, NULL, &sa) && sa.sa_handler != SIG_IGN)
			sigaddset(&set, s);
	}
	sigprocmask(SIG_BLOCK, &set, &old);

	rr_phase(res, "start");
	/* the measuring process's orphans come to us (reap_orphans) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	child = fork();
	if (child < 0) {
		rr_set_verdict(res, RR_ERROR, "fork: %s", strerror(errno));
		return -1;
	}
	if (!child) {
		pid_t parent = getppid();

		/* If the parent is SIGKILLed, die too: restore needs us gone. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(2);
		sigprocmask(SIG_SETMASK, &old, NULL);
		rr_body(r, res);
		res->done = true;
		fflush(NULL);
		_exit(0);
	}
	sig = supervise(child, &set, status, timed_out);
	if (!getrusage(RUSAGE_CHILDREN, &ru))
		res->max_rss_kb = ru.ru_maxrss;
	return sig;
}

/* A child that did not reach the end: why, in the verdict's reason. */
static void child_stopped(struct rr_result *res, int sig, int status,
			  bool timed_out)
{
	if (sig)
		rr_set_verdict(res, RR_ERROR, "interrupted by SIG%s during %s",
			       sigabbrev_np(sig), res->phase);
	else if (timed_out)
		rr_set_verdict(res, RR_ERROR,
			       "timed out after %llu s during %s",
			       rr_cfg.timeout_s, res->phase);
	else if (WIFSIGNALED(status))
		rr_set_verdict(res, RR_ERROR,
			       "the measuring process died of SIG%s during %s",
			       sigabbrev_np(WTERMSIG(status)), res->phase);
	else
		rr_set_verdict(res, RR_ERROR,
			       "the measuring process exited (%d) during %s",
			       WEXITSTATUS(status), res->phase);
}

/*
 * argv[0] is RR_EXEC_CHILD: this binary was exec()ed as a small
 * dynamically linked program (a victim that times exec(): ld.so has
 * mapped its libraries by now). Exit at once: 0, or 3 when the argument,
 * other than "1", names a mapping that /proc/self/maps lacks (a library
 * that was to be preloaded and was not). Named by argv, not by the
 * environment: a variable left in a user's shell must not make every
 * reproducer exit 0.
 */
static int exec_exit(const char *want)
{
	char line[512];
	FILE *f;
	int found = 0;

	if (!strcmp(want, "1"))
		return 0;
	f = fopen("/proc/self/maps", "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found ? 0 : 3;
}

int rr_main(const struct rr_repro *r, int argc, char **argv)
{
	struct rr_result *res;
	char err[512];
	bool timed_out = false;
	int code, status = 0, sig;

	/* exec-storm's exec()ed child (RR_EXEC_CHILD): in and out */
	if (argc == 2 && !strcmp(argv[0], RR_EXEC_CHILD))
		return exec_exit(argv[1]);

	rr_set_prog(r->name);
	rr_undos_use();
	/* before anything, --help included: 2, or 128 under --bisect */
	code = rr_hooks_refuse(r->name, usage_error(argc, argv));
	if (code)
		return code;
	if (!rr_repro_valid(r, err, sizeof(err))) {
		fprintf(stderr, "%s: a bug in its declaration: %s\n", r->name,
			err);
		return 2;
	}
	/*
	 * A reader that goes away (| head) must not kill us before the
	 * restore: writes to a closed pipe fail with EPIPE instead.
	 */
	signal(SIGPIPE, SIG_IGN);
	if (!parse(r, argc, argv, &code))
		return code;
	if (rr_cfg.parse_only)
		return 0;
	/* the lock, the journal and the checks before the child count too */
	run_began = rr_now_ns();
	res = new_result(r, argc, argv);
	if (!res)
		return 2;
	if (!start(r, res))
		return finish(r, res, 0);
	sig = run_child(r, res, &status, &timed_out);
	if (sig < 0) {
		restore(res);
		return finish(r, res, 0);
	}
	if (!res->done)
		child_stopped(res, sig, status, timed_out);
	/*
	 * Read here, once the child is gone, whatever it died of: a child
	 * killed inside its trigger never reaches the end of its body.
	 */
	if (res->nr_cases &&
	    rr_read_keyed("/proc/vmstat", "oom_kill", &res->oom_kill_after))
		res->oom_unknown = true;
	restore(res);
	if (!sig)
		sig = stopped_in_restore(res);
	return finish(r, res, sig);
}
