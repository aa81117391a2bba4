// SPDX-License-Identifier: GPL-2.0
/*
 * The lock waits of a case (probe/waits.h): the victim's longest stall
 * and the part of it spent waiting, its waits in all and on which locks,
 * the trigger's tasks' waits; and folio_referenced()'s give-ups on a
 * contended rmap lock.
 */
#include <string.h>

#include "figure/figure.h"
#include "lib/json.h"
#include "probe/bracket.h"

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

#define add rr_fig_add
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

static void giveups_text(const struct rr_result *r,
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
	    ", any task, during the firings, counted by a hist trigger)");
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

static void table(FILE *f, const struct rr_result *r)
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

static void not_recorded(FILE *f, rr_field_fn *field, const char *key,
			 const char *why)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "not recorded: %s", why);
	field(f, key, buf);
}

static void text(FILE *f, const struct rr_result *r, rr_field_fn *field)
{
	rr_fig_per_case(f, r, field, "Waits", rr_waits_text);
	if (r->waits)
		field(f, "", rr_waits_how);
	else if (r->waits_why[0])
		not_recorded(f, field, "Waits", r->waits_why);
	rr_fig_per_case(f, r, field, "Give-ups", giveups_text);
	if (r->waits && !r->giveups && r->giveups_why[0])
		not_recorded(f, field, "Give-ups", r->giveups_why);
}

static void ktap(FILE *f, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	char buf[768];

	rr_waits_text(r, c, buf, sizeof(buf));
	rr_fig_diag(f, c->name, "lock waits: ", buf);
	giveups_text(r, c, buf, sizeof(buf));
	rr_fig_diag(f, c->name, "give-ups: ", buf);
}

/* One group of tasks' lock waits (probe/waits.h), or null. */
static void wait_fig(struct rr_json *j, const char *key,
		     const struct rr_wait_fig *f)
{
	char addr[32];

	if (!f->recorded) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
	json_uint(j, "count", f->ms.count);
	json_num(j, "p50_ms", f->ms.p50, 3);
	json_num(j, "max_ms", f->ms.max, 3);
	json_num(j, "total_ms", f->total_ms, 3);
	json_uint(j, "read", f->reads);
	json_uint(j, "write", f->writes);
	json_uint(j, "mutex", f->mutexes);
	json_uint(j, "other", f->others);
	json_uint(j, "locks", f->locks);
	json_bool(j, "locks_at_least", f->locks_more);
	if (f->locks) {
		json_obj_begin(j, "top_lock");
		snprintf(addr, sizeof(addr), "0x%llx", f->top_addr);
		json_str(j, "addr", addr);
		json_str(j, "kind", rr_wait_kind(f->top_flags));
		json_uint(j, "waits", f->top_count);
		json_num(j, "ms", f->top_ms, 3);
		json_obj_end(j);
	} else {
		json_null(j, "top_lock");
	}
	json_obj_end(j);
}

static void giveups_json(struct rr_json *j, const struct rr_result *r,
			 const struct rr_case_result *c)
{
	char buf[1024];

	if (!r->giveups) {
		json_null(j, "reclaim_giveups");
		return;
	}
	json_obj_begin(j, "reclaim_giveups");
	json_uint(j, "calls_with_victim", c->ref_calls[1]);
	json_uint(j, "gave_up_with_victim", c->ref_giveups[1]);
	json_uint(j, "calls_without_victim", c->ref_calls[0]);
	json_uint(j, "gave_up_without_victim", c->ref_giveups[0]);
	giveups_text(r, c, buf, sizeof(buf));
	json_str(j, "text", buf);
	json_obj_end(j);
}

static void json(struct rr_json *j, const struct rr_result *r,
		 const struct rr_case_result *c)
{
	char buf[1024];

	if (!r->waits) {
		json_null(j, "lock_waits");
		return;
	}
	json_obj_begin(j, "lock_waits");
	wait_fig(j, "victim", &c->waits_victim);
	wait_fig(j, "trigger_tasks", &c->waits_walker);
	json_num(j, "victim_longest_stall_ms", c->stall_ms, 3);
	json_num(j, "waited_in_longest_stall_ms", c->stall_waited_ms, 3);
	if (r->waits_stack && c->wait_caller[0]) {
		json_obj_begin(j, "victim_wait_caller");
		json_str(j, "stack", c->wait_caller);
		json_uint(j, "hits", c->wait_caller_hits);
		json_uint(j, "all_hits", c->wait_stack_hits);
		json_obj_end(j);
	} else {
		json_null(j, "victim_wait_caller");
	}
	json_uint(j, "unpaired_events", c->waits_unpaired);
	json_uint(j, "spinlock_waits", c->waits_spins);
	json_uint(j, "lost_events", c->waits_lost);
	giveups_json(j, r, c);
	rr_waits_text(r, c, buf, sizeof(buf));
	json_str(j, "text", buf);
	json_obj_end(j);
}

/* The victim's waits on one lock, the trigger's tasks' on two. */
static void example(struct rr_result *r, struct rr_case_result *c,
		    double ms)
{
	struct rr_wait_acc a = { 0 };
	struct rr_wait w = { .pid = 1, .flags = RR_LCB_WRITE,
			     .addr = 0xffff888100001000ULL, .start = 0 };
	int k;

	r->waits = r->waits_mmap = r->giveups = r->waits_stack = true;
	for (k = 1; k <= 3; k++) {
		w.end = (uint64_t)(ms * k / 3 * 1e6);
		rr_wait_acc_add(&a, &w);
	}
	rr_wait_acc_fig(&a, &c->waits_victim);
	c->waits_victim.recorded = true;
	w.addr = 0xffff888100002000ULL;
	w.flags = RR_LCB_READ | RR_WAIT_MMAP;
	rr_wait_acc_add(&a, &w);
	rr_wait_acc_fig(&a, &c->waits_walker);
	c->waits_walker.recorded = true;
	rr_wait_acc_free(&a);
	c->stall_ms = ms * 2;
	c->stall_waited_ms = ms;
	c->stall_flags = RR_LCB_WRITE;
	c->waits_unpaired = 1;
	c->ref_calls[0] = 500;
	c->ref_calls[1] = 400;
	c->ref_giveups[1] = 12;
	snprintf(c->wait_caller, sizeof(c->wait_caller),
		 "vma_prepare < __split_vma < vma_modify");
	c->wait_caller_hits = 3;
	c->wait_stack_hits = 4;
	c->waits_spins = 2;
}

static const char *const keys[] = { "lock_waits", NULL };

const struct rr_figure rr_figure_waits = {
	.name = "waits",
	.keys = keys,
	.table = table,
	.text = text,
	.ktap = ktap,
	.json = json,
	.example = example,
};
