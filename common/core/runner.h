/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The program's parts (core/), as rr_main() (runner.c) calls them: the
 * options (options.c), the checks before the child (prereq.c), the
 * child and its supervision (supervise.c).
 */
#ifndef RR_CORE_RUNNER_H
#define RR_CORE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/repro.h"
#include "model/result.h"
#include "probe/probe.h"

/*
 * Parse and check the options: true to go on; false with the exit code
 * in *code (0 after --help, that of a usage error).
 */
bool rr_parse_options(const struct rr_repro *r, int argc, char **argv,
		      int *code);
/*
 * A usage error: 2, or under --bisect 128, which aborts git bisect run
 * (asked for anywhere on the command line: parsing may stop before it).
 */
int rr_usage_error(int argc, char **argv);
/* The command line, each argument as a shell would read it back. */
void rr_command_line(struct rr_result *res, int argc, char **argv);

/*
 * What it declares it needs (kernel options, commands, KSM, a trigger
 * and a probe), before anything changes: false with the verdict set to
 * skip and the reason. Chooses res's trigger and probe.
 */
bool rr_prerequisites(const struct rr_repro *r, struct rr_result *res);
/*
 * The probe a run of trigger t takes with --probe requested (auto: the
 * best this kernel offers; a trigger with no rmap walk: its bracket, or
 * the counter polled in its stead): 0 with ps set and why it was chosen
 * over better ones, or a negative errno with why none can be had.
 * rmap-probes --json gives auto's choice for every trigger.
 */
int rr_probe_for_trigger(int requested, int t, struct rr_probe_setup *ps,
			 char *why, size_t len);
/* A KSM case, or KSM itself is what it measures (uses_ksm). */
bool rr_repro_has_ksm(const struct rr_repro *r);
/*
 * Root, the memory floor, the run lock, the journal (a leftover one
 * replayed first), tracefs and the prerequisites: true to go on; false
 * with res's verdict set and whatever was changed undone.
 */
bool rr_start(const struct rr_repro *r, struct rr_result *res);

/*
 * Fork the measuring child and supervise it (--timeout counts from
 * began): the signal that stopped the run (0 if none), with its status
 * and whether it timed out; -1 if it could not be forked (res says why).
 */
int rr_run_child(const struct rr_repro *r, struct rr_result *res,
		 uint64_t began, int *status, bool *timed_out);
/* A child that did not reach the end: why, in the verdict's reason. */
void rr_child_stopped(struct rr_result *res, int sig, int status,
		      bool timed_out);
/*
 * Undo the run's journal, and reap what the child left. A change that
 * could not be undone leaves the machine changed: the run is an error.
 */
void rr_restore(struct rr_result *res);
/*
 * A stop signal that came during the restore: the run still dies of it,
 * and its report says so. 0 if none came.
 */
int rr_stopped_in_restore(struct rr_result *res);

#endif
