// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "journal/journal.h"
#include "lib/util.h"
#include "mm/ksm.h"
#include "pattern/maps.h"
#include "pattern/pattern.h"

#define MAX_MAP_COUNT "/proc/sys/vm/max_map_count"

static const char *const type_names[RR_PT_MAX] = {
	[RR_PT_KSM] = "ksm",
	[RR_PT_ANON] = "anon",
	[RR_PT_FILE] = "file",
};

const char *rr_page_type_name(enum rr_page_type t)
{
	return t < RR_PT_MAX ? type_names[t] : "?";
}

void rr_pattern_spec_split(struct rr_pattern_spec *s, enum rr_page_type t,
			   size_t pages, size_t split_every,
			   size_t identical)
{
	s->type = t;
	s->pages = pages;
	s->split_every = split_every;
	s->identical = identical;
}

void rr_pattern_spec_of(struct rr_pattern_spec *s, enum rr_page_type t,
			const struct rr_split_opts *o)
{
	rr_pattern_spec_split(s, t, o->pages, o->split_every, o->identical);
}

bool rr_split_fits(const struct rr_split_opts *o, char *why, size_t len)
{
	return rr_opt_at_most("identical", o->identical, "pages", o->pages,
			      why, len) &&
	       rr_opt_at_most("split-every", o->split_every, "pages",
			      o->pages, why, len);
}

int rr_pattern_count_vmas(const struct rr_pattern *p, size_t *vmas,
			  char *why, size_t len)
{
	int err = rr_maps_count((unsigned long)p->addr,
				(unsigned long)p->addr + p->len, vmas, NULL);

	if (err)
		snprintf(why, len, "/proc/self/maps: %s", strerror(-err));
	return err;
}

static bool is_ro(const struct rr_pattern_spec *s, size_t i)
{
	return s->split_every && i % s->split_every == 0;
}

size_t rr_pattern_expected_vmas(const struct rr_pattern_spec *s)
{
	size_t i, n = 1;

	for (i = 1; i < s->pages; i++)
		if (is_ro(s, i) != is_ro(s, i - 1))
			n++;
	return n;
}

static bool fill_on_split(const struct rr_pattern_spec *s)
{
	return s->split_advice == MADV_MERGEABLE;
}

size_t rr_pattern_spec_filled(const struct rr_pattern_spec *s)
{
	size_t n = s->identical && s->identical < s->pages ? s->identical :
		   s->pages;
	size_t slots;

	/* with MADV_MERGEABLE, only the advised pages are filled */
	if (fill_on_split(s)) {
		slots = (s->pages + s->split_every - 1) / s->split_every;
		if (n > slots)
			n = slots;
	}
	return n;
}

size_t rr_pattern_filled_index(const struct rr_pattern *p, size_t i)
{
	size_t slots;

	if (!fill_on_split(&p->spec))
		return i * p->spec.pages / p->filled;
	/* the advised pages: 0, N, 2N, ... */
	slots = (p->spec.pages + p->spec.split_every - 1) /
		p->spec.split_every;
	return i * slots / p->filled * p->spec.split_every;
}

/* Split off page i. */
static int split_page(struct rr_pattern *p, size_t i, char *why, size_t len)
{
	size_t ps = rr_page_size();
	char *a = p->addr + i * ps;
	int err;

	if (!p->spec.split_advice) {
		if (!mprotect(a, ps, PROT_READ))
			return 0;
		err = -errno;
		snprintf(why, len, "mprotect page %zu: %s", i, strerror(errno));
		return err;
	}
	if (!madvise(a, ps, p->spec.split_advice))
		return 0;
	err = -errno;
	snprintf(why, len, "madvise(%d) page %zu: %s", p->spec.split_advice, i,
		 strerror(errno));
	return err;
}

int rr_pattern_map_count(size_t vmas, char *why, size_t len)
{
	size_t in, total;
	long cur;
	char v[32];
	int err;

	err = rr_read_long(MAX_MAP_COUNT, &cur);
	if (!err)
		err = rr_maps_count(0, 0, &in, &total);
	if (err) {
		snprintf(why, len, "cannot read VMA limits: %s",
			 strerror(-err));
		return err;
	}
	/* Room for what the process has, the pattern, and some slack. */
	total += vmas + vmas / 8 + 1024;
	if ((size_t)cur >= total)
		return 0;
	snprintf(v, sizeof(v), "%zu", total);
	err = journal_knob_set(MAX_MAP_COUNT, v);
	if (err)
		snprintf(why, len, "cannot raise vm.max_map_count to %s: %s",
			 v, strerror(-err));
	return err;
}

