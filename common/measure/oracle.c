// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "measure/oracle.h"
#include "model/repro.h"

/* FNV-1a: enough to tell a page's content from another's. */
static uint64_t hash_page(const unsigned char *b, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * Hash one mapping's page, read in its own process through
 * /proc/PID/mem: its reads take plain references, where
 * process_vm_readv() pins, and a pin unshares a page that is not the
 * process's own (copy on write, KSM): reading would move the page.
 */
static int hash_mapping(const struct rr_page_ref *m, unsigned char *buf,
			uint64_t *h)
{
	size_t ps = rr_page_size();
	char path[64];
	ssize_t n;
	int fd;

	if (!m->pid) {
		memcpy(buf, m->addr, ps);
	} else {
		snprintf(path, sizeof(path), "/proc/%d/mem", m->pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = pread(fd, buf, ps, (off_t)(uintptr_t)m->addr);
		if (n != (ssize_t)ps) {
			n = n < 0 ? -errno : -EIO;
			close(fd);
			return n;
		}
		close(fd);
	}
	*h = hash_page(buf, ps);
	return 0;
}

/* Each mapping's frame now, per process. */
static int read_frames(const struct rr_frames *f, uint64_t *pfn)
{
	struct rr_pagemap_ent e;
	int fd = -1, pid = -1, err = 0;
	size_t i;

	for (i = 0; !err && i < f->n; i++) {
		if (f->map[i].pid != pid) {
			if (fd >= 0)
				close(fd);
			pid = f->map[i].pid;
			fd = rr_pagemap_open(pid);
			if (fd < 0)
				return fd;
		}
		err = rr_pagemap_read(fd, f->map[i].addr, &e);
		pfn[i] = e.pfn;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

void rr_frames_free(struct rr_frames *f)
{
	free(f->map);
	free(f->pfn);
	free(f->sum);
	memset(f, 0, sizeof(*f));
}

int rr_frames_note(struct rr_frames *f, const struct rr_pattern *p,
		   bool ksm, char *why, size_t len)
{
	size_t ps = rr_page_size(), cap = p->filled * (1 + p->nr_pids), i;
	unsigned char *buf = malloc(ps);
	uint64_t *pfn;
	int m, err = 0;

	rr_frames_free(f);
	f->base = p->addr;
	f->ksm = ksm;
	f->swap = p->swaps_out;
	/*
	 * Without VM event counters (the shared test kernels) nothing
	 * counts pages sent to swap: the swap in use is no count (a page
	 * read back or freed gives its slot back), so there is no check.
	 */
	f->pswpout = f->swap &&
		     rr_read_keyed("/proc/vmstat", "pswpout", &f->swapped) >= 0;
	f->map = calloc(cap ? cap : 1, sizeof(*f->map));
	pfn = calloc(cap ? cap : 1, sizeof(*pfn));
	f->sum = calloc(cap ? cap : 1, sizeof(*f->sum));
	if (!buf || !f->map || !pfn || !f->sum) {
		free(buf);
		free(pfn);
		return -ENOMEM;
	}
	for (m = -1; m < p->nr_pids; m++)
		for (i = 0; i < p->filled; i++) {
			f->map[f->n].pid = m < 0 ? 0 : p->pids[m];
			f->map[f->n].addr = p->addr +
				rr_pattern_filled_index(p, i) * ps;
			f->n++;
		}
	err = read_frames(f, pfn);
	if (err)
		snprintf(why, len, "pagemap: %s", strerror(-err));
	/* Only the mappings present now can be judged after. */
	f->pfn = pfn;
	for (i = 0, cap = 0; !err && i < f->n; i++) {
		if (!pfn[i])
			continue;
		f->map[cap] = f->map[i];
		f->pfn[cap] = pfn[i];
		err = hash_mapping(&f->map[cap], buf, &f->sum[cap]);
		if (err)
			snprintf(why, len, "reading pid %d's page at +%td: %s",
				 f->map[cap].pid, f->map[cap].addr - p->addr,
				 strerror(-err));
		cap++;
	}
	free(buf);
	if (err)
		return err;
	if (f->n && !cap) {
		snprintf(why, len,
			 "pagemap gives no frame numbers (needs CAP_SYS_ADMIN)");
		return -EPERM;
	}
	f->n = cap;
	if (ksm)
		rr_ksm_read(&f->before);
	return 0;
}

static void note(struct rr_oracle *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct rr_oracle *o, const char *fmt, ...)
{
	va_list ap;

	/* The first failure is the one reported. */
	if (o->reason[0] && rr_oracle_failed(o))
		return;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

/* "+OFF" in this process, "+OFF in pid P" in another. */
static const char *where(const struct rr_frames *f, size_t i, char *buf,
			 size_t len)
{
	long off = (long)(f->map[i].addr - f->base);

	if (f->map[i].pid)
		snprintf(buf, len, "+%ld in pid %d", off, f->map[i].pid);
	else
		snprintf(buf, len, "+%ld", off);
	return buf;
}

static int by_frame(const void *a, const void *b, void *arg)
{
	const uint64_t *pfn = arg;
	uint64_t x = pfn[*(const size_t *)a], y = pfn[*(const size_t *)b];

	if (x != y)
		return x < y ? -1 : 1;
	/* the same frame: in the order noted (this process first) */
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/*
 * The mappings' indices grouped by the frame they had before the
 * trigger (a page), or NULL (counted as a failure in o).
 */
static size_t *by_page(const struct rr_frames *f, struct rr_oracle *o)
{
	size_t *idx = calloc(f->n ? f->n : 1, sizeof(*idx));
	size_t i;

	o->ran = true;
	if (!idx) {
		o->pages_failed++;
		note(o, "out of memory while checking");
		return NULL;
	}
	for (i = 0; i < f->n; i++)
		idx[i] = i;
	qsort_r(idx, f->n, sizeof(*idx), by_frame, f->pfn);
	return idx;
}

/* A content that changed, or could not be read back, is a miss. */
static void judge_contents(const struct rr_frames *f, const bool *changed,
			   struct rr_oracle *o)
{
	char at[64];
	size_t i;

	for (i = 0; i < f->n; i++)
		if (changed[i]) {
			o->mappings_missed++;
			note(o, "the content at %s changed",
			     where(f, i, at, sizeof(at)));
		}
}

void rr_frames_judge_swap(const struct rr_frames *f, const uint64_t *after,
			  const bool *changed, unsigned long long swapped,
			  struct rr_oracle *o)
{
	size_t *idx = by_page(f, o), j, g, k, left = 0;
	char at[64], at2[64];

	if (!idx)
		return;
	for (g = 0; g < f->n; g = j) {
		size_t stayed = 0;

		for (j = g; j < f->n && f->pfn[idx[j]] == f->pfn[idx[g]]; j++)
			stayed += after[idx[j]] != 0;
		o->pages_checked++;
		o->mappings_checked += j - g;
		if (stayed == j - g) {
			o->pages_failed++;
			note(o, "the page of %zu mapping(s) at %s stayed in memory: not swapped out",
			     j - g, where(f, idx[g], at, sizeof(at)));
		} else if (stayed) {
			/* those reclaim's unmapping walk did not find */
			o->mappings_missed += stayed;
			for (k = g; after[idx[k]] == 0; k++)
				;
			note(o, "%zu of %zu mappings of the page at %s kept it in memory (first: %s): the walk did not unmap them",
			     stayed, j - g, where(f, idx[g], at, sizeof(at)),
			     where(f, idx[k], at2, sizeof(at2)));
		} else {
			left++;
		}
	}
	if (swapped < left) {
		o->pages_failed++;
		note(o, "pswpout grew by %llu while %zu pages left memory",
		     swapped, left);
	}
	judge_contents(f, changed, o);
	free(idx);
}

void rr_frames_judge(const struct rr_frames *f, const uint64_t *after,
		     const bool *changed, struct rr_oracle *o)
{
	size_t *idx = by_page(f, o);
	size_t j, g, k;
	char at[64], at2[64];

	if (!idx)
		return;
	/* Group the mappings by the frame they had before the trigger. */
	for (g = 0; g < f->n; g = j) {
		uint64_t old = f->pfn[idx[g]], to = 0;
		size_t stayed = 0, missed = 0, first = 0;

		for (j = g; j < f->n && f->pfn[idx[j]] == old; j++)
			if (after[idx[j]] == old)
				stayed++;
			else if (!to && after[idx[j]])
				to = after[idx[j]];
		o->pages_checked++;
		o->mappings_checked += j - g;
		if (stayed == j - g) {
			o->pages_failed++;
			note(o, "the page of %zu mapping(s) at %s did not move",
			     j - g, where(f, idx[g], at, sizeof(at)));
			continue;
		}
		for (k = g; k < j; k++)
			if (after[idx[k]] != to && !missed++)
				first = idx[k];
		if (missed) {
			o->mappings_missed += missed;
			note(o, "%zu of %zu mappings of the page at %s did not follow it to its new frame (first: %s)",
			     missed, j - g, where(f, idx[g], at, sizeof(at)),
			     where(f, first, at2, sizeof(at2)));
		}
	}
	judge_contents(f, changed, o);
	free(idx);
}

int rr_frames_check(const struct rr_frames *f, struct rr_oracle *o)
{
	size_t ps = rr_page_size(), i;
	uint64_t *after = calloc(f->n ? f->n : 1, sizeof(*after)), h;
	bool *changed = calloc(f->n ? f->n : 1, sizeof(*changed));
	unsigned char *buf = malloc(ps);
	unsigned long long swapped = 0;
	struct rr_ksm_counters k;
	size_t procs = 0;
	int err;

	err = after && changed && buf ? read_frames(f, after) : -ENOMEM;
	/* before the reads below bring the pages back */
	if (!err && f->pswpout &&
	    rr_read_keyed("/proc/vmstat", "pswpout", &swapped) < 0)
		err = -EIO;
	for (i = 0; !err && i < f->n; i++) {
		/* A page that cannot be read back is not intact. */
		changed[i] = hash_mapping(&f->map[i], buf, &h) ||
			     h != f->sum[i];
		if (!i || f->map[i].pid != f->map[i - 1].pid)
			procs++;
	}
	if (!err && f->swap) {
		char count[96] = "pswpout not counted (no VM event counters)";

		swapped = swapped > f->swapped ? swapped - f->swapped : 0;
		if (f->pswpout)
			snprintf(count, sizeof(count), "pswpout +%llu",
				 swapped);
		rr_frames_judge_swap(f, after, changed,
				     f->pswpout ? swapped : ULLONG_MAX, o);
		if (!rr_oracle_failed(o))
			snprintf(o->reason, sizeof(o->reason),
				 "every page out of memory with every mapping of it%s, %s, content intact when read back",
				 procs > 1 ? " in every process" : "", count);
	} else if (!err) {
		rr_frames_judge(f, after, changed, o);
		if (f->ksm && !rr_ksm_read(&k) &&
		    k.pages_sharing != f->before.pages_sharing) {
			o->pages_failed++;
			note(o, "pages_sharing went from %llu to %llu",
			     f->before.pages_sharing, k.pages_sharing);
		}
		if (!rr_oracle_failed(o))
			snprintf(o->reason, sizeof(o->reason),
				 "every page on a new frame, every mapping of it there%s, content intact%s",
				 procs > 1 ? " in every process" : "",
				 f->ksm ? ", pages_sharing unchanged" : "");
	}
	free(after);
	free(changed);
	free(buf);
	return err;
}

int rr_frames_before(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, char *why, size_t len)
{
	if (!p->frames) {
		p->frames = calloc(1, sizeof(*p->frames));
		if (!p->frames)
			return -ENOMEM;
	}
	return rr_frames_note(p->frames, p, c->type == RR_PT_KSM, why, len);
}

int rr_frames_verify(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p, struct rr_oracle *o, char *why,
		     size_t len)
{
	int err;

	if (!p->frames) {
		snprintf(why, len, "the oracle noted nothing before the trigger");
		return -EINVAL;
	}
	err = rr_frames_check(p->frames, o);
	if (err)
		snprintf(why, len, "oracle: %s", strerror(-err));
	return err;
}
