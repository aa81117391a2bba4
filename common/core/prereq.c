// SPDX-License-Identifier: GPL-2.0
/*
 * Before the measuring child: the declaration's checks, root, the
 * memory floor, the run lock, the journal (a leftover one replayed
 * first), tracefs, and the prerequisites of the reproducer, its trigger
 * and its probe (missing: a skip that names them).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "core/runner.h"
#include "journal/journal.h"
#include "lib/util.h"
#include "mm/ksm.h"
#include "mm/sysinfo.h"
#include "probe/call_part.h"
#include "probe/iters.h"
#include "probe/probe.h"
#include "probe/trace.h"
#include "trigger/trigger.h"

/* A KSM case, or KSM itself is what it measures (uses_ksm). */
bool rr_repro_has_ksm(const struct rr_repro *r)
{
	int i;

	if (r->uses_ksm)
		return true;
	for (i = 0; i < r->nr_cases; i++)
		if (r->cases[i].type == RR_PT_KSM)
			return true;
	return false;
}

/* Bytes of the largest case's pattern: what one case maps at a time. */
static unsigned long long largest_pattern(const struct rr_repro *r)
{
	struct rr_pattern_spec spec;
	unsigned long long most = 0;
	int i;

	for (i = 0; i < r->nr_cases; i++) {
		memset(&spec, 0, sizeof(spec));
		r->spec(&r->cases[i], &spec);
		if (spec.pages * rr_page_size() > most)
			most = spec.pages * rr_page_size();
	}
	return most;
}

/*
 * The probe of a trigger with no rmap walk: its bracket, or where the
 * bracket's tracepoints are missing, the counter polled in their stead
 * (--probe auto); --probe brackets or poll asks for one of them.
 */
static int select_bracket(int requested, const struct rr_trigger_ops *to,
			  int t, struct rr_probe_setup *ps, char *why,
			  size_t len)
{
	int tb = rr_trigger_bracket(t);
	char w[512];

	if (requested != RR_PROBE_AUTO)
		return rr_probe_select(requested, tb, ps, why, len);
	if (!rr_probe_select(RR_PROBE_BRACKETS, tb, ps, w, sizeof(w))) {
		snprintf(why, len,
			 "trigger %s has no rmap walk to time: its bracket is the probe",
			 to->name);
		return 0;
	}
	if (!rr_probe_select(RR_PROBE_POLL, tb, ps, why, len)) {
		snprintf(why, len,
			 "trigger %s has no rmap walk to time and its bracket is unavailable (%s): the kernel counter standing in for it is polled",
			 to->name, w);
		return 0;
	}
	snprintf(why, len, "%s", w);
	return -ENODEV;
}

int rr_probe_for_trigger(int requested, int t, struct rr_probe_setup *ps,
			 char *why, size_t len)
{
	const struct rr_trigger_ops *to = rr_trigger_get(t);

	if (to->bracket_only)
		return select_bracket(requested, to, t, ps, why, len);
	return rr_probe_select(requested, rr_trigger_bracket(t), ps, why, len);
}

