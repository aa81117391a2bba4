// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bracket.h"
#include "migrate.h"
#include "swap.h"
#include "sysinfo.h"
#include "trigger.h"
#include "util.h"

#define COMPACT_MEMORY "/proc/sys/vm/compact_memory"

const char *const rr_trigger_names[] = {
	[RR_TRIG_AUTO] = "auto",
	[RR_TRIG_COMPACT] = "compact",
	[RR_TRIG_RECLAIM] = "reclaim",
	[RR_TRIG_MIGRATE] = "migrate",
	NULL
};

/* The kernel options each trigger needs, checked when readable. */
static const char *const kconfig[RR_TRIG_MAX][3] = {
	[RR_TRIG_COMPACT] = { "COMPACTION", "MIGRATION", NULL },
	[RR_TRIG_RECLAIM] = { "MEMCG", "SWAP", NULL },
	[RR_TRIG_MIGRATE] = { "NUMA", "MIGRATION", NULL },
};

bool rr_trigger_available(enum rr_trigger t, char *why, size_t len)
{
	const char *missing;
	char mnt[256];

	if (t > RR_TRIG_AUTO && t < RR_TRIG_MAX) {
		missing = rr_kconfig_missing(kconfig[t]);
		if (missing) {
			snprintf(why, len, "CONFIG_%s is not set", missing);
			return false;
		}
	}
	switch (t) {
	case RR_TRIG_COMPACT:
		if (!rr_path_exists(COMPACT_MEMORY)) {
			snprintf(why, len, "no %s (CONFIG_COMPACTION off)",
				 COMPACT_MEMORY);
			return false;
		}
		return rr_bracket_available(RR_BR_MIGRATE, why, len);
	case RR_TRIG_RECLAIM:
		if (rr_memcg_detect(mnt, sizeof(mnt), why, len) ==
		    RR_MEMCG_NONE)
			return false;
		if (!rr_swap_active(NULL) && !rr_swap_zram_possible(why, len))
			return false;
		return rr_bracket_available(RR_BR_MEMCG_RECLAIM, why, len);
	case RR_TRIG_MIGRATE:
		if (!rr_migrate_available(why, len))
			return false;
		return rr_bracket_available(RR_BR_MIGRATE, why, len);
	default:
		snprintf(why, len, "no such trigger");
		return false;
	}
}

enum rr_trigger rr_trigger_auto(char *why, size_t len)
{
	char w0[256], w1[256], w2[256];

	if (rr_trigger_available(RR_TRIG_MIGRATE, w0, sizeof(w0)))
		return RR_TRIG_MIGRATE;
	if (rr_trigger_available(RR_TRIG_RECLAIM, w1, sizeof(w1)))
		return RR_TRIG_RECLAIM;
	if (rr_trigger_available(RR_TRIG_COMPACT, w2, sizeof(w2)))
		return RR_TRIG_COMPACT;
	snprintf(why, len,
		 "no trigger available: migrate: %s; reclaim: %s; compact: %s",
		 w0, w1, w2);
	return RR_TRIG_AUTO;
}

bool rr_trigger_backs_off(enum rr_trigger t)
{
	return t == RR_TRIG_RECLAIM;
}

bool rr_trigger_may_miss(enum rr_trigger t)
{
	return t == RR_TRIG_COMPACT;
}

int rr_trigger_bracket(enum rr_trigger t)
{
	/* compaction and move_pages() both migrate in batches */
	return t == RR_TRIG_RECLAIM ? RR_BR_MEMCG_RECLAIM : RR_BR_MIGRATE;
}

static int compact(long node, char *how, size_t len)
{
	char path[128];

	if (node < 0)
		snprintf(path, sizeof(path), COMPACT_MEMORY);
	else
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%ld/compact", node);
	snprintf(how, len, "write 1 to %s", path);
	/* The write returns when compaction has run over every zone. */
	return rr_write_file(path, "1");
}

static int migrate(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	struct rr_migrate_stats st;
	void **pages;
	size_t i;
	int err;

	/* Every filled page: a KSM page moves once, then stays put. */
	pages = calloc(p->filled, sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < p->filled; i++)
		pages[i] = p->addr + rr_pattern_filled_index(p, i) *
			   rr_page_size();
	err = rr_migrate_pages(pages, p->filled, &st);
	free(pages);

	ctx->moved += st.moved;
	ctx->failed += st.failed;
	snprintf(how, len,
		 "move_pages(MPOL_MF_MOVE_ALL) of %zu pages to the next node: %lu moved, %lu failed%s%s (%u tries)",
		 p->filled, st.moved, st.failed, st.failed ? ": " : "",
		 st.failed ? strerror(-st.first_error) : "", st.tries);
	return err;
}

int rr_trigger_fire(enum rr_trigger t, struct rr_trigger_ctx *ctx,
		    char *how, size_t len)
{
	switch (t) {
	case RR_TRIG_MIGRATE:
		return migrate(ctx, how, len);
	case RR_TRIG_COMPACT:
		return compact(ctx->compact_node, how, len);
	case RR_TRIG_RECLAIM:
		return rr_memcg_reclaim(ctx->cg, ctx->reclaim_bytes, how, len);
	default:
		return -EINVAL;
	}
}
