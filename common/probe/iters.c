// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "journal/journal.h"
#include "lib/util.h"
#include "mm/sysinfo.h"
#include "probe/bracket.h"
#include "probe/iters.h"
#include "probe/probe.h"
#include "probe/stackhist.h"
#include "probe/walkfn.h"

/*
 * The two trees' iterators, found by role (ksym.h: 7.3 renamed them):
 * the anon_vma tree for KSM and anon walks, the file's for file walks.
 */
enum { TREE_ANON, TREE_FILE, NR_TREES };
static const enum rr_kfn iter_roles[NR_TREES][2] = {
	[TREE_ANON] = { RR_KFN_ANON_FIRST, RR_KFN_ANON_NEXT },
	[TREE_FILE] = { RR_KFN_FILE_FIRST, RR_KFN_FILE_NEXT },
};
static const char *const tree_ev[NR_TREES][2] = {
	[TREE_ANON] = { "rr_iter_first", "rr_iter_next" },
	[TREE_FILE] = { "rr_fiter_first", "rr_fiter_next" },
};

static int tree_of(enum rr_page_type type)
{
	return type == RR_PT_FILE ? TREE_FILE : TREE_ANON;
}

/* Both trees' iterators: sym[tree][0] first, [1] next. */
static int resolve_text(const char *kallsyms, struct rr_walkfn sym[NR_TREES][2])
{
	const enum rr_kfn *roles = &iter_roles[0][0];

	if (kallsyms)
		return rr_kfns_parse(kallsyms, roles, NR_TREES * 2, &sym[0][0]);
	return rr_kfns_resolve(roles, NR_TREES * 2, &sym[0][0]);
}

/*
 * The tree a case's steps are counted on: the file tree for file pages
 * where its kprobes were made (prepare), else the anon_vma tree.
 */
static const char *const *evs(enum rr_page_type type)
{
	int tree = tree_of(type);

	if (tree == TREE_FILE &&
	    !rr_trace_event_exists(RR_KPROBE_GROUP, tree_ev[tree][0]))
		tree = TREE_ANON;
	return tree_ev[tree];
}

static bool tree_found(struct rr_walkfn sym[NR_TREES][2], int tree)
{
	return sym[tree][0].found && sym[tree][1].found;
}

void rr_iters_syms(const char *kallsyms, struct rr_iter_syms *s)
{
	struct rr_walkfn (*sym)[2] = s->fn;
	char a[128], b[128];
	int tree;

	memset(s, 0, sizeof(*s));
	resolve_text(kallsyms, sym);
	for (tree = 0; tree < NR_TREES; tree++) {
		if (tree_found(sym, tree)) {
			snprintf(s->fns[tree], sizeof(s->fns[tree]),
				 "%s and %s", sym[tree][0].name,
				 sym[tree][1].name);
			s->found[tree] = true;
			continue;
		}
		snprintf(s->fns[tree], sizeof(s->fns[tree]),
			 "%s, or %s, is not in /proc/kallsyms",
			 rr_kfn_names(iter_roles[tree][0], a, sizeof(a)),
			 rr_kfn_names(iter_roles[tree][1], b, sizeof(b)));
	}
}

bool rr_iters_available(struct rr_iter_syms *s, char *why, size_t len)
{
	memset(s, 0, sizeof(*s));
	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		snprintf(why, len, "no kprobe_events (CONFIG_KPROBE_EVENTS off)");
		return false;
	}
	if (rr_kconfig("HIST_TRIGGERS", NULL, 0) == 0) {
		snprintf(why, len, "CONFIG_HIST_TRIGGERS is not set");
		return false;
	}
	/* The anon_vma tree's: KSM's walks are what the suite is about. */
	rr_iters_syms(NULL, s);
	if (!s->found[TREE_ANON]) {
		snprintf(why, len, "%s", s->fns[TREE_ANON]);
		return false;
	}
	return true;
}

/* The walk kprobe of a page type (the anon_vma walks only). */
static const char *const walk_ev[RR_PT_MAX] = {
	[RR_PT_KSM] = "rr_count_walk_ksm",
	[RR_PT_ANON] = "rr_count_walk_anon",
	[RR_PT_FILE] = "rr_count_walk_file",
};