/* Prerequisites (repro.h). */
bool rr_prerequisites(const struct rr_repro *r, struct rr_result *res)
{
	const char *missing = rr_kconfig_missing(r->kconfig);
	const struct rr_trigger_ops *to;
	char why[512];
	enum rr_trigger t;
	int k;

	if (missing) {
		rr_set_verdict(res, RR_SKIP, "CONFIG_%s is not set in this kernel",
			       missing);
		return false;
	}
	for (k = 0; r->commands && r->commands[k]; k++) {
		if (!rr_have_command(r->commands[k])) {
			rr_set_verdict(res, RR_SKIP,
				       "needs the command %s, not found in $PATH",
				       r->commands[k]);
			return false;
		}
	}
	if (rr_repro_has_ksm(r) && !rr_ksm_available()) {
		rr_set_verdict(res, RR_SKIP, "KSM is not available (no %s)",
			       rr_ksm_dir());
		return false;
	}
	t = rr_trigger_choose(rr_cfg.trigger, r->triggers, r->triggers_why,
			      res->trigger_why, sizeof(res->trigger_why),
			      why, sizeof(why));
	if (!t) {
		rr_set_verdict(res, RR_SKIP, "%s", why);
		return false;
	}
	res->trigger = t;
	to = rr_trigger_get(t);
	/* a trigger with no rmap walk: its bracket is the probe */
	if (to->bracket_only && rr_cfg.probe != RR_PROBE_AUTO &&
	    rr_cfg.probe != RR_PROBE_BRACKETS && rr_cfg.probe != RR_PROBE_POLL) {
		rr_set_verdict(res, RR_SKIP,
			       "probe %s: trigger %s has no rmap walk to time; only its bracket measures it",
			       rr_probe_names[rr_cfg.probe], to->name);
		return false;
	}
	if (rr_probe_for_trigger(rr_cfg.probe, t, &res->probe, res->probe_why,
				 sizeof(res->probe_why))) {
		rr_set_verdict(res, RR_SKIP, "%s", res->probe_why);
		return false;
	}
	if (to->part_what)
		rr_part_select(to->part_what, to->part_roles, &res->part);
	res->probe_cost = rr_cfg.probe_cost;
	res->iterations = rr_cfg.iterations;
	if (res->iterations &&
	    !rr_iters_available(&res->iter_syms, why, sizeof(why))) {
		rr_set_verdict(res, RR_SKIP, "--iterations: %s", why);
		return false;
	}
	for (k = RR_PROBE_RMAP_TP; rr_cfg.cross_check && !to->bracket_only &&
	     k < RR_PROBE_BRACKETS; k++) {
		if (k == res->probe.kind || res->nr_cross == RR_MAX_CROSS ||
		    rr_probe_select(k, rr_trigger_bracket(t),
				    &res->cross[res->nr_cross], why,
				    sizeof(why)))
			continue;
		res->nr_cross++;
	}
	return true;
}

/*
 * Root, the memory floor, the run lock, the journal (a leftover one
 * replayed first), tracefs and the prerequisites: true to go on; false
 * with res's verdict set and whatever was changed undone.
 */
bool rr_start(const struct rr_repro *r, struct rr_result *res)
{
	char holder[160], why[512];
	int ret;

	if (geteuid()) {
		rr_set_verdict(res, RR_SKIP, "needs root");
		return false;
	}
	/* Before the lock and the journal: a skip changes nothing. */
	if (rr_memory_floor(largest_pattern(r), rr_cfg.min_free_mb, why,
			    sizeof(why))) {
		rr_set_verdict(res, RR_SKIP, "%s", why);
		return false;
	}
	ret = rr_lock_acquire(r->name, holder, sizeof(holder));
	if (ret) {
		rr_set_verdict(res, RR_ERROR,
			       ret == -EBUSY ?
			       "another rmap-repro run holds %s/lock: %s; wait for it to end (or, if it was killed, run scripts/restore)" :
			       "cannot take the run lock in %s: %s",
			       rr_state_dir(),
			       ret == -EBUSY ? holder : *rr_lock_why() ?
			       rr_lock_why() : strerror(-ret));
		rr_warn("%s", res->reason);
		return false;
	}
	ret = journal_begin(r->name, why, sizeof(why));
	if (ret == -EUCLEAN) {
		/* nothing of this run's to undo: the failed journal stays */
		rr_set_verdict(res, RR_ERROR, "cannot start: %s", why);
		return false;
	}
	if (!ret && rr_trace_mount(why, sizeof(why)))
		ret = -EIO;
	if (ret) {
		rr_set_verdict(res, RR_ERROR, "cannot start: %s", why);
		rr_restore(res);
		return false;
	}
	if (!rr_prerequisites(r, res)) {
		rr_restore(res);
		return false;
	}
	return true;
}
