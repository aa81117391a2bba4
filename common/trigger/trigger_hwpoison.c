// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger hwpoison: memory_failure() of the pattern's pages. The pages
 * are another process's (a reproducer's sacrificial child, listed in
 * p->refs), never the measuring process's. The kernel finds every
 * process that maps the page (collect_procs_ksm/anon/file), unmaps the
 * page with an rmap walk, kills the processes that asked for an early
 * kill, and retires the frame. Two injectors (--injector):
 *   corrupt-pfn  the hwpoison injector (debugfs hwpoison/corrupt-pfn),
 *                by frame number from the measuring process; each
 *                write is timed (CLOCK_MONOTONIC);
 *   madvise      madvise(MADV_HWPOISON) made by the member that maps
 *                the page (family.c asks it), for kernels without the
 *                injector: MF_ACTION_REQUIRED, so the member is killed
 *                by the call itself; it times the call to its return
 *                or to that SIGBUS, and the probes trace it too.
 * Either way one call is the whole of memory_failure() for one page.
 *
 * Destructive: a frame it retires comes back only through unpoison-pfn
 * (journaled, where the kernel allows it) or a reboot. It runs only in
 * a VM that scripts/vm-run booted (rmap_repro.vm on the kernel command
 * line) or with --allow-hwpoison; auto never picks it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "journal/fault.h"
#include "lib/util.h"
#include "mm/hwpoison.h"
#include "mm/sysinfo.h"
#include "model/repro.h"
#include "model/result.h"
#include "pattern/family.h"
#include "trigger/trigger.h"

static const char *const kconfig[] = { "MEMORY_FAILURE", NULL };

/* --injector and --allow-hwpoison */
static int injector_asked = RR_INJ_AUTO;
static bool allow_hwpoison;

static const struct rr_opt opts[] = {
	{ "injector", OPT_ENUM, &injector_asked, "HOW",
	  "how the hwpoison trigger poisons a page: corrupt-pfn (debugfs hwpoison/corrupt-pfn, by frame number, from the measuring process), madvise (MADV_HWPOISON, made by the process that maps the page, which it kills), or auto (corrupt-pfn where the hwpoison injector can be reached, else madvise); either way unpoison-pfn gives the frames back only where the injector is",
	  .choices = rr_injector_names },
	{ "allow-hwpoison", OPT_FLAG, &allow_hwpoison, NULL,
	  "let the hwpoison trigger run outside a VM that scripts/vm-run booted: each page it poisons retires a physical frame until reboot where the kernel cannot give it back (unpoison-pfn)" },
	RR_OPT_END
};

/* The injector setup() chose, and why when it is not the one asked. */
static int injector = RR_INJ_CORRUPT_PFN;
static char injector_why[160];

/* Did scripts/vm-run boot this kernel? */
static bool in_suite_vm(void)
{
	char cmdline[4096];

	return !rr_read_file("/proc/cmdline", cmdline, sizeof(cmdline)) &&
	       rr_cmdline_has(cmdline, "rmap_repro.vm");
}

static bool available(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (CAP_SYS_ADMIN)");
		return false;
	}
	if (!allow_hwpoison && !in_suite_vm()) {
		snprintf(why, len,
			 "refused outside a VM that scripts/vm-run booted: a poisoned frame is retired until reboot where the kernel cannot give it back; --allow-hwpoison to run it here anyway");
		return false;
	}
	/* madvise needs nothing more; auto falls back to it */
	return injector_asked != RR_INJ_CORRUPT_PFN ||
	       rr_hwpoison_reachable(why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	char w[256] = "";
	int err = -ENODEV;

	injector_why[0] = '\0';
	/* the injector gives the frames back too (unpoison-pfn): set it up
	 * whichever injects */
	if (rr_hwpoison_reachable(w, sizeof(w)))
		err = rr_hwpoison_setup(w, sizeof(w));
	if (!err && !rr_path_exists(rr_hwpoison_file("corrupt-pfn"))) {
		snprintf(w, sizeof(w), "no %s", rr_hwpoison_file("corrupt-pfn"));
		err = -ENODEV;
	}
	if (err && injector_asked == RR_INJ_CORRUPT_PFN) {
		snprintf(why, len, "%s", w);
		return err;
	}
	injector = err || injector_asked == RR_INJ_MADVISE ?
		   RR_INJ_MADVISE : RR_INJ_CORRUPT_PFN;
	if (err)
		snprintf(injector_why, sizeof(injector_why),
			 "no hwpoison injector (%s): the frames stay retired until reboot",
			 w);
	return 0;
}

/* The frame of a (pid, address) mapping, from that pid's pagemap. */
static int frame_of(const struct rr_page_ref *r, unsigned long long *pfn)
{
	struct rr_pagemap_ent e;
	int fd = rr_pagemap_open(r->pid), err;

	if (fd < 0)
		return fd;
	err = rr_pagemap_read(fd, r->addr, &e);
	close(fd);
	*pfn = e.pfn;
	return err ? err : e.pfn ? 0 : -ENOENT;
}

