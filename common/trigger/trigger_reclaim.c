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
#include "mm/memcg.h"
#include "mm/swap.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "trigger/trigger.h"

static const char *const kconfig[] = { "MEMCG", "SWAP", NULL };

/* The group it made and joined in setup(), and reclaims. */
static struct rr_memcg cg;

/* --swap-mb and --swappiness, for every trigger that reclaims */
static unsigned long long swap_mb = 256;
static const char *swappiness;		/* NULL: leave it as it is */

const struct rr_opt rr_swap_opts[] = {
	{ "swap-mb", OPT_UINT, &swap_mb, "MB",
	  "size of the zram swap device created when no swap is active",
	  .min = 16, .max = 65536 },
	{ "swappiness", OPT_STRING, &swappiness, "N",
	  "vm.swappiness (0-200) for the run, journaled and restored; with memcg v1 the reclaim trigger's group gets it too (else 200, the most the kernel allows). Default: left as it is",
	},
	RR_OPT_END
};

bool rr_swap_opts_valid(char *err, size_t len)
{
	unsigned long long n;

	if (swappiness && (rr_parse_dec(swappiness, &n) || n > 200)) {
		snprintf(err, len,
			 "--swappiness: '%s' is not a number from 0 to 200",
			 swappiness);
		return false;
	}
	return true;
}

/* Why a victim cuts the walks of a trigger that reclaims short. */
const char rr_reclaim_backs_off_why[] =
	"Reclaim's folio_referenced() takes that lock with trylock and gives up when a writer waits, so a victim cuts reclaim's walks short and shows what a writer waits while reclaim backs off.";

static bool available(char *why, size_t len)
{
	char mnt[256];

	if (rr_memcg_detect(mnt, sizeof(mnt), why, len) == RR_MEMCG_NONE)
		return false;
	if (!rr_swap_available(why, len))
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
	snprintf(name, sizeof(name), RR_MEMCG_PREFIX "%d", getpid());
	err = rr_memcg_create(&cg, name, why, len);
	if (!err)
		err = rr_memcg_join(&cg);
	if (err) {
		if (!why[0])
			snprintf(why, len, "cannot join %s: %s", cg.path,
				 strerror(-err));
		return err;
	}
	/* v1: the group's own swappiness (it goes away with the group) */
	if (swappiness && cg.ver == RR_MEMCG_V1) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/memory.swappiness",
			 cg.path);
		err = rr_write_file(path, swappiness);
		if (err) {
			snprintf(why, len, "%s: %s", path, strerror(-err));
			return err;
		}
	}
	snprintf(res->memcg, sizeof(res->memcg), "%s %s",
		 rr_memcg_ver_name(cg.ver), cg.path);
	err = rr_swap_setup(res, why, len);
	if (err)
		return err;
	/*
	 * Ask for everything the group holds. Reclaim deactivates active
	 * pages only once the inactive list runs low, and KSM pages sit on
	 * the active list after merging: a smaller target never reaches
	 * them. The group holds only this process, so nothing else pays.
	 * (fire() asks for RR_RECLAIM_ALL.)
	 */
	return 0;
}

int rr_swappiness_set(char *why, size_t len)
{
	int err;

	if (!swappiness)
		return 0;
	err = journal_knob_set("/proc/sys/vm/swappiness", swappiness);
	if (err)
		snprintf(why, len, "vm.swappiness %s: %s", swappiness,
			 strerror(-err));
	return err;
}

bool rr_swap_available(char *why, size_t len)
{
	return rr_swap_possible(swap_mb, why, len);
}

int rr_swap_setup(struct rr_result *res, char *why, size_t len)
{
	struct rr_swap swap;
	int err;

	rr_phase(res, "setup: swap");
	err = rr_swap_ensure(&swap, swap_mb, why, len);
	if (err)
		return err;
	rr_swap_describe(&swap, res->swap, sizeof(res->swap));
	if (swappiness) {
		size_t o = strlen(res->swap);

		snprintf(res->swap + o, sizeof(res->swap) - o,
			 "; vm.swappiness %s (--swappiness)", swappiness);
	}
	return 0;
}

/*
 * For the swap-out oracle (the pattern's swaps_out, oracle.h), reclaim
 * again, after a pause, until every filled page has left memory, at
 * most this many times. One pass left ksm-mremap's KSM page in memory,
 * active and referenced, on 6.12 (memcg v2, under QEMU) and 6.18 (v1);
 * eight passes back to back did not take it out on 6.12, two with a
 * pause of 2.1 s between them did. Probably the group's LRU statistics,
 * from which reclaim decides whether to deactivate anon pages, are
 * flushed every 2 s and did not count the lone active folio yet. A
 * mapping the walk cannot find keeps its folio in memory however many
 * passes run.
 */
#define SWAP_OUT_PASSES 8
#define SWAP_OUT_PAUSE_MS 2100

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	size_t present = 1, swapped, o;
	int err, n = 1;

	err = rr_memcg_reclaim(&cg, RR_RECLAIM_ALL, how, len);
	if (err || !ctx->failures_are_data || !p || !p->swaps_out)
		return err;
	while (!err && n < SWAP_OUT_PASSES &&
	       !rr_pattern_residency(p, &present, &swapped) && present) {
		char more[256];

		usleep(SWAP_OUT_PAUSE_MS * 1000);
		err = rr_memcg_reclaim(&cg, RR_RECLAIM_ALL, more, sizeof(more));
		n++;
	}
	o = strlen(how);
	snprintf(how + o, len - o,
		 "; %d pass%s %d ms apart, until the pattern's pages left memory (at most %d: the swap-out oracle)",
		 n, n == 1 ? "" : "es", SWAP_OUT_PAUSE_MS, SWAP_OUT_PASSES);
	return err;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len, "%llu of %llu filled pages unmapped (pagemap)",
		 c->gone, c->filled);
}

/* The report's line: the group (the JSON has its whole path) and swap. */
static void text(const struct rr_result *r, FILE *f, rr_field_fn *field)
{
	const char *group = strrchr(r->memcg, '/');
	char buf[PATH_MAX + 256];

	snprintf(buf, sizeof(buf), "memcg %.*s group %s; swap %s",
		 (int)strcspn(r->memcg, " "), r->memcg,
		 group ? group + 1 : r->memcg, r->swap);
	field(f, "", buf);
}

const struct rr_trigger_ops rr_trigger_reclaim = {
	.name = "reclaim",
	.help = "reclaim forced on the reproducer's own memory cgroup, with swap",
	.auto_rank = 2,
	.opts = rr_swap_opts,
	.opts_valid = rr_swap_opts_valid,
	.kconfig = kconfig,
	.bracket = RR_BR_MEMCG_RECLAIM,
	.backs_off = true,
	.backs_off_why = rr_reclaim_backs_off_why,
	.swaps_out = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
	.text = text,
};
