// SPDX-License-Identifier: GPL-2.0
/*
 * The funcgraph probe: function_graph in the private instance, with only
 * the walk functions in its set_ftrace_filter and the reproducer's tasks
 * in its set_ftrace_pid. Linux 6.11 and later: older kernels run
 * function_graph at the top level alone. There, with --funcgraph-top, it
 * runs in the top-level buffer, taken only while global tracing is idle
 * (nop tracer, no event, no filter, an empty buffer): every global file
 * it writes is journaled first and restored afterwards, and putting the
 * nop tracer back leaves the buffer empty, as it was found.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "journal/journal.h"
#include "lib/util.h"
#include "probe/bracket.h"
#include "probe/probe.h"

bool rr_funcgraph_top;

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool rr_has_tracer(const char *name)
{
	char **list = tracefs_tracers(NULL);
	bool found = false;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			found = true;
	tracefs_list_free(list);
	return found;
}

/* Is every resolved walk function traceable by ftrace? */
static bool ftrace_can_trace(struct rr_walkfn *fns, char *why, size_t len)
{
	char *path = tracefs_get_tracing_file("available_filter_functions");
	char *line = NULL;
	size_t cap = 0;
	bool seen[RR_PT_MAX] = { false };
	FILE *f = path ? fopen(path, "re") : NULL;
	int t;

	tracefs_put_tracing_file(path);
	if (!f) {
		snprintf(why, len, "no available_filter_functions (no dynamic ftrace)");
		return false;
	}
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \n")] = '\0';
		for (t = 0; t < RR_PT_MAX; t++)
			if (fns[t].found && !strcmp(line, fns[t].name))
				seen[t] = true;
	}
	free(line);
	fclose(f);
	for (t = 0; t < RR_PT_MAX; t++)
		fns[t].found = fns[t].found && seen[t];
	if (!fns[0].found) {
		snprintf(why, len, "rmap_walk_ksm cannot be traced by ftrace");
		return false;
	}
	return true;
}

/*
 * The first line of a file of the top level (tracefs_instance_file_read()
 * gives NULL for an empty file as for an error). False, and "?", if
 * unreadable.
 */
static bool top_line(const char *file, char *line, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tracefs_tracing_dir(), file);
	if (rr_read_file(path, line, size)) {
		snprintf(line, size, "?");
		return false;
	}
	line[strcspn(line, "\n")] = '\0';
	return true;
}

/*
 * Does an ftrace function list file hold no function? Unset, they read
 * "#### all functions enabled ####", "#### no functions disabled ####"
 * or "no pid".
 */
static bool list_unset(const char *file)
{
	char v[256];

	return top_line(file, v, sizeof(v)) &&
	       (!v[strspn(v, " ")] || !strncmp(v, "####", 4) ||
		!strncmp(v, "no pid", 6));
}

/*
 * Is global tracing unused: the nop tracer, no event enabled, no function
 * filter or pid list, nothing in the buffer? Then function_graph at the
 * top level destroys nobody's data.
 */
static bool top_idle(char *why, size_t len)
{
	static const char *const lists[] = {
		"set_ftrace_filter", "set_ftrace_notrace", "set_graph_function",
		"set_graph_notrace", "set_ftrace_pid", NULL
	};
	unsigned long long entries;
	char v[256];
	int i;

	if (!top_line("current_tracer", v, sizeof(v)) || strcmp(v, "nop")) {
		snprintf(why, len,
			 "global tracing is in use (current_tracer %s): function_graph needs the top level on this kernel",
			 v);
		return false;
	}
	if (!top_line("set_event", v, sizeof(v)) || v[0]) {
		snprintf(why, len,
			 "global tracing is in use (event %s enabled at the top level)",
			 v);
		return false;
	}
	for (i = 0; lists[i]; i++)
		if (!list_unset(lists[i])) {
			snprintf(why, len,
				 "global tracing is in use (the top-level %s is set)",
				 lists[i]);
			return false;
		}
	entries = rr_trace_stat_sum(NULL, "entries");
	if (entries) {
		snprintf(why, len,
			 "the global trace buffer holds %llu entries: function_graph at the top level would clear them",
			 entries);
		return false;
	}
	return true;
}

static bool funcgraph_available(struct rr_probe_setup *ps, int trigger_bracket,
				char *why, size_t len)
{
	struct rr_walkfn *fns = ps->fns;

	ps->bracket = RR_BR_FUNCGRAPH;
	if (!rr_has_tracer("function_graph")) {
		snprintf(why, len,
			 "no function_graph tracer here (CONFIG_FUNCTION_GRAPH_TRACER off, or not permitted)");
		return false;
	}
	ps->top = rr_funcgraph_top;
	if (!ps->top && !kernel_at_least(6, 11)) {
		snprintf(why, len,
			 "function_graph runs in a private instance only from Linux 6.11; --funcgraph-top runs it in the global buffer, journaled, when global tracing is idle");
		return false;
	}
	if (ps->top && !top_idle(why, len))
		return false;
	if (!rr_walkfn_resolve(fns) || !fns[RR_PT_KSM].found) {
		snprintf(why, len, "rmap_walk_ksm is not in /proc/kallsyms");
		return false;
	}
	if (!fns[RR_PT_KSM].addr) {
		snprintf(why, len,
			 "/proc/kallsyms hides addresses (kptr_restrict): traced functions cannot be told apart");
		return false;
	}
	return ftrace_can_trace(fns, why, len);
}