/* The walk kprobes and the synthetic event that carries the ids. */
static int prepare_items(bool file_tree, char *note, size_t nlen)
{
	struct rr_walkfn fns[RR_PT_MAX];
	char path[256];
	int err, t;

	if (!tracefs_file_exists(NULL, "synthetic_events")) {
		snprintf(note, nlen,
			 "no synthetic_events (CONFIG_SYNTH_EVENTS off): totals only");
		return -ENOENT;
	}
	if (rr_trace_event_exists("synthetic", RR_STEP_SYNTH)) {
		snprintf(note, nlen,
			 "synthetic/%s exists already (not ours): totals only",
			 RR_STEP_SYNTH);
		return -EEXIST;
	}
	memset(fns, 0, sizeof(fns));
	rr_walkfn_resolve(fns);
	for (t = 0; t < RR_PT_MAX; t++) {
		/*
		 * A file walk is counted per walk where its tree is hooked and
		 * its function found; without it, a file case falls back to
		 * totals, which ends per-item counting for the rest of the run
		 * (rr_iters_arm), as a refused trigger does.
		 */
		if (!walk_ev[t] ||
		    (t == RR_PT_FILE && (!file_tree || !fns[t].found)))
			continue;
		if (!fns[t].found) {
			snprintf(note, nlen,
				 "the %s walk function is not in /proc/kallsyms: totals only",
				 rr_page_type_name(t));
			return -ENOENT;
		}
		err = rr_kprobe_create(walk_ev[t], fns[t].name, false, note,
				       nlen);
		if (err)
			return err;
	}
	snprintf(path, sizeof(path), "synthetic/%s", RR_STEP_SYNTH);
	err = journal_record(J_DYNEVENT, path, tracefs_tracing_dir());
	if (err)
		return err;
	if (tracefs_instance_file_append(NULL, "synthetic_events",
					 RR_STEP_SYNTH " u64 wid; u64 sid\n") < 0) {
		err = errno ? -errno : -EIO;
		snprintf(note, nlen, "cannot create synthetic/%s: %s",
			 RR_STEP_SYNTH, strerror(-err));
		return err;
	}
	return 0;
}

int rr_iters_prepare(const struct rr_iter_syms *s, bool *per_item,
		     char *note, size_t nlen, char *why, size_t len)
{
	int tree, i, err;

	if (!s->found[TREE_ANON]) {
		snprintf(why, len, "%s", s->fns[TREE_ANON]);
		return -ENOENT;
	}
	for (tree = 0; tree < NR_TREES; tree++)
		for (i = 0; s->found[tree] && i < 2; i++) {
			err = rr_kprobe_create(tree_ev[tree][i],
					       s->fn[tree][i].name, false, why,
					       len);
			if (err)
				return err;
		}
	note[0] = '\0';
	*per_item = !prepare_items(s->found[TREE_FILE], note, nlen);
	return 0;
}

#define NR_TRIG 4
enum { T_WALK, T_FIRST, T_NEXT, T_STEP };

/*
 * The triggers. T_FIRST and T_NEXT count per task; with per_item,
 * T_WALK keeps the walk's id, T_FIRST the walk's and the rmap_item's id
 * (its own time: it changes on every call, so onchange fires each time),
 * and both fire the step event that T_STEP counts per rmap_item.
 */
static void triggers(int pid, enum rr_page_type type, bool per_item,
		     char trig[NR_TRIG][320])
{
	memset(trig, 0, NR_TRIG * sizeof(*trig));
	if (!per_item) {
		snprintf(trig[T_FIRST], 320,
			 "hist:keys=common_pid:vals=hitcount if common_pid == %d",
			 pid);
		memcpy(trig[T_NEXT], trig[T_FIRST], 320);
		return;
	}
	snprintf(trig[T_WALK], 320,
		 "hist:keys=common_pid:vals=hitcount:rr_wid=common_timestamp if common_pid == %d",
		 pid);
	snprintf(trig[T_FIRST], 320,
		 "hist:keys=common_pid:vals=hitcount:rr_w=$rr_wid,rr_sid=common_timestamp:onchange($rr_sid).trace(%s,$rr_w,$rr_sid) if common_pid == %d",
		 RR_STEP_SYNTH, pid);
	snprintf(trig[T_NEXT], 320,
		 "hist:keys=common_pid:vals=hitcount:onmatch(%s.%s).trace(%s,$rr_w,$rr_sid) if common_pid == %d",
		 RR_KPROBE_GROUP, evs(type)[0], RR_STEP_SYNTH, pid);
	/* Up to 512 rmap_items per walk here; room for many walks. */
	snprintf(trig[T_STEP], 320,
		 "hist:keys=wid,sid:vals=hitcount:sort=wid,sid:size=16384");
}

static const char *trig_system(int i)
{
	return i == T_STEP ? "synthetic" : RR_KPROBE_GROUP;
}

