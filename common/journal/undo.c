// SPDX-License-Identifier: GPL-2.0
/*
 * The undo handlers of the journal's records, each defined by the module
 * that makes the change it undoes (knob values and the KSM unmerge stay
 * journal.c's own). A module that journals a new kind of change adds its
 * handler here.
 */
#include <stddef.h>

#include "journal/journal.h"

extern const struct journal_undo rr_undo_swapon, rr_undo_zram,
	rr_undo_module;				/* swap.c */
extern const struct journal_undo rr_undo_cgroup;	/* memcg.c */
extern const struct journal_undo rr_undo_instance,
	rr_undo_mount;				/* trace.c */
extern const struct journal_undo rr_undo_dynevent;	/* probe/kprobe.c */
extern const struct journal_undo rr_undo_unpoison;	/* hwpoison.c */
extern const struct journal_undo rr_undo_damon;		/* damon.c */

const struct journal_undo *const journal_undos[] = {
	&rr_undo_swapon, &rr_undo_zram, &rr_undo_module,
	&rr_undo_cgroup,
	&rr_undo_instance, &rr_undo_mount,
	&rr_undo_dynevent,
	&rr_undo_unpoison,
	&rr_undo_damon,
	NULL
};