/*
 * The top-level buffer at least as large as the instance's. It may be
 * tiny: on 6.1 the first instance marks the buffers expanded, and the
 * top level then keeps its boot size of a few KB. "7 (expanded: 1408)"
 * (not yet expanded) comes back as 7: the kernel would have expanded it
 * for any tracer anyway.
 */
static int top_buffer(size_t want_kb)
{
	char path[PATH_MAX], v[64], num[32];
	unsigned long cur = top_line("buffer_size_kb", v, sizeof(v)) ?
			    strtoul(v, NULL, 10) : 0;
	int err;

	if (!cur || cur >= want_kb)
		return 0;
	snprintf(path, sizeof(path), "%s/buffer_size_kb", tracefs_tracing_dir());
	snprintf(num, sizeof(num), "%lu", cur);
	err = journal_record(J_KNOB, path, num);
	snprintf(num, sizeof(num), "%zu", want_kb);
	return err ? err : rr_write_file(path, num);
}

/* The top level's files, journaled before the first change. */
static int top_journal(size_t buffer_kb, char *why, size_t len)
{
	static const char *const lists[] = {
		"set_ftrace_filter", "set_ftrace_pid", NULL
	};
	char path[PATH_MAX];
	int err = 0, i;

	if (!top_idle(why, len))
		return -EBUSY;
	/* Unset lists come back by truncation: "" is their original. */
	for (i = 0; lists[i] && !err; i++) {
		snprintf(path, sizeof(path), "%s/%s", tracefs_tracing_dir(),
			 lists[i]);
		err = journal_record(J_KNOB, path, "");
	}
	snprintf(path, sizeof(path), "%s/trace_clock", tracefs_tracing_dir());
	if (!err)
		err = journal_knob_set(path, "mono");
	if (!err)
		err = top_buffer(buffer_kb);
	/* Switched off now; on only around each trigger, like the instance. */
	snprintf(path, sizeof(path), "%s/tracing_on", tracefs_tracing_dir());
	if (!err)
		err = journal_knob_set_volatile(path, "0");
	if (err)
		snprintf(why, len, "cannot set up the top-level tracing files: %s",
			 strerror(-err));
	return err;
}

static int funcgraph_instance(struct rr_probe_setup *ps, struct rr_trace *t,
			      char *why, size_t len)
{
	struct tracefs_instance *inst = ps->top ? NULL : t->inst;
	char list[512], *set, path[PATH_MAX];
	size_t o = 0;
	int i, ret;

	if (getenv("RMAP_REPRO_DEBUG"))
		for (i = 0; i < RR_PT_MAX; i++)
			rr_msg("debug: walk function %s at 0x%lx",
			       ps->fns[i].name, ps->fns[i].addr);
	if (ps->top) {
		ret = top_journal(t->buffer_kb, why, len);
		if (ret)
			return ret;
		rr_trace_use_top(t);
	}
	/*
	 * Exact names, one write each: the kernel takes one name per
	 * write() and reports the rest of a longer one as not written.
	 * The first write truncates (resets the filter), the rest append.
	 */
	ret = 0;
	for (i = 0; i < RR_PT_MAX && ret >= 0; i++) {
		if (!ps->fns[i].found)
			continue;
		ret = o ? tracefs_instance_file_append(inst,
						       "set_ftrace_filter",
						       ps->fns[i].name) :
			  tracefs_instance_file_write(inst,
						      "set_ftrace_filter",
						      ps->fns[i].name);
		o += snprintf(list + o, sizeof(list) - o, "%s%s",
			      o ? " " : "", ps->fns[i].name);
	}
	set = tracefs_instance_file_read(inst, "set_ftrace_filter", NULL);
	/* An empty filter would mean "every function": never start then. */
	if (ret < 0 || !set || !strstr(set, ps->fns[RR_PT_KSM].name)) {
		snprintf(why, len, "cannot set set_ftrace_filter to '%s'%s%s",
			 list, set ? ": it holds " : "", set ? set : "");
		free(set);
		return -EIO;
	}
	if (getenv("RMAP_REPRO_DEBUG"))
		rr_msg("debug: set_ftrace_filter holds: %s", set);
	free(set);
	if (ps->top) {
		snprintf(path, sizeof(path), "%s/current_tracer",
			 tracefs_tracing_dir());
		ret = journal_knob_set(path, "function_graph");
	} else {
		ret = tracefs_tracer_set(inst, TRACEFS_TRACER_FUNCTION_GRAPH) ?
		      -errno : 0;
	}
	if (ret) {
		snprintf(why, len, "cannot set function_graph in %s: %s",
			 ps->top ? "the top level" : t->name, strerror(-ret));
		return -EIO;
	}
	return 0;
}

static int funcgraph_pids(const struct rr_probe_setup *ps, struct rr_trace *t,
			  const int *pids, int n)
{
	char buf[128];
	size_t o = 0;
	int i;

	for (i = 0; i < n && o < sizeof(buf); i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%d", i ? " " : "",
			      pids[i]);
	return tracefs_instance_file_write(ps->top ? NULL : t->inst,
					   "set_ftrace_pid", buf) < 0 ?
	       -EIO : 0;
}

const struct rr_probe_ops rr_probe_funcgraph = {
	.kind = RR_PROBE_FUNCGRAPH,
	.available = funcgraph_available,
	.prepare_instance = funcgraph_instance,
	.set_pids = funcgraph_pids,
};
