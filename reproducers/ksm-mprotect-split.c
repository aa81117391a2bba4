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

static unsigned long long contents = 1;

static struct rr_split_opts split = {
	.pages = 20000, .split_every = 2, .identical = 512,
};

static const struct rr_opt opts[] = {
	RR_SPLIT_OPTS(split),
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
	rr_pattern_spec_of(s, c->type, &split);
	s->contents = contents;
}

static unsigned long long filled(void);

static bool check(char *why, size_t len)
{
	if (!rr_split_fits(&split, why, len))
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
	res->pages = split.pages;
	rr_result_param(res, "split_every", split.split_every);
	rr_result_param(res, "identical_pages", filled());
	rr_result_param(res, "contents", contents);
	res->max_page_sharing = rr_ksm_opts.max_page_sharing;
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	const struct rr_case_result *ksm =
		rr_result_case(res, RR_PT_KSM);
	char every[32], vmas[64], kinds[48] = "identical content";

	snprintf(every, sizeof(every), split.split_every == 2 ? "every other" :
		 "one in every %llu", split.split_every);
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
		 split.pages, every, vmas, filled(), kinds);
}

static const struct rr_repro ksm_mprotect_split = {
	.name = "ksm-mprotect-split",
	.summary = "Reproduce long KSM rmap walks: one anonymous mapping of --pages pages, every other page mprotect(PROT_READ) so that its VMAs (20,000 by default) share one anon_vma, --identical pages of identical content merged by KSM; then a trigger (migration, reclaim or compaction: --trigger) walks the KSM pages while a victim thread measures how long mprotect() on the same mapping waits. KSM makes --identical / max_page_sharing KSM pages of max_page_sharing mappings each, and every walk of one visits mappings x VMAs anon_vma entries; --identical 0 fills every page, the published layout (~79 KSM pages: a reclaim or compaction pass over all of them takes seconds per run). Reports each figure with the tracepoints that measured it.",
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
