/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who waits for a walk: the lock waits of the reproducer's own tasks, from
 * lock:contention_begin / lock:contention_end (stock since Linux 5.19, no
 * kprobes or BPF needed), recorded in the private instance beside the
 * walk probe and paired per task by lock address.
 *
 * A wait is kept when it is on a sleeping lock: an rwsem (the anon_vma's
 * and i_mmap's rwsem, the mmap_lock), a percpu rwsem, a mutex or an
 * rt_mutex. Spinlock and rwlock waits are counted apart, not kept: the
 * rwsem slow path itself takes a contended spinlock (its wait_lock), and
 * such a wait nests inside the rwsem's.
 *
 * What the events do not see: an rwsem writer's optimistic spinning
 * before it queues, and a mutex's spinning before its first begin, run
 * before contention_begin; a wait is timed from the begin to the end.
 */
#ifndef RR_WAITS_H
#define RR_WAITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

struct tep_handle;
struct tep_event;
struct tep_record;
struct rr_trace;

/* contention_begin's flags (include/trace/events/lock.h, LCB_F_*) */
#define RR_LCB_SPIN	(1U << 0)
#define RR_LCB_READ	(1U << 1)
#define RR_LCB_WRITE	(1U << 2)
#define RR_LCB_RT	(1U << 3)
#define RR_LCB_PERCPU	(1U << 4)
#define RR_LCB_MUTEX	(1U << 5)
/*
 * Ours: the wait lay inside the task's mmap_lock acquisition
 * (mmap_lock:mmap_lock_start_locking .. acquire_returned): a wait for
 * the mmap_lock, not for an rmap lock.
 */
#define RR_WAIT_MMAP	(1U << 16)

#define RR_WAITS_SYSTEM "lock"
#define RR_WAITS_BEGIN "contention_begin"
#define RR_WAITS_END "contention_end"
#define RR_MMAP_SYSTEM "mmap_lock"
#define RR_MMAP_START "mmap_lock_start_locking"
#define RR_MMAP_DONE "mmap_lock_acquire_returned"
/*
 * Reclaim's give-ups: folio_referenced() walks with try_lock and returns
 * -1 when an rmap lock was contended (since Linux 5.19), leaving the
 * folio unaged; a kretprobe of the suite's group counts its returns.
 */
#define RR_GIVEUP_FUNC "folio_referenced"
#define RR_GIVEUP_EVENT "rr_folio_referenced_ret"

/* One wait, begin to end, on one task. */
struct rr_wait {
	int pid;
	unsigned int flags;		/* its begins' flags, or'ed */
	uint64_t addr;			/* the lock's kernel address */
	uint64_t start, end;		/* ns, the instance's mono clock */
};

/* Waits nest (a wait_lock inside an rwsem's wait): this deep per task. */
#define RR_WAIT_DEPTH 4

struct rr_wait_task {
	int pid;
	bool in_mmap;			/* acquiring an mmap_lock */
	int n;
	struct {
		uint64_t addr, start;
		unsigned int flags;
	} open[RR_WAIT_DEPTH];
};

struct rr_waits {
	struct rr_wait *w;		/* kept waits, in order of their end */
	size_t n, cap;
	struct rr_wait_task *tasks;
	size_t ntasks, cap_tasks;
	unsigned long unpaired;		/* begins or ends without the other */
	unsigned long spins;		/* spinlock and rwlock waits */
	unsigned long long lost;	/* events the buffer lost (meter) */
	/* decoding (rr_waits_arm) */
	struct tep_handle *tep;
	int begin_id, end_id;
	int mmap_start_id, mmap_done_id;	/* -1: not armed */
	bool mmap;			/* mmap_lock waits told apart */
	/* folio_referenced() returns, of any task; those that gave up */
	bool giveups_armed;		/* its hist trigger is on */
	unsigned long long ref_calls, ref_giveups;
};

/* Is this a wait on a sleeping lock (kept), from its flags? */
bool rr_wait_sleeping(unsigned int flags);
/* "write", "read", "mutex", "rt-mutex", "lock"; "write, mmap_lock" */
const char *rr_wait_kind(unsigned int flags);

void rr_waits_init(struct rr_waits *ws);
void rr_waits_free(struct rr_waits *ws);
/* Pairing, events in timestamp order. 0, or -ENOMEM. */
int rr_waits_begin(struct rr_waits *ws, int pid, uint64_t ts, uint64_t addr,
		   unsigned int flags);
int rr_waits_end(struct rr_waits *ws, int pid, uint64_t ts, uint64_t addr);
/* The task begins (true) or ends acquiring an mmap_lock. */
int rr_waits_mmap(struct rr_waits *ws, int pid, bool acquiring);
/* Count the waits still open as unpaired; keep the rest. */
void rr_waits_finish(struct rr_waits *ws);

/* Does this kernel have the events? false: why. */
bool rr_waits_available(char *why, size_t len);
/*
 * Enable the events in the instance for the tasks of pid_filter
 * (rr_pid_filter), and resolve their formats in t->tep; the mmap_lock
 * events too where they exist (ws->mmap).
 */
int rr_waits_arm(struct rr_waits *ws, struct rr_trace *t,
		 const char *pid_filter);
/*
 * Can reclaim's give-ups be counted here (kprobe_events, the function in
 * kallsyms)? false: why. Changes nothing.
 */
bool rr_giveups_available(char *why, size_t len);
/*
 * Where the victim's waits began: a hist trigger on contention_begin
 * keyed by the kernel stack, for one task (CONFIG_HIST_TRIGGERS). The
 * caller is the first frame outside the locking code, with the two
 * frames under it ("vma_prepare < __split_vma < vma_modify").
 */
struct rr_wait_stack {
	char caller[160];
	unsigned long long hits;	/* of that stack */
	unsigned long long all;		/* of every stack */
};

/* Add the hist trigger for pid: 0, or -errno (no hist triggers). */
int rr_waits_stack_arm(struct rr_trace *t, int pid);
/* Read it into st (zeroed first), and remove it. */
int rr_waits_stack_read(struct rr_trace *t, struct rr_wait_stack *st);
/* The top stack of a hist file's text (tests: on recorded text). */
void rr_waits_stack_parse(const char *text, struct rr_wait_stack *st);
/* Make the kretprobe (journaled), before the instance exists. */
int rr_giveups_prepare(char *why, size_t len);
/*
 * Count its returns in the instance, for every task (reclaim runs in
 * kswapd): a hist trigger keyed by the return value, which writes no
 * record (kswapd's every folio would flood the buffer in a pressure
 * phase and push the walks out of it). It counts from here until
 * rr_giveups_read, whether the trace is on or not.
 */
#define RR_GIVEUP_HIST "hist:keys=ret:vals=hitcount"
int rr_giveups_arm(struct rr_waits *ws, struct rr_trace *t);
/* Read the counts into ws->ref_calls and ref_giveups; remove the trigger. */
int rr_giveups_read(struct rr_waits *ws, struct rr_trace *t);
/* The calls and the -1 returns in a hist file's text (tests: recorded). */
void rr_giveups_parse(const char *text, unsigned long long *calls,
		      unsigned long long *giveups);
/* Feed one record (a collect's callback); false if not a lock event. */
bool rr_waits_decode(struct rr_waits *ws, struct tep_event *ev,
		     struct tep_record *rec);

/*
 * A group of tasks' waits in one case, accumulated over its passes, and
 * what the report says of them (rr_wait_fig).
 */
#define RR_WAIT_LOCKS 16

struct rr_wait_lock {
	uint64_t addr;
	unsigned int flags;		/* or'ed over its waits */
	unsigned long count;
	double ms;
};

struct rr_wait_acc {
	struct rr_samples ms;		/* each wait, ms */
	unsigned long reads, writes, mutexes, others;
	double total_ms;
	struct rr_wait_lock locks[RR_WAIT_LOCKS];
	int nlocks;
	bool locks_more;		/* more locks than the table holds */
};

struct rr_wait_fig {
	bool recorded;			/* in a pass where these tasks ran */
	struct rr_stats ms;		/* each wait, ms */
	double total_ms;
	unsigned long reads, writes, mutexes, others;
	unsigned int locks;		/* distinct lock addresses */
	bool locks_more;		/* at least that many */
	/* the lock that took the most wait: its address, share, kind */
	unsigned long long top_addr;
	unsigned int top_flags;
	unsigned long top_count;
	double top_ms;
};

void rr_wait_acc_add(struct rr_wait_acc *a, const struct rr_wait *w);
void rr_wait_acc_free(struct rr_wait_acc *a);
void rr_wait_acc_fig(const struct rr_wait_acc *a, struct rr_wait_fig *f);
/*
 * The sum of the waits inside [t0, t1) of the tasks whose() says are
 * the ones (ctx its argument), ms (the part inside); *flags
 * gets their flags or'ed.
 */
double rr_waits_within(const struct rr_waits *ws,
		       bool (*whose)(const void *ctx, int pid),
		       const void *ctx, uint64_t t0, uint64_t t1,
		       unsigned int *flags);

#endif
