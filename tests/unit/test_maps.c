// SPDX-License-Identifier: GPL-2.0
/* VMA counting from /proc/PID/maps text, and from the real file. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "pattern/maps.h"

static const char text[] =
	"55d0c0000000-55d0c0001000 r--p 00000000 08:01 123 /bin/x\n"
	"7f0000000000-7f0000001000 r--p 00000000 00:00 0\n"
	"7f0000001000-7f0000002000 rw-p 00000000 00:00 0\n"
	"7f0000002000-7f0000003000 r--p 00000000 00:00 0\n"
	"garbage line\n"
	"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]";

static void test_line(void)
{
	unsigned long lo, hi;

	CHECK(rr_maps_line("7f0000000000-7f0000001000 r--p 0 0:0 0", &lo, &hi));
	CHECK_EQ(lo, 0x7f0000000000UL);
	CHECK_EQ(hi, 0x7f0000001000UL);
	CHECK(!rr_maps_line("garbage", &lo, &hi));
	CHECK(!rr_maps_line("1000-", &lo, &hi));
	CHECK(!rr_maps_line("2000-1000 r--p", &lo, &hi));
}

static void test_count_text(void)
{
	size_t total, bad;

	CHECK_EQ(rr_maps_count_text(text, 0x7f0000000000UL, 0x7f0000003000UL,
				    &total, &bad), 3);
	CHECK_EQ(total, 5);
	CHECK_EQ(bad, 1);
	/* Partial overlap counts; touching does not. */
	CHECK_EQ(rr_maps_count_text(text, 0x7f0000000800UL, 0x7f0000001000UL,
				    NULL, NULL), 1);
	CHECK_EQ(rr_maps_count_text(text, 0x7f0000003000UL, 0x7f0000004000UL,
				    NULL, NULL), 0);
}

static void test_real_split(void)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), in = 0, total = 0, i;
	char *m = mmap(NULL, 64 * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(m != MAP_FAILED);
	CHECK_EQ(rr_maps_count((unsigned long)m, (unsigned long)m + 64 * ps,
			       &in, &total), 0);
	CHECK_EQ(in, 1);
	for (i = 0; i < 64; i += 2)
		CHECK_EQ(mprotect(m + i * ps, ps, PROT_READ), 0);
	CHECK_EQ(rr_maps_count((unsigned long)m, (unsigned long)m + 64 * ps,
			       &in, &total), 0);
	CHECK_EQ(in, 64);
	CHECK(total > 64);
	munmap(m, 64 * ps);
}

/*
 * mremap() VMA by VMA: a split mapping keeps its split at the new place,
 * content and all; moved onto its own first half (MREMAP_FIXED over a
 * mapping), the second half replaces it.
 */
static void test_move(void)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), in = 0, i;
	char *m = mmap(NULL, 16 * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *dst = mmap(NULL, 16 * ps, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char why[256] = "";

	CHECK(m != MAP_FAILED && dst != MAP_FAILED);
	for (i = 0; i < 16; i++)
		m[i * ps] = (char)i;
	for (i = 0; i < 16; i += 2)
		CHECK_EQ(mprotect(m + i * ps, ps, PROT_READ), 0);
	CHECK_EQ(rr_maps_move(m, 16 * ps, dst, why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_EQ(rr_maps_count((unsigned long)dst,
			       (unsigned long)dst + 16 * ps, &in, NULL), 0);
	CHECK_EQ(in, 16);
	CHECK_EQ(rr_maps_count((unsigned long)m, (unsigned long)m + 16 * ps,
			       &in, NULL), 0);
	CHECK_EQ(in, 0);
	for (i = 0; i < 16; i++)
		CHECK_EQ(dst[i * ps], (char)i);

	/* the second half onto the first */
	CHECK_EQ(rr_maps_move(dst + 8 * ps, 8 * ps, dst, why, sizeof(why)), 0);
	for (i = 0; i < 8; i++)
		CHECK_EQ(dst[i * ps], (char)(i + 8));
	CHECK_EQ(rr_maps_count((unsigned long)dst,
			       (unsigned long)dst + 16 * ps, &in, NULL), 0);
	CHECK_EQ(in, 8);
	munmap(dst, 16 * ps);
}

TEST_MAIN(T(test_line), T(test_count_text), T(test_real_split),
	  T(test_move))
