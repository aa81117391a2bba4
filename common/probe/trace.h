/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs access through libtracefs and libtraceevent: a private instance
 * with a unique name (rmap-repro-PID), created off, on the mono clock so
 * that a start and an end recorded on different CPUs compare; events read
 * as binary records; lost events counted. The global trace buffer and the
 * global tracer are only touched by function_graph with --funcgraph-top
 * (probe/funcgraph.c); then reset, read and loss counts cover it too.
 */
#ifndef RR_TRACE_H
#define RR_TRACE_H

#include <stdbool.h>
#include <stddef.h>

struct tracefs_instance;
struct tep_handle;
struct tep_event;
struct tep_record;

#define RR_INSTANCE_PREFIX "rmap-repro-"

typedef int (*rr_record_fn)(struct tep_event *ev, struct tep_record *rec,
			    int cpu, void *ctx);

struct rr_trace {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char name[64];
	unsigned long long missed;	/* reported by the reader */
	size_t buffer_kb;		/* per CPU */
	bool top_graph;			/* function_graph runs at the top
					 * level: read and reset it too */
};

/* Mount tracefs (journaled) if it is not mounted anywhere. */
int rr_trace_mount(char *why, size_t len);
/* Remove instances left by runs that died (their PID is gone). */
int rr_trace_sweep(void);
/* Remove an instance: its hist triggers first, rmdir retried. */
int rr_trace_remove_instance(const char *dir, bool verbose);
bool rr_trace_event_exists(const char *system, const char *event);
int rr_trace_open(struct rr_trace *t, size_t buffer_kb, char *why,
		  size_t len);
/* A larger per-CPU buffer for the instance (after events were lost). */
int rr_trace_grow(struct rr_trace *t, size_t buffer_kb);
/* function_graph runs at the top level: reset, read and count it too. */
void rr_trace_use_top(struct rr_trace *t);
int rr_trace_enable(struct rr_trace *t, const char *system,
		    const char *event, const char *filter);
int rr_trace_disable_all(struct rr_trace *t);
int rr_trace_on(struct rr_trace *t);
int rr_trace_off(struct rr_trace *t);
/* Drop everything in the buffer and zero the loss counters. */
int rr_trace_reset(struct rr_trace *t);
/* Read and consume every record, in timestamp order. */
int rr_trace_read(struct rr_trace *t, rr_record_fn fn, void *ctx);
/* Events lost since the last reset: overrun + dropped + missed. */
unsigned long long rr_trace_lost(struct rr_trace *t);
/* A per-CPU stats counter ("entries", "overrun", ...) summed; NULL: top. */
unsigned long long rr_trace_stat_sum(struct tracefs_instance *inst,
				     const char *key);
void rr_trace_close(struct rr_trace *t);

/* Its kinds of journal record, and their undo handlers (core/undo.c). */
#define J_INSTANCE	"tracefs-instance" /* instance directory */
struct journal_undo;
extern const struct journal_undo rr_undo_instance, rr_undo_mount;

#endif
