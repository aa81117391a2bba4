// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-scan-cost: what a full scan of ksmd costs (the KSM checksum and
 * scan threads). --mb of anonymous memory, THP off for it, opted in to
 * KSM; every page of unique content (the subject), and the same with
 * half of the pages duplicating the other half (the control: it merges
 * as it is scanned). The ksm-scan trigger runs ksmd for two full scans
 * with pages_to_scan high and sleep_millisecs 0 (journaled); the
 * ksm-scan bracket times each full scan (ksm_start_scan to
 * ksm_stop_scan; before Linux 6.8, the ksm-poll probe from KSM's
 * full_scans counter) and the report gives ksmd's CPU per page. A
 * benchmark: nothing is judged unless --max-ms-per-gb is given.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/util.h"
#include "mm/ksm.h"
#include "model/repro.h"
#include "trigger/trigger.h"

static unsigned long long mb = 128;
static double max_ms_per_gb;

static const struct rr_opt opts[] = {
	{ "mb", OPT_UINT, &mb, "MB",
	  "size of the scanned memory, in MiB", .min = 1, .max = 65536 },
	{ "max-ms-per-gb", OPT_DOUBLE, &max_ms_per_gb, "MS",
	  "judge the unique case's longest full scan per GiB against this bound (reproduced above it); 0: a benchmark, nothing judged",
	  .dmin = 0, .dmax = 1e9 },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", NULL };
static const int triggers[] = { RR_TRIG_KSM_SCAN, 0 };

static const struct rr_case cases[] = {
	{ .name = "unique", .type = RR_PT_ANON, .role = RR_SUBJECT,
	  .what = "every page of unique content: each full scan checksums and searches every page, nothing merges" },
	{ .name = "half", .type = RR_PT_ANON,
	  .what = "half of the pages duplicate the other half: they merge as they are scanned (control)" },
};

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	s->type = c->type;
	s->pages = mb * (1 << 20) / rr_page_size();
}

/*
 * Page i's 64-bit words: xorshift from a seed of its content number;
 * in the half case the second half repeats the first.
 */
static void fill(char *page, size_t ps, size_t i, void *arg)
{
	size_t half = *(size_t *)arg;
	uint64_t content = half && i >= half ? i - half : i;
	uint64_t x = content * 0x9e3779b97f4a7c15ULL + 1, *w = (void *)page;
	size_t k;

	for (k = 0; k < ps / sizeof(*w); k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[k] = x;
	}
}

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	size_t n = mb * (1 << 20) / rr_page_size();
	size_t half = strcmp(c->name, "half") ? 0 : n / 2;

	spec(c, &p->spec);
	return rr_pattern_map_mergeable(p, n, fill, &half, why, len);
}

/* Unmerge what the scans merged (the half case) before the next case. */
static void teardown(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p)
{
	rr_pattern_free(p);
	rr_ksm_reset();
}

static void describe(struct rr_result *res)
{
	res->pages = mb * (1 << 20) / rr_page_size();
	res->bench_ms_per_gb = max_ms_per_gb;
	rr_result_param(res, "mb", mb);
	rr_result_param(res, "pages_to_scan", rr_ksm_opts.pages_to_scan);
	rr_result_param(res, "sleep_millisecs", rr_ksm_opts.sleep_ms);
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu MiB of anonymous memory (%llu pages, THP off, MADV_MERGEABLE) scanned by ksmd with pages_to_scan %llu and sleep_millisecs %llu: every page unique, then half of them duplicating the other half",
		 mb, res->pages, rr_ksm_opts.pages_to_scan,
		 rr_ksm_opts.sleep_ms);
}

static const struct rr_repro_ops ops = {
	.build = build,
	.teardown = teardown,
};

static const struct rr_repro ksm_scan_cost = {
	.name = "ksm-scan-cost",
	.summary = "Measure what a full scan of ksmd costs: --mb MiB of anonymous memory opted in to KSM (THP off), every page unique, then half of the pages duplicating the other half. The ksm-scan trigger runs ksmd for two full scans (pages_to_scan high, sleep_millisecs 0, journaled); the ksm-scan bracket (ksm/ksm_start_scan .. ksm/ksm_stop_scan) times each full scan (before Linux 6.8, which lacks them: the ksm-poll probe, KSM's full_scans read every 1 ms), and the report gives ksmd's CPU time per page scanned, its time in D state and the pages merged. A benchmark: nothing is judged unless --max-ms-per-gb is given.",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.policy = RR_POLICY_BENCHMARK,
	.uses_ksm = true,
	.check = rr_victim_none,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
	.ops = &ops,
	.triggers = triggers,
	.triggers_why = "ksm-scan-cost measures ksmd's own scans",
};

int main(int argc, char **argv)
{
	return rr_main(&ksm_scan_cost, argc, argv);
}
