// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <time.h>
#include <unistd.h>

#include "journal/fault.h"
#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/hooks.h"
#include "lib/util.h"

#define MAX_KNOBS 64

static int lock_fd = -1;
static int journal_fd = -1;
static char *knobs_done[MAX_KNOBS];
static int nr_knobs_done;

/* The other kinds' handlers (journal_set_undos()). */
static const struct journal_undo *const *undos;

void journal_set_undos(const struct journal_undo *const *table)
{
	undos = table;
}

/* What a kernel says when it refuses a change of kind op. */
static int refusal_of(const char *op)
{
	const struct journal_undo *const *h;

	if (!strcmp(op, J_KNOB) || !strcmp(op, J_WROTE))
		return EINVAL;		/* a value the knob refuses */
	for (h = undos; h && *h; h++)
		if (!strcmp(op, (*h)->op) && (*h)->refusal)
			return (*h)->refusal;
	return EBUSY;
}

const char *journal_path(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/journal", rr_state_dir());
	return path;
}

/*
 * The state directory, made if missing: a directory of the running
 * user's (root's) that nobody else can write, not a symbolic link. A
 * directory anyone could write would let them plant a journal, or a
 * link where the journal is written.
 */
static int make_state_dir(char *why, size_t len)
{
	const char *dir = rr_state_dir();
	struct stat st;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, len, "cannot create %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	if (lstat(dir, &st)) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory%s", dir,
			 S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
		return -EPERM;
	}
	return journal_trust_stat(&st, dir, why, len);
}

/* An open state file (the lock): a regular file of ours alone. */
static int trusted_fd(int fd, const char *path, char *why, size_t len)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s is not a regular file", path);
		return -EPERM;
	}
	return journal_trust_stat(&st, path, why, len);
}

/*
 * scripts/run-all holds the lock for all of its reproducers and passes
 * the descriptor down in RMAP_REPRO_LOCK_FD. flock() on that same open
 * file succeeds; on any other it fails as for a stranger. Returns our
 * own descriptor of it, or -1.
 */
