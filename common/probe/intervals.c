// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/intervals.h"

void rr_pairer_init(struct rr_pairer *p)
{
	memset(p, 0, sizeof(*p));
}

static struct rr_task_stack *task(struct rr_pairer *p, int pid, int create)
{
	struct rr_task_stack *t;
	size_t i;

	for (i = 0; i < p->nr_tasks; i++)
		if (p->tasks[i].pid == pid)
			return &p->tasks[i];
	if (!create)
		return NULL;
	if (p->nr_tasks == p->cap_tasks) {
		size_t cap = p->cap_tasks ? p->cap_tasks * 2 : 16;

		t = realloc(p->tasks, cap * sizeof(*t));
		if (!t)
			return NULL;
		p->tasks = t;
		p->cap_tasks = cap;
	}
	t = &p->tasks[p->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	return t;
}

static int push(struct rr_task_stack *t, const struct rr_event *ev)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		struct rr_open *o = realloc(t->open, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		t->open = o;
		t->cap = cap;
	}
	t->open[t->n].bracket = ev->bracket;
	t->open[t->n].key = ev->key;
	t->open[t->n].key2 = ev->key2;
	t->open[t->n].start = ev->ts;
	t->open[t->n].marks = 0;
	t->n++;
	return 0;
}

static int add_interval(struct rr_pairer *p, const struct rr_open *o,
			const struct rr_event *ev)
{
	struct rr_interval *iv;

	if (p->nr_iv == p->cap_iv) {
		size_t cap = p->cap_iv ? p->cap_iv * 2 : 64;

		iv = realloc(p->iv, cap * sizeof(*iv));
		if (!iv)
			return -ENOMEM;
		p->iv = iv;
		p->cap_iv = cap;
	}
	iv = &p->iv[p->nr_iv++];
	iv->bracket = o->bracket;
	iv->pid = ev->pid;
	iv->key = o->key;
	iv->key2 = o->key2;
	iv->start = o->start;
	iv->end = ev->ts;
	iv->marks = o->marks;
	iv->end_value = ev->value;
	iv->exact = ev->exact || ev->kind == RR_EV_SAMPLE;
	return 0;
}

static long find_open(const struct rr_task_stack *t,
		      const struct rr_event *ev, int match_key)
{
	long i;

	for (i = (long)t->n - 1; i >= 0; i--)
		if (t->open[i].bracket == ev->bracket &&
		    (!match_key || (t->open[i].key == ev->key &&
				    t->open[i].key2 == ev->key2)))
			return i;
	return -1;
}

int rr_pairer_feed(struct rr_pairer *p, const struct rr_event *ev)
{
	struct rr_task_stack *t;
	long i;
	int err;

	if (ev->ts < p->last_ts)
		p->out_of_order++;
	else
		p->last_ts = ev->ts;

	switch (ev->kind) {
	case RR_EV_START:
		t = task(p, ev->pid, 1);
		return t ? push(t, ev) : -ENOMEM;
	case RR_EV_END:
		t = task(p, ev->pid, 0);
		i = t ? find_open(t, ev, 1) : -1;
		if (i < 0) {
			p->ends_without_start++;
			return 0;
		}
		err = add_interval(p, &t->open[i], ev);
		/* Starts opened above it never ended: drop them. */
		p->starts_without_end += t->n - 1 - i;
		t->n = i;
		return err;
	case RR_EV_MARK:
		t = task(p, ev->pid, 0);
		i = t ? find_open(t, ev, 0) : -1;
		if (i < 0) {
			p->marks_outside++;
			return 0;
		}
		t->open[i].marks += ev->value;
		return 0;
	case RR_EV_SAMPLE: {
		struct rr_open o = {
			.bracket = ev->bracket,
			.key = ev->key,
			.key2 = ev->key2,
			.start = ev->ts > ev->value ? ev->ts - ev->value : 0,
		};

		return add_interval(p, &o, ev);
	}
	}
	return -EINVAL;
}

void rr_pairer_finish(struct rr_pairer *p)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++) {
		p->starts_without_end += p->tasks[i].n;
		p->tasks[i].n = 0;
	}
}

void rr_pairer_free(struct rr_pairer *p)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++)
		free(p->tasks[i].open);
	free(p->tasks);
	free(p->iv);
	memset(p, 0, sizeof(*p));
}
