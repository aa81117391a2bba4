// SPDX-License-Identifier: GPL-2.0
/*
 * rmap-probes: list which measuring probes this kernel offers, for the
 * header of a run-all report. Mounting tracefs to look is a change like
 * any other: journaled, under the run lock, and undone before exit.
 */
#include <errno.h>
#include <string.h>
#include <tracefs.h>

#include "core/runner.h"
#include "core/undo.h"
#include "journal/journal.h"
#include "lib/hooks.h"
#include "lib/json.h"
#include "lib/opts.h"
#include "lib/util.h"
#include "mm/ksm.h"
#include "mm/swap.h"
#include "mm/sysinfo.h"
#include "probe/bracket.h"
#include "probe/ksym.h"
#include "probe/probe.h"
#include "probe/trace.h"
#include "trigger/trigger.h"

struct check {
	const char *name, *system, *start, *end;
	const char *use;
};

static const struct check checks[] = {
	{ "rmap-tp", "rmap", "rmap_walk_start", "rmap_walk_end",
	  "per-walk latency (patched kernels)" },
	{ "rmap-tp-v1", "rmap", "rmap_walk", NULL,
	  "per-walk latency, early single-event form" },
	{ "migrate-batch", "migrate", "mm_migrate_pages_start",
	  "mm_migrate_pages", "bound on walks during migration/compaction" },
	{ "migrate-pte-marks", "migrate", "set_migration_pte", NULL,
	  "attributes a migrate batch to the pattern" },
	{ "memcg-reclaim", "vmscan", "mm_vmscan_memcg_reclaim_begin",
	  "mm_vmscan_memcg_reclaim_end", "bound on walks during memcg reclaim" },
	{ "lru-batch", "vmscan", "mm_vmscan_lru_isolate",
	  "mm_vmscan_lru_shrink_inactive",
	  "bound on walks in kswapd and direct reclaim (pressure)" },
	{ "compaction", "compaction", "mm_compaction_begin",
	  "mm_compaction_end", "bound on a whole zone compaction" },
	{ "ksm-scan", "ksm", "ksm_start_scan", "ksm_stop_scan",
	  "KSM full-scan time" },
	{ "lock-waits", "lock", "contention_begin", "contention_end",
	  "who waits: the reproducer's tasks' lock waits" },
	{ "mmap-lock", "mmap_lock", "mmap_lock_start_locking",
	  "mmap_lock_acquire_returned", "tells mmap_lock waits apart" },
};

/* "vmscan/mm_vmscan_memcg_reclaim_{begin,end}": short enough for mail. */
static void events(const struct check *c, char *buf, size_t size)
{
	size_t i, cut = 0;

	if (!c->end) {
		snprintf(buf, size, "%s/%s", c->system, c->start);
		return;
	}
	for (i = 0; c->start[i] && c->start[i] == c->end[i]; i++)
		if (c->start[i] == '_')
			cut = i + 1;
	if (!c->start[i] && !c->end[i])
		cut = i;
	snprintf(buf, size, "%s/%.*s{%s,%s}", c->system, (int)cut, c->start,
		 c->start + cut, c->end + cut);
}

/* The kernel functions the suite hooks, by role: which name this has. */
static void functions(struct rr_json *j)
{
	enum rr_kfn roles[RR_KFN_MAX];
	struct rr_walkfn f[RR_KFN_MAX];
	char names[256];
	int i, n = 0;

	for (i = RR_KFN_NONE + 1; i < RR_KFN_MAX; i++)
		roles[n++] = i;
	rr_kfns_resolve(roles, n, f);
	if (j)
		json_obj_begin(j, "functions");
	for (i = 0; i < n; i++) {
		const struct rr_kfn_desc *d = &rr_kfns[roles[i]];

		if (j && f[i].found)
			json_str(j, d->key, f[i].name);
		else if (j)
			json_null(j, d->key);
		else if (f[i].found)
			printf("fn %-14s yes %s\n", d->key, f[i].name);
		else
			printf("fn %-14s no  %s\n", d->key,
			       rr_kfn_names(roles[i], names, sizeof(names)));
	}
	if (j)
		json_obj_end(j);
}

