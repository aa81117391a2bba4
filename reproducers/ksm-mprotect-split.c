// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-mprotect-split: the pattern of the KSM rmap-walk report. One
 * anonymous mapping, every other page mprotect()ed, so that ~20,000 VMAs
 * share one anon_vma; identical pages in it merged by KSM. A walk of such
 * a KSM page (rmap_walk_ksm) visits every VMA of the anon_vma for each of
 * its mappings; anonymous and file walks of the same pattern look up the
 * page's offset and stay short: they are the controls.
 */
#include "lib/util.h"
#include "model/repro.h"

static unsigned long long pages = 20000;
static unsigned long long split_every = 2;
static unsigned long long identical = 512;
static unsigned long long contents = 1;

static const struct rr_opt opts[] = {
	{ "pages", OPT_UINT, &pages, "N",
	  "size of the mapping in pages; with --split-every 2 it becomes N VMAs",
	  .min = 16, .max = 4000000 },
	{ "split-every", OPT_UINT, &split_every, "N",
	  "mprotect(PROT_READ) every Nth page (2: every other page)",
	  .min = 2, .max = 4000000 },
	{ "identical", OPT_UINT, &identical, "N",
	  "pages filled with identical content, spread evenly over the mapping; the rest stay unpopulated. KSM makes N / max_page_sharing KSM pages of max_page_sharing mappings each; every walk of one visits mappings x VMAs anon_vma entries, and a trigger that reaches all of them walks each. 0: every page (the published layout: ~79 KSM pages, a reclaim or compaction pass over all of them takes seconds per run)",
	  .min = 2, .max = 4000000, .zero_ok = true },
	{ "contents", OPT_UINT, &contents, "N",
	  "distinct contents among the filled pages, dealt in turn (the lore reproducer used 256): KSM makes at least one KSM page per content, each mapped filled / N times",
	  .min = 1, .max = 4000000 },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", "MMU", NULL };

static const struct rr_case cases[] = {
	{ .type = RR_PT_KSM, .role = RR_SUBJECT },
	{ .type = RR_PT_ANON },
	{ .type = RR_PT_FILE },
};

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_split(s, c->type, pages, split_every, identical);
	s->contents = contents;
}

static unsigned long long filled(void);

static bool check(char *why, size_t len)
{
	if (!rr_opt_split_fits(pages, split_every, identical, why, len))
		return false;
	if (contents > filled()) {
		snprintf(why, len, "--contents %llu: more than the %llu filled pages",
			 contents, filled());
		return false;
	}
	return true;
}

/* identical 0 means every page */
static unsigned long long filled(void)
{
	return rr_case_filled(spec, &cases[0]);
}

static void describe(struct rr_result *res)
{
	res->pages = pages;
	rr_result_param(res, "split_every", split_every);
	rr_result_param(res, "identical_pages", filled());
	rr_result_param(res, "contents", contents);
	res->max_page_sharing = rr_ksm_opts.max_page_sharing;
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	const struct rr_case_result *ksm =
		rr_result_case(res, RR_PT_KSM);
	char split[32], vmas[64], kinds[48] = "identical content";

	snprintf(split, sizeof(split), split_every == 2 ? "every other" :
		 "one in every %llu", split_every);
	if (ksm && ksm->vmas)
		snprintf(vmas, sizeof(vmas),
			 "%zu VMAs (counted in /proc/self/maps)", ksm->vmas);
	else
		snprintf(vmas, sizeof(vmas), "VMAs never counted (not built)");
	if (contents > 1)
		snprintf(kinds, sizeof(kinds), "%llu distinct contents",
			 contents);
	snprintf(buf, len,
		 "one %llu-page mapping, %s page mprotect(PROT_READ): %s on one anon_vma; %llu pages of %s, spread evenly, the rest unpopulated",
		 pages, split, vmas, filled(), kinds);
}

static const struct rr_repro ksm_mprotect_split = {
	.name = "ksm-mprotect-split",
	.summary = "Reproduce long KSM rmap walks: one anonymous mapping of --pages pages, every other page mprotect(PROT_READ) so that its VMAs (20,000 by default) share one anon_vma, --identical pages of identical content merged by KSM; then a trigger (reclaim or compaction) walks the KSM pages while a victim thread measures how long mprotect() on the same mapping waits. The same pattern on plain anonymous pages and on a MAP_SHARED memfd mapping are the controls. Reports each figure with the tracepoints that measured it. Exit: 1 reproduced (KTAP not ok), 0 not reproduced, 4 skip, 2 error.",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.check = check,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
};

int main(int argc, char **argv)
{
	return rr_main(&ksm_mprotect_split, argc, argv);
}