static const char *trig_event(int i, enum rr_page_type type)
{
	switch (i) {
	case T_WALK:
		return walk_ev[type];
	case T_FIRST:
		return evs(type)[0];
	case T_NEXT:
		return evs(type)[1];
	default:
		return RR_STEP_SYNTH;
	}
}

/*
 * Remove the triggers that were added, those that refer to others first.
 * Truncating an event's trigger file removes its triggers, and in the
 * private instance they are all ours.
 */
static void disarm(struct rr_trace *t, enum rr_page_type type, int added)
{
	static const int order[NR_TRIG] = { T_NEXT, T_FIRST, T_WALK, T_STEP };
	int k;

	for (k = 0; k < NR_TRIG; k++)
		if (added & (1 << order[k]))
			tracefs_event_file_clear(t->inst, trig_system(order[k]),
						 trig_event(order[k], type),
						 "trigger");
}

static int arm(struct rr_trace *t, int pid, enum rr_page_type type,
	       bool per_item, char *why, size_t len)
{
	static const int order[NR_TRIG] = { T_STEP, T_WALK, T_FIRST, T_NEXT };
	char trig[NR_TRIG][320], *err;
	int added = 0, k;

	if (per_item && !walk_ev[type]) {
		snprintf(why, len, "no walk kprobe for the %s case",
			 rr_page_type_name(type));
		return -EINVAL;
	}
	triggers(pid, type, per_item, trig);
	for (k = 0; k < NR_TRIG; k++) {
		int i = order[k];

		if (!trig[i][0])
			continue;
		/*
		 * A trigger alone soft-enables the event: the hist counts
		 * every hit and no record is written to the ring buffer.
		 */
		if (tracefs_event_file_append(t->inst, trig_system(i),
					      trig_event(i, type), "trigger",
					      trig[i]) >= 0) {
			added |= 1 << i;
			continue;
		}
		err = tracefs_error_last(t->inst);
		snprintf(why, len, "cannot add '%s' to %s/%s: %s", trig[i],
			 trig_system(i), trig_event(i, type),
			 err ? err : strerror(errno));
		free(err);
		disarm(t, type, added);
		return -EIO;
	}
	return 0;
}

/*
 * The stack hists beside the counting ones, best effort: a kernel that
 * refuses them still counts, without the split by caller; if iter_next
 * refuses what iter_first took, iter_first's still counts.
 */
static void arm_callers(struct rr_trace *t, int pid, enum rr_page_type type)
{
	if (!rr_stackhist_arm(t, RR_KPROBE_GROUP, evs(type)[0], ":size=256",
			      pid))
		rr_stackhist_arm(t, RR_KPROBE_GROUP, evs(type)[1], ":size=256",
				 pid);
}

int rr_iters_arm(struct rr_trace *t, int pid, enum rr_page_type type,
		 bool *per_item, bool callers, char *note, size_t nlen,
		 char *why, size_t len)
{
	int err;

	if (!*per_item || arm(t, pid, type, true, note, nlen)) {
		*per_item = false;
		err = arm(t, pid, type, false, why, len);
		if (err)
			return err;
	}
	if (callers)
		arm_callers(t, pid, type);
	return 0;
}

const enum rr_kfn rr_iter_caller_roles[] = {
	RR_KFN_WALK_KSM, RR_KFN_WALK_ANON, RR_KFN_WALK_FILE,
	RR_KFN_COLLECT_KSM, RR_KFN_COLLECT_ANON, RR_KFN_COLLECT_FILE,
};
const int rr_iter_nr_callers = ARRAY_SIZE(rr_iter_caller_roles);

/* The role of the first frame of an entry that is a caller's. */
static enum rr_kfn entry_caller(const struct rr_stack_entry *e, char *name,
				size_t len)
{
	const char *p = NULL;
	enum rr_kfn role;

	while (rr_stack_frame(&p, e, name, len)) {
		role = rr_kfn_of(name, rr_iter_caller_roles,
				 rr_iter_nr_callers);
		if (role != RR_KFN_NONE)
			return role;
	}
	name[0] = '\0';
	return RR_KFN_NONE;
}

void rr_iter_callers_parse(const char *text, bool first,
			   struct rr_iter_callers *c)
{
	struct rr_stack_entry e;
	const char *p = text;
	char name[64];