/* The table of roles, as docs/probes.md shows it (a test compares). */
static void roles_table(void)
{
	int i, k;

	printf("| role | what | names (kernels) |\n|---|---|---|\n");
	for (i = RR_KFN_NONE + 1; i < RR_KFN_MAX; i++) {
		const struct rr_kfn_desc *d = &rr_kfns[i];

		printf("| `%s` | %s | ", d->key, d->what);
		for (k = 0; k < RR_FN_CANDS && d->names[k].name; k++)
			printf("%s`%s` (%s)", k ? ", " : "", d->names[k].name,
			       d->names[k].kernels);
		printf(" |\n");
	}
}

/* The KSM knobs a run may change, as they are before it. */
static void ksm_knobs(struct rr_json *j)
{
	static const char *const knobs[] = {
		"run", "pages_to_scan", "sleep_millisecs", "max_page_sharing",
		"merge_across_nodes", "use_zero_pages", "smart_scan", NULL,
	};
	char path[256];
	unsigned long long v;
	int i;

	json_obj_begin(j, "ksm");
	for (i = 0; knobs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", rr_ksm_dir(), knobs[i]);
		if (!rr_read_ull(path, &v))
			json_uint(j, knobs[i], v);
	}
	json_obj_end(j);
}

/*
 * What the reproducers' reports carry of the machine (mm/sysinfo.c), and
 * what run-all's header adds: one source, so that run-all and the tests
 * read it here instead of reading /proc again.
 */
static void system_json(struct rr_json *j, const char *fragment)
{
	struct rr_sysinfo si;
	char buf[1024];

	rr_sysinfo_read(&si);
	json_obj_begin(j, "system");
	json_str(j, "release", si.release);
	json_str(j, "version", si.version);
	json_str(j, "machine", si.machine);
	json_str(j, "cmdline", si.cmdline);
	rr_cpu_model(buf, sizeof(buf));
	json_str(j, "cpu_model", buf);
	json_int(j, "cpus", si.cpus);
	json_uint(j, "mem_kb", si.mem_kb);
	json_int(j, "numa_nodes", si.numa_nodes);
	json_str(j, "thp", si.thp);
	if (si.kconfig[0])
		json_str(j, "config", si.kconfig);
	else
		json_null(j, "config");
	rr_swaps_text(buf, sizeof(buf));
	json_str(j, "swaps", buf);
	ksm_knobs(j);
	if (!fragment)
		json_null(j, "kconfig_unset");
	else if (rr_kconfig_unset(fragment, buf, sizeof(buf)))
		json_null(j, "kconfig_unset");
	else
		json_str(j, "kconfig_unset", buf);
	json_obj_end(j);
}

/*
 * --trigger auto's choice here, which triggers are available, and
 * --probe auto's choice for each (null: the trigger or any probe for it
 * is not to be had).
 */
static void choice_json(struct rr_json *j)
{
	const struct rr_trigger_ops *ops;
	struct rr_probe_setup ps;
	char why[512];
	int t;

	json_obj_begin(j, "choice");
	t = rr_trigger_auto(why, sizeof(why));
	if (t)
		json_str(j, "trigger", rr_trigger_name(t));
	else
		json_null(j, "trigger");
	json_str(j, "trigger_why", t ? "auto: the best trigger available here" :
		 why);
	json_obj_begin(j, "available");
	rr_for_each_trigger(t, ops)
		json_bool(j, ops->name, rr_trigger_available(t, why,
							     sizeof(why)));
	json_obj_end(j);
	json_obj_begin(j, "probes");
	rr_for_each_trigger(t, ops) {
		memset(&ps, 0, sizeof(ps));
		if (rr_trigger_available(t, why, sizeof(why)) &&
		    !rr_probe_for_trigger(RR_PROBE_AUTO, t, &ps, why,
					  sizeof(why)))
			json_str(j, ops->name, rr_brackets[ps.bracket].id);
		else
			json_null(j, ops->name);
	}
	json_obj_end(j);
	json_obj_end(j);
}

