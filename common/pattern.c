// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "journal.h"
#include "ksm.h"
#include "maps.h"
#include "pattern.h"
#include "util.h"

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

static void fill(char *page)
{
	static const char text[] = "rmap-repro identical page ";
	size_t i, ps = rr_page_size();

	/* Not zero: use_zero_pages would turn zero pages into no KSM page. */
	for (i = 0; i < ps; i++)
		page[i] = text[i % (sizeof(text) - 1)];
}

static int map(struct rr_pattern *p, char *why, size_t len)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS, fd = -1;

	if (p->spec.type == RR_PT_FILE) {
		fd = memfd_create("rmap-repro", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, p->len)) {
			snprintf(why, len, "memfd: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			return -errno;
		}
		flags = MAP_SHARED;
	}
	p->memfd = fd;
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
		fill(p->addr + rr_pattern_filled_index(p, i) * ps);

	for (i = 0; s->split_every && i < s->pages; i += s->split_every) {
		err = split_page(p, i, why, len);
		if (err)
			return err;
	}
	err = rr_maps_count((unsigned long)p->addr,
			    (unsigned long)p->addr + p->len, &in, NULL);
	if (err) {
		snprintf(why, len, "/proc/self/maps: %s", strerror(-err));
		return err;
	}
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

int rr_pagemap_open(int pid)
{
	char path[64];
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/pagemap");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int rr_pagemap_read(int fd, const void *va, struct rr_pagemap_ent *e)
{
	size_t ps = rr_page_size();
	uint64_t ent;
	off_t off = (off_t)((uintptr_t)va / ps) * sizeof(ent);

	if (pread(fd, &ent, sizeof(ent), off) != sizeof(ent))
		return errno ? -errno : -EIO;
	/* bit 63: present; bit 62: swapped; bits 0-54: the frame */
	e->present = ent >> 63 & 1;
	e->swapped = ent >> 62 & 1;
	e->pfn = e->present ? ent & ((1ULL << 55) - 1) : 0;
	return 0;
}

static int residency_of(const struct rr_pattern *p, int pid, size_t *present,
			size_t *swapped)
{
	struct rr_pagemap_ent e;
	size_t i;
	int fd = rr_pagemap_open(pid), err = 0;

	if (fd < 0)
		return fd;
	for (i = 0; !err && i < p->filled; i++) {
		size_t k = rr_pattern_filled_index(p, i);

		err = rr_pagemap_read(fd, p->addr + k * rr_page_size(), &e);
		if (err)
			break;
		if (e.present)
			(*present)++;
		else if (e.swapped)
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
