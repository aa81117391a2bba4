// SPDX-License-Identifier: GPL-2.0
/* Pattern builders on the real kernel (no root needed). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "lib/util.h"
#include "mm/pageflags.h"
#include "pattern/maps.h"
#include "pattern/pattern.h"

static void test_expected_vmas(void)
{
	struct rr_pattern_spec s = { .pages = 20000, .split_every = 2 };

	CHECK_EQ(rr_pattern_expected_vmas(&s), 20000);
	s.pages = 20001;
	CHECK_EQ(rr_pattern_expected_vmas(&s), 20001);
	s.pages = 12;
	s.split_every = 3;	/* R..R..R..R.. */
	CHECK_EQ(rr_pattern_expected_vmas(&s), 8);
}

static void check_build(enum rr_page_type t)
{
	struct rr_pattern_spec s = {
		.type = t, .pages = 200, .split_every = 2, .identical = 10,
	};
	struct rr_pattern p;
	size_t present, swapped, in, total, ps = getpagesize();
	char why[256] = "";

	CHECK_EQ(rr_pattern_build(&p, &s, why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_EQ(p.vmas, 200);
	CHECK_EQ(p.filled, 10);
	CHECK_EQ(rr_pattern_filled_index(&p, 9), 180);
	CHECK_EQ(rr_pattern_residency(&p, &present, &swapped), 0);
	CHECK_EQ(present, 10);
	/* The victim page is read-write; toggling it merges 3 VMAs. */
	CHECK_EQ((p.victim - p.addr) / ps % 2, 1);
	CHECK_EQ(mprotect(p.victim, ps, PROT_READ), 0);
	CHECK_EQ(rr_maps_count((unsigned long)p.addr,
			       (unsigned long)p.addr + p.len, &in, &total), 0);
	CHECK_EQ(in, 198);
	rr_pattern_free(&p);
	CHECK(p.addr == NULL);
}

static void test_anon(void)
{
	check_build(RR_PT_ANON);
}

static void test_file(void)
{
	check_build(RR_PT_FILE);
}

static void test_ksm_opt_in(void)
{
	check_build(RR_PT_KSM);
}

static void test_all_identical(void)
{
	struct rr_pattern_spec s = {
		.type = RR_PT_ANON, .pages = 64, .split_every = 2,
		.identical = 0,
	};
	struct rr_pattern p;
	size_t present, swapped;
	char why[256];

	CHECK_EQ(rr_pattern_build(&p, &s, why, sizeof(why)), 0);
	CHECK_EQ(p.filled, 64);
	CHECK_EQ(rr_pattern_residency(&p, &present, &swapped), 0);
	CHECK_EQ(present, 64);
	rr_pattern_free(&p);
}

/*
 * --contents: the filled pages get that many distinct contents, dealt
 * in turn, so that KSM makes at least one page of each.
 */
static void test_contents(void)
{
	struct rr_pattern_spec s = {
		.type = RR_PT_ANON, .pages = 64, .split_every = 2,
		.identical = 0, .contents = 4,
	};
	size_t ps = rr_page_size(), i, j, kinds = 0;
	struct rr_pattern p;
	char why[256];

	CHECK_EQ(rr_pattern_build(&p, &s, why, sizeof(why)), 0);
	/* page i is like page j exactly when i and j are 4 apart */
	for (i = 0; i < p.filled; i++) {
		const char *a = p.addr + rr_pattern_filled_index(&p, i) * ps;

		for (j = 0; j < i; j++) {
			const char *b = p.addr +
					rr_pattern_filled_index(&p, j) * ps;

			CHECK_EQ(!memcmp(a, b, ps), (i - j) % 4 == 0);
		}
		for (j = 0; j < i && memcmp(a, p.addr +
				rr_pattern_filled_index(&p, j) * ps, ps); j++)
			;
		kinds += j == i;
	}
	CHECK_EQ(kinds, 4);
	rr_pattern_free(&p);
}

/* MADV_DONTNEED churn zaps the other pages and splits nothing. */
static void test_churn(void)
{
	struct rr_pattern_spec s = {
		.type = RR_PT_ANON, .pages = 64, .split_every = 4,
		.identical = 4,
	};
	struct rr_pattern p;
	size_t present, swapped, in;
	char why[256] = "";

	CHECK_EQ(rr_pattern_build(&p, &s, why, sizeof(why)), 0);
	CHECK_EQ(rr_pattern_churn(&p, why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_EQ(rr_maps_count((unsigned long)p.addr,
			       (unsigned long)p.addr + p.len, &in, NULL), 0);
	CHECK_EQ(in, p.vmas);
	/* the filled pages stay; the churned ones are gone again */
	CHECK_EQ(rr_pattern_residency(&p, &present, &swapped), 0);
	CHECK_EQ(present, 4);
	rr_pattern_free(&p);
}

/*
 * Rewriting the filled pages (as a forked member does, for copies of its
 * own) keeps the VMAs and the content, read-only pages included.
 */
static void test_rewrite(void)
{
	struct rr_pattern_spec s = {
		.type = RR_PT_ANON, .pages = 40, .split_every = 2,
		.identical = 0,
	};
	struct rr_pattern p;
	size_t in, ps = getpagesize();
	char why[256] = "", *copy;

	CHECK_EQ(rr_pattern_build(&p, &s, why, sizeof(why)), 0);
	copy = malloc(p.len);
	memcpy(copy, p.addr, p.len);
	CHECK_EQ(rr_pattern_rewrite(&p, SIZE_MAX), 0);
	CHECK_EQ(rr_maps_count((unsigned long)p.addr,
			       (unsigned long)p.addr + p.len, &in, NULL), 0);
	CHECK_EQ(in, 40);
	CHECK(!memcmp(copy, p.addr, p.len));
	/* page 0 is still read-only: its VMA is the split one */
	CHECK_EQ(rr_maps_count((unsigned long)p.addr,
			       (unsigned long)p.addr + ps, &in, NULL), 0);
	CHECK_EQ(in, 1);
	free(copy);
	rr_pattern_free(&p);
}

/*
 * The split pattern's options, declared once (RR_SPLIT_OPTS): parsed
 * into the reproducer's struct, checked together, laid out.
 */
static void test_split_opts(void)
{
	struct rr_split_opts o = { .pages = 100, .split_every = 2,
				   .identical = 8 };
	const struct rr_opt opts[] = { RR_SPLIT_OPTS(o), RR_OPT_END };
	const struct rr_opt *tables[] = { opts, NULL };
	char *argv[] = { "t", "--pages", "16", "--identical", "0", NULL };
	struct rr_pattern_spec s = { 0 };
	char why[128] = "";

	CHECK_EQ(rr_opts_parse(tables, 5, argv, why, sizeof(why)), 0);
	CHECK_EQ(o.pages, 16);
	CHECK_EQ(o.identical, 0);
	CHECK_EQ(o.split_every, 2);
	CHECK(rr_split_fits(&o, why, sizeof(why)));
	CHECK_STR(why, "");
	o.identical = 20;
	CHECK(!rr_split_fits(&o, why, sizeof(why)));
	CHECK_STR(why, "--identical 20 is more than --pages 16");
	o.identical = 0;
	o.split_every = 32;
	CHECK(!rr_split_fits(&o, why, sizeof(why)));
	CHECK_STR(why, "--split-every 32 is more than --pages 16");
	rr_pattern_spec_of(&s, RR_PT_FILE, &o);
	CHECK_EQ(s.type, RR_PT_FILE);
	CHECK_EQ(s.pages, 16);
	CHECK_EQ(s.split_every, 32);
	argv[2] = "8";
	CHECK_EQ(rr_opts_parse(tables, 3, argv, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "--pages");
}

/*
 * Many pages' pagemap entries in batched reads agree with one read a
 * page, across a batch's end (600 small pages, every third one touched).
 */
static void test_pagemap_many(void)
{
	size_t ps = rr_page_size(), n = 600, i, present = 0;
	struct rr_pagemap_ent *e = calloc(n, sizeof(*e)), one;
	char *a = mmap(NULL, n * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = rr_pagemap_open(0);

	CHECK(a != MAP_FAILED && e && fd >= 0);
	/* no huge page: one touch would make 512 pages present (a guest) */
	madvise(a, n * ps, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i += 3)
		a[i * ps] = 1;
	CHECK_EQ(rr_pagemap_read_many(fd, a, n, e), 0);
	for (i = 0; i < n; i++) {
		CHECK_EQ(rr_pagemap_read(fd, a + i * ps, &one), 0);
		CHECK_EQ(e[i].present, one.present);
		CHECK_EQ(e[i].present, i % 3 == 0);
		present += e[i].present;
	}
	CHECK_EQ(present, 200);
	close(fd);
	munmap(a, n * ps);
	free(e);
}

TEST_MAIN(T(test_split_opts), T(test_expected_vmas), T(test_anon), T(test_file),
	  T(test_ksm_opt_in), T(test_all_identical), T(test_churn),
	  T(test_rewrite), T(test_contents), T(test_pagemap_many))
