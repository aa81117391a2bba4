// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "bracket.h"
#include "journal.h"
#include "probe.h"
#include "util.h"

const char *const rr_probe_names[] = {
	[RR_PROBE_AUTO] = "auto",
	[RR_PROBE_RMAP_TP] = "rmap-tp",
	[RR_PROBE_FUNCGRAPH] = "funcgraph",
	[RR_PROBE_KPROBE] = "kprobe",
	[RR_PROBE_BRACKETS] = "brackets",
	NULL
};

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

static bool funcgraph_ok(struct rr_walkfn *fns, char *why, size_t len)
{
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

static bool kprobe_ok(struct rr_walkfn *fns, char *why, size_t len)
{
	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		snprintf(why, len, "no kprobe_events (CONFIG_KPROBE_EVENTS off)");
		return false;
	}
	if (!rr_walkfn_resolve(fns) || !fns[RR_PT_KSM].found) {
		snprintf(why, len, "rmap_walk_ksm is not in /proc/kallsyms");
		return false;
	}
	return true;
}

static bool available(int kind, int trigger_bracket,
		      struct rr_probe_setup *ps, char *why, size_t len)
{
	char w2[160];

	switch (kind) {
	case RR_PROBE_RMAP_TP:
		if (rr_bracket_available(RR_BR_RMAP_WALK, why, len)) {
			ps->bracket = RR_BR_RMAP_WALK;
			return true;
		}
		if (rr_bracket_available(RR_BR_RMAP_WALK_V1, w2, sizeof(w2))) {
			ps->bracket = RR_BR_RMAP_WALK_V1;
			return true;
		}
		snprintf(why, len,
			 "no rmap/rmap_walk_start tracepoints (an unpatched kernel)");
		return false;
	case RR_PROBE_FUNCGRAPH:
		ps->bracket = RR_BR_FUNCGRAPH;
		return funcgraph_ok(ps->fns, why, len);
	case RR_PROBE_KPROBE:
		ps->bracket = RR_BR_KPROBE;
		return kprobe_ok(ps->fns, why, len);
	case RR_PROBE_BRACKETS:
		ps->bracket = trigger_bracket;
		return rr_bracket_available(trigger_bracket, why, len);
	}
	snprintf(why, len, "no such probe");
	return false;
}

bool rr_probe_available(int kind, int trigger_bracket, char *why,
			size_t len)
{
	struct rr_probe_setup ps;

	memset(&ps, 0, sizeof(ps));
	return available(kind, trigger_bracket, &ps, why, len);
}

static void functions(const struct rr_probe_setup *ps, char *buf,
		      size_t size)
{
	size_t o = 0;
	int t;

	buf[0] = '\0';
	for (t = 0; t < RR_PT_MAX && o < size; t++)
		if (ps->fns[t].found)
			o += snprintf(buf + o, size - o, "%s%s", o ? ", " : "",
				      ps->fns[t].name);
}

static void describe(struct rr_probe_setup *ps)
{
	const struct rr_bracket_def *d = &rr_brackets[ps->bracket];
	char fns[160];

	functions(ps, fns, sizeof(fns));
	switch (ps->kind) {
	case RR_PROBE_FUNCGRAPH:
		snprintf(ps->events, sizeof(ps->events),
			 "ftrace/funcgraph_entry .. ftrace/funcgraph_exit of %s",
			 fns);
		break;
	case RR_PROBE_KPROBE:
		snprintf(ps->events, sizeof(ps->events),
			 "%s/rr_walk_TYPE (kprobe) .. %s/rr_walk_TYPE_ret (kretprobe) on %s",
			 RR_KPROBE_GROUP, RR_KPROBE_GROUP, fns);
		break;
	default:
		if (d->end)
			snprintf(ps->events, sizeof(ps->events),
				 "%s/%s .. %s/%s", d->system, d->start,
				 d->system, d->end);
		else
			snprintf(ps->events, sizeof(ps->events),
				 "%s/%s (%s)", d->system, d->start,
				 d->dur_field);
	}
}

