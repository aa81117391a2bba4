// SPDX-License-Identifier: GPL-2.0
/*
 * large-folio-split: large folios mapped in pieces. The measuring process
 * maps --folios ranges of --folio-kb (the THP size by default, or an mTHP
 * size the kernel offers), aligned and MADV_HUGEPAGE, faults one large
 * folio into each, then splits the mapping with mprotect() every
 * --split-every pages (the PMD mapping becomes PTE ranges, the folio
 * stays whole) and forks --procs children, which inherit every piece.
 * An rmap walk of one folio (folio_referenced(), try_to_unmap(),
 * try_to_migrate()) then visits every VMA that maps a piece of it, in
 * every process: folio size / split-every VMAs in each. This is the
 * walk whose cost on large folios the batched folio_referenced() and
 * unmap work of 2023-2024 went after. The THP settings are changed
 * through the journal. The control is base pages (MADV_NOHUGEPAGE) in
 * the same layout and family.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "mm/thp.h"
#include "model/repro.h"
#include "pattern/family.h"
#include "trigger/trigger.h"

static unsigned long long folios = 4;
static unsigned long long folio_kb;
static unsigned long long split_every = 2;
static unsigned long long procs = 16;

static const struct rr_opt opts[] = {
	{ "folios", OPT_UINT, &folios, "N",
	  "large folios in the mapping, one filled page (the first) in each",
	  .min = 1, .max = 65536 },
	{ "folio-kb", OPT_UINT, &folio_kb, "KB",
	  "folio size: the THP (PMD) size, or an mTHP size of /sys/kernel/mm/transparent_hugepage/hugepages-*kB (Linux 6.8+); 0: the THP size",
	  .min = 8, .max = 1 << 20, .zero_ok = true },
	{ "split-every", OPT_UINT, &split_every, "N",
	  "mprotect(PROT_READ) every Nth page (2: every other page): each folio is then mapped by 2 x folio pages / N VMAs in every process",
	  .min = 2, .max = 4000000 },
	{ "procs", OPT_UINT, &procs, "N",
	  "children forked after the split, each mapping every piece of every folio",
	  .min = 0, .max = RR_FAMILY_MAX, .zero_ok = true },
	RR_OPT_END
};

static const char *const kconfig[] = { "TRANSPARENT_HUGEPAGE", NULL };

static const struct rr_case cases[] = {
	{ .name = "large", .type = RR_PT_ANON, .role = RR_SUBJECT,
	  .what = "large anonymous folios mapped by PTE ranges of many VMAs in every process: each walk visits all of them (rmap_walk_anon)" },
	{ .name = "small", .type = RR_PT_ANON,
	  .what = "base pages in the same layout and family: each walk visits one VMA per process (rmap_walk_anon, control)" },
};

static unsigned long long size_kb(void)
{
	return folio_kb ? folio_kb : rr_thp_pmd_kb();
}

static size_t folio_pages(void)
{
	return size_kb() * 1024 / rr_page_size();
}

/* A size this kernel does not offer is a usage error; no THP, a skip. */
static bool check(char *why, size_t len)
{
	if (!rr_thp_pmd_kb())
		return true;
	if (!rr_thp_offered(size_kb(), why, len))
		return false;
	if (split_every > folio_pages()) {
		snprintf(why, len,
			 "--split-every %llu: more than a folio's %zu pages",
			 split_every, folio_pages());
		return false;
	}
	return true;
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_split(s, c->type, folios * folio_pages(), split_every,
			      folios);
	if (c->role == RR_SUBJECT)
		s->folio_pages = folio_pages();
}

static int setup(const struct rr_repro *r, struct rr_result *res, char *why,
		 size_t len)
{
	int err;

	if (!rr_thp_pmd_kb()) {
		snprintf(why, len,
			 "no transparent huge pages (CONFIG_TRANSPARENT_HUGEPAGE off: no /sys/kernel/mm/transparent_hugepage/hpage_pmd_size)");
		return -ENODEV;
	}
	err = rr_default_setup(r, res, why, len);
	if (err)
		return err;
	rr_phase(res, "setup: THP");
	return rr_thp_setup(size_kb(), why, len);
}

/*
 * The folios must be large (and the control's pages small): counted in
 * kpageflags before the split makes any difference to the kernel.
 */
static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	size_t large, want;
	int err = rr_default_build(r, c, p, why, len);

	if (err)
		return err;
	err = rr_pattern_large_folios(p, &large);
	if (err) {
		snprintf(why, len,
			 "cannot read the folios' flags (pagemap, kpageflags): %s",
			 strerror(-err));
		return err;
	}
	want = c->role == RR_SUBJECT ? p->filled : 0;
	if (large != want) {
		snprintf(why, len,
			 "%zu of %zu filled pages in large folios, expected %zu (%s)",
			 large, p->filled, want,
			 want ? "no free huge page, or THP refused the range" :
			 "MADV_NOHUGEPAGE was not honoured");
		return -EAGAIN;
	}
	return 0;
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	return procs ? rr_family_spawn(p, procs, 1, NULL, why, len) : 0;
}

static const struct rr_repro_ops ops = {
	.setup = setup,
	.build = build,
	.after_merge = after_merge,
};

static void describe(struct rr_result *res)
{
	res->pages = folios * folio_pages();
	rr_result_param(res, "folios", folios);
	rr_result_param(res, "folio_kb", size_kb());
	rr_result_param(res, "split_every", split_every);
	rr_result_param(res, "procs", procs);
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	size_t o;

	o = snprintf(buf, len,
		     "%llu large folios of %llu KiB (aligned, MADV_HUGEPAGE), every %llu pages mprotect(PROT_READ) after the fault, then %llu children forked: each folio is mapped by %zu VMAs in each of %llu processes, and a walk of it (folio_referenced(), try_to_unmap(), try_to_migrate()) visits them all, the cost the batched large-folio rmap work of Linux 6.8-6.12 went after.",
		     folios, size_kb(), split_every, procs,
		     (size_t)(2 * folio_pages() / split_every), procs + 1);
	if (o < len)
		rr_result_counts_text(res, buf + o, len - o);
}

static const struct rr_repro large_folio_split = {
	.name = "large-folio-split",
	.summary = "Reproduce long rmap walks of large folios mapped in pieces: --folios THP (or --folio-kb mTHP) folios faulted in, the mapping split by mprotect() every --split-every pages (PTE ranges of many VMAs), then --procs children forked; a walk of one folio visits every piece in every process. A trigger walks the folios while a victim thread measures how long mprotect() on the same mapping waits. THP settings are changed through the journal.",
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
	return rr_main(&large_folio_split, argc, argv);
}
