// SPDX-License-Identifier: GPL-2.0
/*
 * Lock waits from lock:contention_begin/end: pairing per task, decoding
 * through libtraceevent, and the figures of a group of tasks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "lib/util.h"
#include "mm/sysinfo.h"
#include "probe/bracket.h"
#include "probe/probe.h"
#include "probe/stackhist.h"
#include "probe/trace.h"
#include "probe/walkfn.h"
#include "probe/waits.h"

bool rr_wait_sleeping(unsigned int flags)
{
	/* a mutex spins before it sleeps: its first begin says SPIN too */
	return (flags & (RR_LCB_MUTEX | RR_LCB_RT)) || !(flags & RR_LCB_SPIN);
}

const char *rr_wait_kind(unsigned int flags)
{
	if (flags & RR_WAIT_MMAP)
		return flags & RR_LCB_WRITE ? "write, mmap_lock" :
		       "read, mmap_lock";
	if (flags & RR_LCB_MUTEX)
		return "mutex";
	if (flags & RR_LCB_RT)
		return "rt-mutex";
	if (flags & RR_LCB_WRITE)
		return "write";
	if (flags & RR_LCB_READ)
		return "read";
	return "lock";
}

void rr_waits_init(struct rr_waits *ws)
{
	memset(ws, 0, sizeof(*ws));
	ws->begin_id = ws->end_id = -1;
	ws->mmap_start_id = ws->mmap_done_id = -1;
}

void rr_waits_free(struct rr_waits *ws)
{
	free(ws->w);
	free(ws->tasks);
	rr_waits_init(ws);
}

static struct rr_wait_task *task_of(struct rr_waits *ws, int pid, bool add)
{
	struct rr_wait_task *t;
	size_t i;

