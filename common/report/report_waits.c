// SPDX-License-Identifier: GPL-2.0
/*
 * The lock waits of a case in words (probe/waits.h), shared by the text
 * report and KTAP, and their table in the text report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe/bracket.h"
#include "report/report.h"

const char rr_waits_how[] =
	"waits on sleeping locks (rwsem, mutex) of the reproducer's own tasks, from lock:contention_begin to lock:contention_end in the private instance (mono clock), paired per task and lock address; a wait inside the task's mmap_lock_start_locking .. mmap_lock_acquire_returned (mmap_lock events) is on the mmap_lock; not seen: the spinning before the sleep (an rwsem writer's optimistic spin, a mutex's), nor waits on spinlocks, which are counted apart";

/* "a write lock", "a read lock", "a mutex", "locks of two kinds" */
static const char *kind_phrase(unsigned int flags)
{
	unsigned int kinds = flags & (RR_LCB_READ | RR_LCB_WRITE |
				      RR_LCB_MUTEX | RR_LCB_RT);

	if (!kinds)
		return "a lock";
	if (kinds & (kinds - 1))
		return "locks of more than one kind";
	return kinds == RR_LCB_WRITE ? "a write lock" :
	       kinds == RR_LCB_READ ? "a read lock" :
	       kinds == RR_LCB_MUTEX ? "a mutex" : "an rt_mutex";
}

/* printf at buf + *o, within size; *o never passes size. */
static void add(char *buf, size_t size, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, size - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + n < size ? *o + n : size;
}

/* Which locks the waits were on: one, or the one that took the most. */
static void locks_text(const struct rr_wait_fig *f, char *buf, size_t size,
		       size_t *o)
{
	if (f->locks == 1) {
		add(buf, size, o, ", all on one lock (0x%llx, %s)",
		    f->top_addr, rr_wait_kind(f->top_flags));
		return;
	}
	add(buf, size, o,
	    ", on %s%u locks, most on 0x%llx (%s, %.3f ms in %lu waits)",
	    f->locks_more ? "at least " : "", f->locks, f->top_addr,
	    rr_wait_kind(f->top_flags), f->top_ms, f->top_count);
}

static void victim_text(const struct rr_result *r,
			const struct rr_case_result *c, char *buf,
			size_t size, size_t *o)
{
	const struct rr_wait_fig *v = &c->waits_victim;
	const char *call = r->victim_call[0] ? r->victim_call : "mprotect()";
	double in_calls = c->victim.mean * c->victim.count;

	if (!c->victim.count) {
		add(buf, size, o, "the victim timed no call");
		return;
	}
	/* its longest call in a pass with the waits (all, when recorded) */
	add(buf, size, o, "%s stalled up to %.3f ms in user space", call,
	    c->stall_ms);
	if (!v->ms.count) {
		add(buf, size, o,
		    "; it waited for no sleeping lock in its %zu calls (lock:contention_begin/end saw none)",
		    c->victim.count);
		return;
	}
	if (c->stall_waited_ms > 0)
		add(buf, size, o,
		    ", of which %.3f ms waiting for %s%s (lock:contention_end)",
		    c->stall_waited_ms, kind_phrase(c->stall_flags),
		    c->stall_flags & RR_WAIT_MMAP ? ", the mmap_lock" :
		    r->waits_mmap ? ", not the mmap_lock" : "");
	else
		add(buf, size, o,
		    ", of which no time waiting for a sleeping lock");
	add(buf, size, o,
	    "; in all it waited %zu time%s (p50 %.3f ms, max %.3f ms), %.3f ms or %.0f%% of its %.3f ms in %s",
	    v->ms.count, v->ms.count == 1 ? "" : "s", v->ms.p50, v->ms.max, v->total_ms,
	    in_calls > 0 ? 100.0 * v->total_ms / in_calls : 0.0, in_calls,
	    call);
	locks_text(v, buf, size, o);
	if (c->wait_caller[0])
		add(buf, size, o,
		    "; its waits began most often in %s (%llu of %llu contention_begin hits, a hist trigger keyed by stack)",
		    c->wait_caller, c->wait_caller_hits, c->wait_stack_hits);
}

