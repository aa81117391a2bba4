/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The journal: every change the suite makes to the system is written here
 * before it is made, and undone from here on every exit path. After a
 * SIGKILL, scripts/restore (tools/restore.c) replays the same file.
 *
 * One run at a time holds the lock beside the journal; a second run is
 * refused instead of mixing its records into the first one's journal.
 *
 * The state directory is /run/rmap-repro: /run does not survive a reboot,
 * and neither does anything the journal records (sysfs knobs, swap, zram,
 * cgroups, tracefs objects), so a stale journal never outlives its state.
 * RMAP_REPRO_STATE_DIR overrides it in the test build (lib/hooks.h).
 * The directory, the lock and the journal must be the running user's
 * (root's) and writable by nobody else, and are never followed through
 * a symbolic link (journal/trust.h).
 */
#ifndef RR_JOURNAL_H
#define RR_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The journal's own kinds of record. Every other kind is defined beside
 * its undo handler, by the module that makes the change (J_SWAPON in
 * mm/swap.h, ...), and core/undo.c hands their table to the journal
 * (journal_set_undos()).
 */
#define J_KNOB		"knob"		/* path, original value */
#define J_KSM_UNMERGE	"ksm-unmerge"	/* run knob: write 2, then put back */
#define J_BOOT		"boot"		/* boot id of the run's boot */
#define J_WROTE		"wrote"		/* path, value written to a knob */
/* Kinds more than one module records (tracefs and debugfs, modules). */
#define J_MOUNT		"mount"		/* a mount point we mounted */
#define J_MODULE	"module"	/* a module we loaded */

/*
 * What a replay did. A change that is no longer the run's own (a knob
 * that holds another value than the run wrote, a device re-created or
 * re-used since, KSM pages merged by other processes) is left as it is
 * and said so: undoing it would undo someone else's work.
 */
struct rr_replay {
	int undone;		/* records undone */
	int left;		/* changed since: left alone */
	int retired;		/* frames this run retired until reboot */
	int failures;		/* could not be undone, or refused */
	int refused;		/* of those, records whose target was refused */
	bool other_boot;	/* journal of an earlier boot: nothing to do */
	/*
	 * The file itself was refused (not the suite's own: owner, mode,
	 * a symbolic link, no header) or could not be read: why. It was
	 * neither replayed nor renamed nor removed.
	 */
	char unread[320];
};

const char *journal_path(void);

/*
 * Take the run lock. On -EBUSY, holder describes the run that has it.
 * The lock file descriptor is inherited by a fork()ed child (same open
 * file), so the lock lives until both parent and child are gone.
 */
int rr_lock_acquire(const char *who, char *holder, size_t size);
int rr_lock_wait(const char *who, unsigned int timeout_s);
/*
 * Why the last failure to take the lock, other than -EBUSY, happened: a
 * state directory or lock file that is not the running user's alone, a
 * symbolic link, ... ("" when it was only an errno).
 */
const char *rr_lock_why(void);
void rr_lock_release(void);

bool journal_exists(void);
/* Is journal_path() the journal this process began (and still open)? */
bool journal_is_ours(void);
/*
 * Start a new journal for this run (the lock must be held). A journal
 * left by a killed run is replayed first, never overwritten, and so is
 * a journal.failed kept by a restore that failed; if either replay fails
 * the run must not start: -EUCLEAN, with why.
 */
int journal_begin(const char *who, char *why, size_t len);
/* Append one record; the journal is flushed before this returns. */
int journal_record(const char *op, const char *arg1, const char *arg2);
/*
 * Write a knob through the journal: its original value is recorded once,
 * before the first change. A knob that already holds the value is not
 * written and not journaled.
 */
int journal_knob_set(const char *path, const char *value);
/*
 * The same for a knob the run also changes outside the journal (the
 * top-level tracing_on, switched around each trigger): the replay puts
 * its original back whatever it holds.
 */
int journal_knob_set_volatile(const char *path, const char *value);
/* Forget the in-memory list of journaled knobs (after a fork/replay). */
void journal_forget(void);

/*
 * Undo every record of the journal at path, last first. Returns the
 * number of records that could not be undone; st (if not NULL) gets the
 * counts. A journal written in an earlier boot undoes nothing: a reboot
 * reset everything it records. A clean journal is removed; one with
 * failures is kept as <path>.failed for a later retry. A file that is
 * not the suite's own journal (journal/trust.h) is refused whole: one
 * failure, st->unread says why, and the file is left as it is.
 */
int journal_replay(const char *path, bool verbose, struct rr_replay *st);
/*
 * Would journal_replay() read path (the suite's own journal, by the
 * rules of journal/trust.h)? 0, or -EPERM with why. Reads only.
 */
int journal_check_file(const char *path, char *why, size_t len);

/*
 * Undoing one kind of record: defined by the module that makes the
 * change, listed in core/undo.c. Returns 0 (done, or nothing left to
 * undo), JOURNAL_LEFT (the change is no longer the run's: left as it
 * is, and said), JOURNAL_RETIRED (the run's own change that the kernel
 * will not undo before a reboot: a frame it retired), or -errno.
 */
#define JOURNAL_LEFT 1
#define JOURNAL_RETIRED 2
/*
 * check(): is the record's target one the suite makes (journal/trust.h)?
 * 0: undo it; -ENOENT: it is gone, nothing to undo; -EPERM, with why:
 * refused, nothing is done, and the replay counts it as a failure.
 * refusal: the errno a kernel gives when it refuses such a change (the
 * fault hooks' RMAP_REPRO_TEST_FAIL_CHANGE, journal/fault.h).
 */
struct journal_undo {
	const char *op;
	int (*undo)(const char *a1, const char *a2, bool verbose);
	int (*check)(const char *a1, const char *a2, char *why, size_t len);
	int refusal;
};
/*
 * The handlers of every other kind of record, NULL-terminated (the
 * program's: core/undo.c), for journal_begin() and journal_replay(): a
 * record of a kind with no handler is refused, never guessed at.
 */
void journal_set_undos(const struct journal_undo *const *undos);
/* rmdir(), retried while a task that just left keeps it busy. */
int journal_rmdir(const char *dir, bool verbose);

/* This boot's id (/proc/sys/kernel/random/boot_id), or "unknown". */
const char *rr_boot_id(void);

#endif