int rr_probe_select(int requested, int trigger_bracket,
		    struct rr_probe_setup *ps, char *why, size_t len)
{
	char w[200];
	size_t o = 0;
	int k;

	memset(ps, 0, sizeof(*ps));
	why[0] = '\0';
	if (requested != RR_PROBE_AUTO) {
		ps->kind = requested;
		if (!available(requested, trigger_bracket, ps, w, sizeof(w))) {
			snprintf(why, len, "probe %s: %s",
				 rr_probe_names[requested], w);
			return -ENODEV;
		}
		describe(ps);
		snprintf(why, len, "chosen with --probe %s",
			 rr_probe_names[requested]);
		return 0;
	}
	for (k = RR_PROBE_RMAP_TP; k < RR_PROBE_MAX; k++) {
		ps->kind = k;
		if (available(k, trigger_bracket, ps, w, sizeof(w)))
			break;
		if (o < len)
			o += snprintf(why + o, len - o, "%s%s unavailable: %s",
				      o ? "; " : "", rr_probe_names[k], w);
	}
	if (k == RR_PROBE_MAX)
		return -ENODEV;
	describe(ps);
	return 0;
}

static int make_kprobe(const char *event, const char *func, bool ret,
		       char *why, size_t len)
{
	struct tracefs_dynevent *ev;
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/%s", RR_KPROBE_GROUP, event);
	err = journal_record(J_DYNEVENT, path, tracefs_tracing_dir());
	if (err) {
		snprintf(why, len, "journal: %s", strerror(-err));
		return err;
	}
	ev = ret ? tracefs_kretprobe_alloc(RR_KPROBE_GROUP, event, func, NULL,
					   0) :
		   tracefs_kprobe_alloc(RR_KPROBE_GROUP, event, func, NULL);
	if (!ev || tracefs_dynevent_create(ev)) {
		err = errno ? -errno : -EIO;
		snprintf(why, len, "cannot create %s on %s: %s", path, func,
			 strerror(-err));
		tracefs_dynevent_free(ev);
		return err;
	}
	tracefs_dynevent_free(ev);
	return 0;
}

int rr_probe_prepare(struct rr_probe_setup *ps, char *why, size_t len)
{
	char entry[64], ret[64];
	int t, err;

	if (ps->kind != RR_PROBE_KPROBE)
		return 0;
	for (t = 0; t < RR_PT_MAX; t++) {
		if (!ps->fns[t].found)
			continue;
		rr_kprobe_names(t, entry, ret, sizeof(entry));
		err = make_kprobe(entry, ps->fns[t].name, false, why, len);
		if (!err)
			err = make_kprobe(ret, ps->fns[t].name, true, why, len);
		if (err)
			return err;
	}
	return 0;
}

int rr_probe_prepare_instance(struct rr_probe_setup *ps, struct rr_trace *t,
			      char *why, size_t len)
{
	char list[512], *set;
	size_t o = 0;
	int i, ret;

	if (ps->kind != RR_PROBE_FUNCGRAPH)
		return 0;
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

int rr_probe_set_pids(const struct rr_probe_setup *ps, struct rr_trace *t,
		      const int *pids, int n)
{
	char buf[128];
	size_t o = 0;
	int i;

	if (ps->kind != RR_PROBE_FUNCGRAPH)
		return 0;
	for (i = 0; i < n && o < sizeof(buf); i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%d", i ? " " : "",
			      pids[i]);
	return tracefs_instance_file_write(t->inst, "set_ftrace_pid", buf) < 0 ?
	       -EIO : 0;
}

int rr_probe_sweep(void)
{
	struct tracefs_dynevent **evs;
	int i, n = 0;

	evs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_KRETPROBE,
				       RR_KPROBE_GROUP);
	for (i = 0; evs && evs[i]; i++)
		if (!tracefs_dynevent_destroy(evs[i], true))
			n++;
	tracefs_dynevent_list_free(evs);
	if (n)
		rr_msg("removed %d stale %s dynamic events", n, RR_KPROBE_GROUP);
	return n;
}
