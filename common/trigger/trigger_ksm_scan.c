// SPDX-License-Identifier: GPL-2.0
/*
 * Trigger ksm-scan: ksmd itself, for the reproducers of the KSM daemon
 * (scan cost, ksmd behind a busy mmap lock). ksmd runs (run=1) until
 * this process has the case's pages merged (rr_pattern.ksm_goal), or for
 * two full scans when there is no goal, then stops (run=0, which keeps
 * pages merged). Each call is timed (CLOCK_MONOTONIC: the trigger's
 * calls, which a reproducer may judge); ksmd is watched meanwhile: its
 * CPU time from /proc/PID/stat, its state every 10 ms (D: waiting on a
 * lock or I/O), the pages it scanned. The ksm-scan bracket times each
 * full scan; without the ksm tracepoints (before Linux 6.8), the
 * ksm-poll probe does from KSM's full_scans counter. ksmd is another
 * task: the trigger works anywhere. Never picked by auto.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/stats.h"
#include "lib/util.h"
#include "mm/ksm.h"
#include "model/repro.h"
#include "model/result.h"
#include "probe/bracket.h"
#include "probe/tasks.h"
#include "trigger/trigger.h"

static const char *const kconfig[] = { "KSM", NULL };

static int ksmd_pid;

/* The kernel thread named ksmd, or 0. */
static int find_ksmd(void)
{
	char path[64], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int pid = 0;

	if (!dir)
		return 0;
	while (!pid && (d = readdir(dir))) {
		int n = atoi(d->d_name);

		snprintf(path, sizeof(path), "/proc/%d/comm", n);
		if (n > 0 && !rr_read_file(path, comm, sizeof(comm)) &&
		    !strncmp(comm, "ksmd", 4) && (!comm[4] || comm[4] == '\n'))
			pid = n;
	}
	closedir(dir);
	return pid;
}

/* ksmd's state letter and utime + stime in ms, from /proc/PID/stat. */
static int ksmd_stat(char *state, double *cpu_ms)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	long hz = sysconf(_SC_CLK_TCK);

	snprintf(path, sizeof(path), "/proc/%d/stat", ksmd_pid);
	if (rr_read_file(path, buf, sizeof(buf)))
		return -ENOENT;
	/* after "(comm)": state, then fields 4..13, utime and stime */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 state, &ut, &st) != 3)
		return -EINVAL;
	*cpu_ms = (double)(ut + st) * 1000 / (hz > 0 ? hz : 100);
	return 0;
}

static bool available(char *why, size_t len)
{
	if (!rr_ksm_available()) {
		snprintf(why, len, "no KSM (%s)", rr_ksm_dir());
		return false;
	}
	if (!find_ksmd()) {
		snprintf(why, len, "no ksmd thread found in /proc");
		return false;
	}
	/* without the ksm tracepoints (before 6.8), full_scans is polled */
	return rr_bracket_available(RR_BR_KSM_SCAN, why, len) ||
	       rr_bracket_available(RR_BR_KSM_POLL, why, len);
}

static int setup(struct rr_trigger_ctx *ctx, struct rr_result *res,
		 char *why, size_t len)
{
	ksmd_pid = find_ksmd();
	rr_tasks_add(RR_TASK_KSMD, ksmd_pid);
	rr_phase(res, "setup: KSM");
	return rr_ksm_setup(why, len);
}

static unsigned long long pages_scanned(bool *missing)
{
	char path[PATH_MAX];
	unsigned long long v = 0;

	snprintf(path, sizeof(path), "%s/pages_scanned", rr_ksm_dir());
	*missing = rr_read_ull(path, &v) != 0;
	return v;
}

static int fire(struct rr_trigger_ctx *ctx, char *how, size_t len)
{
	const struct rr_pattern *p = ctx->pattern;
	struct rr_ksmd_use *u = ctx->ksmd;
	struct rr_ksm_counters k0, k;
	unsigned long long scanned0, samples = 0, dstate = 0;
	double cpu0 = 0, cpu1 = 0;
	uint64_t t0, t1, deadline;
	bool missing;
	char state;
	int err;

	err = rr_ksm_read(&k0);
	if (err) {
		snprintf(how, len, "cannot read the KSM counters");
		return err;
	}
	scanned0 = pages_scanned(&missing);
	ksmd_stat(&state, &cpu0);
	t0 = rr_now_ns();
	deadline = t0 + rr_ksm_opts.merge_timeout_s * NSEC_PER_SEC;
	err = rr_ksm_run(true);
	if (err) {
		snprintf(how, len, "cannot start ksmd: %s", strerror(-err));
		return err;
	}
	for (;;) {
		rr_sleep_ms(10);
		if (!ksmd_stat(&state, &cpu1)) {
			samples++;
			dstate += state == 'D';
		}
		err = rr_ksm_read(&k);
		if (err)
			break;
		if (p->ksm_goal ? k.merging_pages >= (long long)p->ksm_goal :
		    k.full_scans >= k0.full_scans + 2)
			break;
		if (rr_now_ns() > deadline) {
			err = -ETIMEDOUT;
			break;
		}
	}
	t1 = rr_now_ns();
	/*
	 * run=0 keeps what ksmd merged. Its CPU time was last read at the
	 * goal: the rest of the batch it finishes after is not counted.
	 */
	if (rr_ksm_run(false) && !err)
		err = -EIO;
	snprintf(how, len,
		 "ksmd ran %.2f s (run=1 to run=0): %llu full scans, %lld pages of this process merged (goal %zu%s)",
		 (double)(t1 - t0) / NSEC_PER_SEC,
		 k.full_scans - k0.full_scans, k.merging_pages, p->ksm_goal,
		 p->ksm_goal ? "" : ": two full scans instead");
	if (err == -ETIMEDOUT)
		snprintf(how + strlen(how), len - strlen(how),
			 "; stopped after --merge-timeout %llu s",
			 rr_ksm_opts.merge_timeout_s);
	if (err)
		return err;
	if (ctx->calls)
		rr_samples_add(ctx->calls, (double)(t1 - t0) / NSEC_PER_MSEC);
	if (u) {
		u->calls++;
		u->s += (double)(t1 - t0) / NSEC_PER_SEC;
		u->full_scans += k.full_scans - k0.full_scans;
		u->pages_scanned += pages_scanned(&missing) - scanned0;
		u->no_pages_scanned |= missing;
		u->cpu_ms += cpu1 - cpu0;
		u->samples += samples;
		u->d_samples += dstate;
		u->merging = k.merging_pages;
	}
	return 0;
}

static void reach(const struct rr_case_result *c, char *buf, size_t len)
{
	snprintf(buf, len, "%llu full scans of ksmd over %.2f s",
		 c->ksmd.full_scans, c->ksmd.s);
}

const struct rr_trigger_ops rr_trigger_ksm_scan = {
	.name = "ksm-scan",
	.kconfig = kconfig,
	.bracket = RR_BR_KSM_SCAN,
	.anywhere = true,
	.bracket_only = true,
	.only_listed = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
};
