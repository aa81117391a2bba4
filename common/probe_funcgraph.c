// SPDX-License-Identifier: GPL-2.0
/*
 * The funcgraph probe: function_graph in the private instance, with only
 * the walk functions in its set_ftrace_filter and the reproducer's tasks
 * in its set_ftrace_pid. Linux 6.11 and later only: older kernels run
 * function_graph at the top level alone, which would clobber the global
 * trace buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "bracket.h"
#include "probe.h"
#include "util.h"

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
	if (!kernel_at_least(6, 11)) {
		snprintf(why, len,
			 "function_graph runs in a private instance only from Linux 6.11; at the top level it would clobber the global trace buffer");
		return false;
	}
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

static int funcgraph_instance(struct rr_probe_setup *ps, struct rr_trace *t,
			      char *why, size_t len)
{
	char list[512], *set;
	size_t o = 0;
	int i, ret;

	if (getenv("RMAP_REPRO_DEBUG"))
		for (i = 0; i < RR_PT_MAX; i++)
			rr_msg("debug: walk function %s at 0x%lx",
			       ps->fns[i].name, ps->fns[i].addr);
	/*
	 * Exact names, one write each: the kernel takes one name per
	 * write() and reports the rest of a longer one as not written.
	 * The first write truncates (resets the filter), the rest append.
	 */
	ret = 0;
	for (i = 0; i < RR_PT_MAX && ret >= 0; i++) {
		if (!ps->fns[i].found)
			continue;
		ret = o ? tracefs_instance_file_append(t->inst,
						       "set_ftrace_filter",
						       ps->fns[i].name) :
			  tracefs_instance_file_write(t->inst,
						      "set_ftrace_filter",
						      ps->fns[i].name);
		o += snprintf(list + o, sizeof(list) - o, "%s%s",
			      o ? " " : "", ps->fns[i].name);
	}
	set = tracefs_instance_file_read(t->inst, "set_ftrace_filter", NULL);
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
	if (tracefs_tracer_set(t->inst, TRACEFS_TRACER_FUNCTION_GRAPH)) {
		snprintf(why, len,
			 "cannot set function_graph in instance %s: %s",
			 t->name, strerror(errno));
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
	return tracefs_instance_file_write(t->inst, "set_ftrace_pid", buf) < 0 ?
	       -EIO : 0;
}

const struct rr_probe_ops rr_probe_funcgraph = {
	.kind = RR_PROBE_FUNCGRAPH,
	.available = funcgraph_available,
	.prepare_instance = funcgraph_instance,
	.set_pids = funcgraph_pids,
};
