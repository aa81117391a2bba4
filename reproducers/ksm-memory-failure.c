// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-memory-failure: memory_failure() of a KSM page of the split
 * pattern. When a page is poisoned the kernel first finds every process
 * that maps it (collect_procs_ksm(), which on the pathological kernels
 * visits every VMA of every rmap_item's anon_vma for each process that
 * asked for an early kill), then unmaps it with an rmap walk
 * (rmap_walk_ksm), kills those processes and retires the frame.
 *
 * The pattern is built, merged (ksmd then stopped) and inherited by a
 * sacrificial family (--pattern split: one child; fork: --children):
 * each member asks for an early kill (PR_MCE_KILL_EARLY) and faults in
 * its pages. The measuring process then replaces every mapping it has of
 * the frame to be poisoned with a fresh page (MAP_FIXED: a hole there
 * could be reused by other mappings, as glibc's thread stacks were on
 * Debian's 6.12): it never maps that frame, and its own rmap_items
 * (ksmd stopped) keep the walk as long as it was. The
 * hwpoison trigger poisons the frame through the child's mapping and
 * times the whole memory_failure() call; the probe times the walks in
 * it, and the trigger's part (call_part.c) the finding of the processes.
 * Oracle: every member died of SIGBUS (a member left alive is a
 * mapping the kernel did not find), and the frame is marked HWPoison.
 * The same on plain anonymous pages and on a MAP_SHARED memfd are the
 * controls (collect_procs_anon / _file look the page's offset up).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "mm/hwpoison.h"
#include "mm/kmsg.h"
#include "model/repro.h"
#include "pattern/family.h"
#include "trigger/trigger.h"

static unsigned long long children = 8;
static int shape;

enum { SHAPE_SPLIT, SHAPE_FORK };

static const char *const shape_names[] = { "split", "fork", NULL };

static struct rr_split_opts split = {
	.pages = 20000, .split_every = 2, .identical = 512,
};

static const struct rr_opt opts[] = {
	RR_SPLIT_OPTS(split),
	{ "pattern", OPT_ENUM, &shape, "SHAPE",
	  "split (one sacrificial child inherits the pattern) or fork (--children of them: every walk visits their VMAs too)",
	  .choices = shape_names },
	{ "children", OPT_UINT, &children, "N",
	  "sacrificial children with --pattern fork",
	  .min = 1, .max = 64 },
	RR_OPT_END
};

static const char *const kconfig[] = { "KSM", "MMU", "MEMORY_FAILURE",
				       NULL };

static const struct rr_case cases[] = {
	{ .type = RR_PT_KSM, .role = RR_SUBJECT,
	  .what = "a KSM-merged page mapped by the sacrificial family (collect_procs_ksm, rmap_walk_ksm)" },
	{ .type = RR_PT_ANON,
	  .what = "the same on plain anonymous pages, no KSM (collect_procs_anon, rmap_walk_anon, control)" },
	{ .type = RR_PT_FILE,
	  .what = "the same on a MAP_SHARED memfd (collect_procs_file, rmap_walk_file, control)" },
};

static const int triggers[] = { RR_TRIG_HWPOISON, 0 };

/* The frame poisoned in the case being run (one case at a time). */
static unsigned long long poisoned;
/* The kernel's log from the frame's choice on: does it refuse KSM? */
static struct rr_kmsg klog = { .fd = -1 };

static unsigned long long members(void)
{
	return shape == SHAPE_FORK ? children : 1;
}

static bool check(char *why, size_t len)
{
	/* its figures and its sentence count the filled pages as given */
	if (!split.identical) {
		snprintf(why, len,
			 "--identical 0 (every page): not offered here; give the number of pages to fill");
		return false;
	}
	return rr_split_fits(&split, why, len);
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_of(s, c->type, &split);
}

/*
 * A member: an early kill when its page is poisoned (no wait for a
 * touch), no core dump when SIGBUS kills it (a piped core_pattern would
 * collect its whole pattern), and every filled page faulted in (a
 * MAP_SHARED page is not mapped in a fork until touched).
 */
static void sacrifice(struct rr_pattern *p)
{
	size_t ps = rr_page_size(), i;
	volatile char sum = 0;

	if (prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		_exit(1);
	for (i = 0; i < p->filled; i++)
		sum += p->addr[rr_pattern_filled_index(p, i) * ps];
	(void)sum;
}

/* The victim must stay on a page the measuring process still maps. */
static void keep_victim(struct rr_pattern *p, const bool *gone)
{
	size_t ps = rr_page_size(), v = (p->victim - p->addr) / ps;

	while (v < p->spec.pages && gone[v])
		v += split.split_every;
	p->victim = v < p->spec.pages ? p->addr + v * ps : NULL;
}

/*
 * Fork the family; then replace, in the measuring process, every page
 * that maps the frame of the first filled page, and name that frame's
 * mapping in the first member for the trigger.
 */
static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	size_t ps = rr_page_size(), i, vmas, own = p->vmas, unmapped = 0;
	struct rr_pagemap_ent e;
	unsigned long long target = 0;
	char *first = p->addr + rr_pattern_filled_index(p, 0) * ps;
	bool *gone;
	int fd, err;

	err = rr_family_spawn(p, members(), 1, sacrifice, why, len);
	if (err)
		return err;
	if (klog.fd >= 0)
		rr_kmsg_collect(&klog, &(struct rr_klog){ 0 });
	rr_kmsg_open(&klog);
	gone = calloc(p->spec.pages, sizeof(*gone));
	fd = rr_pagemap_open(0);
	if (!gone || fd < 0) {
		free(gone);
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	err = rr_pagemap_read(fd, first, &e);
	target = poisoned = e.pfn;
	if (!err && !target) {
		snprintf(why, len,
			 "pagemap gives no frame numbers (needs CAP_SYS_ADMIN)");
		err = -EPERM;
	}
	for (i = 0; !err && i < p->filled; i++) {
		size_t k = rr_pattern_filled_index(p, i);

		err = rr_pagemap_read(fd, p->addr + k * ps, &e);
		if (err || e.pfn != target)
			continue;
		/*
		 * A fresh page in its place, not a hole: the address stays
		 * the pattern's, and the frame is no longer mapped here.
		 */
		if (mmap(p->addr + k * ps, ps, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED) {
			err = -errno;
			break;
		}
		gone[k] = true;
		unmapped++;
	}
	close(fd);
	if (!err && !unmapped) {
		snprintf(why, len, "the frame to poison was not found");
		err = -ENOENT;
	}
	if (!err) {
		keep_victim(p, gone);
		p->refs = calloc(1, sizeof(*p->refs));
		err = p->refs ? 0 : -ENOMEM;
	}
	free(gone);
	if (err)
		return err;
	p->refs[0].pid = p->pids[0];
	p->refs[0].addr = first;
	p->nr_refs = 1;
	/* The measuring process's VMAs changed: count them again. */
	err = rr_pattern_count_vmas(p, &vmas, why, len);
	if (!err)
		p->vmas = p->vmas - own + vmas;
	return err;
}

/*
 * Every member must die of SIGBUS (the kernel found its mapping and
 * killed it early); the frame must be marked HWPoison.
 */
static int verify(const struct rr_repro *r, const struct rr_case *c,
		  struct rr_pattern *p, struct rr_oracle *o, char *why,
		  size_t len)
{
	struct rr_klog log = { 0 };
	unsigned int l;
	int i, st, alive = 0, other = 0, waited;
	pid_t got = 0;

	/*
	 * Kernels before collect_procs_ksm() refuse KSM pages ("can't
	 * handle KSM pages"): the kernel's own reason, a skip.
	 */
	rr_kmsg_collect(&klog, &log);
	for (l = 0; l < log.lines; l++)
		if (strstr(log.line[l], "can't handle KSM")) {
			snprintf(why, len, "the kernel refuses KSM pages: \"%s\"",
				 log.line[l]);
			return -EOPNOTSUPP;
		}
	o->pages_checked++;
	if (rr_frame_poisoned(poisoned) != 1) {
		o->pages_failed++;
		snprintf(o->reason, sizeof(o->reason),
			 "frame %llu is not marked HWPoison after the trigger",
			 poisoned);
	}
	for (i = 0; i < p->nr_pids; i++) {
		o->mappings_checked++;
		for (waited = 0; waited < 3000; waited += 10) {
			got = waitpid(p->pids[i], &st, WNOHANG);
			if (got == p->pids[i] || got < 0)
				break;
			rr_sleep_ms(10);
		}
		if (got != p->pids[i]) {
			alive++;
			continue;
		}
		/* reaped here: the family's teardown must not kill it */
		p->pids[i] = -1;
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGBUS)
			other++;
	}
	o->mappings_missed += alive + other;
	if (o->pages_failed)
		return 0;
	if (alive || other) {
		snprintf(o->reason, sizeof(o->reason),
			 "%d of %d member(s) not killed by SIGBUS (%d still alive after 3 s): the kernel did not find their mapping of the poisoned page",
			 alive + other, p->nr_pids, alive);
		return 0;
	}
	snprintf(o->reason, sizeof(o->reason),
		 "every member (%d) killed by SIGBUS: the kernel found each mapping of the poisoned page",
		 p->nr_pids);
	return 0;
}

static const struct rr_repro_ops ops = {
	.after_merge = after_merge,
	.verify = verify,
};

static void describe(struct rr_result *res)
{
	res->pages = split.pages;
	rr_result_param(res, "split_every", split.split_every);
	rr_result_param(res, "identical_pages", split.identical);
	rr_result_param_text(res, "pattern", shape_names[shape]);
	rr_result_param(res, "sacrificial_processes", members());
	res->max_page_sharing = rr_ksm_opts.max_page_sharing;
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	size_t o;
	int i;

	o = snprintf(buf, len,
		     "one %llu-page mapping, one page in every %llu mprotect(PROT_READ), %llu pages of identical content merged by KSM (ksmd then stopped); %llu sacrificial child%s inherit%s it, ask for an early kill (PR_MCE_KILL_EARLY) and fault the pages in; the measuring process replaces its own mappings of one frame with fresh pages, and the hwpoison trigger then poisons the frame through the first child's mapping. Processes and VMAs of the pattern:",
		     split.pages, split.split_every, split.identical, members(),
		     members() == 1 ? "" : "ren", members() == 1 ? "s" : "");
	for (i = 0; i < res->nr_cases && o < len; i++)
		o += snprintf(buf + o, len - o, "%s %s %u processes, %zu VMAs",
			      i ? ";" : "", res->cases[i].name,
			      res->cases[i].procs, res->cases[i].vmas);
}

static const struct rr_repro ksm_memory_failure = {
	.name = "ksm-memory-failure",
	.summary = "Reproduce long rmap work in memory_failure() of a KSM page: the split pattern merged by KSM and inherited by a sacrificial child (--pattern fork: --children of them) that asks for an early kill; of the --identical / max_page_sharing KSM pages, one KSM frame, which the measuring process no longer maps, is poisoned (through the hwpoison injector's corrupt-pfn, or by MADV_HWPOISON in the child: --injector). The trigger times each whole memory_failure() call; inside it the probe times the walks (unmapping) and a kprobe pair on collect_procs_ksm (_anon, _file) finding the processes, where the kernel allows; an oracle checks every child died of SIGBUS. Destructive: runs only in a VM that scripts/vm-run booted, or with --allow-hwpoison.",
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
	/*
	 * The whole memory_failure(): a kernel whose walk is fixed may
	 * still spend its time finding the processes.
	 */
	.judge_calls = true,
	.triggers_why = "it poisons a page that only its sacrificial children map: the hwpoison trigger (CONFIG_MEMORY_FAILURE, the hwpoison injector, and a VM that scripts/vm-run booted or --allow-hwpoison)",
};

int main(int argc, char **argv)
{
	return rr_main(&ksm_memory_failure, argc, argv);
}