static void fill(char *page, size_t content)
{
	static const char text[] = "rmap-repro identical page ";
	size_t i, ps = rr_page_size();

	/* Not zero: use_zero_pages would turn zero pages into no KSM page. */
	for (i = 0; i < ps; i++)
		page[i] = text[i % (sizeof(text) - 1)];
	/* the content's number, so that the kinds differ */
	if (content)
		snprintf(page, ps, "rmap-repro content %zu ", content);
}

/*
 * Anonymous memory aligned to a large folio's size, MADV_HUGEPAGE: mapped
 * one folio larger, the ends trimmed.
 */
static int map_aligned(struct rr_pattern *p, size_t align, char *why,
		       size_t len)
{
	char *raw, *a;
	size_t head;

	raw = mmap(NULL, p->len + align, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		snprintf(why, len, "mmap %zu bytes: %s", p->len + align,
			 strerror(errno));
		return -errno;
	}
	a = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	head = a - raw;
	if (head)
		munmap(raw, head);
	munmap(a + p->len, align - head);
	p->addr = a;
	if (madvise(a, p->len, MADV_HUGEPAGE)) {
		snprintf(why, len, "madvise(MADV_HUGEPAGE): %s",
			 strerror(errno));
		return -errno;
	}
	return 0;
}

static int map(struct rr_pattern *p, char *why, size_t len)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS, fd = -1;

	if (p->spec.type == RR_PT_FILE) {
		fd = p->spec.file_dir ?
		     open(p->spec.file_dir, O_TMPFILE | O_RDWR | O_CLOEXEC,
			  0600) :
		     memfd_create("rmap-repro", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, p->len)) {
			snprintf(why, len, "%s: %s", p->spec.file_dir ?
				 p->spec.file_dir : "memfd", strerror(errno));
			if (fd >= 0)
				close(fd);
			return -errno;
		}
		flags = MAP_SHARED;
	}
	p->memfd = fd;
	if (p->spec.folio_pages && fd < 0)
		return map_aligned(p, p->spec.folio_pages * rr_page_size(),
				   why, len);
	p->addr = mmap(NULL, p->len, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (p->addr == MAP_FAILED) {
		p->addr = NULL;
		snprintf(why, len, "mmap %zu bytes: %s", p->len,
			 strerror(errno));
		return -errno;
	}
	/* 4 KiB pages everywhere, whatever the THP mode of the machine. */
	madvise(p->addr, p->len, MADV_NOHUGEPAGE);
	return 0;
}

