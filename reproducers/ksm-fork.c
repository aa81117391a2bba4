// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-fork: fork then KSM. A parent maps --pages pages, splits them with
 * mprotect() every --split-every pages, fills --identical of them, and
 * forks --children. The order decides what a KSM walk visits:
 *
 *   fork-then-merge  each child rewrites its identical pages (copy on
 *                    write, same content), then KSM merges across the
 *                    family: an rmap_item's walk visits its own
 *                    process's VMAs, but every walk of the family takes
 *                    the one root anon_vma lock, so a writer in any
 *                    member waits;
 *   merge-then-fork  the parent's pages are merged first and the children
 *                    inherit the KSM pages: every child's VMAs sit in the
 *                    parent's anon_vma tree, so each KSM walk visits
 *                    children x VMAs (twice: the owner's mm, then the
 *                    search of new forks).
 *
 * The children only hold their mappings: they wait on a pipe and die with
 * the measuring process (PR_SET_PDEATHSIG), and the teardown kills and
 * reaps them before the next build. The controls are the same family on
 * plain anonymous pages and on a MAP_SHARED memfd. With the migrate
 * trigger, the frames oracle (oracle.h) checks after it that every
 * member's mapping of each page followed it to its new frame, content
 * intact.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "measure/oracle.h"
#include "model/repro.h"
#include "pattern/family.h"
#include "pattern/maps.h"
#include "trigger/trigger.h"


static unsigned long long children = 32;
static unsigned long long depth = 1;
static int order;

enum { FORK_THEN_MERGE, MERGE_THEN_FORK };

static const char *const order_names[] = {
	"fork-then-merge", "merge-then-fork", NULL
};

static struct rr_split_opts split = {
	.pages = 2000, .split_every = 2, .identical = 256,
};

static const struct rr_opt opts[] = {
	RR_SPLIT_OPTS(split),
	{ "children", OPT_UINT, &children, "N",
	  "processes forked by the parent (and, with --depth, by each member above the last level); each maps the whole pattern",
	  .min = 1, .max = RR_FAMILY_MAX },
	{ "depth", OPT_UINT, &depth, "D",
	  "levels of the family tree, as in the kernel selftest mm/rmap.c: 1, the parent's children only; 2, their children too, and so on (at most 1024 members in all)",
	  .min = 1, .max = 10 },
	{ "order", OPT_ENUM, &order, "ORDER",
	  "fork-then-merge (the children rewrite their pages, then KSM merges across the family) or merge-then-fork (the children inherit the parent's KSM pages, and every KSM walk visits children x VMAs)",
	  .choices = order_names },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", "MMU", NULL };

static const struct rr_case cases[] = {
	{ .type = RR_PT_KSM, .role = RR_SUBJECT,
	  .what = "KSM-merged anonymous pages mapped by every member of the family (rmap_walk_ksm)" },
	{ .type = RR_PT_ANON,
	  .what = "the same family on plain anonymous pages, no KSM (rmap_walk_anon, control)" },
	{ .type = RR_PT_FILE,
	  .what = "the same family on a MAP_SHARED memfd (shmem), each page shared by every member (rmap_walk_file, control)" },
};

/* Members of a tree of `depth` levels, `children` forks per member. */
static unsigned long long family_size(void)
{
	return rr_family_size(children, depth);
}

static bool check(char *why, size_t len)
{
	return rr_family_fits(children, depth, "children", why, len) &&
	       rr_split_fits(&split, why, len);
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_of(s, c->type, &split);
}

/* A member's preparation, fork-then-merge: its own copy of each page. */
static void rewrite(struct rr_pattern *p)
{
	if (rr_pattern_rewrite(p, SIZE_MAX))
		_exit(1);
}

static int spawn(struct rr_pattern *p, bool own_copies, char *why,
		 size_t len)
{
	return rr_family_spawn(p, children, depth, own_copies ? rewrite : NULL,
			       why, len);
}

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	int err = rr_default_build(r, c, p, why, len);

	if (err || order != FORK_THEN_MERGE)
		return err;
	return spawn(p, true, why, len);
}