	for (i = 0; i < ws->ntasks; i++)
		if (ws->tasks[i].pid == pid)
			return &ws->tasks[i];
	if (!add)
		return NULL;
	if (ws->ntasks == ws->cap_tasks) {
		size_t cap = ws->cap_tasks ? ws->cap_tasks * 2 : 8;

		t = realloc(ws->tasks, cap * sizeof(*t));
		if (!t)
			return NULL;
		ws->tasks = t;
		ws->cap_tasks = cap;
	}
	t = &ws->tasks[ws->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	return t;
}

int rr_waits_begin(struct rr_waits *ws, int pid, uint64_t ts, uint64_t addr,
		   unsigned int flags)
{
	struct rr_wait_task *t = task_of(ws, pid, true);

	if (!t)
		return -ENOMEM;
	/*
	 * The same lock again on top: a mutex that spun and now sleeps
	 * (a second begin, without SPIN). One wait, from the first begin.
	 */
	if (t->n && t->open[t->n - 1].addr == addr) {
		t->open[t->n - 1].flags |= flags;
		if (!(flags & RR_LCB_SPIN))
			t->open[t->n - 1].flags &= ~RR_LCB_SPIN;
		return 0;
	}
	if (t->n == RR_WAIT_DEPTH) {
		ws->unpaired++;
		return 0;
	}
	t->open[t->n].addr = addr;
	t->open[t->n].start = ts;
	t->open[t->n].flags = flags | (t->in_mmap ? RR_WAIT_MMAP : 0);
	t->n++;
	return 0;
}

int rr_waits_end(struct rr_waits *ws, int pid, uint64_t ts, uint64_t addr)
{
	struct rr_wait_task *t = task_of(ws, pid, false);
	struct rr_wait *w;
	int i;

	for (i = t ? t->n - 1 : -1; i >= 0 && t->open[i].addr != addr; i--)
		;
	if (i < 0) {
		/* the trace began inside this wait */
		ws->unpaired++;
		return 0;
	}
	/* begins above it never ended: dropped, never guessed */
	ws->unpaired += t->n - 1 - i;
	t->n = i;
	if (!rr_wait_sleeping(t->open[i].flags)) {
		ws->spins++;
		return 0;
	}
	if (ws->n == ws->cap) {
		size_t cap = ws->cap ? ws->cap * 2 : 64;

		w = realloc(ws->w, cap * sizeof(*w));
		if (!w)
			return -ENOMEM;
		ws->w = w;
		ws->cap = cap;
	}
	w = &ws->w[ws->n++];
	w->pid = pid;
	w->flags = t->open[i].flags;
	w->addr = addr;
	w->start = t->open[i].start;
	w->end = ts;
	return 0;
}

int rr_waits_mmap(struct rr_waits *ws, int pid, bool acquiring)
{
	struct rr_wait_task *t = task_of(ws, pid, true);

	if (!t)
		return -ENOMEM;
	t->in_mmap = acquiring;
	return 0;
}

void rr_waits_finish(struct rr_waits *ws)
{
	size_t i;

	for (i = 0; i < ws->ntasks; i++) {
		ws->unpaired += ws->tasks[i].n;
		ws->tasks[i].n = 0;
	}
}

bool rr_waits_available(char *why, size_t len)
{
	if (rr_trace_event_exists(RR_WAITS_SYSTEM, RR_WAITS_BEGIN) &&
	    rr_trace_event_exists(RR_WAITS_SYSTEM, RR_WAITS_END))
		return true;
	snprintf(why, len,
		 "no lock:contention_begin/end tracepoints (before Linux 5.19)");
	return false;
}

int rr_waits_arm(struct rr_waits *ws, struct rr_trace *t,
		 const char *pid_filter)
{
	struct tep_event *b, *e;
	int err;

	b = tep_find_event_by_name(t->tep, RR_WAITS_SYSTEM, RR_WAITS_BEGIN);
	e = tep_find_event_by_name(t->tep, RR_WAITS_SYSTEM, RR_WAITS_END);
	if (!b || !e)
		return -ENOENT;
	ws->tep = t->tep;
	ws->begin_id = b->id;
	ws->end_id = e->id;
	err = rr_trace_enable(t, RR_WAITS_SYSTEM, RR_WAITS_BEGIN, pid_filter);
	if (!err)
		err = rr_trace_enable(t, RR_WAITS_SYSTEM, RR_WAITS_END,
				      pid_filter);
	b = tep_find_event_by_name(t->tep, RR_MMAP_SYSTEM, RR_MMAP_START);
	e = tep_find_event_by_name(t->tep, RR_MMAP_SYSTEM, RR_MMAP_DONE);
	/* optional: without them, an mmap_lock wait is not told apart */
	if (err || !b || !e ||
	    rr_trace_enable(t, RR_MMAP_SYSTEM, RR_MMAP_START, pid_filter) ||
	    rr_trace_enable(t, RR_MMAP_SYSTEM, RR_MMAP_DONE, pid_filter))
		return err;
	ws->mmap_start_id = b->id;
	ws->mmap_done_id = e->id;
	ws->mmap = true;
	return 0;
}

/* folio_referenced, in the page-type table's first slot */
static const enum rr_kfn giveup_roles[RR_PT_MAX] = { RR_KFN_REFERENCED };

bool rr_giveups_available(char *why, size_t len)
{
	struct rr_walkfn fns[RR_PT_MAX];

	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		snprintf(why, len, "no kprobe_events (CONFIG_KPROBE_EVENTS off)");
		return false;
	}
	if (rr_kconfig("HIST_TRIGGERS", NULL, 0) == 0) {
		snprintf(why, len, "CONFIG_HIST_TRIGGERS is not set (the count is a hist trigger's)");
		return false;
	}
	if (!rr_fn_resolve(giveup_roles, fns)) {
		snprintf(why, len, RR_GIVEUP_FUNC " is not in /proc/kallsyms");
		return false;
	}
	return true;
}

int rr_giveups_prepare(char *why, size_t len)
{
	struct rr_walkfn fns[RR_PT_MAX];

	if (!rr_fn_resolve(giveup_roles, fns))
		return -ENOENT;
	return rr_kprobe_create_fmt(RR_GIVEUP_EVENT, fns[0].name, true,
				    "ret=$retval:s32", why, len);
}

