// SPDX-License-Identifier: GPL-2.0
/*
 * rmap-restore: replay the journal of a run that could not restore the
 * machine itself because it was SIGKILLed. (A reboot needs no restore:
 * the journal lives in /run and every change it records is gone too.)
 * scripts/restore calls this.
 */
#include <errno.h>
#include <string.h>

#include "core/undo.h"
#include "journal/journal.h"
#include "lib/hooks.h"
#include "lib/opts.h"
#include "lib/util.h"

static const char *path;
static unsigned long long wait_s = 30;
static bool quiet;

static const struct rr_opt opts[] = {
	{ "journal", OPT_STRING, &path, "FILE",
	  "journal to replay (default: the state directory's journal, or a journal.failed kept by an earlier restore)" },
	{ "wait", OPT_UINT, &wait_s, "SEC",
	  "wait up to SEC seconds for a run that still holds the lock",
	  .min = 0, .max = 3600 },
	{ "quiet", OPT_FLAG, &quiet, NULL, "print only problems" },
	RR_OPT_END
};

int main(int argc, char **argv)
{
	const struct rr_opt *tables[] = { opts, NULL };
	char err[256], failed[4096];
	struct rr_replay st;
	int ret, failures;

	rr_set_prog("rmap-restore");
	rr_undos_use();
	ret = rr_hooks_refuse("rmap-restore", 2);
	if (ret)
		return ret;
	ret = rr_opts_parse(tables, argc, argv, err, sizeof(err));
	if (ret == 1) {
		rr_opts_help(stdout, "rmap-restore [OPTIONS]",
			     "Undo every change recorded in the rmap-repro journal (knobs, KSM state, swap, zram devices, cgroups, tracefs instances, mounts), last first, after a run was killed before it could do so itself. Waits for a run that still holds the lock. Replays only the suite's own journal: a regular file of root's (the running user's), in a directory of theirs, that nobody else can write, starting with the journal's header; and of its records only changes the suite makes (docs/running.md). Exit: 0 restored or nothing to do, 1 some change could not be undone or was refused, 2 error (no lock, or a file that is not such a journal: left as it is).",
			     tables);
		return 0;
	}
	if (ret < 0) {
		fprintf(stderr, "rmap-restore: %s\n", err);
		return 2;
	}
	rr_set_quiet(quiet);
	/*
	 * A file the user named is looked at before anything: one that is
	 * not a journal of the suite's own is refused, and left as it is.
	 */
	if (path && rr_path_exists(path) &&
	    journal_check_file(path, err, sizeof(err))) {
		rr_warn("%s was not replayed: %s; nothing was undone, and the file is left as it is",
			path, err);
		return 2;
	}
	ret = rr_lock_wait("rmap-restore", wait_s);
	if (ret) {
		rr_warn("cannot take the run lock in %s: %s; nothing was undone",
			rr_state_dir(),
			ret == -EBUSY ? "a run is still active" :
			*rr_lock_why() ? rr_lock_why() : strerror(-ret));
		return 2;
	}
	if (!path) {
		snprintf(failed, sizeof(failed), "%s.failed", journal_path());
		path = rr_path_exists(journal_path()) ? journal_path() :
		       rr_path_exists(failed) ? failed : NULL;
	}
	if (!path || !rr_path_exists(path)) {
		rr_msg("no journal in %s: nothing to restore", rr_state_dir());
		rr_lock_release();
		return 0;
	}
	rr_msg("replaying %s", path);
	failures = journal_replay(path, !quiet, &st);
	rr_lock_release();
	if (st.unread[0])
		return 2;	/* said by the replay: nothing was undone */
	if (failures) {
		rr_warn("%d change(s) could not be undone%s", failures,
			st.refused ? " or were refused" : "");
		return 1;
	}
	if (st.other_boot)
		return 0;
	if (st.left)
		rr_msg("%d change(s) undone; %d left as they are (changed since the run made them)",
		       st.undone, st.left);
	else
		rr_msg("%d change(s) undone; the machine is as the run found it",
		       st.undone);
	return 0;
}
