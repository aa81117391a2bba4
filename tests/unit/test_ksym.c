// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel functions by role, on recorded kallsyms excerpts of both
 * namings: 6.12 as released, and 6.12 with 7.3's names of the interval
 * tree helpers (tests/data/README).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "probe/iters.h"
#include "probe/ksym.h"
#include "probe/walkfn.h"

static void load(const char *name, char *buf, size_t len)
{
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s",
		 getenv("TEST_DATA") ? getenv("TEST_DATA") : "tests/data",
		 name);
	f = fopen(path, "r");
	CHECK(f != NULL);
	n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

static const enum rr_kfn all[] = {
	RR_KFN_WALK_KSM, RR_KFN_WALK_ANON, RR_KFN_WALK_FILE,
	RR_KFN_ANON_FIRST, RR_KFN_ANON_NEXT, RR_KFN_FILE_FIRST,
	RR_KFN_FILE_NEXT, RR_KFN_COLLECT_KSM, RR_KFN_COLLECT_ANON,
	RR_KFN_COLLECT_FILE, RR_KFN_REFERENCED,
};
#define NALL ((int)(sizeof(all) / sizeof(all[0])))

static void test_old_names(void)
{
	struct rr_walkfn f[NALL];
	char buf[4096];

	load("6.12-kallsyms-excerpt.txt", buf, sizeof(buf));
	/* folio_referenced is not in the excerpt */
	CHECK_EQ(rr_kfns_parse(buf, all, NALL, f), NALL - 1);
	CHECK_STR(f[3].name, "anon_vma_interval_tree_iter_first");
	CHECK_STR(f[4].name, "anon_vma_interval_tree_iter_next");
	CHECK_STR(f[5].name, "vma_interval_tree_iter_first");
	CHECK_STR(f[6].name, "vma_interval_tree_iter_next");
	CHECK_EQ(f[3].addr, 0xffffffff8115bdf5UL);
	CHECK_STR(f[7].name, "collect_procs_ksm");
	/* collect_procs_anon and _file are inlined into collect_procs */
	CHECK_STR(f[8].name, "collect_procs");
	CHECK_STR(f[9].name, "collect_procs");
	CHECK(!f[10].found);
	CHECK_EQ(f[10].type, 10);
}

static void test_new_names(void)
{
	struct rr_walkfn f[NALL], w[RR_PT_MAX];
	char buf[4096];

	load("6.12-renamed-kallsyms-excerpt.txt", buf, sizeof(buf));
	CHECK_EQ(rr_kfns_parse(buf, all, NALL, f), NALL - 1);
	CHECK_STR(f[3].name, "anon_rmap_tree_iter_first");
	CHECK_STR(f[4].name, "anon_rmap_tree_iter_next");
	CHECK_STR(f[5].name, "mapping_rmap_tree_iter_first");
	CHECK_STR(f[6].name, "mapping_rmap_tree_iter_next");
	CHECK_EQ(f[4].addr, 0xffffffff81146e8dUL);
	/* the walks kept their names */
	CHECK_EQ(rr_walkfn_parse(buf, w), 3);
	CHECK_STR(w[RR_PT_KSM].name, "rmap_walk_ksm");
	CHECK_STR(w[RR_PT_FILE].name, "rmap_walk_file");
}

static void test_iter_syms(void)
{
	struct rr_iter_syms s;
	char buf[4096];

	load("6.12-kallsyms-excerpt.txt", buf, sizeof(buf));
	rr_iters_syms(buf, &s);
	CHECK(s.found[0] && s.found[1]);
	CHECK_STR(rr_iters_case_fns(&s, RR_PT_KSM),
		  "anon_vma_interval_tree_iter_first and anon_vma_interval_tree_iter_next");
	CHECK_STR(rr_iters_case_fns(&s, RR_PT_FILE),
		  "vma_interval_tree_iter_first and vma_interval_tree_iter_next");
	load("6.12-renamed-kallsyms-excerpt.txt", buf, sizeof(buf));
	rr_iters_syms(buf, &s);
	CHECK_STR(rr_iters_case_fns(&s, RR_PT_ANON),
		  "anon_rmap_tree_iter_first and anon_rmap_tree_iter_next");
	CHECK_STR(rr_iters_case_fns(&s, RR_PT_FILE),
		  "mapping_rmap_tree_iter_first and mapping_rmap_tree_iter_next");

	/* neither naming: the message names both */
	rr_iters_syms("ffffffff81000000 T rmap_walk_ksm\n", &s);
	CHECK(!s.found[0] && !s.found[1]);
	CHECK_STR(s.fns[0],
		  "anon_rmap_tree_iter_first or anon_vma_interval_tree_iter_first, or anon_rmap_tree_iter_next or anon_vma_interval_tree_iter_next, is not in /proc/kallsyms");
	/* a file case without the file tree's is counted on the anon one's */
	rr_iters_syms("ffffffff8115bdf5 T anon_vma_interval_tree_iter_first\n"
		      "ffffffff8115be26 T anon_vma_interval_tree_iter_next\n",
		      &s);
	CHECK(s.found[0] && !s.found[1]);
	CHECK_STR(rr_iters_case_fns(&s, RR_PT_FILE), s.fns[0]);
}

/* A name that only starts like a role's is not it. */
static void test_lookalikes(void)
{
	struct rr_walkfn f[2];
	const enum rr_kfn r[2] = { RR_KFN_ANON_FIRST, RR_KFN_FILE_FIRST };

	CHECK_EQ(rr_kfns_parse("ffffffff81000000 t __anon_rmap_tree_iter_first\n"
			       "ffffffff81000100 t mapping_rmap_tree_iter_firstx\n"
			       "ffffffff81000200 t vma_interval_tree_iter_first.cold\n",
			       r, 2, f), 0);
	CHECK_EQ(rr_kfns_parse("ffffffff81000200 t vma_interval_tree_iter_first.isra.0\n",
			       r, 2, f), 1);
	CHECK_STR(f[1].name, "vma_interval_tree_iter_first.isra.0");
}

/* Every role has a key, a description and at least one name. */
static void test_table(void)
{
	char buf[256];
	int i;

	for (i = RR_KFN_NONE + 1; i < RR_KFN_MAX; i++) {
		CHECK(rr_kfns[i].key && rr_kfns[i].what);
		CHECK(rr_kfns[i].names[0].name && rr_kfns[i].names[0].kernels);
	}
	CHECK_STR(rr_kfn_names(RR_KFN_WALK_FILE, buf, sizeof(buf)),
		  "rmap_walk_file or __rmap_walk_file");
	CHECK_STR(rr_kfn_names(RR_KFN_NONE, buf, sizeof(buf)), "");
}

TEST_MAIN(T(test_old_names), T(test_new_names), T(test_iter_syms),
	  T(test_lookalikes), T(test_table))
