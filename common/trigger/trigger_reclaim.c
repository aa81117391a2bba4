// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger reclaim: reclaim forced on the measuring process's own memory
 * cgroup, with swap (an existing swap, or a zram device made and
 * journaled by swap.c). Every page scanned is walked by
 * folio_referenced(), and try_to_unmap() walks it again to swap it out;
 * nothing outside the group pays.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "journal/journal.h"
#include "lib/util.h"
#include "mm/swap.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "trigger/trigger.h"

static const char *const kconfig[] = { "MEMCG", "SWAP", NULL };

static bool available(char *why, size_t len)
{
	char mnt[256];

	if (rr_memcg_detect(mnt, sizeof(mnt), why, len) == RR_MEMCG_NONE)
		return false;
	if (!rr_swap_active(NULL) && !rr_swap_zram_possible(why, len))
		return false;
	return rr_bracket_available(RR_BR_MEMCG_RECLAIM, why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	char name[64];
	int err;

	/* --swappiness: global, journaled (memcg v2 reclaim follows it) */
	err = rr_swappiness_set(why, len);
	if (err)
		return err;
	rr_phase(res, "setup: memory cgroup");
	snprintf(name, sizeof(name), "rmap-repro-%d", getpid());
	err = rr_memcg_create(&ctx->cg, name, why, len);
	if (!err)
		err = rr_memcg_join(&ctx->cg);
	if (err) {
		if (!why[0])
			snprintf(why, len, "cannot join %s: %s", ctx->cg.path,
				 strerror(-err));
		return err;
	}
	ctx->in_cg = true;
	/* v1: the group's own swappiness (it goes away with the group) */
	if (rr_cfg.swappiness && ctx->cg.ver == RR_MEMCG_V1) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/memory.swappiness",
			 ctx->cg.path);
		err = rr_write_file(path, rr_cfg.swappiness);
		if (err) {
			snprintf(why, len, "%s: %s", path, strerror(-err));
			return err;
		}
	}
	snprintf(res->memcg, sizeof(res->memcg), "%s %s",
		 rr_memcg_ver_name(ctx->cg.ver), ctx->cg.path);
	err = rr_swap_setup(res, why, len);
	if (err)
		return err;
	/*
	 * Ask for everything the group holds. Reclaim deactivates active
	 * pages only once the inactive list runs low, and KSM pages sit on
	 * the active list after merging: a smaller target never reaches
	 * them. The group holds only this process, so nothing else pays.
	 */
	ctx->reclaim_bytes = RR_RECLAIM_ALL;
	return 0;
}

int rr_swappiness_set(char *why, size_t len)
{
	int err;

	if (!rr_cfg.swappiness)
		return 0;
	err = journal_knob_set("/proc/sys/vm/swappiness", rr_cfg.swappiness);
	if (err)
		snprintf(why, len, "vm.swappiness %s: %s", rr_cfg.swappiness,
			 strerror(-err));
	return err;
}

int rr_swap_setup(struct rr_result *res, char *why, size_t len)
{
	struct rr_swap swap;
	int err;

	rr_phase(res, "setup: swap");
	err = rr_swap_ensure(&swap, rr_cfg.swap_mb, why, len);
	if (err)
		return err;
	rr_swap_describe(&swap, res->swap, sizeof(res->swap));
	if (rr_cfg.swappiness) {
		size_t o = strlen(res->swap);

		snprintf(res->swap + o, sizeof(res->swap) - o,
			 "; vm.swappiness %s (--swappiness)", rr_cfg.swappiness);
	}
	return 0;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	return rr_memcg_reclaim(&ctx->cg, ctx->reclaim_bytes, how, len);
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len, "%llu of %llu filled pages unmapped (pagemap)",
		 c->gone, c->filled);
}

const struct rr_trigger_ops rr_trigger_reclaim = {
	.name = "reclaim",
	.kconfig = kconfig,
	.bracket = RR_BR_MEMCG_RECLAIM,
	.backs_off = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
};
