// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger hwpoison: memory_failure() of the pattern's pages, injected by
 * frame number through the hwpoison injector (debugfs
 * hwpoison/corrupt-pfn): the pages are another process's (a
 * reproducer's sacrificial child, listed in p->refs), never the
 * measuring process's. The kernel finds every process that maps the
 * page (collect_procs_ksm/anon/file), unmaps the page with an rmap walk,
 * kills the processes that asked for an early kill, and retires the
 * frame. Each write to corrupt-pfn is timed (CLOCK_MONOTONIC): the whole
 * of memory_failure() for one page.
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
#include <unistd.h>

#include "hwpoison.h"
#include "repro.h"
#include "result.h"
#include "trigger.h"
#include "util.h"

static const char *const kconfig[] = { "MEMORY_FAILURE", NULL };

/* Did scripts/vm-run boot this kernel? */
static bool in_suite_vm(void)
{
	char cmdline[4096];

	return !rr_read_file("/proc/cmdline", cmdline, sizeof(cmdline)) &&
	       strstr(cmdline, "rmap_repro.vm");
}

static bool available(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (CAP_SYS_ADMIN)");
		return false;
	}
	if (!rr_cfg.allow_hwpoison && !in_suite_vm()) {
		snprintf(why, len,
			 "refused outside a VM that scripts/vm-run booted: a poisoned frame is retired until reboot where the kernel cannot give it back; --allow-hwpoison to run it here anyway");
		return false;
	}
	return rr_hwpoison_reachable(why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	int err = rr_hwpoison_setup(why, len);

	if (!err && !rr_path_exists(rr_hwpoison_file("corrupt-pfn"))) {
		snprintf(why, len, "no %s", rr_hwpoison_file("corrupt-pfn"));
		err = -ENODEV;
	}
	return err;
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

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	unsigned long done = 0, failed = 0;
	unsigned long long pfn = 0;
	double ms, most = 0;
	char val[32];
	int err = 0, first = 0, w;
	uint64_t t0;
	size_t i;

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
		snprintf(val, sizeof(val), "%llu", pfn);
		t0 = rr_now_ns();
		w = rr_write_file(rr_hwpoison_file("corrupt-pfn"), val);
		ms = (double)(rr_now_ns() - t0) / 1e6;
		if (getenv("RMAP_REPRO_DEBUG"))
			rr_msg("debug: corrupt-pfn write %llu..%llu ns",
			       (unsigned long long)t0,
			       (unsigned long long)(t0 + ms * 1e6));
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
	}
	ctx->moved += done;
	ctx->failed += failed;
	snprintf(how, len,
		 "memory_failure() of %lu frame(s) of pid %d through debugfs hwpoison/corrupt-pfn: %lu handled, %lu refused%s%s; longest write %.3f ms (CLOCK_MONOTONIC)",
		 done + failed, p->refs[0].pid, done, failed,
		 failed ? ": " : "", failed ? strerror(first) : "", most);
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
	.kconfig = kconfig,
	.bracket = -1,			/* no stock bracket: a walk probe */
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
	/*
	 * Since 6.7 collect_procs_ksm() is a global function of ksm.c; the
	 * anon and file ones are static and often inlined, as collect_procs()
	 * itself may be.
	 */
	.part_what = "finding the processes that map the page",
	.part_fns = {
		[RR_PT_KSM] = { "collect_procs_ksm" },
		[RR_PT_ANON] = { "collect_procs_anon", "collect_procs" },
		[RR_PT_FILE] = { "collect_procs_file", "collect_procs" },
	},
	.walks_what = "unmapping it",
	.call_rest = "killing them and retiring the frame",
};