int rr_pattern_map_mergeable(struct rr_pattern *p, size_t pages,
			     void (*fill)(char *, size_t, size_t, void *),
			     void *arg, char *why, size_t len)
{
	size_t ps = rr_page_size(), i;
	int err;

	p->len = pages * ps;
	p->addr = mmap(NULL, p->len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->addr == MAP_FAILED) {
		p->addr = NULL;
		snprintf(why, len, "mmap %zu MiB: %s", p->len >> 20,
			 strerror(errno));
		return -ENOMEM;
	}
	madvise(p->addr, p->len, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		fill(p->addr + i * ps, ps, i, arg);
	p->filled = pages;
	p->vmas = 1;
	err = rr_ksm_opt_in(p->addr, p->len);
	if (err)
		snprintf(why, len, "madvise(MADV_MERGEABLE): %s",
			 strerror(-err));
	return err;
}

int rr_pattern_build(struct rr_pattern *p, const struct rr_pattern_spec *s,
		     char *why, size_t len)
{
	size_t ps = rr_page_size(), i, in, v;
	int err;

	memset(p, 0, sizeof(*p));
	p->memfd = -1;
	p->spec = *s;
	p->len = s->pages * ps;
	p->filled = rr_pattern_spec_filled(s);
	p->vmas_expected = rr_pattern_expected_vmas(s);

	err = map(p, why, len);
	if (err)
		return err;
	if (s->type == RR_PT_KSM && !fill_on_split(s)) {
		err = rr_ksm_opt_in(p->addr, p->len);
		if (err) {
			snprintf(why, len, "madvise(MADV_MERGEABLE): %s",
				 strerror(-err));
			return err;
		}
	}
	/* Filling page 0 first gives the mapping the anon_vma it splits. */
	for (i = 0; i < p->filled; i++)
		fill(p->addr + rr_pattern_filled_index(p, i) * ps,
		     s->contents > 1 ? i % s->contents : 0);
	/* clean page cache: reclaim then drops it, with no swap */
	if (s->file_dir && fdatasync(p->memfd)) {
		snprintf(why, len, "fdatasync: %s", strerror(errno));
		return -errno;
	}

	for (i = 0; s->split_every && i < s->pages; i += s->split_every) {
		err = split_page(p, i, why, len);
		if (err)
			return err;
	}
	err = rr_pattern_count_vmas(p, &in, why, len);
	if (err)
		return err;
	p->vmas = in;
	/* Advice may be ignored on a mapping: its count is the finding. */
	if (p->vmas != p->vmas_expected && !s->split_advice) {
		snprintf(why, len,
			 "pattern has %zu VMAs, expected %zu (did the kernel merge or refuse splits?)",
			 p->vmas, p->vmas_expected);
		return -EPROTO;
	}
	/* A read-write page between read-only ones, mid mapping. */
	v = s->split_every ?
	    (s->pages / 2 / s->split_every) * s->split_every + 1 : s->pages / 2;
	if (v >= s->pages)
		v = s->pages > 1 ? 1 : 0;
	p->victim = p->addr + v * ps;
	return 0;
}

static int residency_of(const struct rr_pattern *p, int pid, size_t *present,
			size_t *swapped)
{
	struct rr_pagemap_ent e[RR_PAGEMAP_BATCH];
	size_t pages = p->len / rr_page_size(), base = 0, n = 0, i;
	int fd = rr_pagemap_open(pid), err = 0;

	if (fd < 0)
		return fd;
	/* the filled pages in order, read a batch at a time (pageflags.h) */
	for (i = 0; !err && i < p->filled; i++) {
		size_t k = rr_pattern_filled_index(p, i);

		if (k >= pages) {
			err = -ERANGE;
			break;
		}
		if (k < base || k >= base + n) {
			base = k;
			n = pages - k < RR_PAGEMAP_BATCH ? pages - k :
				RR_PAGEMAP_BATCH;
			err = rr_pagemap_read_many(fd,
						   p->addr + k * rr_page_size(),
						   n, e);
			if (err)
				break;
		}
		if (e[k - base].present)
			(*present)++;
		else if (e[k - base].swapped)
			(*swapped)++;
	}
	close(fd);
	return err;
}

int rr_pattern_residency(const struct rr_pattern *p, size_t *present,
			 size_t *swapped)
{
	int i, err;

	*present = *swapped = 0;
	err = residency_of(p, 0, present, swapped);
	for (i = 0; !err && i < p->nr_pids; i++)
		err = residency_of(p, p->pids[i], present, swapped);
	return err;
}

void rr_pattern_free(struct rr_pattern *p)
{
	free(p->refs);
	p->refs = NULL;
	p->nr_refs = 0;
	if (p->addr)
		munmap(p->addr, p->len);
	if (p->memfd >= 0)
		close(p->memfd);
	p->addr = NULL;
	p->memfd = -1;
}

int rr_pattern_rewrite(struct rr_pattern *p, size_t n)
{
	size_t ps = rr_page_size(), i;

	for (i = 0; i < p->filled && i < n; i++) {
		size_t k = rr_pattern_filled_index(p, i);
		volatile char *c = p->addr + k * ps;
		bool ro = !p->spec.split_advice && is_ro(&p->spec, k);

		if (ro && mprotect((void *)c, ps, PROT_READ | PROT_WRITE))
			return -errno;
		*c = *c;
		if (ro && mprotect((void *)c, ps, PROT_READ))
			return -errno;
	}
	return 0;
}

struct frame_ref {
	unsigned long long pfn;
	size_t order;		/* as read: this process first */
	struct rr_page_ref ref;
};

static int by_frame(const void *a, const void *b)
{
	const struct frame_ref *x = a, *y = b;

	if (x->pfn != y->pfn)
		return x->pfn < y->pfn ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int by_process(const void *a, const void *b)
{
	const struct rr_page_ref *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int rr_pattern_frame_refs(const struct rr_pattern *p, bool self_only,
			  struct rr_page_ref **refs, size_t *nr)
{
	int procs = self_only ? 0 : p->nr_pids;
	size_t ps = rr_page_size(), n = p->filled * (1 + procs), k = 0, i, u;
	struct frame_ref *all = calloc(n ? n : 1, sizeof(*all));
	struct rr_pagemap_ent e;
	int m, fd, err = 0;

	*refs = NULL;
	*nr = 0;
	if (!all)
		return -ENOMEM;
	for (m = -1; !err && m < procs; m++) {
		fd = rr_pagemap_open(m < 0 ? 0 : p->pids[m]);
		if (fd < 0) {
			err = fd;
			break;
		}
		for (i = 0; !err && i < p->filled; i++) {
			char *va = p->addr + rr_pattern_filled_index(p, i) * ps;

			err = rr_pagemap_read(fd, va, &e);
			if (err || !e.pfn)
				continue;
			all[k].pfn = e.pfn;
			all[k].order = k;
			all[k].ref.pid = m < 0 ? 0 : p->pids[m];
			all[k].ref.addr = va;
			k++;
		}
		close(fd);
	}
	if (!err && n && !k)
		err = -EPERM;		/* pagemap hides frames */
	if (!err) {
		*refs = calloc(k ? k : 1, sizeof(**refs));
		if (!*refs)
			err = -ENOMEM;
	}
	if (err) {
		free(all);
		return err;
	}
	qsort(all, k, sizeof(*all), by_frame);
	for (i = 0, u = 0; i < k; i++)
		if (!i || all[i].pfn != all[i - 1].pfn)
			(*refs)[u++] = all[i].ref;
	qsort(*refs, u, sizeof(**refs), by_process);
	*nr = u;
	free(all);
	return 0;
}

int rr_pattern_pfns(const struct rr_pattern *p, unsigned long long **pfn,
		    size_t *n, char *how, size_t len)
{
	struct rr_page_ref *f = NULL;
	struct rr_pagemap_ent e;
	size_t nr = 0, i;
	int err, fd;

	err = rr_pattern_frame_refs(p, true, &f, &nr);
	if (err) {
		snprintf(how, len, "the pattern's frames: %s", strerror(-err));
		return err;
	}
	*pfn = calloc(nr ? nr : 1, sizeof(**pfn));
	fd = *pfn ? rr_pagemap_open(0) : -ENOMEM;
	for (i = 0, *n = 0; fd >= 0 && i < nr; i++)
		if (!rr_pagemap_read(fd, f[i].addr, &e) && e.present && e.pfn)
			(*pfn)[(*n)++] = e.pfn;
	if (fd >= 0)
		close(fd);
	free(f);
	if (fd < 0) {
		snprintf(how, len, "pagemap: %s", strerror(-fd));
		return fd;
	}
	return 0;
}

/* Is page i one the pattern filled? */
static bool is_filled(const struct rr_pattern *p, size_t i)
{
	size_t k;

	/* filled indices ascend: a binary search over them */
	size_t lo = 0, hi = p->filled;

	while (lo < hi) {
		k = lo + (hi - lo) / 2;
		if (rr_pattern_filled_index(p, k) < i)
			lo = k + 1;
		else
			hi = k;
	}
	return lo < p->filled && rr_pattern_filled_index(p, lo) == i;
}

int rr_pattern_churn(struct rr_pattern *p, char *why, size_t len)
{
	size_t ps = rr_page_size(), i, in;
	int err;

	for (i = 0; i < p->spec.pages; i++) {
		if (is_ro(&p->spec, i) || is_filled(p, i))
			continue;
		p->addr[i * ps] = 1;
		if (madvise(p->addr + i * ps, ps, MADV_DONTNEED)) {
			err = -errno;
			snprintf(why, len, "madvise(MADV_DONTNEED) page %zu: %s",
				 i, strerror(errno));
			return err;
		}
	}
	err = rr_pattern_count_vmas(p, &in, why, len);
	if (err)
		return err;
	if (in != p->vmas) {
		snprintf(why, len,
			 "MADV_DONTNEED changed the VMA count from %zu to %zu",
			 p->vmas, in);
		return -EPROTO;
	}
	return 0;
}

int rr_pattern_large_folios(const struct rr_pattern *p, size_t *large)
{
	const unsigned long long compound = 1ULL << RR_KPF_COMPOUND_HEAD |
					    1ULL << RR_KPF_COMPOUND_TAIL;
	size_t ps = rr_page_size(), i;
	struct rr_pagemap_ent e;
	unsigned long long f;
	int fd = rr_pagemap_open(0), err = 0;

	*large = 0;
	if (fd < 0)
		return fd;
	for (i = 0; i < p->filled && !err; i++) {
		err = rr_pagemap_read(fd, p->addr +
				      rr_pattern_filled_index(p, i) * ps, &e);
		if (err || !e.present)
			continue;
		if (!e.pfn) {
			err = -EPERM;	/* no frame numbers without root */
			break;
		}
		err = rr_kpageflags(e.pfn, &f);
		if (!err && (f & compound))
			(*large)++;
	}
	close(fd);
	return err;
}

char *rr_map_like_ld_so(int fd, size_t len, int *err)
{
	size_t ps = rr_page_size(), text = len / 2 & ~(ps - 1);
	char *a = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	*err = 0;
	if (a == MAP_FAILED || !text || text >= len)
		return a;
	if (mmap(a + text, len - text, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, fd, text) == MAP_FAILED ||
	    mprotect(a + text, ps, PROT_READ))
		*err = -errno;
	return a;
}
