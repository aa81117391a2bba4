/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint probes. Each is a pair of events (or one event with a
 * duration) whose interval is paired per task:
 *
 *   rmap-tp, rmap-tp-v1  the walk itself, on kernels that have the rmap
 *                        tracepoints (patched kernels);
 *   funcgraph, kprobe    the walk function itself (rmap_walk_ksm, ...),
 *                        timed by function_graph or by a kprobe and a
 *                        kretprobe (probe.c sets them up);
 *   part                 a part of a trigger's call done by one kernel
 *                        function (memory_failure()'s collect_procs_ksm),
 *                        timed the kprobe way beside any walk probe;
 *   migrate-batch,       stock brackets around work that contains
 *   memcg-reclaim,       walks: on every kernel, named for what they
 *   lru-batch            are (a migrate_pages batch, a reclaim pass, a
 *                        batch of folios taken off an LRU list), never
 *                        called a walk latency;
 *   ksm-scan             one full scan of ksmd, for the KSM daemon's
 *                        reproducers (no walk: a scan's own length);
 *   ksm-poll             the same where the ksm tracepoints are missing
 *                        (before Linux 6.8): polled, not traced, from one
 *                        change of KSM's full_scans to the next (poll.h).
 *
 * Mark events (migration PTEs set or removed at an address inside the
 * pattern) tie an interval to the pattern when the trigger may act on
 * other memory too (compaction).
 */
#ifndef RR_BRACKET_H
#define RR_BRACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"
#include "probe/intervals.h"
#include "probe/tasks.h"
#include "probe/trace.h"

enum rr_bracket_id {
	RR_BR_MIGRATE,
	RR_BR_MEMCG_RECLAIM,
	RR_BR_RMAP_WALK,
	RR_BR_RMAP_WALK_V1,
	RR_BR_FUNCGRAPH,
	RR_BR_KPROBE,
	RR_BR_PART,
	RR_BR_LRU_BATCH,
	RR_BR_KSM_SCAN,
	RR_BR_KSM_POLL,
	RR_BR_MAX
};

#define RR_MAX_MARKS 2

struct rr_bracket_def {
	const char *id;			/* JSON "probe" */
	const char *system, *start, *end; /* end NULL: one event */
	/* another event that ends it too (or NULL) */
	const char *end2;
	const char *value_field;	/* end field kept per interval */
	const char *dur_field;		/* one event: its duration (ns) */
	const char *key_field, *key2_field; /* pair start and end by */
	const char *type_field;		/* string: the walk's page type */
	const char *func_field;		/* the traced function's address */
	const char *call_field, *ret_field; /* end: kernel-timed length */
	bool per_type_events;		/* kprobe: one event pair per type, */
	const char *prefix;		/* named PREFIX_TYPE, PREFIX_TYPE_ret */
	bool from_tracer;		/* records come from the tracer, not
					 * from events enabled one by one */
	bool walk;			/* intervals are walks themselves */
	const char *what;		/* what one interval is */
	const char *bounds;		/* what its duration bounds */
	/* events that mark the pattern inside an interval (field: addr) */
	const char *mark_system, *mark_event[RR_MAX_MARKS];
	/*
	 * Polled, not traced (poll.h): a counter's file in poll_dir(),
	 * whose changes end the intervals; poll_task is the task that
	 * changes it.
	 */
	const char *poll_counter;
	const char *(*poll_dir)(void);
	int poll_task;
	/*
	 * The polled bracket that measures the same where this one's
	 * tracepoints are missing (--probe poll); 0: none (RR_BR_MIGRATE
	 * is never one).
	 */
	int polled_by;
};

extern const struct rr_bracket_def rr_brackets[RR_BR_MAX];

struct rr_decoder {
	int id;				/* tep event id */
	enum rr_ev_kind kind;
	int type;			/* its page type, or -1: any */
};

#define RR_MAX_DECODERS 8

struct rr_walkfn;

struct rr_bprobe {
	int bracket;
	int pids[4];			/* tasks to keep; none: all */
	int npids;
	bool use_marks;			/* count only intervals with marks */
	/*
	 * Every task is traced (a trigger that works anywhere): intervals
	 * of the reproducer's own tasks are not the trigger's (the suite's
	 * own reclaim that revives kswapd): counted by task, not samples.
	 */
	bool skip_own;
	const char *type;		/* page type to keep, or NULL */
	const struct rr_walkfn *fns;	/* funcgraph: address -> type */
	struct rr_decoder dec[RR_MAX_DECODERS];
	int ndec;
	struct tep_handle *tep;
	struct rr_pairer pairer;
	unsigned long other_type;	/* events of another page type */
	unsigned long other_func;	/* funcgraph: an unknown function */
};

struct rr_bprobe_result {
	unsigned long intervals;	/* paired intervals of the bracket */
	unsigned long counted;		/* those that became samples */
	unsigned long long marks;	/* pattern marks inside them */
	unsigned long unpaired;		/* dropped starts and ends */
	unsigned long long lost;
	unsigned long read_errors;	/* a polled counter not read */
	/* the counted ones by their task (tasks.h) */
	unsigned long by_task[RR_TASK_MAX];
};

bool rr_bracket_available(int bracket, char *why, size_t len);
/* A polled bracket's counter file (empty if not polled). */
void rr_bracket_poll_path(int bracket, char *buf, size_t size);
/* Build a "common_pid == a || ..." filter for the given tasks. */
void rr_pid_filter(const int *pids, int n, char *buf, size_t size);
/*
 * The kernel-side filter of a bracket's event: pids (NULL or "": every
 * task) and, with with_type, the walks of one page type where the event
 * has the field: "(common_pid == 7) && page_type == \"ksm\"",
 * "page_type == \"ksm\"", or "" for no filter at all.
 */
void rr_bracket_filter(int bracket, const char *pids, const char *type,
		       bool with_type, char *buf, size_t size);
/*
 * Arm a probe in the instance: pid_filter (may be NULL) restricts it to
 * the reproducer's tasks, type (may be NULL) to walks of one page type,
 * [lo, hi) to intervals that marked the pattern (used when hi > lo).
 * bp->tep must be set to the parsed formats first (rr_bprobe_init).
 */
void rr_bprobe_init(struct rr_bprobe *bp, struct tep_handle *tep,
		    int bracket);
int rr_bprobe_arm(struct rr_bprobe *bp, struct rr_trace *t,
		  const char *pid_filter, const char *type,
		  unsigned long lo, unsigned long hi, char *why, size_t len);
/* Resolve event ids (rr_bprobe_arm does it; tests call it alone). */
int rr_bprobe_decoders(struct rr_bprobe *bp, bool marks);
/*
 * kprobe and part: the names of a page type's entry and return events
 * (bracket: RR_BR_KPROBE or RR_BR_PART).
 */
void rr_kprobe_names(int bracket, int type, char *entry, char *ret,
		     size_t size);
#define RR_KPROBE_GROUP "rmap_repro"
/* Decode one record into a pairing event; false if not ours. */
bool rr_bprobe_decode(struct rr_bprobe *bp, struct tep_event *ev,
		      struct tep_record *rec, struct rr_event *out);
/* Drain the buffer, pair, and add the counted durations (ms) to out. */
int rr_bprobe_collect(struct rr_bprobe *bp, struct rr_trace *t,
		      struct rr_samples *out, struct rr_bprobe_result *res);
/* The same for several probes armed in one instance (cross-check). */
int rr_bprobe_collect_many(struct rr_bprobe **bps, int n,
			   struct rr_trace *t, struct rr_samples **outs,
			   struct rr_bprobe_result *res);
/*
 * The same, with every record shown to also() too (other events armed in
 * the instance, such as the lock waits); n may be 0.
 */
typedef void (*rr_also_fn)(void *ctx, struct tep_event *ev,
			   struct tep_record *rec);
int rr_bprobe_collect_also(struct rr_bprobe **bps, int n,
			   struct rr_trace *t, struct rr_samples **outs,
			   struct rr_bprobe_result *res, rr_also_fn also,
			   void *ctx);
/* Pair already-decoded events (for tests and for collect). */
void rr_bprobe_finish(struct rr_bprobe *bp, struct rr_samples *out,
		      struct rr_bprobe_result *res);

/* Which clock times a probe's samples, in words. */
const char *rr_probe_clock(int bracket);

#endif
