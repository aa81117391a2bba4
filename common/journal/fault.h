/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test hooks of the journal (tests/chaos, docs/testing.md), off unless
 * their variable is set; no user sets them.
 *
 * RMAP_REPRO_TEST_FAIL_CHANGE=N: the Nth journaled change of the run
 * fails as the kernel would refuse it (EBUSY, EINVAL or ENOSPC, as fits
 * the change), before it is recorded or made. N=0 fails none and only
 * counts. Either way each change is listed, one "N<TAB>op<TAB>what" line
 * per change, in <state dir>/test-changes (made again by each run), so
 * that a test knows how many changes a run makes and which one failed.
 *
 * RMAP_REPRO_TEST_BREAK_UNDO=OP: the undo of every record of kind OP
 * does nothing and says it succeeded: a deliberately broken handler, for
 * the test that the fault matrix can fail.
 *
 * RMAP_REPRO_TEST_HOLD_AT=POINT (with RMAP_REPRO_TEST_HOLD_MS, default
 * 8000): the run stops for that long the first time it passes POINT,
 * after "test hook: holding at POINT" on stderr, so that a test's signal
 * lands there. The points are the run's phases (rr_phase: "setup: KSM",
 * "case ksm run 1: merge", "restore", ...) and the places inside each
 * trigger's work where the kernel is mid-change (rr_test_hold callers).
 * Any value lists every point passed in <state dir>/test-holds; "list"
 * holds nowhere.
 */
#ifndef RR_JOURNAL_FAULT_H
#define RR_JOURNAL_FAULT_H

#include <stdbool.h>

/* A new run: the list of changes starts again (hook set only). */
void journal_fault_begin(void);
/*
 * Change op on what is about to be made: 0, or the injected -refusal
 * (the errno a kernel refusing such a change gives: journal.h).
 */
int journal_fault(const char *op, const char *what, int refusal);
/* The undo of op is broken on purpose (RMAP_REPRO_TEST_BREAK_UNDO). */
bool journal_undo_broken(const char *op);
/*
 * The last change the kernel (or the hook) refused in this run, in any of
 * its processes: "knob /sys/kernel/mm/ksm/run = 1: Invalid argument", or
 * "" (rr_set_verdict adds it to an error's reason). Kept in memory that
 * journal_begin() shares with the children it precedes.
 */
const char *journal_refusal(void);
void journal_refused(const char *op, const char *what, int err);
/* A point a test may hold the run at (RMAP_REPRO_TEST_HOLD_AT). */
void rr_test_hold(const char *point);

#endif