static void inventory(bool json, const char *fragment)
{
	struct rr_json j;
	char ev[128];
	size_t i;

	if (json) {
		json_init(&j, stdout);
		json_obj_begin(&j, NULL);
	}
	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		const struct check *c = &checks[i];
		bool ok = rr_trace_event_exists(c->system, c->start) &&
			  (!c->end || rr_trace_event_exists(c->system, c->end));

		if (json) {
			json_bool(&j, c->name, ok);
			continue;
		}
		events(c, ev, sizeof(ev));
		printf("%-17s %-3s %s\n", c->name, ok ? "yes" : "no", ev);
	}
	if (json) {
		json_bool(&j, "function_graph", rr_has_tracer("function_graph"));
		json_bool(&j, "kprobe_events",
			  tracefs_file_exists(NULL, "kprobe_events"));
		json_bool(&j, "synthetic_events",
			  tracefs_file_exists(NULL, "synthetic_events"));
		functions(&j);
		system_json(&j, fragment);
		choice_json(&j);
		json_obj_end(&j);
		json_finish(&j);
		return;
	}
	printf("%-17s %-3s tracer (available_tracers)\n",
	       "function_graph", rr_has_tracer("function_graph") ? "yes" : "no");
	printf("%-17s %-3s kprobe_events file\n", "kprobes",
	       tracefs_file_exists(NULL, "kprobe_events") ? "yes" : "no");
	printf("%-17s %-3s synthetic_events file (steps per walk)\n",
	       "synthetic-events",
	       tracefs_file_exists(NULL, "synthetic_events") ? "yes" : "no");
	functions(NULL);
}

int main(int argc, char **argv)
{
	static bool json, roles;
	static const char *kconfig;
	static unsigned long long wait_s = 30;
	const struct rr_opt opts[] = {
		{ "json", OPT_FLAG, &json, NULL, "print one JSON object" },
		{ "roles", OPT_FLAG, &roles, NULL,
		  "print the kernel functions the suite hooks, by role, with every name each has had (a Markdown table, docs/probes.md), and look at nothing" },
		{ "kconfig", OPT_STRING, &kconfig, "FILE",
		  "with --json: also list the options of the config fragment FILE (configs/kernel.config) that this kernel does not set (system.kconfig_unset)" },
		{ "wait", OPT_UINT, &wait_s, "SEC",
		  "wait up to SEC seconds for a run that holds the lock (default 30)",
		  .min = 0, .max = 3600 },
		RR_OPT_END
	};
	const struct rr_opt *tables[] = { opts, NULL };
	char err[256], why[256];
	int ret;

	rr_set_prog("rmap-probes");
	rr_undos_use();
	ret = rr_hooks_refuse("rmap-probes", 2);
	if (ret)
		return ret;
	ret = rr_opts_parse(tables, argc, argv, err, sizeof(err));
	if (ret == 1) {
		rr_opts_help(stdout, "rmap-probes [--json] [--wait SEC] | --roles",
			     "List the tracepoints and tracers the suite can measure with on this kernel, and the kernel functions its probes hook (by role: the names differ between kernels; fn lines). Mounts tracefs for the look if needed (journaled, and unmounted again). Takes the run lock for that: while another run holds it, waits, then gives up without looking or undoing anything. Exit: 0, or 2 on error (the lock not taken included).",
			     tables);
		return 0;
	}
	if (ret < 0) {
		fprintf(stderr, "rmap-probes: %s\n", err);
		return 2;
	}
	if (roles) {
		roles_table();
		return 0;
	}
	rr_set_quiet(true);
	/*
	 * The journal is replayed only by the lock's holder: without the
	 * lock it is another run's, live, and replaying it would undo
	 * that run under its feet. Then nothing is looked at or undone.
	 */
	ret = rr_lock_wait("rmap-probes", wait_s);
	if (ret) {
		fprintf(stderr, "rmap-probes: cannot look: %s; nothing was changed or undone\n",
			ret == -EBUSY ? "another run holds the lock (try again when it ends)" :
			*rr_lock_why() ? rr_lock_why() : strerror(-ret));
		return 2;
	}
	ret = journal_begin("rmap-probes", why, sizeof(why));
	if (!ret)
		ret = rr_trace_mount(why, sizeof(why));
	if (!ret)
		inventory(json, kconfig);
	else
		fprintf(stderr, "rmap-probes: cannot look: %s\n", why);
	/*
	 * Our own journal only: one that journal_begin() refused to start
	 * over (a failed replay, an untrusted file) stays as it is.
	 */
	if (journal_is_ours())
		journal_replay(journal_path(), false, NULL);
	rr_lock_release();
	return ret ? 2 : 0;
}