/* One page through corrupt-pfn: *w gets the write's error. */
static int inject_pfn(unsigned long long pfn, double *ms, int *w)
{
	char val[32];
	uint64_t t0;

	snprintf(val, sizeof(val), "%llu", pfn);
	t0 = rr_now_ns();
	*w = rr_write_file(rr_hwpoison_file("corrupt-pfn"), val);
	*ms = (double)(rr_now_ns() - t0) / 1e6;
	if (getenv("RMAP_REPRO_DEBUG"))
		rr_msg("debug: corrupt-pfn write %llu..%llu ns",
		       (unsigned long long)t0,
		       (unsigned long long)(t0 + *ms * 1e6));
	return 0;
}

/*
 * One page by MADV_HWPOISON in the member that maps it: *w gets
 * madvise()'s error (negative), *killed counts a call ended by SIGBUS.
 */
static int inject_madvise(const struct rr_pattern *p,
			  const struct rr_page_ref *r, double *ms, int *w,
			  unsigned long *killed)
{
	struct rr_member_call mc;
	int err;

	if (r->pid <= 0)
		return -EINVAL;	/* the measuring process must not die */
	err = rr_family_madvise(p, r->pid, r->addr, MADV_HWPOISON, &mc);
	if (err)
		return err;
	*ms = mc.ms;
	*w = -mc.err;
	*killed += mc.sigbus;
	return 0;
}

/* madvise: the members that make the calls are traced too. */
static int actors(const struct rr_pattern *p, int *pids, int max)
{
	int n = 0, k;
	size_t i;

	if (injector != RR_INJ_MADVISE)
		return 0;
	for (i = 0; i < p->nr_refs && n < max; i++) {
		for (k = 0; k < n && pids[k] != p->refs[i].pid; k++)
			;
		if (k == n && p->refs[i].pid > 0)
			pids[n++] = p->refs[i].pid;
	}
	return n;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	unsigned long done = 0, failed = 0, killed = 0;
	unsigned long long pfn = 0;
	double ms, most = 0;
	int err = 0, first = 0, w;
	size_t i;
	size_t o;

	if (!p->refs || !p->nr_refs) {
		snprintf(how, len,
			 "no page of another process to poison (the reproducer lists them in p->refs)");
		return -EINVAL;
	}
	for (i = 0; !err && i < p->nr_refs; i++) {
		err = frame_of(&p->refs[i], &pfn);
		if (!err)
			err = rr_hwpoison_journal(pfn);
		if (err)
			break;
		if (injector == RR_INJ_MADVISE)
			err = inject_madvise(p, &p->refs[i], &ms, &w, &killed);
		else
			err = inject_pfn(pfn, &ms, &w);
		if (err)
			break;
		if (w) {
			failed++;
			if (!first)
				first = -w;
		} else {
			done++;
		}
		if (ms > most)
			most = ms;
		if (ctx->calls)
			rr_samples_add(ctx->calls, ms);
		/* a test's signal, a frame poisoned (fault.h) */
		rr_test_hold("trigger hwpoison: after a frame");
	}
	ctx->moved += done;
	ctx->failed += failed;
	if (injector == RR_INJ_MADVISE)
		o = snprintf(how, len,
			     "memory_failure() of %lu frame(s) by madvise(MADV_HWPOISON) in pid %d, of its own mapping (MF_ACTION_REQUIRED): %lu handled, %lu refused%s%s, %lu call(s) ended by the caller's SIGBUS; longest call %.3f ms (CLOCK_MONOTONIC, in the caller)",
			     done + failed, p->refs[0].pid, done, failed,
			     failed ? ": " : "", failed ? strerror(first) : "",
			     killed, most);
	else
		o = snprintf(how, len,
			     "memory_failure() of %lu frame(s) of pid %d through debugfs hwpoison/corrupt-pfn: %lu handled, %lu refused%s%s; longest write %.3f ms (CLOCK_MONOTONIC)",
			     done + failed, p->refs[0].pid, done, failed,
			     failed ? ": " : "", failed ? strerror(first) : "",
			     most);
	if (injector_why[0] && o < len)
		snprintf(how + o, len - o, "; %s", injector_why);
	if (err)
		return err;
	if (failed && !ctx->failures_are_data)
		return -first;
	return 0;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%llu of %llu frames poisoned (memory_failure() returned 0), %llu refused",
		 c->moved, c->moved + c->move_failed, c->move_failed);
}

const struct rr_trigger_ops rr_trigger_hwpoison = {
	.name = "hwpoison",
	.help = "memory_failure() of the pattern's pages, through the hwpoison injector or MADV_HWPOISON, --injector; only in the suite's VM or with --allow-hwpoison",
	.opts = opts,
	.kconfig = kconfig,
	.bracket = -1,			/* no stock bracket: a walk probe */
	.available = available,
	.setup = setup,
	.fire = fire,
	.actors = actors,
	.reach = reach,
	/*
	 * Since 6.7 collect_procs_ksm() is a global function of ksm.c; the
	 * anon and file ones are static and often inlined, as collect_procs()
	 * itself may be (the roles list both names).
	 */
	.part_what = "finding the processes that map the page",
	.part_roles = {
		[RR_PT_KSM] = RR_KFN_COLLECT_KSM,
		[RR_PT_ANON] = RR_KFN_COLLECT_ANON,
		[RR_PT_FILE] = RR_KFN_COLLECT_FILE,
	},
	.walks_what = "unmapping it",
	.call_rest = "killing them and retiring the frame",
};
