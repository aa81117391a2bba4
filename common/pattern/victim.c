// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "pattern/victim.h"

/* Room for ~50 s of toggling at the pace below. */
#define VICTIM_CAP (1 << 19)
/* Pause between toggles: catches each walk within 0.1 ms of its start. */
#define VICTIM_PAUSE_US 100

/* One call's latency, and the longest call's clock times. */
static void record(struct rr_victim *v, uint64_t t0, uint64_t ns)
{
	v->lat[v->n++] = (double)ns / NSEC_PER_MSEC;
	if (ns > v->long_ns) {
		v->long_ns = ns;
		v->long_t0 = t0;
	}
}

static void *victim_fn(void *arg)
{
	struct rr_victim *v = arg;
	size_t ps = rr_page_size();
	int prot[2] = { PROT_READ, PROT_READ | PROT_WRITE };
	unsigned long calls = 0;
	int i = 0, err;

	__atomic_store_n(&v->tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (;;) {
		int st;
		uint64_t t0;

		/* The lock spans one toggle: pause() waits for it to end. */
		pthread_mutex_lock(&v->lock);
		st = v->state;
		if (st == 2) {
			pthread_mutex_unlock(&v->lock);
			break;
		}
		if (st == 0 || v->n == v->cap) {
			if (st == 1)
				v->truncated = true;
			pthread_mutex_unlock(&v->lock);
			usleep(1000);
			continue;
		}
		__atomic_add_fetch(&v->begun, 1, __ATOMIC_RELEASE);
		t0 = rr_now_ns();
		err = v->op ? v->op->fn(v->op->arg, calls++) :
		      mprotect(v->page, ps, prot[i]);
		if (err)
			v->errors++;
		else
			record(v, t0, rr_now_ns() - t0);
		pthread_mutex_unlock(&v->lock);
		i ^= 1;
		usleep(VICTIM_PAUSE_US);
	}
	/* Leave the page as the pattern built it: read-write. */
	if (!v->op)
		mprotect(v->page, ps, PROT_READ | PROT_WRITE);
	return NULL;
}

int rr_victim_start(struct rr_victim *v, char *page,
		    const struct rr_victim_op *op)
{
	int err;

	memset(v, 0, sizeof(*v));
	v->page = page;
	v->op = op;
	v->cap = VICTIM_CAP;
	pthread_mutex_init(&v->lock, NULL);
	v->lat = malloc(v->cap * sizeof(*v->lat));
	if (!v->lat)
		return -ENOMEM;
	/* Touched and locked now: reclaim must not make the victim fault. */
	memset(v->lat, 0, v->cap * sizeof(*v->lat));
	mlock(v->lat, v->cap * sizeof(*v->lat));
	err = pthread_create(&v->thread, NULL, victim_fn, v);
	if (err) {
		free(v->lat);
		v->lat = NULL;
		return -err;
	}
	v->started = true;
	while (!__atomic_load_n(&v->tid, __ATOMIC_ACQUIRE))
		usleep(100);
	return 0;
}

static void set_state(struct rr_victim *v, int state)
{
	pthread_mutex_lock(&v->lock);
	v->state = state;
	pthread_mutex_unlock(&v->lock);
}

void rr_victim_go(struct rr_victim *v)
{
	unsigned long before = __atomic_load_n(&v->begun, __ATOMIC_ACQUIRE);
	int i;

	set_state(v, 1);
	for (i = 0; i < 200 && v->started &&
	     __atomic_load_n(&v->begun, __ATOMIC_ACQUIRE) == before; i++)
		usleep(50);
}

void rr_victim_pause(struct rr_victim *v)
{
	set_state(v, 0);
}

void rr_victim_take(struct rr_victim *v, struct rr_samples *out)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		rr_samples_add(out, v->lat[i]);
	v->n = 0;
	v->long_ns = v->long_t0 = 0;
}

bool rr_victim_is(const struct rr_victim *v, int pid)
{
	if (pid == v->tid)
		return true;
	return v->op && v->op->owns && v->op->owns(v->op->arg, pid);
}

void rr_victim_stop(struct rr_victim *v)
{
	if (!v->started)
		return;
	set_state(v, 2);
	pthread_join(v->thread, NULL);
	munlock(v->lat, v->cap * sizeof(*v->lat));
	free(v->lat);
	v->lat = NULL;
	v->started = false;
}
