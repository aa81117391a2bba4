// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger migrate: move_pages(MPOL_MF_MOVE_ALL) of every filled page of
 * the pattern to the next NUMA node with memory, transient failures
 * retried (migrate.c). Two walks per page moved; needs two nodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "mm/migrate.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "trigger/trigger.h"

static const char *const kconfig[] = { "NUMA", "MIGRATION", NULL };

/* --migrate-batch: pages per move_pages() call; 0: all of a process's */
static unsigned long long batch;

static const struct rr_opt opts[] = {
	{ "migrate-batch", OPT_UINT, &batch, "N",
	  "the migrate trigger moves at most N pages per move_pages() call (1: one page at a time, as the published benchmark did); 0: all of a process's pages in one call",
	  .min = 1, .max = 4000000, .zero_ok = true },
	RR_OPT_END
};

static bool available(char *why, size_t len)
{
	if (!rr_migrate_available(why, len))
		return false;
	return rr_bracket_available(RR_BR_MIGRATE, why, len);
}

/* move_pages() of one process's pages in refs[0..n) (one pid). */
static int move_of(int pid, const struct rr_page_ref *refs, size_t n,
		   struct rr_migrate_stats *sum)
{
	struct rr_migrate_stats st;
	void **pages = calloc(n ? n : 1, sizeof(*pages));
	size_t i;
	int err;

	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pages[i] = refs[i].addr;
	/* --migrate-batch: at most that many pages per move_pages() */
	err = rr_migrate_pages_pid(pid, pages, n, batch, &st);
	free(pages);
	rr_migrate_stats_add(sum, &st);
	return err;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	struct rr_migrate_stats st = { 0 };
	struct rr_page_ref *refs = p->refs;
	size_t n = p->refs ? p->nr_refs : p->filled, i, j;
	int err = 0, e, procs = 0;

	/* Every filled page: a KSM page moves once, then stays put. */
	if (!refs) {
		refs = calloc(n ? n : 1, sizeof(*refs));
		if (!refs)
			return -ENOMEM;
		for (i = 0; i < n; i++)
			refs[i].addr = p->addr + rr_pattern_filled_index(p, i) *
				       rr_page_size();
	}
	/*
	 * One move_pages() per process, its pages in a row; with
	 * --migrate-batch, at most that many pages per call (1: one page at
	 * a time, as the published benchmark moved them).
	 */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && refs[j].pid == refs[i].pid; j++)
			;
		e = move_of(refs[i].pid, refs + i, j - i, &st);
		if (e && !err)
			err = e;
		procs++;
	}
	if (refs != p->refs)
		free(refs);
	/* Every page accounted for: failures are the oracle's to judge. */
	if (err && ctx->failures_are_data && st.moved + st.failed == n)
		err = 0;

	ctx->moved += st.moved;
	ctx->failed += st.failed;
	snprintf(how, len,
		 "move_pages(MPOL_MF_MOVE_ALL) of %zu pages%s to the next node in %u call(s): %lu moved, %lu failed%s%s (%u tries)",
		 n, procs > 1 ? " of the family's processes" : "", st.calls,
		 st.moved, st.failed, st.failed ? ": " : "",
		 st.failed ? strerror(-st.first_error) : "", st.tries);
	return err;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu of %llu filled pages on their target node after move_pages() (its status), %llu failed",
		 c->moved, c->moved + c->move_failed, c->move_failed);
}

const struct rr_trigger_ops rr_trigger_migrate = {
	.name = "migrate",
	.help = "move_pages() of the pattern's pages to another NUMA node; needs two nodes",
	.auto_rank = 1,
	.opts = opts,
	.kconfig = kconfig,
	.bracket = RR_BR_MIGRATE,
	.available = available,
	.fire = fire,
	.reach = reach,
};
