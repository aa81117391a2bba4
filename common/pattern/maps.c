// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/maps.h"

bool rr_maps_line(const char *line, unsigned long *lo, unsigned long *hi)
{
	char *end;

	errno = 0;
	*lo = strtoul(line, &end, 16);
	if (errno || end == line || *end != '-')
		return false;
	line = end + 1;
	*hi = strtoul(line, &end, 16);
	if (errno || end == line || (*end != ' ' && *end != '\0'))
		return false;
	return *lo < *hi;
}

static void count_line(const char *line, unsigned long lo, unsigned long hi,
		       size_t *in, size_t *total, size_t *bad)
{
	unsigned long s, e;

	if (!*line)
		return;
	if (!rr_maps_line(line, &s, &e)) {
		if (bad)
			(*bad)++;
		return;
	}
	(*total)++;
	if (s < hi && e > lo)
		(*in)++;
}

size_t rr_maps_count_text(const char *text, unsigned long lo,
			  unsigned long hi, size_t *total, size_t *bad)
{
	size_t in = 0, tot = 0;
	char line[512];

	if (bad)
		*bad = 0;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, text, len);
		line[len] = '\0';
		count_line(line, lo, hi, &in, &tot, bad);
		if (!nl)
			break;
		text = nl + 1;
	}
	if (total)
		*total = tot;
	return in;
}

int rr_maps_count(unsigned long lo, unsigned long hi, size_t *in_range,
		  size_t *total)
{
	return rr_maps_count_pid(0, lo, hi, in_range, total);
}

int rr_maps_count_pid(int pid, unsigned long lo, unsigned long hi,
		      size_t *in_range, size_t *total)
{
	char *line = NULL, path[64];
	size_t cap = 0, in = 0, tot = 0;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "re");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		count_line(line, lo, hi, &in, &tot, NULL);
	}
	free(line);
	fclose(f);
	*in_range = in;
	if (total)
		*total = tot;
	return 0;
}

int rr_maps_move(char *src, size_t len, char *dst, char *why, size_t wlen)
{
	unsigned long lo, hi, (*r)[2] = NULL;
	size_t n = 0, cap = 0, i;
	char *line = NULL;
	size_t lcap = 0;
	int err = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return -errno;
	while (getline(&line, &lcap, f) > 0) {
		if (!rr_maps_line(line, &lo, &hi) ||
		    hi <= (unsigned long)src || lo >= (unsigned long)src + len)
			continue;
		if (n == cap) {
			void *nr = realloc(r, (cap = cap ? 2 * cap : 64) *
					   sizeof(*r));

			if (!nr) {
				err = -ENOMEM;
				break;
			}
			r = nr;
		}
		/* the part inside the range: mremap() splits the VMA */
		r[n][0] = lo > (unsigned long)src ? lo : (unsigned long)src;
		r[n][1] = hi < (unsigned long)src + len ? hi :
			  (unsigned long)src + len;
		n++;
	}
	free(line);
	fclose(f);
	for (i = 0; !err && i < n; i++) {
		size_t sz = r[i][1] - r[i][0];
		char *to = dst + (r[i][0] - (unsigned long)src);

		if (mremap((void *)r[i][0], sz, sz,
			   MREMAP_MAYMOVE | MREMAP_FIXED, to) == MAP_FAILED) {
			err = -errno;
			snprintf(why, wlen, "mremap of %zu bytes at +%lu: %s",
				 sz, r[i][0] - (unsigned long)src,
				 strerror(errno));
		}
	}
	free(r);
	return err;
}
