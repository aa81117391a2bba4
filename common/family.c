// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "family.h"
#include "maps.h"

struct rr_family {
	int hold[2];		/* every member waits for EOF on hold[0] */
	int pids[RR_FAMILY_MAX];
};

struct tree {
	unsigned long long children, depth;
	void (*prep)(struct rr_pattern *p);
	int ready, hold;	/* write end, read end */
};

unsigned long long rr_family_size(unsigned long long children,
				  unsigned long long depth)
{
	unsigned long long n = 0, level = 1, d;

	for (d = 0; d < depth && n <= RR_FAMILY_MAX; d++) {
		level *= children;
		n += level;
	}
	return n;
}

/*
 * A member at `level` (1: a child of the measuring process): prepare,
 * fork its own children below the last level, send its pid, hold until
 * the measuring process closes the hold pipe.
 */
static void member(struct rr_pattern *p, const struct tree *t, pid_t parent,
		   unsigned long long level) __attribute__((noreturn));

static void member(struct rr_pattern *p, const struct tree *t, pid_t parent,
		   unsigned long long level)
{
	pid_t me = getpid(), pid;
	unsigned long long i;
	char b;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	if (t->prep)
		t->prep(p);
	for (i = 0; level < t->depth && i < t->children; i++) {
		pid = fork();
		if (!pid)
			member(p, t, me, level + 1);
		/* a failed fork shows as a member that never got ready */
	}
	if (write(t->ready, &me, sizeof(me)) != sizeof(me))
		_exit(1);
	while (read(t->hold, &b, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/*
 * Kill every member and reap it: the measuring process is their
 * subreaper, so the orphans of a killed member come back to it.
 */
void rr_family_reap(struct rr_pattern *p)
{
	struct rr_family *f = p->family;
	int i;

	if (!f)
		return;
	close(f->hold[1]);
	/* a member reaped already (a reproducer's wait) is marked -1 */
	for (i = 0; i < p->nr_pids; i++)
		if (f->pids[i] > 0)
			kill(f->pids[i], SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR)
		;
	free(f);
	p->family = NULL;
	p->pids = NULL;
	p->nr_pids = 0;
}

/* Collect each member's pid as it gets ready; EOF when all have gone. */
static void collect(struct rr_pattern *p, int fd, unsigned long long want)
{
	struct rr_family *f = p->family;
	ssize_t r;
	pid_t pid;

	while ((unsigned long long)p->nr_pids < want) {
		r = read(fd, &pid, sizeof(pid));
		if (r < 0 && errno == EINTR)
			continue;
		if (r != sizeof(pid))
			break;
		f->pids[p->nr_pids++] = pid;
	}
}

int rr_family_spawn(struct rr_pattern *p, unsigned long long children,
		    unsigned long long depth, void (*prep)(struct rr_pattern *),
		    char *why, size_t len)
{
	unsigned long lo = (unsigned long)p->addr, hi = lo + p->len;
	unsigned long long want = rr_family_size(children, depth), i;
	struct rr_family *f;
	struct tree t = { children, depth, prep };
	pid_t parent = getpid(), pid;
	int ready[2], err = 0, k;
	size_t in;

	if (want > RR_FAMILY_MAX) {
		snprintf(why, len, "a family of more than %d members",
			 RR_FAMILY_MAX);
		return -E2BIG;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if (pipe2(f->hold, O_CLOEXEC)) {
		free(f);
		return -errno;
	}
	if (pipe2(ready, O_CLOEXEC)) {
		err = -errno;
		close(f->hold[0]);
		close(f->hold[1]);
		free(f);
		return err;
	}
	p->family = f;
	p->pids = f->pids;
	p->nr_pids = 0;
	t.ready = ready[1];
	t.hold = f->hold[0];
	/* Orphans of a member killed first are reaped here, not by init. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	for (i = 0; i < children; i++) {
		pid = fork();
		if (pid < 0) {
			err = -errno;
			snprintf(why, len, "fork child %llu: %s", i + 1,
				 strerror(errno));
			break;
		}
		if (!pid) {
			close(ready[0]);
			close(f->hold[1]);
			member(p, &t, parent, 1);
		}
	}
	close(ready[1]);
	close(f->hold[0]);
	collect(p, ready[0], want);
	close(ready[0]);
	if (!err && (unsigned long long)p->nr_pids < want) {
		snprintf(why, len, "%d of %llu members of the family got ready",
			 p->nr_pids, want);
		err = -ECHILD;
	}
	for (k = 0; !err && k < p->nr_pids; k++) {
		err = rr_maps_count_pid(f->pids[k], lo, hi, &in, NULL);
		if (err)
			snprintf(why, len, "/proc/%d/maps: %s", f->pids[k],
				 strerror(-err));
		else
			p->vmas += in;
	}
	if (err)
		rr_family_reap(p);
	return err;
}
