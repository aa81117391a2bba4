// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "pattern/family.h"
#include "pattern/maps.h"

/*
 * A request to one member, in a page the family shares: the measuring
 * process fills it and signals the member (SIGUSR1), whose handler
 * makes the call and answers here.
 */
enum { ASK_IDLE, ASK_ASKED, ASK_DONE };

struct mailbox {
	int pid;		/* the member asked */
	int state;		/* ASK_*, written last by each side */
	char *addr;
	size_t len;
	int advice;
	int err;		/* errno of madvise(), 0 */
	int sigbus;		/* the call ended in SIGBUS */
	uint64_t t0, t1;	/* CLOCK_MONOTONIC, ns */
};

struct rr_family {
	int hold[2];		/* every member waits for EOF on hold[0] */
	int pids[RR_FAMILY_MAX];
	struct mailbox *mb;	/* MAP_SHARED: the members see it too */
};

/* In a member: its family's mailbox, for the signal handlers. */
static struct mailbox *member_mb;

static bool asked(const struct mailbox *m)
{
	return m && m->pid == getpid() &&
	       __atomic_load_n(&m->state, __ATOMIC_ACQUIRE) == ASK_ASKED;
}

static void answer(struct mailbox *m)
{
	__atomic_store_n(&m->state, ASK_DONE, __ATOMIC_RELEASE);
}

/* SIGUSR1 in a member: make the call it was asked for, timed. */
static void on_ask(int sig)
{
	struct mailbox *m = member_mb;
	int saved = errno, r;

	if (!asked(m))
		return;
	m->t0 = rr_now_ns();
	r = madvise(m->addr, m->len, m->advice);
	m->t1 = rr_now_ns();
	m->err = r ? errno : 0;
	answer(m);
	errno = saved;
}

/*
 * SIGBUS in a member: a call that ends in SIGBUS (MADV_HWPOISON of its
 * own page, MF_ACTION_REQUIRED) ends here; note when, then die of it as
 * the member would have.
 */
static void on_bus(int sig)
{
	struct mailbox *m = member_mb;

	if (asked(m)) {
		m->t1 = rr_now_ns();
		m->sigbus = 1;
		answer(m);
	}
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

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

bool rr_family_fits(unsigned long long children, unsigned long long depth,
		    const char *opt, char *why, size_t len)
{
	if (rr_family_size(children, depth) <= RR_FAMILY_MAX)
		return true;
	snprintf(why, len, "--%s %llu --depth %llu: more than %d members",
		 opt, children, depth, RR_FAMILY_MAX);
	return false;
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
	member_mb = p->family->mb;
	signal(SIGUSR1, on_ask);
	signal(SIGBUS, on_bus);
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
	munmap(f->mb, sizeof(*f->mb));
	free(f);
	p->family = NULL;
	p->pids = NULL;
	p->nr_pids = 0;
}

/* Has the member exited (a zombie, or gone)? */
static bool member_gone(int pid)
{
	char path[64], buf[512], *end;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (rr_read_file(path, buf, sizeof(buf)))
		return true;
	/* "pid (comm) S ...": the state follows the last ')' */
	end = strrchr(buf, ')');
	return !end || end[1] != ' ' || end[2] == 'Z' || end[2] == 'X';
}

int rr_family_madvise(const struct rr_pattern *p, int pid, void *addr,
		      int advice, struct rr_member_call *out)
{
	struct rr_family *f = p->family;
	struct mailbox *m;
	int i;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -ECHILD;
	for (i = 0; i < p->nr_pids && f->pids[i] != pid; i++)
		;
	if (i == p->nr_pids || pid <= 0)
		return -ESRCH;
	m = f->mb;
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->addr = (char *)((unsigned long)addr & ~(rr_page_size() - 1));
	m->len = rr_page_size();
	m->advice = advice;
	__atomic_store_n(&m->state, ASK_ASKED, __ATOMIC_RELEASE);
	if (kill(pid, SIGUSR1))
		return -errno;
	/* the member times the call: polling here costs it nothing */
	while (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != ASK_DONE) {
		if (member_gone(pid) &&
		    __atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != ASK_DONE) {
			m->state = ASK_IDLE;
			return -ECHILD;
		}
		rr_sleep_ms(1);
	}
	out->ms = (double)(m->t1 - m->t0) / 1e6;
	out->err = m->err;
	out->sigbus = m->sigbus;
	m->state = ASK_IDLE;
	return 0;
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
	f->mb = mmap(NULL, sizeof(*f->mb), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f->mb == MAP_FAILED) {
		free(f);
		return -ENOMEM;
	}
	if (pipe2(f->hold, O_CLOEXEC)) {
		munmap(f->mb, sizeof(*f->mb));
		free(f);
		return -errno;
	}
	if (pipe2(ready, O_CLOEXEC)) {
		err = -errno;
		close(f->hold[0]);
		close(f->hold[1]);
		munmap(f->mb, sizeof(*f->mb));
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
