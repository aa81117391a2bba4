/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test build's hooks (docs/testing.md): the variables that move the
 * state directory, sysfs, procfs, the KSM knobs and the kernel log into
 * a test's stand-ins, or that make a journaled change fail, an undo do
 * nothing, or a run hold at a point.
 *
 * hooks.c is built twice: into the binaries of build/bin, the ones a
 * user runs, where no hook is honoured and a set hook variable stops
 * the program before it does anything (a variable left in a shell must
 * not turn a run's verdict, or a restore, into a test's); and with
 * RR_TEST_BUILD into build/test/bin and the unit tests, where they are.
 */
#ifndef RR_HOOKS_H
#define RR_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

/* Was this binary built for the tests? */
bool rr_test_build(void);
/*
 * A hook variable's value: getenv(name) in a test build (NULL when it is
 * unset or empty), always NULL in a user's. name must be one of the
 * list in hooks.c.
 */
const char *rr_hook_env(const char *name);
/*
 * In a user's build, the first hook variable that is set (say which and
 * refuse to run); NULL when none is, and always in a test build.
 */
const char *rr_hook_set(void);
/*
 * The refusal, said on stderr by prog: 0 when there is nothing to
 * refuse, else the exit code to leave with (code).
 */
int rr_hooks_refuse(const char *prog, int code);

#endif
