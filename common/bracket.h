/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stock tracepoint brackets: pairs of events that enclose kernel work
 * containing rmap walks. They exist on every kernel, so they are the
 * always-available bound; a figure from them is named for what it is (a
 * migrate_pages batch, a reclaim pass), never called a walk latency.
 */
#ifndef RR_BRACKET_H
#define RR_BRACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pair.h"
#include "stats.h"
#include "trace.h"

enum rr_bracket_id {
	RR_BR_MIGRATE,
	RR_BR_MEMCG_RECLAIM,
	RR_BR_MAX
};

struct rr_bracket_def {
	const char *id;			/* JSON "probe" */
	const char *system, *start, *end;
	const char *value_field;	/* end event field kept per interval */
	const char *what;		/* what one interval is */
	const char *bounds;		/* what its duration bounds */
	/* event that marks the pattern inside an interval, or NULL */
	const char *mark_system, *mark_event, *mark_field;
};

extern const struct rr_bracket_def rr_brackets[RR_BR_MAX];

struct rr_decoder {
	int id;				/* tep event id */
	enum rr_ev_kind kind;
	int bracket;
	const char *field;		/* payload field name, or NULL */
};

#define RR_MAX_DECODERS 8

struct rr_bprobe {
	int bracket;
	bool use_marks;			/* count only intervals with marks */
	struct rr_decoder dec[RR_MAX_DECODERS];
	int ndec;
	struct tep_handle *tep;
	struct rr_pairer pairer;
};

struct rr_bprobe_result {
	unsigned long intervals;	/* paired intervals of the bracket */
	unsigned long counted;		/* those that became samples */
	unsigned long long marks;	/* pattern marks inside them */
	unsigned long unpaired;		/* dropped starts and ends */
	unsigned long long lost;
};

bool rr_bracket_available(int bracket, char *why, size_t len);
/* Build a "common_pid == a || ..." filter for the given tasks. */
void rr_pid_filter(const int *pids, int n, char *buf, size_t size);
/*
 * Enable the bracket's events in the instance. pid_filter (may be NULL)
 * restricts start and end to the reproducer's tasks; [lo, hi) restricts
 * marks to the pattern's addresses (marks used only when hi > lo).
 */
int rr_bprobe_setup(struct rr_bprobe *bp, struct rr_trace *t, int bracket,
		    const char *pid_filter, unsigned long lo,
		    unsigned long hi, char *why, size_t len);
/* Decode one record into a pairing event; false if not ours. */
bool rr_bprobe_decode(const struct rr_bprobe *bp, struct tep_event *ev,
		      struct tep_record *rec, struct rr_event *out);
/* Drain the buffer, pair, and add the counted durations (ms) to out. */
int rr_bprobe_collect(struct rr_bprobe *bp, struct rr_trace *t,
		      struct rr_samples *out, struct rr_bprobe_result *res);
/* Pair already-decoded events (for tests and for collect). */
void rr_bprobe_finish(struct rr_bprobe *bp, struct rr_samples *out,
		      struct rr_bprobe_result *res);

#endif
