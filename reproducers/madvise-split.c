// SPDX-License-Identifier: GPL-2.0
/*
 * madvise-split: the KSM walk's pathology when the VMAs come from
 * madvise() rather than mprotect(). Advice that changes a VMA's flags
 * splits it: MADV_MERGEABLE on parts of a mapping is how KSM users opt
 * in, and each advised range becomes a VMA of its own on the mapping's
 * one anon_vma. Advice that only acts on pages splits nothing:
 * --dontneed faults in and zaps the pages between the advised ones
 * (MADV_DONTNEED), and the build checks that the VMA count did not move.
 * The counts are the kernel's, from /proc/self/maps, per case: the
 * kernel ignores MADV_MERGEABLE on a MAP_SHARED mapping, so the file
 * control then stays one VMA, and the report says so.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/util.h"
#include "model/repro.h"
#include "pattern/maps.h"

static int advice;
static bool dontneed;

/* The advice offered: each changes a VMA flag on every mapping kind. */
static const struct {
	const char *name;
	int madv;
	const char *madv_name, *flag;
} advices[] = {
	{ "mergeable", MADV_MERGEABLE, "MADV_MERGEABLE", "VM_MERGEABLE" },
	{ "dontfork", MADV_DONTFORK, "MADV_DONTFORK", "VM_DONTCOPY" },
	{ "dontdump", MADV_DONTDUMP, "MADV_DONTDUMP", "VM_DONTDUMP" },
	{ "hugepage", MADV_HUGEPAGE, "MADV_HUGEPAGE", "VM_HUGEPAGE" },
	{ "random", MADV_RANDOM, "MADV_RANDOM", "VM_RAND_READ" },
	{ "sequential", MADV_SEQUENTIAL, "MADV_SEQUENTIAL", "VM_SEQ_READ" },
};

static const char *const advice_names[] = {
	"mergeable", "dontfork", "dontdump", "hugepage", "random",
	"sequential", NULL
};

static struct rr_split_opts split = {
	.pages = 20000, .split_every = 2, .identical = 512,
};

static const struct rr_opt opts[] = {
	RR_SPLIT_OPTS(split),
	{ "advice", OPT_ENUM, &advice, "NAME",
	  "the madvise() advice on every Nth page: mergeable (MADV_MERGEABLE, the KSM opt-in: only the advised pages merge), dontfork, dontdump, hugepage (on a mapping the suite keeps MADV_NOHUGEPAGE), random or sequential",
	  .choices = advice_names },
	{ "dontneed", OPT_FLAG, &dontneed, NULL,
	  "after each build, fault in and MADV_DONTNEED every page between the advised ones that holds no identical content: churn that zaps pages and splits nothing (the build checks the VMA count did not change)" },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", "MMU", NULL };

static const struct rr_case cases[] = {
	{ .type = RR_PT_KSM, .role = RR_SUBJECT },
	{ .type = RR_PT_ANON },
	{ .type = RR_PT_FILE },
};

static bool check(char *why, size_t len)
{
	return rr_split_fits(&split, why, len);
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	memset(s, 0, sizeof(*s));
	rr_pattern_spec_of(s, c->type, &split);
	s->split_advice = advices[advice].madv;
}

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	int err = rr_default_build(r, c, p, why, len);

	if (!err && dontneed)
		err = rr_pattern_churn(p, why, len);
	return err;
}

static const struct rr_repro_ops ops = {
	.build = build,
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
	rr_result_param_text(res, "advice", advices[advice].name);
	rr_result_param(res, "dontneed", dontneed);
	res->max_page_sharing = rr_ksm_opts.max_page_sharing;
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	struct rr_pattern_spec s;
	size_t o, expected;
	char every[32];
	int i;

	spec(&cases[0], &s);
	expected = rr_pattern_expected_vmas(&s);
	snprintf(every, sizeof(every), split.split_every == 2 ? "every other" :
		 "one in every %llu", split.split_every);
	o = snprintf(buf, len,
		     "one %llu-page mapping, madvise(%s) on %s page (sets %s); VMAs counted in /proc/self/maps:",
		     split.pages, advices[advice].madv_name, every,
		     advices[advice].flag);
	for (i = 0; i < res->nr_cases && o < len; i++) {
		const struct rr_case_result *c = &res->cases[i];

		if (!c->vmas)
			o += snprintf(buf + o, len - o, "%s %s never counted",
				      i ? "," : "",
				      c->name);
		else
			o += snprintf(buf + o, len - o, "%s %s %zu%s",
				      i ? "," : "",
				      c->name, c->vmas,
				      c->vmas < expected ?
				      " (the kernel ignored the advice there)" :
				      "");
	}
	if (o < len)
		o += snprintf(buf + o, len - o,
			      ", of %zu were every advice to split; %llu pages of identical content%s, the rest unpopulated",
			      expected, filled(),
			      advice == 0 ? " on the advised pages (the only mergeable ones)" :
			      ", spread evenly");
	if (dontneed && o < len)
		snprintf(buf + o, len - o,
			 "; then the other pages faulted in and zapped with MADV_DONTNEED: +0 VMAs (checked after every build)");
}

/* The file control is not split by MADV_MERGEABLE: say what it is. */
static const char *case_what(const struct rr_case *c)
{
	if (c->type == RR_PT_FILE && advices[advice].madv == MADV_MERGEABLE)
		return "the same mapping and advice on a MAP_SHARED memfd (shmem), where the kernel ignores MADV_MERGEABLE: one VMA, see the Pattern line (rmap_walk_file, control)";
	return NULL;
}

static const struct rr_repro madvise_split = {
	.name = "madvise-split",
	.summary = "Reproduce long KSM rmap walks on VMAs split by madvise(): one anonymous mapping of --pages pages, every --split-every'th page given --advice (MADV_MERGEABLE by default, the way KSM users opt parts of a mapping in), so that its VMAs share one anon_vma; --identical pages merged by KSM (with mergeable, spread over the advised pages, the only ones KSM may merge); then a trigger walks the KSM pages while a victim thread measures how long mprotect() on the same mapping waits. --dontneed adds MADV_DONTNEED churn, which splits nothing. Each case's VMAs are counted, not assumed.",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.check = check,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
	.case_what = case_what,
	.ops = &ops,
};

int main(int argc, char **argv)
{
	return rr_main(&madvise_split, argc, argv);
}