/* Sum a family counter of /proc/PID/ (self and the children). */
static long long family_sum(const struct rr_pattern *p, const char *file)
{
	long long sum = 0;
	char path[64];
	long v;
	int i;

	for (i = -1; i < p->nr_pids; i++) {
		if (i < 0)
			snprintf(path, sizeof(path), "/proc/self/%s", file);
		else
			snprintf(path, sizeof(path), "/proc/%d/%s",
				 p->pids[i], file);
		if (rr_read_long(path, &v))
			return -1;
		sum += v;
	}
	return sum;
}

static int merge(const struct rr_repro *r, struct rr_pattern *p,
		 struct rr_ksm_counters *k, char *why, size_t len)
{
	/*
	 * The family's pages: the merge loop reads only this process's
	 * count, so it ends when ksmd stops finding more (two full scans
	 * without growth), which covers the children's pages too.
	 */
	unsigned long long want = p->filled * (1ULL + p->nr_pids);
	int err = rr_ksm_merge(want, k, why, len);

	if (!err && p->nr_pids)
		k->merging_pages = family_sum(p, "ksm_merging_pages");
	return err;
}

/*
 * After fork-then-merge the members' pages are frames of their own (the
 * anon control's copies) or KSM pages of the whole family: the pages a
 * migration must move are one mapping of each frame, in whichever
 * process maps it (without frame numbers, the parent's pages alone).
 */
static void family_refs(struct rr_pattern *p)
{
	if (rr_pattern_frame_refs(p, false, &p->refs, &p->nr_refs)) {
		free(p->refs);
		p->refs = NULL;
		p->nr_refs = 0;
	}
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	if (order == FORK_THEN_MERGE) {
		family_refs(p);
		return 0;
	}
	return spawn(p, false, why, len);
}

/* The oracle judges migration, which moves every page to a new frame. */
static const int oracle_triggers[] = { RR_TRIG_MIGRATE, 0 };

static const struct rr_repro_ops ops = {
	.build = build,
	.merge = merge,
	.after_merge = after_merge,
	.verify_before = rr_frames_before,
	.verify = rr_frames_verify,
	.oracle_triggers = oracle_triggers,
};

static unsigned long long filled(void)
{
	return rr_case_filled(spec, &cases[0]);
}

static void describe(struct rr_result *res)
{
	res->pages = split.pages;
	rr_result_param(res, "split_every", split.split_every);
	rr_result_param(res, "identical_pages", filled());
	rr_result_param(res, "children", children);
	rr_result_param(res, "depth", depth);
	rr_result_param_text(res, "order", order_names[order]);
	res->max_page_sharing = rr_ksm_opts.max_page_sharing;
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	char every[32];
	size_t o;

	snprintf(every, sizeof(every), split.split_every == 2 ? "every other" :
		 "one in every %llu", split.split_every);
	o = snprintf(buf, len,
		     "a parent maps %llu pages, %s page mprotect(PROT_READ), %llu identical; %s",
		     split.pages, every, filled(),
		     order == FORK_THEN_MERGE ?
		     "it forks the children, each rewrites its identical pages (copy on write), then KSM merges across the family: a child's pages sit in its VMAs' own anon_vmas, the parent's in the root anon_vma that every process's VMAs are chained to, and every walk takes the root's lock" :
		     "KSM merges its pages, then it forks the children, which inherit the KSM pages: each KSM walk visits the VMAs of every process");
	if (depth > 1)
		o += snprintf(buf + o, o < len ? len - o : 0,
			      ". The children form a tree of %llu levels, %llu children per member above the last: %llu members",
			      depth, children, family_size());
	o += snprintf(buf + o, o < len ? len - o : 0, ".");
	if (o < len)
		rr_result_counts_text(res, buf + o, len - o);
}

static const struct rr_repro ksm_fork = {
	.name = "ksm-fork",
	.summary = "Reproduce long KSM rmap walks in a fork family: a parent maps --pages pages split into VMAs by mprotect(), fills --identical of them and forks --children; with --order fork-then-merge the children rewrite their pages and KSM merges across the family, with merge-then-fork the children inherit the parent's KSM pages and every KSM walk visits children x VMAs. A trigger then walks the KSM pages while a victim thread in the parent measures how long mprotect() waits. With the migrate trigger, an oracle checks that every member's mapping of each moved page followed it to its new frame, content intact.",
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
	return rr_main(&ksm_fork, argc, argv);
}
