// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring child and its supervision: fork it, wait for its end, a
 * signal or the timeout, kill it and whatever it left, and undo the
 * run's journal, on every path.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "core/runner.h"
#include "journal/journal.h"
#include "lib/util.h"
#include "measure/measure.h"

/* Kill every task whose parent we are: the measuring process is gone. */
static int kill_children(void)
{
	char path[64], line[512], *p;
	struct dirent *d;
	int ppid, n = 0;
	DIR *dir = opendir("/proc");
	FILE *f;

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		/* "pid (comm) state ppid": comm may hold spaces */
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (p && sscanf(p + 1, " %*c %d", &ppid) == 1 &&
		    ppid == getpid() && !kill(atoi(d->d_name), SIGKILL))
			n++;
	}
	closedir(dir);
	return n;
}

/*
 * Tasks the measuring process leaves behind when it is killed (a load's
 * workers, a pattern's processes) come to us, a child subreaper, rather
 * than to init, which may not reap them (a container's init): once the
 * restore has emptied the run's cgroups, end and reap whatever is left,
 * so that nothing of the run outlives it, not even a zombie.
 */
static void reap_orphans(void)
{
	pid_t pid;
	int i;

	for (i = 0; i < 100; i++) {
		do
			pid = waitpid(-1, NULL, WNOHANG);
		while (pid > 0);
		if (pid < 0 && errno == ECHILD)
			return;
		if (i == 10)
			kill_children();
		rr_sleep_ms(20);
	}
	rr_warn("tasks of the run still not reaped after 2 s");
}

/*
 * Undo the run's journal. A change that could not be undone leaves the
 * machine changed: whatever was measured, the run is an error.
 */
void rr_restore(struct rr_result *res)
{
	char was[sizeof(res->reason)];
	struct rr_replay st;

	rr_phase(res, "restore");
	/* only the journal this run began: never one it found and refused */
	if (journal_is_ours())
		journal_replay(journal_path(), !rr_cfg.quiet, &st);
	else
		memset(&st, 0, sizeof(st));
	reap_orphans();
	res->restore_ran = true;
	res->restored = st.undone;
	res->restore_left = st.left;
	res->restore_retired = st.retired;
	res->restore_failures = st.failures;
	if (!st.failures)
		return;
	snprintf(was, sizeof(was), "%s", res->reason);
	rr_set_verdict(res, RR_ERROR,
		       "restore failed: %d of %d journaled changes could not be undone (the journal is kept: see the warning above, and scripts/restore); what the run found: %s",
		       st.failures, st.failures + st.undone + st.left, was);
}

/*
 * Wait for the child, a signal, or the timeout (--timeout counts from
 * began). Returns the signal that interrupted the run (0 if none);
 * *timed_out tells the timeout.
 */
static int supervise(pid_t child, const sigset_t *set, uint64_t began,
		     int *status, bool *timed_out)
{
	uint64_t deadline = began + rr_cfg.timeout_s * NSEC_PER_SEC;
	struct rr_progress prog;
	struct timespec ts = { .tv_sec = 1 };
	siginfo_t si;
	int sig = 0, s;

	*timed_out = false;
	/*
	 * The child's end first: a stop signal still pending then is taken
	 * after the restore (stopped_in_restore), never dropped here. The
	 * deadline before the wait: it may have passed before the child
	 * began (the run's start counts).
	 */
	for (;;) {
		if (waitpid(child, status, WNOHANG) == child)
			return 0;
		if (rr_now_ns() > deadline) {
			*timed_out = true;
			rr_msg("timeout after %llu s: stopping the run and restoring",
			       rr_cfg.timeout_s);
			break;
		}
		s = sigtimedwait(set, &si, &ts);
		if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
			sig = s;
			rr_msg("%s: stopping the run and restoring",
			       strsignal(s));
			break;
		}
	}
	kill(child, SIGKILL);
	rr_progress_start(&prog, "stop");
	/* The child may sit in the kernel for a while before it dies. */
	while (waitpid(child, status, WNOHANG) != child) {
		rr_progress(&prog, "waiting for the measuring process %d to exit",
			    child);
		rr_sleep_ms(20);
	}
	return sig;
}

/*
 * A stop signal that came during the restore (blocked there: a restore
 * is never cut short): the run still dies of it, once restored, and its
 * report says so. 0 if none came.
 */
int rr_stopped_in_restore(struct rr_result *res)
{
	struct timespec now = { 0 };
	sigset_t set;
	char was[sizeof(res->reason)];
	int s;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	s = sigtimedwait(&set, NULL, &now);
	if (s <= 0)
		return 0;
	snprintf(was, sizeof(was), "%s", res->reason);
	rr_set_verdict(res, RR_ERROR,
		       "interrupted by SIG%s during the restore, which was finished first; what the run found: %s",
		       sigabbrev_np(s), was);
	return s;
}

/*
 * Fork the measuring child and supervise it: the signal that stopped
 * the run (0 if none), with its status and whether it timed out; -1 if
 * it could not be forked (res says why). The signals waited for stay
 * blocked, so that a second Ctrl-C cannot stop the restore.
 */
int rr_run_child(const struct rr_repro *r, struct rr_result *res,
		 uint64_t began, int *status, bool *timed_out)
{
	struct rusage ru;
	sigset_t set, old;
	pid_t child;
	int i, sig;

	/*
	 * Block the signals we wait for before the child exists. A signal
	 * ignored by whoever started us (SIGINT for a background job of a
	 * script, SIGHUP under nohup) stays ignored.
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (i = 0; i < 3; i++) {
		int s = (int[]){ SIGINT, SIGTERM, SIGHUP }[i];
		struct sigaction sa;

		if (!sigaction(s, NULL, &sa) && sa.sa_handler != SIG_IGN)
			sigaddset(&set, s);
	}
	sigprocmask(SIG_BLOCK, &set, &old);

	rr_phase(res, "start");
	/* the measuring process's orphans come to us (reap_orphans) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	child = fork();
	if (child < 0) {
		rr_set_verdict(res, RR_ERROR, "fork: %s", strerror(errno));
		return -1;
	}
	if (!child) {
		pid_t parent = getppid();

		/* If the parent is SIGKILLed, die too: restore needs us gone. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(2);
		sigprocmask(SIG_SETMASK, &old, NULL);
		rr_body(r, res);
		res->done = true;
		fflush(NULL);
		_exit(0);
	}
	sig = supervise(child, &set, began, status, timed_out);
	if (!getrusage(RUSAGE_CHILDREN, &ru))
		res->max_rss_kb = ru.ru_maxrss;
	return sig;
}

/* A child that did not reach the end: why, in the verdict's reason. */
void rr_child_stopped(struct rr_result *res, int sig, int status,
			  bool timed_out)
{
	if (sig)
		rr_set_verdict(res, RR_ERROR, "interrupted by SIG%s during %s",
			       sigabbrev_np(sig), res->phase);
	else if (timed_out)
		rr_set_verdict(res, RR_ERROR,
			       "timed out after %llu s during %s",
			       rr_cfg.timeout_s, res->phase);
	else if (WIFSIGNALED(status))
		rr_set_verdict(res, RR_ERROR,
			       "the measuring process died of SIG%s during %s",
			       sigabbrev_np(WTERMSIG(status)), res->phase);
	else
		rr_set_verdict(res, RR_ERROR,
			       "the measuring process exited (%d) during %s",
			       WEXITSTATUS(status), res->phase);
}
