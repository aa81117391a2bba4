// SPDX-License-Identifier: GPL-2.0
/*
 * The polling thread of poll.h, and the pure logic that turns what it
 * saw into samples (unit-tested on its own).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"
#include "probe/poll.h"

static int keep(struct rr_poll *p, uint64_t t, unsigned long long v)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		uint64_t *ts = realloc(p->ts, cap * sizeof(*ts));
		unsigned long long *val;

		if (!ts)
			return -ENOMEM;
		p->ts = ts;
		val = realloc(p->val, cap * sizeof(*val));
		if (!val)
			return -ENOMEM;
		p->val = val;
		p->cap = cap;
	}
	p->ts[p->n] = t;
	p->val[p->n++] = v;
	return 0;
}

static void *poller(void *arg)
{
	struct rr_poll *p = arg;
	struct timespec next;
	unsigned long long v;
	uint64_t t;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!p->stop) {
		/* absolute deadlines: a slow read does not stretch the period */
		next.tv_nsec += p->period_ns;
		while (next.tv_nsec >= (long)NSEC_PER_SEC) {
			next.tv_nsec -= NSEC_PER_SEC;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (rr_read_ull(p->path, &v)) {
			p->errors++;
			continue;
		}
		/* the time of the read that saw it: the change is before */
		t = rr_now_ns();
		if (v != p->val[p->n - 1] && keep(p, t, v))
			break;
	}
	return NULL;
}

int rr_poll_start(struct rr_poll *p, const char *path, uint64_t period_ns)
{
	unsigned long long v;
	int err;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	p->period_ns = period_ns;
	err = rr_read_ull(path, &v);
	if (!err)
		err = keep(p, rr_now_ns(), v);
	if (!err)
		err = -pthread_create(&p->thread, NULL, poller, p);
	p->running = !err;
	return err;
}

void rr_poll_stop(struct rr_poll *p)
{
	if (!p->running)
		return;
	p->stop = true;
	pthread_join(p->thread, NULL);
	p->running = false;
}

void rr_poll_free(struct rr_poll *p)
{
	rr_poll_stop(p);
	free(p->ts);
	free(p->val);
	p->ts = NULL;
	p->val = NULL;
	p->n = p->cap = 0;
}

void rr_poll_intervals(const uint64_t *ts, const unsigned long long *val,
		       size_t n, struct rr_samples *out,
		       struct rr_poll_result *res)
{
	size_t i;

	memset(res, 0, sizeof(*res));
	res->partial = n > 1;
	for (i = 2; i < n; i++) {
		res->intervals++;
		if (val[i] != val[i - 1] + 1) {
			res->skipped++;
			continue;
		}
		res->counted++;
		rr_samples_add(out, (double)(ts[i] - ts[i - 1]) /
				    NSEC_PER_MSEC);
	}
}