static int inherited_lock(const char *path)
{
	const char *env = getenv("RMAP_REPRO_LOCK_FD");
	unsigned long long fd;
	struct stat a, b;

	if (!env || !rr_parse_ull(env, &fd) || fd > INT_MAX ||
	    fstat(fd, &a) || stat(path, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino || flock(fd, LOCK_EX | LOCK_NB))
		return -1;
	return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

static char lock_why[320];

const char *rr_lock_why(void)
{
	return lock_why;
}

int rr_lock_acquire(const char *who, char *holder, size_t size)
{
	char path[PATH_MAX], buf[128];
	ssize_t n;
	int fd, err;

	lock_why[0] = '\0';
	err = make_state_dir(lock_why, sizeof(lock_why));
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/lock", rr_state_dir());
	fd = inherited_lock(path);
	if (fd >= 0) {
		lock_fd = fd;
		return 0;
	}
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		snprintf(lock_why, sizeof(lock_why), "%s: %s%s", path,
			 strerror(-err),
			 err == -ELOOP ? " (a symbolic link)" : "");
		return err;
	}
	err = trusted_fd(fd, path, lock_why, sizeof(lock_why));
	if (err) {
		close(fd);
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		err = -errno;
		if (err == -EWOULDBLOCK)
			err = -EBUSY;
		if (holder && size) {
			n = pread(fd, buf, sizeof(buf) - 1, 0);
			buf[n > 0 ? n : 0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(holder, size, "%s", n > 0 ? buf : "unknown");
		}
		close(fd);
		return err;
	}
	n = snprintf(buf, sizeof(buf), "pid %d (%s)\n", getpid(), who);
	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n) {
		err = -errno;
		close(fd);
		return err;
	}
	lock_fd = fd;
	return 0;
}

int rr_lock_wait(const char *who, unsigned int timeout_s)
{
	struct rr_progress prog;
	char holder[128];
	uint64_t end = rr_now_ns() + timeout_s * NSEC_PER_SEC;
	int err;

	rr_progress_start(&prog, "lock");
	for (;;) {
		err = rr_lock_acquire(who, holder, sizeof(holder));
		if (err != -EBUSY || rr_now_ns() >= end)
			return err;
		rr_progress(&prog, "waiting for %s to end", holder);
		rr_sleep_ms(100);
	}
}

void rr_lock_release(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

const char *rr_boot_id(void)
{
	static char id[64];

	if (!id[0] && rr_read_file("/proc/sys/kernel/random/boot_id", id,
				   sizeof(id)))
		snprintf(id, sizeof(id), "unknown");
	return id;
}

bool journal_exists(void)
{
	struct stat st;

	/* a dangling link is there too: it must not be written through */
	return !lstat(journal_path(), &st);
}

bool journal_is_ours(void)
{
	struct stat a, b;

	return journal_fd >= 0 && !fstat(journal_fd, &a) &&
	       !lstat(journal_path(), &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

void journal_forget(void)
{
	int i;

	for (i = 0; i < nr_knobs_done; i++)
		free(knobs_done[i]);
	nr_knobs_done = 0;
}

/* A journal left at path, replayed before a run: 0, or -EUCLEAN (why). */
static int replay_left(const char *path, const char *failed, char *why,
		       size_t len)
{
	struct rr_replay st;
	struct stat ls;

	if (lstat(path, &ls))
		return 0;
	if (strcmp(path, failed))
		rr_msg("a killed run left %s: restoring it first", path);
	else
		rr_msg("an earlier restore failed and kept %s: trying it again",
		       path);
	if (!journal_replay(path, true, &st))
		return 0;
	if (st.unread[0])
		snprintf(why, len,
			 "%s was not replayed: %s. Nothing was changed, and no run starts beside it: remove it if you know what it is, or run scripts/restore --journal %s once it can be read",
			 path, st.unread, path);
	else if (strcmp(path, failed))
		snprintf(why, len,
			 "the journal a killed run left could not be replayed whole (kept as %s): fix the cause and run scripts/restore --journal %s",
			 failed, failed);
	else
		snprintf(why, len,
			 "%s records changes an earlier restore could not undo, and they still cannot be: fix the cause and run scripts/restore --journal %s",
			 failed, failed);
	return -EUCLEAN;
}

int journal_begin(const char *who, char *why, size_t len)
{
	char buf[256], failed[PATH_MAX];
	int fd, n;

	/*
	 * Never truncate the journal of a run that was killed: undo it.
	 * A replay that failed (now, or in an earlier run: its .failed
	 * journal, tried again) leaves the machine changed, and a file
	 * that is not the suite's own journal is not replayed: no run
	 * starts on top of either.
	 */
	snprintf(failed, sizeof(failed), "%s.failed", journal_path());
	n = replay_left(journal_path(), failed, why, len);
	if (!n)
		n = replay_left(failed, failed, why, len);
	if (n)
		return n;

	/* new, and never through a link someone left at its name */
	fd = open(journal_path(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		  O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "cannot create %s: %s", journal_path(),
			 strerror(errno));
		return -errno;
	}
	n = snprintf(buf, sizeof(buf),
		     "# rmap-repro journal v1: pid %d (%s), undo last first\n",
		     getpid(), who);
	if (write(fd, buf, n) != n) {
		n = -errno;
		snprintf(why, len, "cannot write %s: %s", journal_path(),
			 strerror(-n));
		close(fd);
		return n;
	}
	if (journal_fd >= 0)
		close(journal_fd);
	journal_fd = fd;
	journal_forget();
	journal_fault_begin();
	/* A later boot must not undo what this boot's reboot undid. */
	n = journal_record(J_BOOT, rr_boot_id(), "");
	if (n)
		snprintf(why, len, "cannot write %s: %s", journal_path(),
			 strerror(-n));
	return n;
}

/* Tabs separate fields and newlines end records: escape both. */
static void escape(const char *in, char *out, size_t size)
{
	size_t o = 0;

	for (; *in && o + 3 < size; in++) {
		switch (*in) {
		case '\\':
			out[o++] = '\\';
			out[o++] = '\\';
			break;
		case '\t':
			out[o++] = '\\';
			out[o++] = 't';
			break;
		case '\n':
			out[o++] = '\\';
			out[o++] = 'n';
			break;
		default:
			out[o++] = *in;
		}
	}
	out[o] = '\0';
}

static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* counted: a change of its own (not the value of a knob just recorded) */
static int record(const char *op, const char *arg1, const char *arg2,
		  bool counted)
{
	char a1[PATH_MAX * 2], a2[PATH_MAX * 2], line[PATH_MAX * 5];
	int n;

	if (journal_fd < 0)
		return -EBADF;
	n = counted ? journal_fault(op, arg1 ? arg1 : "", refusal_of(op)) : 0;
	if (n)
		return n;
	escape(arg1 ? arg1 : "", a1, sizeof(a1));
	escape(arg2 ? arg2 : "", a2, sizeof(a2));
	n = snprintf(line, sizeof(line), "%s\t%s\t%s\n", op, a1, a2);
	if (write(journal_fd, line, n) != n)
		return -errno;
	/* The record must be on file before the change it describes. */
	if (fdatasync(journal_fd) && errno != EINVAL)
		return -errno;
	return 0;
}

int journal_record(const char *op, const char *arg1, const char *arg2)
{
	return record(op, arg1, arg2, strcmp(op, J_BOOT));
}

static bool knob_journaled(const char *path)
{
	int i;

	for (i = 0; i < nr_knobs_done; i++)
		if (!strcmp(knobs_done[i], path))
			return true;
	return false;
}

static int knob_set(const char *path, const char *value, bool checked);

int journal_knob_set(const char *path, const char *value)
{
	return knob_set(path, value, true);
}

int journal_knob_set_volatile(const char *path, const char *value)
{
	return knob_set(path, value, false);
}

/*
 * checked: record the value written, so that a replay leaves the knob
 * alone if someone else changed it since.
 */
static int knob_set(const char *path, const char *value, bool checked)
{
	char raw[4096], cur[4096];
	bool first;
	int err;

	err = rr_read_file(path, raw, sizeof(raw));
	if (err)
		return err;
	rr_knob_value(raw, cur, sizeof(cur));
	if (!strcmp(cur, value))
		return 0;
	first = !knob_journaled(path);
	if (first) {
		if (nr_knobs_done == MAX_KNOBS)
			return -ENOSPC;
		err = journal_record(J_KNOB, path, cur);
		if (err)
			return err;
		knobs_done[nr_knobs_done] = strdup(path);
		if (knobs_done[nr_knobs_done])
			nr_knobs_done++;
	}
	/*
	 * What it will hold: a replay undoes only a value of ours. One
	 * change with the J_KNOB just recorded, a change of its own after.
	 */
	if (checked)
		err = record(J_WROTE, path, value, !first);
	if (!err) {
		err = rr_write_file(path, value);
		if (err) {
			snprintf(raw, sizeof(raw), "%s = %s", path, value);
			journal_refused(J_KNOB, raw, err);
		}
	}
	return err;
}

/* ---- replay ---- */


struct record {
	char *op, *a1, *a2;
};

static int cmp_words(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The words of a knob's value, sorted: lists compare in any order. */
static void words_sorted(const char *raw, char *out, size_t size)
{
	char val[4096], *w[256], *save = NULL, *t;
	size_t n = 0, i, o = 0;

	rr_knob_value(raw, val, sizeof(val));
	for (t = strtok_r(val, " \t\n", &save); t && n < ARRAY_SIZE(w);
	     t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	qsort(w, n, sizeof(*w), cmp_words);
	out[0] = '\0';
	for (i = 0; i < n && o < size; i++)
		o += snprintf(out + o, size - o, "%s%s", i ? " " : "", w[i]);
}

static bool same_value(const char *a, const char *b)
{
	char x[4096], y[4096];

	words_sorted(a, x, sizeof(x));
	words_sorted(b, y, sizeof(y));
	return !strcmp(x, y);
}

/*
 * wrote: the last value the run wrote to the knob (NULL when it wrote
 * it outside the journal, as tracing_on between triggers: then the
 * original comes back whatever the file holds).
 */
static int undo_knob(const char *path, const char *orig, const char *wrote,
		     bool verbose)
{
	char raw[4096], cur[4096];
	int err;

	err = rr_read_file(path, raw, sizeof(raw));
	if (err == -ENOENT)
		return 0;	/* the object holding it is gone */
	if (err)
		return err;
	rr_knob_value(raw, cur, sizeof(cur));
	/* One line per knob, also for a list such as set_ftrace_filter. */
	for (char *p = cur; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (same_value(cur, orig))
		return 0;
	if (wrote && !same_value(cur, wrote)) {
		rr_warn("left %s as it is: it holds %s, not the %s this run wrote (changed since)",
			path, cur, wrote);
		return JOURNAL_LEFT;
	}
	err = rr_write_file(path, orig);
	if (!err && verbose)
		rr_msg("restored %s: %s -> %s", path, cur,
		       orig[0] ? orig : "(empty)");
	return err;
}

/*
 * What the replay learnt of KSM's run knob from its own record, undone
 * before the unmerge record (it comes later in the file).
 */
enum ksm_run_state { RUN_UNTOUCHED, RUN_OURS, RUN_JOURNAL_LEFT };

static int undo_ksm_unmerge(const char *path, enum ksm_run_state run_state,
			    bool verbose)
{
	/* the record names the run knob; journals before it did not */
	const char *run = *path ? path : "/sys/kernel/mm/ksm/run";
	char cur[32];
	int err;

	/*
	 * KSM held no merged page when the run began. Unmerging everything
	 * returns it there and drops stale stable nodes, without which
	 * max_page_sharing cannot be written back (EBUSY). Only while ksmd
	 * ran as this run left it did every merge happen under the run;
	 * once someone else changed run, the merged pages may be theirs,
	 * and run=2 would unmerge them too. A run that never started ksmd
	 * merged nothing.
	 */
	if (run_state == RUN_UNTOUCHED)
		return 0;
	if (run_state == RUN_JOURNAL_LEFT) {
		rr_warn("left KSM merged: %s was changed since the run set it, so the merged pages may not be the run's (echo 2 > %s unmerges them all)",
			run, run);
		return JOURNAL_LEFT;
	}
	err = rr_read_file(run, cur, sizeof(cur));
	if (err)
		return err == -ENOENT ? 0 : err;
	err = rr_write_file(run, "2");
	if (!err && strcmp(cur, "2"))
		err = rr_write_file(run, cur);
	if (!err && verbose)
		rr_msg("unmerged KSM pages (KSM held none before the run)");
	return err;
}

int journal_rmdir(const char *dir, bool verbose)
{
	int tries;

	/* A task that just exited can keep a cgroup busy for a moment. */
	for (tries = 0; tries < 100; tries++) {
		if (!rmdir(dir)) {
			if (verbose)
				rr_msg("removed %s", dir);
			return 0;
		}
		if (errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		rr_sleep_ms(50);
	}
	return -EBUSY;
}

/* The last value the run wrote to path after record i, or NULL. */
static const char *last_wrote(const struct record *recs, int n, int i,
			      const char *path)
{
	const char *v = NULL;

	for (i++; i < n; i++)
		if (!strcmp(recs[i].op, J_WROTE) && !strcmp(recs[i].a1, path))
			v = recs[i].a2;
	return v;
}

static bool is_ksm_run(const char *path)
{
	size_t len = strlen(path);

	return len >= 8 && !strcmp(path + len - 8, "/ksm/run");
}

/* A record whose target was refused (said): a failure of the replay. */
#define JOURNAL_REFUSED 4

/*
 * The knobs a run changes: the kernel's memory-management settings and
 * tracefs files. Anything else (core_pattern, a file in /etc) is not a
 * change the suite makes, whoever wrote the record.
 */
static int check_knob(const char *path, char *real, size_t size, char *why,
		      size_t len)
{
	static const char *const mm[] = {
		"/proc/sys/vm/", "/sys/kernel/mm/", NULL
	};
	static const char *const any[] = { "/", NULL };
	char why2[256];
	int err;

	err = journal_trust_path(path, mm, RR_FS_PROC | RR_FS_SYSFS, real,
				 size, why, len);
	if (err != -EPERM)
		return err;
	err = journal_trust_path(path, any, RR_FS_TRACEFS, real, size, why2,
				 sizeof(why2));
	if (err == -EPERM)
		snprintf(why + strlen(why), len - strlen(why),
			 " (knobs: /proc/sys/vm, /sys/kernel/mm, tracefs)");
	return err;
}

/* The KSM unmerge names the run knob, or nothing (older journals). */
static int check_ksm_run(const char *path, char *why, size_t len)
{
	char real[PATH_MAX];
	int err;

	if (!*path)
		return 0;
	err = check_knob(path, real, sizeof(real), why, len);
	if (!err && !is_ksm_run(real)) {
		snprintf(why, len, "%s is not KSM's run knob", path);
		return -EPERM;
	}
	return err;
}

static int refused(const struct record *r, int err, const char *why)
{
	if (err == -ENOENT)
		return 0;	/* gone: nothing of it to undo */
	rr_warn("refused the journal's record %s %s: %s; nothing was done with it",
		r->op, r->a1, why);
	return JOURNAL_REFUSED;
}

static int undo(const struct record *recs, int n, int i,
		enum ksm_run_state *ksm_run, bool verbose)
{
	const struct record *r = &recs[i];
	const struct journal_undo *const *h;
	char why[512], real[PATH_MAX];
	int err;

	/* a test hook: this kind's undo broken on purpose (fault.h) */
	if (journal_undo_broken(r->op))
		return 0;
	if (!strcmp(r->op, J_KNOB)) {
		err = check_knob(r->a1, real, sizeof(real), why, sizeof(why));
		if (err)
			return refused(r, err, why);
		err = undo_knob(real, r->a2, last_wrote(recs, n, i, r->a1),
				verbose);
		if (is_ksm_run(real))
			*ksm_run = err == JOURNAL_LEFT ? RUN_JOURNAL_LEFT : RUN_OURS;
		return err;
	}
	if (!strcmp(r->op, J_KSM_UNMERGE)) {
		err = check_ksm_run(r->a1, why, sizeof(why));
		if (err)
			return refused(r, err, why);
		return undo_ksm_unmerge(r->a1, *ksm_run, verbose);
	}
	/* The rest: each module's own handler (core/undo.c's table). */
	for (h = undos; h && *h; h++) {
		if (strcmp(r->op, (*h)->op))
			continue;
		err = (*h)->check(r->a1, r->a2, why, sizeof(why));
		if (err)
			return refused(r, err, why);
		return (*h)->undo(r->a1, r->a2, verbose);
	}
	return refused(r, -EPERM, "not a kind of record the suite writes");
}

static int parse_records(char *text, struct record **out)
{
	struct record *recs = NULL;
	int n = 0, cap = 0;
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *t1, *t2;

		if (line[0] == '#' || !line[0])
			continue;
		t1 = strchr(line, '\t');
		t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (!t1 || !t2)
			continue;	/* torn last line of a killed run */
		*t1 = *t2 = '\0';
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			recs = realloc(recs, cap * sizeof(*recs));
			if (!recs)
				return -ENOMEM;
		}
		recs[n].op = line;
		recs[n].a1 = t1 + 1;
		recs[n].a2 = t2 + 1;
		unescape(recs[n].a1);
		unescape(recs[n].a2);
		n++;
	}
	*out = recs;
	return n;
}

/* The boot a journal was written in, if it says (older ones do not). */
static const char *journal_boot(const struct record *recs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(recs[i].op, J_BOOT))
			return recs[i].a1;
	return NULL;
}

/*
 * Open path for a replay if it is the suite's own journal: a regular
 * file, not a link, of the running user's (root's) in a directory of
 * theirs, writable by nobody else, that starts with the header. Its
 * text (to free), or NULL with why; *st gets what was opened.
 */
static char *open_trusted(const char *path, struct stat *st, char *why,
			  size_t len)
{
	size_t hlen = strlen(JOURNAL_HEADER);
	char *text;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(why, len, "cannot open it: %s%s", strerror(e),
			 e == ELOOP ? " (a symbolic link)" : "");
		return NULL;
	}
	if (fstat(fd, st)) {
		snprintf(why, len, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, len, "it is not a regular file");
		close(fd);
		return NULL;
	}
	if (journal_trust_stat(st, "the file", why, len) ||
	    journal_trust_parent(path, why, len)) {
		close(fd);
		return NULL;
	}
	text = calloc(1, st->st_size + 1);
	if (!text || read(fd, text, st->st_size) != st->st_size) {
		snprintf(why, len, "cannot read its %lld bytes: %s",
			 (long long)st->st_size,
			 text ? strerror(errno) : "out of memory");
		free(text);
		close(fd);
		return NULL;
	}
	close(fd);
	if (strncmp(text, JOURNAL_HEADER, hlen) ||
	    (text[hlen] != ':' && text[hlen] != '\n')) {
		snprintf(why, len,
			 "it does not start with \"" JOURNAL_HEADER "\": not a journal of this suite");
		free(text);
		return NULL;
	}
	return text;
}

int journal_check_file(const char *path, char *why, size_t len)
{
	struct stat st;
	char *text = open_trusted(path, &st, why, len);
	int err = text ? 0 : -EPERM;

	free(text);
	return err;
}

/* path still names the file that was replayed (not one put there since) */
static bool same_file(const char *path, const struct stat *st)
{
	struct stat now;

	return !lstat(path, &now) && now.st_dev == st->st_dev &&
	       now.st_ino == st->st_ino;
}

/* After the replay: a clean journal goes, one with failures stays. */
static void journal_done(const char *path, const struct stat *st,
			 int failures)
{
	char failed[PATH_MAX];
	size_t len = strlen(path);

	if (!same_file(path, st)) {
		rr_warn("%s changed during its replay: left as it is", path);
	} else if (!failures) {
		unlink(path);
	} else {
		/* A journal replayed from .failed stays where it is. */
		if (len > 7 && !strcmp(path + len - 7, ".failed"))
			snprintf(failed, sizeof(failed), "%s", path);
		else
			snprintf(failed, sizeof(failed), "%s.failed", path);
		if (!strcmp(failed, path) || !rename(path, failed))
			rr_warn("kept the journal as %s; fix the cause and run scripts/restore --journal %s",
				failed, failed);
	}
	if (journal_fd >= 0 && !strcmp(path, journal_path())) {
		close(journal_fd);
		journal_fd = -1;
	}
	journal_forget();
}

int journal_replay(const char *path, bool verbose, struct rr_replay *st_out)
{
	struct record *recs = NULL;
	struct rr_replay res = { 0 };
	enum ksm_run_state ksm_run = RUN_UNTOUCHED;
	const char *boot;
	struct stat st, ls;
	char *text;
	int n, i, err, failures = 0;

	if (st_out)
		memset(st_out, 0, sizeof(*st_out));
	if (lstat(path, &ls) && errno == ENOENT)
		return 0;
	/*
	 * A journal that cannot be read, or is not the suite's own, undoes
	 * nothing: a failure of the restore, said and counted (the caller
	 * must not take the machine for restored); the file stays as it is.
	 */
	text = open_trusted(path, &st, res.unread, sizeof(res.unread));
	if (!text)
		goto unread;
	n = parse_records(text, &recs);
	if (n < 0) {
		snprintf(res.unread, sizeof(res.unread), "cannot parse it: %s",
			 strerror(-n));
		free(text);
		goto unread;
	}
	boot = journal_boot(recs, n);
	if (boot && strcmp(boot, rr_boot_id())) {
		rr_msg("%s was written in an earlier boot (%s): the reboot undid every change it records; nothing to restore",
		       path, boot);
		res.other_boot = true;
		n = 0;
	}
	for (i = n - 1; i >= 0; i--) {
		if (!strcmp(recs[i].op, J_WROTE) ||
		    !strcmp(recs[i].op, J_BOOT))
			continue;	/* facts for the records before them */
		err = undo(recs, n, i, &ksm_run, verbose);
		if (err == JOURNAL_LEFT) {
			res.left++;
		} else if (err == JOURNAL_RETIRED) {
			res.retired++;
		} else if (err == JOURNAL_REFUSED) {
			res.refused++;
			failures++;
		} else if (err) {
			rr_warn("could not undo %s %s: %s", recs[i].op,
				recs[i].a1, strerror(-err));
			failures++;
		} else {
			res.undone++;
		}
	}
	free(recs);
	free(text);
	res.failures = failures;
	if (st_out)
		*st_out = res;
	journal_done(path, &st, failures);
	return failures;
unread:
	rr_warn("%s was not replayed: %s; nothing was undone, and the file is left as it is",
		path, res.unread);
	res.failures = 1;
	if (st_out)
		*st_out = res;
	return 1;
}
