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

#include "journal/fault.h"
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

/*
 * ksmd while it ran for a case's probe pass (rr_case_result.trig,
 * summed over runs): what it scanned, its CPU time (/proc/PID/stat utime
 * and stime of ksmd), how often it was seen in D state (sampled every
 * 10 ms), and what it merged.
 */
struct ksmd_use {
	unsigned int calls;
	double s;			/* time ksmd ran, s */
	unsigned long long full_scans;
	unsigned long long pages_scanned;	/* /sys/kernel/mm/ksm */
	bool no_pages_scanned;		/* that counter is missing */
	double cpu_ms;
	unsigned long long samples, d_samples;
	long long merging;		/* this process's, at the end */
};

_Static_assert(sizeof(struct ksmd_use) <= RR_TRIG_CASE_BYTES,
	       "ksmd's figures fit rr_case_result.trig");

static const struct ksmd_use *use_in(const struct rr_case_result *c)
{
	return (const struct ksmd_use *)c->trig;
}

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
	struct ksmd_use *u = ctx->figures;
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
	/* a test's signal, ksmd scanning (fault.h) */
	rr_test_hold("trigger ksm-scan: ksmd on");
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
		 use_in(c)->full_scans, use_in(c)->s);
}

/* What ksmd did in a case ("" if it did not run). */
static void case_summary(const struct rr_result *r,
			 const struct rr_case_result *c, char *buf,
			 size_t size)
{
	const struct ksmd_use *u = use_in(c);
	char scanned[96] = "pages scanned unknown (no pages_scanned counter)";

	buf[0] = '\0';
	if (!u->calls)
		return;
	if (!u->no_pages_scanned)
		snprintf(scanned, sizeof(scanned),
			 "%llu pages scanned (%.0f pages/s, %.2f us of ksmd CPU per page)",
			 u->pages_scanned, u->s > 0 ? u->pages_scanned / u->s : 0,
			 u->pages_scanned ? u->cpu_ms * 1000 / u->pages_scanned :
			 0);
	snprintf(buf, size,
		 "ran %.2f s in %u call%s: %llu full scans, %s; CPU %.0f ms (/proc/PID/stat, clock ticks); in D state in %.1f%% of %llu samples (every 10 ms); %lld pages of this process merged at the end (%.1f MiB saved)",
		 u->s, u->calls, u->calls == 1 ? "" : "s", u->full_scans,
		 scanned, u->cpu_ms,
		 u->samples ? 100.0 * u->d_samples / u->samples : 0,
		 u->samples, u->merging,
		 u->merging > 0 ? u->merging * (double)rr_page_size() /
		 (1 << 20) : 0);
}

static void case_json(const struct rr_result *r,
		      const struct rr_case_result *c, struct rr_json *j)
{
	const struct ksmd_use *u = use_in(c);

	json_uint(j, "calls", u->calls);
	json_num(j, "seconds", u->s, 3);
	json_uint(j, "full_scans", u->full_scans);
	if (u->no_pages_scanned)
		json_null(j, "pages_scanned");
	else
		json_uint(j, "pages_scanned", u->pages_scanned);
	json_num(j, "cpu_ms", u->cpu_ms, 1);
	json_uint(j, "state_samples", u->samples);
	json_uint(j, "d_state_samples", u->d_samples);
	json_int(j, "merging_pages", u->merging);
}

static void example(struct rr_result *r, struct rr_case_result *c)
{
	struct ksmd_use *u = (struct ksmd_use *)c->trig;

	u->calls = 1;
	u->s = 1;
}

const struct rr_trigger_ops rr_trigger_ksm_scan = {
	.name = "ksm-scan",
	.help = "ksmd itself, run until the case's pages are merged; for the reproducers of the KSM daemon, which name it",
	.kconfig = kconfig,
	.bracket = RR_BR_KSM_SCAN,
	.anywhere = true,
	.bracket_only = true,
	.only_listed = true,
	.available = available,
	.setup = setup,
	.fire = fire,
	.reach = reach,
	.case_key = "ksmd",
	.case_summary = case_summary,
	.case_json = case_json,
	.example = example,
};
