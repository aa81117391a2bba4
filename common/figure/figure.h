/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A case's figures, each family described once: how it is written as
 * text, as KTAP diagnostics and as JSON, and an example of it for
 * tests/tools/full-result and the docs. The three writers of report/
 * loop over RR_FIGURES in its order and own only their frame (the
 * verdict, the runs, the judged figure, safety). A new figure is one
 * file here, one line in RR_FIGURES, its test and its line in
 * docs/results.md (docs/hacking.md, "Adding a figure").
 */
#ifndef RR_FIGURE_H
#define RR_FIGURE_H

#include <stdbool.h>
#include <stdio.h>

#include "model/result.h"
#include "trigger/trigger.h"

struct rr_json;

/* A sentence of case c ("" where the figure has none for it). */
typedef void rr_case_text_fn(const struct rr_result *r,
			     const struct rr_case_result *c, char *buf,
			     size_t size);

/*
 * Every hook may be NULL: a figure need not appear in every format.
 *
 * The simple form, one sentence per case: sentence() gives it, the text
 * writes it under label ("Label    case: sentence", where text is NULL)
 * and KTAP after "    # NAME: " and ktap_what (where ktap is NULL).
 *
 * table: its table in the text report's block of tables.
 * text: its block of lines in the text report's case lines, through
 * field() (72 columns; rr_fig_per_case() writes "case: sentence" lines).
 * ktap: its diagnostic lines of case c ("    # NAME: ..."), written
 * before c's result line, and only where c measured something, unless
 * ktap_first: then first among c's lines, whatever c's outcome (a stall
 * or a BUG in the kernel's log explains what follows).
 * json: its members of case c's JSON object.
 * example: made-up values in c (of r) that make every hook write all it
 * can, for tests/tools/full-result; ms scales them per case.
 * keys: the members json() writes, NULL-terminated, each documented in
 * docs/results.md (tests/noroot/docs.sh).
 */
struct rr_figure {
	const char *name;
	const char *const *keys;
	rr_case_text_fn *sentence;
	const char *label, *ktap_what;
	void (*table)(FILE *f, const struct rr_result *r);
	void (*text)(FILE *f, const struct rr_result *r, rr_field_fn *field);
	void (*ktap)(FILE *f, const struct rr_result *r,
		     const struct rr_case_result *c);
	bool ktap_first;
	void (*json)(struct rr_json *j, const struct rr_result *r,
		     const struct rr_case_result *c);
	void (*example)(struct rr_result *r, struct rr_case_result *c,
			double ms);
};

/*
 * The figures, in the order every format gives them (fig_NAME.c holds
 * rr_figure_NAME).
 */
#define RR_FIGURES(X)							\
	X(rate)		/* the victim's rate alone and while walking */	\
	X(calls)	/* the trigger's calls and their split */	\
	X(cross)	/* the same walks by other probes */		\
	X(events)	/* paired, unpaired and lost events */		\
	X(walkers)	/* which tasks ran the intervals */		\
	X(waits)	/* lock waits, stall share, give-ups */		\
	X(trigger)	/* the trigger's own figures of the case */	\
	X(reach)	/* what the trigger acted on */			\
	X(klog)		/* the kernel's log */				\
	X(oracle)	/* every page acted on through every mapping */	\
	X(pattern)	/* the pattern as built */			\
	X(cost)		/* the probe's own cost */			\
	X(steps)	/* interval-tree steps and cost per step */	\
	X(visits)	/* a lookup's steps as a share of the VMAs */

#define X(name) extern const struct rr_figure rr_figure_##name;
RR_FIGURES(X)
#undef X

/* The list, NULL-terminated. */
extern const struct rr_figure *const rr_figures[];

#define rr_for_each_figure(i, fig) \
	for ((i) = 0; ((fig) = rr_figures[i]); (i)++)

/* A figure's text block, and its KTAP lines of case c (either form). */
void rr_fig_text(const struct rr_figure *fig, FILE *f,
		 const struct rr_result *r, rr_field_fn *field);
void rr_fig_ktap(const struct rr_figure *fig, FILE *f,
		 const struct rr_result *r, const struct rr_case_result *c);

/* Sentence builders shared by the figures. */
/* One "case: sentence" line per case that has one, under a label. */
void rr_fig_per_case(FILE *f, const struct rr_result *r, rr_field_fn *field,
		     const char *label, rr_case_text_fn *text);
/* "    # NAME: WHAT: TEXT", where text is not empty. */
void rr_fig_diag(FILE *f, const char *name, const char *what,
		 const char *text);
/* printf at buf + *o, within size; *o never passes size. */
void rr_fig_add(char *buf, size_t size, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A text table of one set of samples per case that ran (count, min,
 * p50, p90, p99, max); with last, a last column of that name (last_of's
 * value). A case without samples says why.
 */
void rr_fig_stats_table(FILE *f, const struct rr_result *r,
			const struct rr_stats *(*of)(const struct rr_case_result *),
			const char *last,
			unsigned long long (*last_of)(const struct rr_case_result *));

/* Wording the figures share with the frame of the reports. */
/* How the trigger's part is timed, or why it is not (fig_calls.c). */
void rr_part_text(const struct rr_result *r, char *buf, size_t size);
/* How the waits are measured, and what they do not see (fig_waits.c). */
extern const char rr_waits_how[];
/*
 * A case's lock waits in words: the victim's longest stall and the
 * part of it spent waiting, its waits in all and on which locks, then
 * the trigger's tasks' ("" where none were recorded).
 */
void rr_waits_text(const struct rr_result *r, const struct rr_case_result *c,
		   char *buf, size_t size);
/* How the victim was run, in a sentence or three. */
void rr_victim_text(const struct rr_result *r, char *buf, size_t size);

/* JSON members shared by figures and the frame. */
/* A latency summary (ms, 4 decimals) with its log2 histogram. */
void rr_json_stats(struct rr_json *j, const char *key,
		   const struct rr_stats *s);
/* Counts, not latencies: whole numbers, a mean to one decimal. */
void rr_json_counts(struct rr_json *j, const char *key,
		    const struct rr_stats *s);
/* A figure that may not exist (< 0): the number, or null. */
void rr_json_num_or_null(struct rr_json *j, const char *key, double v,
			 int decimals);
/* A string, or null when it is empty. */
void rr_json_str_or_null(struct rr_json *j, const char *key, const char *s);

#endif
