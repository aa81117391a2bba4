// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "bracket.h"
#include "iters.h"
#include "journal.h"
#include "sysinfo.h"
#include "util.h"
#include "walkfn.h"

static const char *const fn[2] = {
	"anon_vma_interval_tree_iter_first",
	"anon_vma_interval_tree_iter_next",
};
static const char *const ev[2] = { "rr_iter_first", "rr_iter_next" };

/* The kallsyms names (suffixes included) of the two iterator functions. */
static bool resolve(char sym[2][128])
{
	char line[256], name[128];
	int found = 0, i;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return false;
	while (found < 2 && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "anon_vma_interval_tree_iter_") ||
		    sscanf(line, "%*s %*s %127s", name) != 1)
			continue;
		for (i = 0; i < 2; i++)
			if (!sym[i][0] && rr_ksym_match(name, fn[i])) {
				snprintf(sym[i], 128, "%s", name);
				found++;
			}
	}
	fclose(f);
	return found == 2;
}

bool rr_iters_available(char *why, size_t len)
{
	char sym[2][128] = { "", "" };

	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		snprintf(why, len, "no kprobe_events (CONFIG_KPROBE_EVENTS off)");
		return false;
	}
	if (rr_kconfig("HIST_TRIGGERS", NULL, 0) == 0) {
		snprintf(why, len, "CONFIG_HIST_TRIGGERS is not set");
		return false;
	}
	if (!resolve(sym)) {
		snprintf(why, len, "%s or %s is not in /proc/kallsyms", fn[0],
			 fn[1]);
		return false;
	}
	return true;
}

int rr_iters_prepare(char *why, size_t len)
{
	char sym[2][128] = { "", "" }, path[256];
	struct tracefs_dynevent *d;
	int i, err;

	if (!resolve(sym)) {
		snprintf(why, len, "iterator functions not found");
		return -ENOENT;
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", RR_KPROBE_GROUP, ev[i]);
		err = journal_record(J_DYNEVENT, path, tracefs_tracing_dir());
		if (err) {
			snprintf(why, len, "journal: %s", strerror(-err));
			return err;
		}
		d = tracefs_kprobe_alloc(RR_KPROBE_GROUP, ev[i], sym[i], NULL);
		if (!d || tracefs_dynevent_create(d)) {
			err = errno ? -errno : -EIO;
			snprintf(why, len, "cannot create %s on %s: %s", path,
				 sym[i], strerror(-err));
			tracefs_dynevent_free(d);
			return err;
		}
		tracefs_dynevent_free(d);
	}
	return 0;
}

static void trigger(int pid, char *buf, size_t size)
{
	snprintf(buf, size,
		 "hist:keys=common_pid:vals=hitcount if common_pid == %d",
		 pid);
}

int rr_iters_arm(struct rr_trace *t, int pid, char *why, size_t len)
{
	char trig[128], *err;
	int i;

	/*
	 * A trigger alone soft-enables the event: the hist counts every
	 * hit and no record is written to the ring buffer.
	 */
	trigger(pid, trig, sizeof(trig));
	for (i = 0; i < 2; i++) {
		if (tracefs_event_file_append(t->inst, RR_KPROBE_GROUP, ev[i],
					      "trigger", trig) >= 0)
			continue;
		err = tracefs_error_last(t->inst);
		snprintf(why, len, "cannot add '%s' to %s/%s: %s", trig,
			 RR_KPROBE_GROUP, ev[i], err ? err : strerror(errno));
		free(err);
		return -EIO;
	}
	return 0;
}

unsigned long long rr_hist_hitcount(const char *text, int pid)
{
	unsigned long long sum = 0;
	const char *p = text;

	/* "{ common_pid:        123 } hitcount:    5120000" */
	while (p && (p = strstr(p, "common_pid:"))) {
		char *end;
		long k = strtol(p + 11, &end, 10);
		const char *h = strstr(end, "hitcount:");
		const char *nl = strchr(end, '\n');

		p = end;
		if (!h || (nl && h > nl) || k != pid)
			continue;
		sum += strtoull(h + 9, NULL, 10);
	}
	return sum;
}

int rr_iters_read(struct rr_trace *t, int pid, unsigned long long *first,
		  unsigned long long *next)
{
	unsigned long long *out[2] = { first, next };
	char trig[130];
	char *text;
	int i, err = 0;

	trigger(pid, trig + 1, sizeof(trig) - 1);
	trig[0] = '!';
	for (i = 0; i < 2; i++) {
		text = tracefs_event_file_read(t->inst, RR_KPROBE_GROUP, ev[i],
					       "hist", NULL);
		if (!text)
			err = -EIO;
		*out[i] = text ? rr_hist_hitcount(text, pid) : 0;
		free(text);
		tracefs_event_file_append(t->inst, RR_KPROBE_GROUP, ev[i],
					  "trigger", trig);
	}
	return err;
}