static void walker_text(const struct rr_wait_fig *w, char *buf, size_t size,
			size_t *o)
{
	add(buf, size, o, "%sthe trigger's tasks ", *o ? "; " : "");
	if (!w->ms.count) {
		add(buf, size, o, "waited for no sleeping lock");
		return;
	}
	add(buf, size, o,
	    "waited %zu time%s (p50 %.3f ms, max %.3f ms, %.3f ms in all)",
	    w->ms.count, w->ms.count == 1 ? "" : "s", w->ms.p50, w->ms.max,
	    w->total_ms);
	locks_text(w, buf, size, o);
}

void rr_waits_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!r->waits || !c->ran)
		return;
	if (c->waits_victim.recorded)
		victim_text(r, c, buf, size, &o);
	if (c->waits_walker.recorded)
		walker_text(&c->waits_walker, buf, size, &o);
	if (c->waits_lost)
		add(buf, size, &o,
		    "; %llu events lost in their passes: figures incomplete",
		    c->waits_lost);
}

void rr_giveups_text(const struct rr_result *r,
		     const struct rr_case_result *c, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!r->giveups || !c->ran)
		return;
	add(buf, size, &o,
	    "folio_referenced() gave up on a contended rmap lock (returned -1, the folio left unaged) ");
	if (r->victim != RR_VICTIM_OFF)
		add(buf, size, &o, "%llu times in %llu calls with the victim running",
		    c->ref_giveups[1], c->ref_calls[1]);
	if (r->victim != RR_VICTIM_SAME)
		add(buf, size, &o, "%s%llu times in %llu calls without it",
		    r->victim == RR_VICTIM_OFF ? "" : ", ",
		    c->ref_giveups[0], c->ref_calls[0]);
	add(buf, size, &o, " (kretprobe " RR_KPROBE_GROUP "/" RR_GIVEUP_EVENT
	    ", any task, during the firings)");
}

double rr_rate(size_t count, double s)
{
	return s > 0 ? count / s : 0;
}

void rr_rate_text(const struct rr_result *r, const struct rr_case_result *c,
		  char *buf, size_t size)
{
	const char *call = r->victim_call[0] ? r->victim_call : "mprotect()";
	double alone = rr_rate(c->victim_alone.count, c->victim_alone_s);
	double with = rr_rate(c->victim.count, c->victim_with_s);

	buf[0] = '\0';
	if (!r->victim_alone_ms || !c->ran || !c->victim_alone.count)
		return;
	snprintf(buf, size,
		 "%.1f %s calls/s with no trigger (%zu in %.2f s), %.1f/s during the firings (%zu in %.2f s): %.2fx the rate (the victim's calls and its 0.1 ms pauses, per second of wall time)",
		 alone, call, c->victim_alone.count, c->victim_alone_s, with,
		 c->victim.count, c->victim_with_s,
		 alone > 0 ? with / alone : 0);
}

static void row(FILE *f, const char *name, const char *tasks,
		const struct rr_wait_fig *w)
{
	if (!w->recorded)
		return;
	fprintf(f, "%-5s %-7s %6zu %9.3f %9.3f %9.3f %5lu %5lu %5lu\n",
		name, tasks, w->ms.count, w->ms.p50, w->ms.max, w->total_ms,
		w->reads, w->writes, w->mutexes);
}

void rr_waits_table(FILE *f, const struct rr_result *r)
{
	int i;

	if (!r->waits)
		return;
	fprintf(f, "\nLock waits (lock:contention_begin .. _end), ms:\n");
	fprintf(f, "%-5s %-7s %6s %9s %9s %9s %5s %5s %5s\n", "case",
		"tasks", "n", "p50", "max", "total", "read", "write",
		"mutex");
	for (i = 0; i < r->nr_cases; i++) {
		const struct rr_case_result *c = &r->cases[i];

		if (!c->ran)
			continue;
		row(f, c->name, "victim", &c->waits_victim);
		row(f, c->name, "trigger", &c->waits_walker);
	}
}
