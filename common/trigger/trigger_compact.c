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

#include "journal/fault.h"
#include "lib/util.h"
#include "mm/sysinfo.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "trigger/trigger.h"

#define COMPACT_MEMORY "/proc/sys/vm/compact_memory"

static const char *const kconfig[] = { "COMPACTION", "MIGRATION", NULL };

/* --compact-node, and the node it names (-1: all) from setup() on */
static const char *compact_node = "all";
static long node = -1;

static const struct rr_opt opts[] = {
	{ "compact-node", OPT_STRING, &compact_node, "N|all",
	  "the compact trigger compacts one NUMA node (its sysfs compact file) or all (/proc/sys/vm/compact_memory)" },
	RR_OPT_END
};

/* --compact-node: "all", or a node this machine has. */
static bool opts_valid(char *err, size_t len)
{
	unsigned long long n;

	if (!strcmp(compact_node, "all"))
		return true;
	if (!rr_parse_ull(compact_node, &n)) {
		snprintf(err, len,
			 "--compact-node: '%s' is not a node number or all",
			 compact_node);
		return false;
	}
	if (!rr_numa_node_exists(n)) {
		snprintf(err, len,
			 "--compact-node %llu: no such NUMA node here (no /sys/devices/system/node/node%llu)",
			 n, n);
		return false;
	}
	return true;
}

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
	node = strcmp(compact_node, "all") ? atol(compact_node) : -1;
	return 0;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	char path[128];

	if (node < 0)
		snprintf(path, sizeof(path), COMPACT_MEMORY);
	else
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%ld/compact",
			 node);
	snprintf(how, len, "write 1 to %s", path);
	/* The write returns when compaction has run over every zone. */
	/* one write does it all: a test's signal comes just before */
	rr_test_hold("trigger compact: before the write");
	return rr_write_file(path, "1");
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len, "%llu pattern PTEs migrated (set_migration_pte)",
		 c->marks);
}

const struct rr_trigger_ops rr_trigger_compact = {
	.name = "compact",
	.help = "compaction of all memory or of one node, --compact-node; it may miss the pattern",
	.auto_rank = 3,
	.opts = opts,
	.opts_valid = opts_valid,
	.kconfig = kconfig,
	/* compaction migrates in batches, as move_pages() does */
	.bracket = RR_BR_MIGRATE,
	.may_miss = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
};
