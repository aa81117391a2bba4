// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger migrate: move_pages(MPOL_MF_MOVE_ALL) of every filled page of
 * the pattern to the next NUMA node with memory, transient failures
 * retried (migrate.c). Two walks per page moved; needs two nodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bracket.h"
#include "migrate.h"
#include "result.h"
#include "trigger.h"
#include "util.h"

static const char *const kconfig[] = { "NUMA", "MIGRATION", NULL };

static bool available(char *why, size_t len)
{
	if (!rr_migrate_available(why, len))
		return false;
	return rr_bracket_available(RR_BR_MIGRATE, why, len);
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	struct rr_migrate_stats st;
	void **pages;
	size_t i;
	int err;

	/* Every filled page: a KSM page moves once, then stays put. */
	pages = calloc(p->filled ? p->filled : 1, sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < p->filled; i++)
		pages[i] = p->addr + rr_pattern_filled_index(p, i) *
			   rr_page_size();
	err = rr_migrate_pages(pages, p->filled, &st);
	free(pages);
	/* Every page accounted for: failures are the oracle's to judge. */
	if (err && ctx->failures_are_data && st.moved + st.failed == p->filled)
		err = 0;

	ctx->moved += st.moved;
	ctx->failed += st.failed;
	snprintf(how, len,
		 "move_pages(MPOL_MF_MOVE_ALL) of %zu pages to the next node: %lu moved, %lu failed%s%s (%u tries)",
		 p->filled, st.moved, st.failed, st.failed ? ": " : "",
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
	.kconfig = kconfig,
	.bracket = RR_BR_MIGRATE,
	.available = available,
	.fire = fire,
	.reach = reach,
};
