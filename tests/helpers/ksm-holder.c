// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-holder: a stand-in for a user's process with KSM-merged pages.
 * Maps N pages of identical content, opts them in to KSM, prints
 * "ready" once /proc/self/ksm_merging_pages is non-zero (or "timeout"),
 * then sleeps until killed. The tests run KSM themselves (run=1) and
 * check that a replay does not unmerge this process's pages.
 *
 * Usage: ksm-holder [PAGES] [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long merging(void)
{
	long n = -1;
	FILE *f = fopen("/proc/self/ksm_merging_pages", "r");

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

int main(int argc, char **argv)
{
	long pages = argc > 1 ? atol(argv[1]) : 64;
	long secs = argc > 2 ? atol(argv[2]) : 30;
	long ps = sysconf(_SC_PAGESIZE), i;
	char *p;

	if (pages < 2 || secs < 1) {
		fprintf(stderr, "usage: ksm-holder [PAGES >= 2] [SECONDS]\n");
		return 2;
	}
	p = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < pages; i++)
		memset(p + i * ps, 0x5a, ps);
	if (madvise(p, pages * ps, MADV_MERGEABLE)) {
		perror("madvise(MADV_MERGEABLE)");
		return 1;
	}
	for (i = 0; i < secs * 10 && merging() <= 0; i++)
		usleep(100000);
	printf("%s %ld\n", merging() > 0 ? "ready" : "timeout", merging());
	fflush(stdout);
	pause();
	return 0;
}
