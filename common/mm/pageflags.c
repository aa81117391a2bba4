// SPDX-License-Identifier: GPL-2.0
/* The pagemap and kpageflags readers (pageflags.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/util.h"
#include "mm/pageflags.h"

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

/* bit 63: present; bit 62: swapped; bits 0-54: the frame */
static void decode(uint64_t ent, struct rr_pagemap_ent *e)
{
	e->present = ent >> 63 & 1;
	e->swapped = ent >> 62 & 1;
	e->pfn = e->present ? ent & ((1ULL << 55) - 1) : 0;
}

int rr_pagemap_read(int fd, const void *va, struct rr_pagemap_ent *e)
{
	return rr_pagemap_read_many(fd, va, 1, e);
}

int rr_pagemap_read_many(int fd, const void *va, size_t n,
			 struct rr_pagemap_ent *e)
{
	size_t ps = rr_page_size(), done = 0, i;
	off_t off = (off_t)((uintptr_t)va / ps) * sizeof(uint64_t);
	uint64_t ent[RR_PAGEMAP_BATCH];

	while (done < n) {
		size_t want = n - done < RR_PAGEMAP_BATCH ?
			      n - done : RR_PAGEMAP_BATCH;
		ssize_t got;

		errno = 0;
		got = pread(fd, ent, want * sizeof(*ent),
			    off + (off_t)(done * sizeof(*ent)));
		if (got <= 0 || got % sizeof(*ent))
			return got < 0 && errno ? -errno : -EIO;
		for (i = 0; i < (size_t)got / sizeof(*ent); i++)
			decode(ent[i], &e[done + i]);
		done += (size_t)got / sizeof(*ent);
	}
	return 0;
}

int rr_kpageflags(unsigned long long pfn, unsigned long long *flags)
{
	char path[PATH_MAX];
	uint64_t v;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/kpageflags", rr_proc_dir());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, &v, sizeof(v), (off_t)(pfn * sizeof(v)));
	close(fd);
	if (n != sizeof(v))
		return n < 0 ? -errno : -EIO;
	*flags = v;
	return 0;
}
