// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-mremap: KSM pages moved by mremap() after they were merged, then
 * migrated, with a correctness oracle. mremap() keeps each VMA's
 * vm_pgoff, so after it a page's index in its VMA no longer follows from
 * its address. A KSM walk that derives the index from the address is
 * fast and misses those mappings: migration then leaves them behind, or
 * fails. Latency alone calls such a kernel fixed; the oracle checks,
 * after the trigger, that every page moved and that every mapping of it
 * points at the new frame, with its content intact.
 *
 *   --mremap fixed  the second half moved onto the first (each VMA with
 *                   MREMAP_FIXED; the first half's pages are dropped),
 *                   as the kernel selftest of KSM and mremap does;
 *   --mremap move   the whole mapping moved to a fresh address.
 *
 * Then KSM merges again (ksmd refreshes its rmap_items), ksmd is stopped
 * (run=0, which keeps the pages merged) and the trigger moves each page
 * to the other NUMA node, or on one node soft-offlines it (a new frame,
 * the old one retired and given back). The same on plain anonymous pages
 * and on a MAP_SHARED memfd are the controls.
 *
 * With --trigger reclaim (asked for, never chosen by auto), the swap-out
 * path instead, Hugh Dickins' case against the first version of the KSM
 * walk fix: reclaim of the reproducer's memory cgroup must swap every
 * page out, every mapping of it unmapped (one the walk misses keeps the
 * folio in memory), pswpout must count them, and each page must come
 * back intact when read (the frames oracle's swap-out form, oracle.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/types.h>
#include <linux/io_uring.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lib/util.h"
#include "measure/oracle.h"
#include "mm/ksm.h"
#include "model/repro.h"
#include "pattern/maps.h"
#include "trigger/trigger.h"

static unsigned long long pages = 512;
static unsigned long long split_every;
static int mode;
static int pin_case;

static const char *const pin_names[] = { "none", "ksm", "anon", "file", NULL };

enum { MREMAP_MODE_FIXED, MREMAP_MODE_MOVE };

static const char *const mode_names[] = { "fixed", "move", NULL };

static const struct rr_opt opts[] = {
	{ "pages", OPT_UINT, &pages, "N",
	  "size of the mapping in pages, every page of the same content (merged into N / max_page_sharing KSM pages); with --mremap fixed, N / 2 remain",
	  .min = 16, .max = 1000000 },
	{ "split-every", OPT_UINT, &split_every, "N",
	  "also mprotect(PROT_READ) every Nth page, for long walks at the same time (each VMA is moved on its own); 0: no split",
	  .min = 2, .max = 1000000, .zero_ok = true },
	{ "mremap", OPT_ENUM, &mode, "HOW",
	  "fixed (the second half onto the first, MREMAP_FIXED) or move (the whole mapping to a fresh address)",
	  .choices = mode_names },
	{ "pin-page", OPT_ENUM, &pin_case, "CASE",
	  "a self-test of the oracle: pin the first page of CASE (ksm, anon or file) with an io_uring fixed buffer, a long-term pin that migration cannot move, so the oracle must report that page (on ksm the pin also unshares it, and the case fails by design); the pin is dropped when the case is torn down. none: no pin",
	  .choices = pin_names },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", "MMU", "MIGRATION", NULL };

static const struct rr_case cases[] = {
	{ .type = RR_PT_KSM, .role = RR_SUBJECT },
	{ .type = RR_PT_ANON },
	{ .type = RR_PT_FILE },
};

static const int triggers[] = { RR_TRIG_MIGRATE, RR_TRIG_SOFT_OFFLINE, 0 };
static const int asked_triggers[] = { RR_TRIG_RECLAIM, 0 };

static bool check(char *why, size_t len)
{
	if (mode == MREMAP_MODE_FIXED && pages % 2) {
		snprintf(why, len, "--pages %llu: --mremap fixed needs an even number",
			 pages);
		return false;
	}
	if (!rr_opt_at_most("split-every", split_every, "pages", pages, why, len))
		return false;
	return true;
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	s->type = c->type;
	s->pages = pages;
	s->split_every = split_every;
	s->identical = 0;		/* every page */
}

/* A test's pin of a built case. */
struct state {
	int ring;			/* io_uring holding a pin, or -1 */
	int pipe[2];			/* or a pipe holding the page */
};

/*
 * --pin-page CASE: pin the first page of that case with an io_uring
 * fixed buffer (a long-term pin), so that migration cannot move it and
 * the oracle must report it. The ring is closed, and the pin dropped, at
 * teardown.
 */
static int pin_for_test(const struct rr_case *c, struct rr_pattern *p,
			struct state *s, char *why, size_t len)
{
	const char *want = pin_names[pin_case];
	struct io_uring_params prm = { 0 };
	struct iovec iov = { p->addr, rr_page_size() };
	const char *how;

	if (!pin_case || strcmp(want, rr_page_type_name(c->type)))
		return 0;
	s->ring = syscall(__NR_io_uring_setup, 1, &prm);
	if (s->ring >= 0) {
		if (syscall(__NR_io_uring_register, s->ring,
			    IORING_REGISTER_BUFFERS, &iov, 1)) {
			snprintf(why, len,
				 "--pin-page: IORING_REGISTER_BUFFERS: %s",
				 strerror(errno));
			return -errno;
		}
		how = "an io_uring fixed buffer";
	} else {
		/*
		 * No io_uring (a kernel without it, or io_uring_disabled):
		 * the page spliced into a pipe holds a reference that
		 * migration cannot account for either, until the pipe
		 * is closed at teardown.
		 */
		if (pipe2(s->pipe, O_CLOEXEC)) {
			snprintf(why, len, "--pin-page: pipe: %s",
				 strerror(errno));
			return -errno;
		}
		if (vmsplice(s->pipe[1], &iov, 1, 0) != (ssize_t)iov.iov_len) {
			snprintf(why, len, "--pin-page: vmsplice: %s",
				 strerror(errno));
			return -errno;
		}
		how = "vmsplice() into a pipe (no io_uring here)";
	}
	rr_msg("--pin-page: pinned the first page of case %s with %s", want,
	       how);
	return 0;
}

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	struct state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->ring = s->pipe[0] = s->pipe[1] = -1;
	err = rr_default_build(r, c, p, why, len);
	p->priv = s;
	return err;
}

static void place_victim(struct rr_pattern *p)
{
	size_t v = p->spec.split_every ?
		   (p->spec.pages / 2 / p->spec.split_every) *
		   p->spec.split_every + 1 : p->spec.pages / 2;

	if (v >= p->spec.pages)
		v = 0;
	p->victim = p->addr + v * rr_page_size();
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	struct state *s = p->priv;
	size_t ps = rr_page_size(), in;
	struct rr_ksm_counters k;
	char *dst;
	int err;

	if (mode == MREMAP_MODE_FIXED) {
		size_t half = p->len / 2;

		err = rr_maps_move(p->addr + half, half, p->addr, why, len);
		if (err)
			return err;
		p->len = half;
	} else {
		/* A fresh place, reserved so that nothing else lands there. */
		dst = mmap(NULL, p->len, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (dst == MAP_FAILED)
			return -errno;
		err = rr_maps_move(p->addr, p->len, dst, why, len);
		if (err) {
			munmap(dst, p->len);
			return err;
		}
		p->addr = dst;
	}
	p->spec.pages = p->len / ps;
	p->filled = p->spec.pages;
	place_victim(p);
	err = rr_pattern_count_vmas(p, &in, why, len);
	if (err)
		return err;
	p->vmas = in;
	if (c->type == RR_PT_KSM) {
		/* ksmd finds its pages at their new addresses; run=0 after */
		err = rr_ksm_merge(p->filled, &k, why, len);
		if (err)
			return err;
	}
	return pin_for_test(c, p, s, why, len);
}

static void teardown(const struct rr_repro *r, const struct rr_case *c,
		     struct rr_pattern *p)
{
	struct state *s = p->priv;

	if (s) {
		if (s->ring >= 0)
			close(s->ring);
		if (s->pipe[0] >= 0) {
			close(s->pipe[0]);
			close(s->pipe[1]);
		}
		free(s);
		p->priv = NULL;
	}
	rr_default_teardown(r, c, p);
}

static const struct rr_repro_ops ops = {
	.build = build,
	.after_merge = after_merge,
	.verify_before = rr_frames_before,
	.verify = rr_frames_verify,
	.teardown = teardown,
};

static void describe(struct rr_result *res)
{
	res->pages = pages;
	rr_result_param(res, "split_every", split_every);
	rr_result_param(res, "identical_pages", pages);
	rr_result_param_text(res, "mremap", mode_names[mode]);
	rr_result_param_text(res, "pin_page", pin_names[pin_case]);
	res->max_page_sharing = rr_ksm_opts.max_page_sharing;
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	char split[64] = "";
	size_t o;
	int i;

	if (split_every)
		snprintf(split, sizeof(split), ", one page in every %llu mprotect(PROT_READ)",
			 split_every);
	o = snprintf(buf, len,
		     "one %llu-page mapping%s, every page of the same content, merged by KSM; then %s (mremap keeps each VMA's vm_pgoff: a page's index no longer follows from its address), merged again, ksmd stopped (run=0). VMAs after, counted in /proc/self/maps:",
		     pages, split,
		     mode == MREMAP_MODE_FIXED ?
		     "the second half moved onto the first with MREMAP_FIXED, VMA by VMA" :
		     "the whole mapping moved to a fresh address, VMA by VMA");
	for (i = 0; i < res->nr_cases && o < len; i++)
		o += snprintf(buf + o, len - o, "%s %s %zu", i ? "," : "",
			      res->cases[i].name,
			      res->cases[i].vmas);
}

static const struct rr_repro ksm_mremap = {
	.name = "ksm-mremap",
	.summary = "Check that KSM pages moved by mremap() after merging are still found by the rmap walk: one mapping of --pages identical pages merged by KSM, then mremap() (--mremap fixed: the second half onto the first; move: elsewhere), merged again, ksmd stopped; then move_pages() moves every page to the other NUMA node (on one node: madvise(MADV_SOFT_OFFLINE) moves it to a new frame, and the retired frame is given back) and an oracle checks that each page moved and every mapping of it followed, content intact. A mapping the walk missed makes the KSM case reproduced (a correctness failure), whatever the latency. Needs two NUMA nodes, or the soft-offline trigger. With --trigger reclaim, the swap-out path instead: reclaim of its memory cgroup must swap every page out with every mapping of it, pswpout count them, and each page come back intact (Hugh Dickins' case).",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.check = check,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
	.ops = &ops,
	.triggers = triggers,
	.triggers_why = "its oracle checks the frame of every mapping after each page moved: it needs the migrate trigger (two NUMA nodes with memory) or, on one node, soft-offline (CONFIG_MEMORY_FAILURE and the hwpoison injector, to give the retired frames back); or, asked for with --trigger reclaim, that every page was swapped out",
	.asked_triggers = asked_triggers,
};

int main(int argc, char **argv)
{
	return rr_main(&ksm_mremap, argc, argv);
}
