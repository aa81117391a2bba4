/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing and setting up the probe that measures a case. Best first:
 *
 *   rmap-tp    rmap/rmap_walk_start + _end (or rmap/rmap_walk with a
 *              duration): tracepoints of patched kernels;
 *   funcgraph  function_graph on the walk functions only, in the private
 *              instance (Linux 6.11 and later: older kernels allow it at
 *              the top level only, taken with --funcgraph-top when global
 *              tracing is idle, journaled and restored);
 *   kprobe     a kprobe and a kretprobe on each walk function, dynamic
 *              events of the suite's own group, created through the
 *              journal and removed afterwards (never anyone else's);
 *   brackets   the stock tracepoints around the trigger's work;
 *   poll       where a bracket's tracepoints are missing, the kernel
 *              counter that stands in for them, read every 1 ms by a
 *              thread (poll.h: KSM's full_scans before Linux 6.8).
 *
 * --probe auto takes the first available; the report names it and says
 * which better ones were unavailable, and why.
 */
#ifndef RR_PROBE_H
#define RR_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/trace.h"
#include "probe/walkfn.h"

enum rr_probe_kind {
	RR_PROBE_AUTO,
	RR_PROBE_RMAP_TP,
	RR_PROBE_FUNCGRAPH,
	RR_PROBE_KPROBE,
	RR_PROBE_BRACKETS,
	RR_PROBE_POLL,
	RR_PROBE_MAX
};

extern const char *const rr_probe_names[];

struct rr_probe_setup {
	int kind;			/* enum rr_probe_kind */
	int bracket;			/* enum rr_bracket_id measured */
	struct rr_walkfn fns[RR_PT_MAX];
	char events[256];		/* what is traced, for the report */
	bool top;			/* funcgraph in the top-level buffer */
};

/* --funcgraph-top: allow function_graph in the top-level buffer. */
extern bool rr_funcgraph_top;

/*
 * One backend per file. available() fills ps->bracket (and the walk
 * functions) and changes nothing; the others may be NULL.
 */
struct rr_probe_ops {
	int kind;
	bool (*available)(struct rr_probe_setup *ps, int trigger_bracket,
			  char *why, size_t len);
	/* before the instance exists (journaled objects) */
	int (*prepare)(struct rr_probe_setup *ps, char *why, size_t len);
	/* in the instance */
	int (*prepare_instance)(struct rr_probe_setup *ps,
				struct rr_trace *t, char *why, size_t len);
	/* per firing: the tasks to trace */
	int (*set_pids)(const struct rr_probe_setup *ps, struct rr_trace *t,
			const int *pids, int n);
};

extern const struct rr_probe_ops rr_probe_funcgraph;
extern const struct rr_probe_ops rr_probe_kprobe;

/*
 * Is this probe usable here? why says why not. Needs tracefs mounted;
 * changes nothing.
 */
bool rr_probe_available(int kind, int trigger_bracket, char *why,
			size_t len);
/*
 * Choose: the requested kind, or with auto the best available. why gets
 * the better kinds passed over and why (empty if none was). Returns 0,
 * or -ENODEV when the requested kind is unavailable (why says why).
 */
int rr_probe_select(int requested, int trigger_bracket,
		    struct rr_probe_setup *ps, char *why, size_t len);
/*
 * Set up what the probe needs before the instance exists: the kprobes
 * (journaled first, so that they are removed after the instance). Call
 * rr_probe_sweep() once before.
 */
int rr_probe_prepare(struct rr_probe_setup *ps, char *why, size_t len);
/* Set up what it needs in the instance: function_graph and its filter. */
int rr_probe_prepare_instance(struct rr_probe_setup *ps, struct rr_trace *t,
			      char *why, size_t len);
/* Per firing: restrict function tracing to these tasks. */
int rr_probe_set_pids(const struct rr_probe_setup *ps, struct rr_trace *t,
		      const int *pids, int n);
/* Does the kernel offer this tracer (available_tracers)? */
bool rr_has_tracer(const char *name);
/*
 * Create a kprobe (ret: a kretprobe) of the suite's group on func,
 * journaled first; before the instance exists.
 */
int rr_kprobe_create(const char *event, const char *func, bool ret,
		     char *why, size_t len);
/* The same with fetch arguments (fmt: "ret=$retval:s32"; NULL: none). */
int rr_kprobe_create_fmt(const char *event, const char *func, bool ret,
			 const char *fmt, char *why, size_t len);
/*
 * A kprobe and a kretprobe on each type's function found in fns, named
 * for the bracket (RR_BR_KPROBE: rr_walk_TYPE, RR_BR_PART: rr_part_TYPE).
 */
int rr_kprobe_pairs(int bracket, const struct rr_walkfn *fns, char *why,
		    size_t len);
/* Remove kprobes of the suite's group left by a run that died. */
int rr_probe_sweep(void);

/* Dynamic events' journal record, and its undo handler (probe/kprobe.c). */
#define J_DYNEVENT	"dynevent"	/* group/event, tracing dir */
struct journal_undo;
extern const struct journal_undo rr_undo_dynevent;

#endif
