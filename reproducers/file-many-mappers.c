// SPDX-License-Identifier: GPL-2.0
/*
 * file-many-mappers: one file mapped by many processes, as libc and the
 * dynamic loader are on a busy machine. The measuring process maps
 * --pages pages of a MAP_SHARED memfd (shmem), splits its mapping with
 * mprotect() every --split-every pages, fills --identical of them, and
 * forks --procs - 1 members that hold the same mapping and fault in its
 * filled pages: the file's i_mmap tree then holds procs x VMAs, and an
 * rmap walk of one of its pages (rmap_walk_file) visits the VMA that
 * maps it in every process,
 * under i_mmap_rwsem for read. The victim thread's mprotect() on the
 * same mapping splits and merges a VMA, which takes i_mmap_rwsem for
 * write behind the walk. The control is the same mapping, the same
 * VMAs, in one process.
 */
#include <stdio.h>

#include "family.h"
#include "repro.h"
#include "trigger.h"
#include "util.h"

static unsigned long long pages = 2000;
static unsigned long long split_every = 2;
static unsigned long long identical = 64;
static unsigned long long procs = 256;

static const struct rr_opt opts[] = {
	{ "procs", OPT_UINT, &procs, "N",
	  "processes that map the file, the measuring process among them (N - 1 forked members); each page's walk visits one VMA in each",
	  .min = 2, .max = RR_FAMILY_MAX + 1 },
	{ "pages", OPT_UINT, &pages, "N",
	  "size of the file and of each process's mapping of it, in pages",
	  .min = 16, .max = 4000000 },
	{ "split-every", OPT_UINT, &split_every, "N",
	  "mprotect(PROT_READ) every Nth page of each mapping (2: every other page), so that the i_mmap tree holds procs x 2 x pages / N VMAs",
	  .min = 2, .max = 4000000 },
	{ "identical", OPT_UINT, &identical, "N",
	  "pages of the file filled (and so walked), spread evenly; the rest stay unpopulated. 0: every page",
	  .min = 2, .max = 4000000, .zero_ok = true },
	RR_OPT_END
};

static const char *const kconfig[] = { "MMU", "SHMEM", NULL };

static const struct rr_case cases[] = {
	{ .name = "many", .type = RR_PT_FILE, .role = RR_SUBJECT,
	  .what = "a MAP_SHARED memfd (shmem) mapped by every process: each page's walk visits one VMA per process (rmap_walk_file)" },
	{ .name = "one", .type = RR_PT_FILE,
	  .what = "the same mapping and VMAs in one process (rmap_walk_file, control)" },
};

static bool check(char *why, size_t len)
{
	return rr_opt_split_fits(pages, split_every, identical, why, len);
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_split(s, c->type, pages, split_every, identical);
}

/*
 * A member's preparation: fault in each filled page (a read maps the
 * file's page): fork copies no PTE of a shared file mapping, and a page
 * mapped in every process is what libc's are, and what reclaim must
 * unmap from each.
 */
static void map_filled(struct rr_pattern *p)
{
	size_t ps = rr_page_size(), i;
	unsigned long sum = 0;

	for (i = 0; i < p->filled; i++)
		sum += *(volatile char *)(p->addr +
					  rr_pattern_filled_index(p, i) * ps);
	(void)sum;
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	if (c->role != RR_SUBJECT)
		return 0;
	return rr_family_spawn(p, procs - 1, 1, map_filled, why, len);
}

static const struct rr_repro_ops ops = {
	.after_merge = after_merge,
};

static unsigned long long filled(void)
{
	struct rr_pattern_spec s = { 0 };

	spec(&cases[0], &s);
	return rr_pattern_spec_filled(&s);
}

static void describe(struct rr_result *res)
{
	res->pages = pages;
	rr_result_param(res, "procs", procs);
	rr_result_param(res, "split_every", split_every);
	rr_result_param(res, "identical_pages", filled());
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	size_t o;

	o = snprintf(buf, len,
		     "a MAP_SHARED memfd of %llu pages (%llu filled) mapped by %llu processes, every %llu pages mprotect(PROT_READ) in each: the i_mmap tree of one file holds every process's VMAs, as libc's and the dynamic loader's do on a machine running thousands of processes, where a walk or an exec() waits on i_mmap_rwsem.",
		     pages, filled(), procs, split_every);
	if (o < len)
		rr_result_counts_text(res, buf + o, len - o);
}

static const struct rr_repro file_many_mappers = {
	.name = "file-many-mappers",
	.summary = "Reproduce long file rmap walks: one MAP_SHARED memfd (shmem) of --pages pages mapped by --procs processes, each mapping split by mprotect() every --split-every pages, so that the file's i_mmap tree holds procs x VMAs and each page's walk visits one VMA per process (libc and ld.so on a busy machine). A trigger walks the filled pages while a victim thread measures how long mprotect() on the same mapping (i_mmap_rwsem for write) waits. The control is the same mapping in one process. Exit: 1 reproduced (KTAP not ok), 0 not reproduced, 4 skip, 2 error.",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.check = check,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
	.ops = &ops,
};

int main(int argc, char **argv)
{
	return rr_main(&file_many_mappers, argc, argv);
}
