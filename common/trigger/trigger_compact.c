// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger compact: write 1 to /proc/sys/vm/compact_memory (or a node's
 * compact file, --compact-node). It migrates movable pages, two walks
 * each, but only below where the two compaction scanners meet: it may
 * miss the pattern altogether, and then the runner tries again on fresh
 * pages.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "trigger/trigger.h"

#define COMPACT_MEMORY "/proc/sys/vm/compact_memory"

static const char *const kconfig[] = { "COMPACTION", "MIGRATION", NULL };

static bool available(char *why, size_t len)
{
	if (!rr_path_exists(COMPACT_MEMORY)) {
		snprintf(why, len, "no %s (CONFIG_COMPACTION off)",
			 COMPACT_MEMORY);
		return false;
	}
	return rr_bracket_available(RR_BR_MIGRATE, why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	ctx->compact_node = strcmp(rr_cfg.compact_node, "all") ?
			    atol(rr_cfg.compact_node) : -1;
	return 0;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	char path[128];

	if (ctx->compact_node < 0)
		snprintf(path, sizeof(path), COMPACT_MEMORY);
	else
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%ld/compact",
			 ctx->compact_node);
	snprintf(how, len, "write 1 to %s", path);
	/* The write returns when compaction has run over every zone. */
	return rr_write_file(path, "1");
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len, "%llu pattern PTEs migrated (set_migration_pte)",
		 c->marks);
}

const struct rr_trigger_ops rr_trigger_compact = {
	.name = "compact",
	.kconfig = kconfig,
	/* compaction migrates in batches, as move_pages() does */
	.bracket = RR_BR_MIGRATE,
	.may_miss = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
};
