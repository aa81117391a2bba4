// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing a probe and dispatching to its backend. The backends: rmap-tp
 * and brackets here (fixed tracepoints, nothing to set up), funcgraph in
 * probe/funcgraph.c, kprobe in probe/kprobe.c. All of them are read and
 * paired by the same engine (bracket.c).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "lib/util.h"
#include "probe/bracket.h"
#include "probe/poll.h"
#include "probe/probe.h"

const char *const rr_probe_names[] = {
	[RR_PROBE_AUTO] = "auto",
	[RR_PROBE_RMAP_TP] = "rmap-tp",
	[RR_PROBE_FUNCGRAPH] = "funcgraph",
	[RR_PROBE_KPROBE] = "kprobe",
	[RR_PROBE_BRACKETS] = "brackets",
	[RR_PROBE_POLL] = "poll",
	NULL
};

static bool tp_available(struct rr_probe_setup *ps, int trigger_bracket,
			 char *why, size_t len)
{
	char w2[160];

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
}

static bool brackets_available(struct rr_probe_setup *ps,
			       int trigger_bracket, char *why, size_t len)
{
	if (trigger_bracket < 0) {
		snprintf(why, len,
			 "no stock tracepoint bracket around this trigger: a walk-level probe (rmap-tp, funcgraph, kprobe) is needed");
		return false;
	}
	ps->bracket = trigger_bracket;
	return rr_bracket_available(trigger_bracket, why, len);
}

/* The counter standing in for the trigger's bracket, if it has one. */
static int polled_by(int trigger_bracket)
{
	return trigger_bracket < 0 ? 0 : rr_brackets[trigger_bracket].polled_by;
}

static bool poll_available(struct rr_probe_setup *ps, int trigger_bracket,
			   char *why, size_t len)
{
	if (!polled_by(trigger_bracket)) {
		snprintf(why, len,
			 "no kernel counter stands in for this trigger's work (only ksm-scan's full scans have one)");
		return false;
	}
	ps->bracket = polled_by(trigger_bracket);
	return rr_bracket_available(ps->bracket, why, len);
}

static const struct rr_probe_ops probe_tp = {
	.kind = RR_PROBE_RMAP_TP,
	.available = tp_available,
};

static const struct rr_probe_ops probe_brackets = {
	.kind = RR_PROBE_BRACKETS,
	.available = brackets_available,
};

static const struct rr_probe_ops probe_poll = {
	.kind = RR_PROBE_POLL,
	.available = poll_available,
};

static const struct rr_probe_ops *const backends[RR_PROBE_MAX] = {
	[RR_PROBE_RMAP_TP] = &probe_tp,
	[RR_PROBE_FUNCGRAPH] = &rr_probe_funcgraph,
	[RR_PROBE_KPROBE] = &rr_probe_kprobe,
	[RR_PROBE_BRACKETS] = &probe_brackets,
	[RR_PROBE_POLL] = &probe_poll,
};

static bool available(int kind, int trigger_bracket,
		      struct rr_probe_setup *ps, char *why, size_t len)
{
	if (kind <= RR_PROBE_AUTO || kind >= RR_PROBE_MAX) {
		snprintf(why, len, "no such probe");
		return false;
	}
	return backends[kind]->available(ps, trigger_bracket, why, len);
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
	if (d->poll_counter) {
		char path[PATH_MAX - 64];

		rr_bracket_poll_path(ps->bracket, path, sizeof(path));
		snprintf(ps->events, sizeof(ps->events),
			 "%s read every %d ms (polled: no tracepoint)", path,
			 RR_POLL_PERIOD_US / 1000);
		return;
	}
	switch (ps->kind) {
	case RR_PROBE_FUNCGRAPH:
		snprintf(ps->events, sizeof(ps->events),
			 "ftrace/funcgraph_entry .. ftrace/funcgraph_exit of %s%s",
			 fns, ps->top ? " (top-level buffer)" : "");
		break;
	case RR_PROBE_KPROBE:
		snprintf(ps->events, sizeof(ps->events),
			 "%s/rr_walk_TYPE (kprobe) .. %s/rr_walk_TYPE_ret (kretprobe) on %s",
			 RR_KPROBE_GROUP, RR_KPROBE_GROUP, fns);
		break;
	default:
		if (d->end2)
			snprintf(ps->events, sizeof(ps->events),
				 "%s/%s .. %s/%s or %s/%s", d->system,
				 d->start, d->system, d->end, d->system,
				 d->end2);
		else if (d->end)
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
		/* not a choice for the others: no word about it */
		if (k == RR_PROBE_POLL && !polled_by(trigger_bracket))
			continue;
		ps->kind = k;
		if (available(k, trigger_bracket, ps, w, sizeof(w)))
			break;
		if (o < len)
			o += snprintf(why + o, len - o, "%s%s unavailable: %s",
				      o ? "; " : "", rr_probe_names[k], w);
	}
	if (k >= RR_PROBE_MAX)
		return -ENODEV;
	describe(ps);
	return 0;
}

int rr_probe_prepare(struct rr_probe_setup *ps, char *why, size_t len)
{
	const struct rr_probe_ops *o = backends[ps->kind];

	return o->prepare ? o->prepare(ps, why, len) : 0;
}

int rr_probe_prepare_instance(struct rr_probe_setup *ps, struct rr_trace *t,
			      char *why, size_t len)
{
	const struct rr_probe_ops *o = backends[ps->kind];

	return o->prepare_instance ? o->prepare_instance(ps, t, why, len) : 0;
}

int rr_probe_set_pids(const struct rr_probe_setup *ps, struct rr_trace *t,
		      const int *pids, int n)
{
	const struct rr_probe_ops *o = backends[ps->kind];

	return o->set_pids ? o->set_pids(ps, t, pids, n) : 0;
}