	while (rr_stackhist_next(&p, &e)) {
		enum rr_kfn role = entry_caller(&e, name, sizeof(name));

		if (first)
			c->first[role] += e.hits;
		else
			c->next[role] += e.hits;
		if (role != RR_KFN_NONE && !c->name[role][0])
			snprintf(c->name[role], sizeof(c->name[role]), "%s",
				 name);
		c->counted = true;
	}
}

unsigned long long rr_hist_hitcount(const char *text, int pid)
{
	unsigned long long sum = 0;
	const char *p = text;

	/* "{ common_pid:        123 } hitcount:    5120000" */
	while (p && (p = strstr(p, "common_pid:"))) {
		char *end;
		long k = strtol(p + 11, &end, 10);
		const char *h = strstr(end, "hitcount:");
		const char *nl = strchr(end, '\n');

		p = end;
		if (!h || (nl && h > nl) || k != pid)
			continue;
		sum += strtoull(h + 9, NULL, 10);
	}
	return sum;
}

long rr_hist_items(const char *text, struct rr_item_count **out,
		   unsigned long long *dropped)
{
	struct rr_item_count *v = NULL, *nv;
	size_t n = 0, cap = 0;
	const char *line, *d;

	*out = NULL;
	*dropped = 0;
	/* "{ wid:     123456789, sid:     123456999 } hitcount:      19980" */
	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		unsigned long long w, s, h;

		if (sscanf(line, "{ wid: %llu, sid: %llu } hitcount: %llu",
			   &w, &s, &h) != 3)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
		}
		v[n].wid = w;
		v[n].sid = s;
		v[n].steps = h;
		n++;
	}
	d = text ? strstr(text, "Dropped:") : NULL;
	if (d)
		*dropped = strtoull(d + 8, NULL, 10);
	*out = v;
	return (long)n;
}

/* A task's hitcount in an event's hists, and its steps by caller. */
static unsigned long long read_count(struct rr_trace *t, const char *event,
				     int pid, int *err,
				     struct rr_iter_callers *callers,
				     bool first)
{
	char *text = tracefs_event_file_read(t->inst, RR_KPROBE_GROUP, event,
					     "hist", NULL);
	unsigned long long n = text ? rr_hist_hitcount(text, pid) : 0;

	if (text && callers)
		rr_iter_callers_parse(text, first, callers);

	if (!text)
		*err = -EIO;
	free(text);
	return n;
}

int rr_iters_read(struct rr_trace *t, int pid, enum rr_page_type type,
		  bool per_item, struct rr_iter_counts *out)
{
	char *text;
	int err = 0;
	long n;

	memset(out, 0, sizeof(*out));
	out->first = read_count(t, evs(type)[0], pid, &err,
				&out->callers, true);
	out->next = read_count(t, evs(type)[1], pid, &err, &out->callers,
			       false);
	if (per_item) {
		out->walks = read_count(t, walk_ev[type], pid, &err, NULL,
					false);
		text = tracefs_event_file_read(t->inst, "synthetic",
					       RR_STEP_SYNTH, "hist", NULL);
		n = text ? rr_hist_items(text, &out->items, &out->dropped) : -1;
		if (n < 0)
			err = -EIO;
		else
			out->nitems = n;
		free(text);
	}
	disarm(t, type, per_item ? 0xf : 1 << T_FIRST | 1 << T_NEXT);
	return err;
}

void rr_iter_counts_free(struct rr_iter_counts *c)
{
	free(c->items);
	c->items = NULL;
	c->nitems = 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct rr_item_count *x = a, *y = b;

	if (x->wid != y->wid)
		return x->wid < y->wid ? -1 : 1;
	return x->sid < y->sid ? -1 : x->sid > y->sid;
}

size_t rr_iters_attribute(struct rr_item_count *items, size_t n,
			  unsigned long long walks, struct rr_samples *per_walk,
			  struct rr_samples *per_item)
{
	unsigned long long steps = 0;
	size_t i, seen = 0;

	if (n)
		qsort(items, n, sizeof(*items), cmp_item);
	for (i = 0; i < n; i++) {
		rr_samples_add(per_item, (double)items[i].steps);
		steps += items[i].steps;
		if (i + 1 == n || items[i + 1].wid != items[i].wid) {
			rr_samples_add(per_walk, (double)steps);
			steps = 0;
			seen++;
		}
	}
	for (i = seen; i < walks; i++)
		rr_samples_add(per_walk, 0);
	return seen;
}

const char *rr_iters_case_fns(const struct rr_iter_syms *s,
			      enum rr_page_type type)
{
	int tree = tree_of(type);

	return s->found[tree] ? s->fns[tree] : s->fns[TREE_ANON];
}