int rr_giveups_arm(struct rr_waits *ws, struct rr_trace *t)
{
	/* a trigger left by a firing that was never collected goes first */
	tracefs_event_file_clear(t->inst, RR_KPROBE_GROUP, RR_GIVEUP_EVENT,
				 "trigger");
	if (tracefs_event_file_append(t->inst, RR_KPROBE_GROUP,
				      RR_GIVEUP_EVENT, "trigger",
				      RR_GIVEUP_HIST) < 0)
		return -EIO;
	ws->giveups_armed = true;
	return 0;
}

void rr_giveups_parse(const char *text, unsigned long long *calls,
		      unsigned long long *giveups)
{
	const char *line, *h;

	*calls = *giveups = 0;
	/*
	 * "{ ret: 18446744073709551615 } hitcount:          5": a key is
	 * printed as a u64, an s32's -1 sign-extended (or, elsewhere,
	 * 4294967295 or -1: strtoull reads "-1" as the u64 -1 too).
	 */
	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		unsigned long long ret, hits;
		char *end;

		if (strncmp(line, "{ ret:", 6))
			continue;
		ret = strtoull(line + 6, &end, 10);
		h = strstr(end, "hitcount:");
		if (end == line + 6 || !h)
			continue;
		hits = strtoull(h + 9, NULL, 10);
		*calls += hits;
		if (ret == ~0ULL || ret == 0xffffffffULL)
			*giveups += hits;
	}
}

int rr_giveups_read(struct rr_waits *ws, struct rr_trace *t)
{
	char *text;
	int err = 0;

	if (!ws->giveups_armed)
		return 0;
	text = tracefs_event_file_read(t->inst, RR_KPROBE_GROUP,
				       RR_GIVEUP_EVENT, "hist", NULL);
	if (text)
		rr_giveups_parse(text, &ws->ref_calls, &ws->ref_giveups);
	else
		err = -EIO;
	free(text);
	tracefs_event_file_clear(t->inst, RR_KPROBE_GROUP, RR_GIVEUP_EVENT,
				 "trigger");
	ws->giveups_armed = false;
	return err;
}

/* Frames of the locking code itself, not its caller. */
static bool lock_frame(const char *f)
{
	static const char *const pre[] = {
		"contention_", "rwsem", "__rwsem", "down_", "__down", "up_",
		"mutex_", "__mutex", "_raw_", "queued_", "native_queued",
		"__pv_", "percpu_", "__percpu", "rt_mutex", "__rt_mutex",
		"trace_", "__traceiter", "__bpf", "perf_", NULL
	};
	int i;

	for (i = 0; pre[i]; i++)
		if (!strncmp(f, pre[i], strlen(pre[i])))
			return true;
	return false;
}

/* One entry's caller and two more frames, "a < b < c", into out. */
static void entry_caller(const struct rr_stack_entry *e, char *out,
			 size_t len)
{
	const char *p = NULL;
	char name[96];
	size_t o = 0;
	int taken = 0;

	out[0] = '\0';
	while (taken < 3 && rr_stack_frame(&p, e, name, sizeof(name))) {
		if (taken || !lock_frame(name)) {
			o += snprintf(out + o, o < len ? len - o : 0, "%s%s",
				      taken ? " < " : "", name);
			taken++;
		}
	}
}

void rr_waits_stack_parse(const char *text, struct rr_wait_stack *st)
{
	struct rr_stack_entry e;
	const char *p = text;

	memset(st, 0, sizeof(*st));
	while (rr_stackhist_next(&p, &e)) {
		st->all += e.hits;
		if (e.hits > st->hits) {
			st->hits = e.hits;
			entry_caller(&e, st->caller, sizeof(st->caller));
		}
	}
}

int rr_waits_stack_arm(struct rr_trace *t, int pid)
{
	return rr_stackhist_arm(t, RR_WAITS_SYSTEM, RR_WAITS_BEGIN,
				":sort=hitcount.descending:size=256", pid);
}

