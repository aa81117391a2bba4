/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A part of a trigger's call timed apart: memory_failure() first finds
 * the processes that map the page (collect_procs_ksm, _anon, _file) and
 * then unmaps it with rmap walks. The walk probe times the walks; a
 * kprobe and a kretprobe on the part's function (events rr_part_TYPE and
 * rr_part_TYPE_ret of the suite's group, journaled like the kprobe
 * probe's) time the part, beside whatever probe times the walks. The
 * function is found in kallsyms; where the compiler inlined it, the part
 * stays in the rest of the call and the report says why.
 */
#ifndef RR_PART_H
#define RR_PART_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/walkfn.h"

struct rr_part {
	char what[96];			/* "": the trigger names no part */
	struct rr_walkfn fns[RR_PT_MAX];	/* the part's function per type */
	bool timed;			/* kprobes can time it here */
	char why[192];			/* why not, when not */
};

/*
 * Can this part be timed here (kprobe_events, a function in kallsyms)?
 * what and roles come from the trigger; changes nothing.
 */
void rr_part_select(const char *what,
		    const enum rr_kfn roles[RR_PT_MAX],
		    struct rr_part *p);
/* Parse variant for tests: kallsyms text and whether kprobes exist. */
void rr_part_choose(const char *what,
		    const enum rr_kfn roles[RR_PT_MAX],
		    const char *kallsyms, bool kprobes, struct rr_part *p);
/*
 * Before the tracefs instance exists: a kprobe pair on each type's
 * function (journaled first, removed after the instance).
 */
int rr_part_prepare(const struct rr_part *p, char *why, size_t len);
/* Is the part timed for a case of this page type? why says why not. */
bool rr_part_timed(const struct rr_part *p, int type, char *why,
		   size_t len);

#endif
