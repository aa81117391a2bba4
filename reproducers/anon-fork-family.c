// SPDX-License-Identifier: GPL-2.0
/*
 * anon-fork-family: anonymous pages shared by a family of forks, as in a
 * forking server whose workers inherit the parent's heap. The measuring
 * process maps --pages pages, splits the mapping with mprotect() every
 * --split-every pages, fills --identical of them, and forks a tree of
 * --procs children per member over --depth levels. Every member's VMAs
 * are chained to the parent's anon_vma, so an rmap walk of a parent's
 * page (rmap_walk_anon) visits one VMA in every member, whether or not
 * it still maps the page: with --cow, each member first rewrites that
 * share of the filled pages (copy on write), and the walks of the
 * parent's originals of those pages still visit every member's VMA for
 * nothing (what the anon_vma "degree" limit of 2019 was about). Each
 * level of --depth chains one more anon_vma to every VMA below it. The
 * control is the same pages in one process.
 */
#include <stdio.h>
#include <unistd.h>

#include "lib/util.h"
#include "model/repro.h"
#include "pattern/family.h"
#include "trigger/trigger.h"

static unsigned long long procs = 64;
static unsigned long long depth = 1;
static unsigned long long cow;

static struct rr_split_opts split = {
	.pages = 2000, .split_every = 2, .identical = 64,
};

static const struct rr_opt opts[] = {
	RR_SPLIT_OPTS(split),
	{ "procs", OPT_UINT, &procs, "N",
	  "children each member forks (the parent's, with --depth 1); each maps the whole pattern",
	  .min = 1, .max = RR_FAMILY_MAX },
	{ "depth", OPT_UINT, &depth, "D",
	  "levels of the family tree: 1, the parent's children only; 2, their children too (forks of forks: one more anon_vma chained to each VMA per level), and so on (at most 1024 members in all)",
	  .min = 1, .max = 10 },
	{ "cow", OPT_UINT, &cow, "PERCENT",
	  "share of the filled pages every member rewrites first (copy on write): the parent's originals of those stay mapped by the parent alone, and their walks still visit every member's VMA",
	  .min = 0, .max = 100, .zero_ok = true },
	RR_OPT_END
};

static const char *const kconfig[] = { "MMU", NULL };

static const struct rr_case cases[] = {
	{ .name = "family", .type = RR_PT_ANON, .role = RR_SUBJECT,
	  .what = "the parent's anonymous pages, inherited by every member of the family: each walk visits one VMA per member (rmap_walk_anon)" },
	{ .name = "one", .type = RR_PT_ANON,
	  .what = "the same pages and VMAs in one process (rmap_walk_anon, control)" },
};

static unsigned long long family_size(void)
{
	return rr_family_size(procs, depth);
}

static bool check(char *why, size_t len)
{
	return rr_family_fits(procs, depth, "procs", why, len) &&
	       rr_split_fits(&split, why, len);
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_of(s, c->type, &split);
}

/*
 * A member's preparation: copy on write of --cow percent of the filled
 * pages, the first ones (a write of the same byte: the content stays;
 * read-only pages opened for it and closed again).
 */
static void break_cow(struct rr_pattern *p)
{
	if (rr_pattern_rewrite(p, p->filled * cow / 100))
		_exit(1);
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	if (c->role != RR_SUBJECT)
		return 0;
	return rr_family_spawn(p, procs, depth, cow ? break_cow : NULL, why,
			       len);
}

static const struct rr_repro_ops ops = {
	.after_merge = after_merge,
};

static unsigned long long filled(void)
{
	return rr_case_filled(spec, &cases[0]);
}

static void describe(struct rr_result *res)
{
	res->pages = split.pages;
	rr_result_param(res, "procs", procs);
	rr_result_param(res, "depth", depth);
	rr_result_param(res, "members", family_size());
	rr_result_param(res, "cow_percent", cow);
	rr_result_param(res, "split_every", split.split_every);
	rr_result_param(res, "identical_pages", filled());
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	size_t o;

	o = snprintf(buf, len,
		     "a parent maps %llu anonymous pages (%llu filled), every %llu pages mprotect(PROT_READ), and forks %llu children per member over %llu level%s (%llu members)%s: every member's VMAs are chained to the parent's anon_vma, as in forking servers whose anon_vma chains grew without bound before the anon_vma reuse (\"degree\") fix of Linux 5.4, so each walk of a parent's page visits every member.",
		     split.pages, filled(), split.split_every, procs, depth,
		     depth == 1 ? "" : "s", family_size(),
		     cow ? ", each of which first rewrites the first share of the filled pages (--cow): the walks of the parent's originals still visit every member" : "");
	if (o < len)
		rr_result_counts_text(res, buf + o, len - o);
}

static const struct rr_repro anon_fork_family = {
	.name = "anon-fork-family",
	.summary = "Reproduce long anonymous rmap walks in a fork family: a parent maps --pages anonymous pages split into VMAs by mprotect(), fills --identical of them and forks --procs children per member over --depth levels; the children keep the pages shared (no copy on write, or --cow percent of them rewritten), so every walk of a parent's page visits one VMA per member. A trigger walks the parent's filled pages while a victim thread measures how long mprotect() on the same mapping (the anon_vma lock for write) waits.",
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
	return rr_main(&anon_fork_family, argc, argv);
}