int rr_waits_stack_read(struct rr_trace *t, struct rr_wait_stack *st)
{
	char *text = tracefs_event_file_read(t->inst, RR_WAITS_SYSTEM,
					     RR_WAITS_BEGIN, "hist", NULL);

	int err = text ? 0 : -EIO;

	memset(st, 0, sizeof(*st));
	if (text)
		rr_waits_stack_parse(text, st);
	free(text);
	tracefs_event_file_clear(t->inst, RR_WAITS_SYSTEM, RR_WAITS_BEGIN,
				 "trigger");
	return err;
}

static unsigned long long field(struct tep_event *ev, struct tep_record *rec,
				const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return 0;
	return v;
}

bool rr_waits_decode(struct rr_waits *ws, struct tep_event *ev,
		     struct tep_record *rec)
{
	int pid;

	if (!ws->tep)
		return false;
	pid = tep_data_pid(ws->tep, rec);
	if (ev->id == ws->mmap_start_id || ev->id == ws->mmap_done_id) {
		rr_waits_mmap(ws, pid, ev->id == ws->mmap_start_id);
		return true;
	}
	if (ev->id != ws->begin_id && ev->id != ws->end_id)
		return false;
	if (ev->id == ws->begin_id)
		rr_waits_begin(ws, pid, rec->ts, field(ev, rec, "lock_addr"),
			       (unsigned int)field(ev, rec, "flags"));
	else
		rr_waits_end(ws, pid, rec->ts, field(ev, rec, "lock_addr"));
	return true;
}

void rr_wait_acc_add(struct rr_wait_acc *a, const struct rr_wait *w)
{
	double ms = (double)(w->end - w->start) / NSEC_PER_MSEC;
	struct rr_wait_lock *l;
	int i;

	rr_samples_add(&a->ms, ms);
	a->total_ms += ms;
	if (w->flags & (RR_LCB_MUTEX | RR_LCB_RT))
		a->mutexes++;
	else if (w->flags & RR_LCB_WRITE)
		a->writes++;
	else if (w->flags & RR_LCB_READ)
		a->reads++;
	else
		a->others++;
	for (i = 0; i < a->nlocks && a->locks[i].addr != w->addr; i++)
		;
	if (i == a->nlocks) {
		if (a->nlocks == RR_WAIT_LOCKS) {
			a->locks_more = true;
			return;
		}
		a->nlocks++;
		memset(&a->locks[i], 0, sizeof(a->locks[i]));
		a->locks[i].addr = w->addr;
	}
	l = &a->locks[i];
	l->flags |= w->flags;
	l->count++;
	l->ms += ms;
}

void rr_wait_acc_free(struct rr_wait_acc *a)
{
	rr_samples_free(&a->ms);
	memset(a, 0, sizeof(*a));
}

void rr_wait_acc_fig(const struct rr_wait_acc *a, struct rr_wait_fig *f)
{
	const struct rr_wait_lock *top = NULL;
	int i;

	rr_stats_compute(a->ms.v, a->ms.n, &f->ms);
	f->total_ms = a->total_ms;
	f->reads = a->reads;
	f->writes = a->writes;
	f->mutexes = a->mutexes;
	f->others = a->others;
	f->locks = a->nlocks;
	f->locks_more = a->locks_more;
	for (i = 0; i < a->nlocks; i++)
		if (!top || a->locks[i].ms > top->ms)
			top = &a->locks[i];
	f->top_addr = top ? top->addr : 0;
	f->top_flags = top ? top->flags : 0;
	f->top_count = top ? top->count : 0;
	f->top_ms = top ? top->ms : 0;
}

double rr_waits_within(const struct rr_waits *ws,
		       bool (*whose)(const void *ctx, int pid),
		       const void *ctx, uint64_t t0, uint64_t t1,
		       unsigned int *flags)
{
	double ms = 0;
	size_t i;

	*flags = 0;
	for (i = 0; i < ws->n; i++) {
		const struct rr_wait *w = &ws->w[i];
		uint64_t s = w->start > t0 ? w->start : t0;
		uint64_t e = w->end < t1 ? w->end : t1;

		if (e <= s || !whose(ctx, w->pid))
			continue;
		ms += (double)(e - s) / NSEC_PER_MSEC;
		*flags |= w->flags;
	}
	return ms;
}
