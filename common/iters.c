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

/* The synthetic event that carries an rmap_item's id per step. */
static int prepare_synth(char *note, size_t nlen)
{
	char path[256];
	int err;

	if (!tracefs_file_exists(NULL, "synthetic_events")) {
		snprintf(note, nlen,
			 "no synthetic_events (CONFIG_SYNTH_EVENTS off): totals only");
		return -ENOENT;
	}
	if (rr_trace_event_exists("synthetic", RR_STEP_SYNTH)) {
		snprintf(note, nlen,
			 "synthetic/%s exists already (not ours): totals only",
			 RR_STEP_SYNTH);
		return -EEXIST;
	}
	snprintf(path, sizeof(path), "synthetic/%s", RR_STEP_SYNTH);
	err = journal_record(J_DYNEVENT, path, tracefs_tracing_dir());
	if (err)
		return err;
	if (tracefs_instance_file_append(NULL, "synthetic_events",
					 RR_STEP_SYNTH " u64 sid\n") < 0) {
		err = errno ? -errno : -EIO;
		snprintf(note, nlen, "cannot create synthetic/%s: %s",
			 RR_STEP_SYNTH, strerror(-err));
		return err;
	}
	return 0;
}

int rr_iters_prepare(bool *per_item, char *note, size_t nlen, char *why,
		     size_t len)
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
	note[0] = '\0';
	*per_item = !prepare_synth(note, nlen);
	return 0;
}

/*
 * The triggers, in the order they are added (removed in reverse: a
 * trigger that refers to another's variable or event goes first).
 * 0, 1: totals per task; with per_item the same hists also keep the
 * rmap_item's id and fire the step event (iter_first on every call,
 * its id changing each time); 2: steps per rmap_item.
 */
static void triggers(int pid, bool per_item, char trig[3][256])
{
	if (!per_item) {
		for (int i = 0; i < 2; i++)
			snprintf(trig[i], 256,
				 "hist:keys=common_pid:vals=hitcount if common_pid == %d",
				 pid);
		trig[2][0] = '\0';
		return;
	}
	snprintf(trig[0], 256,
		 "hist:keys=common_pid:vals=hitcount:rr_sid=common_timestamp:onchange($rr_sid).trace(%s,$rr_sid) if common_pid == %d",
		 RR_STEP_SYNTH, pid);
	snprintf(trig[1], 256,
		 "hist:keys=common_pid:vals=hitcount:onmatch(%s.%s).trace(%s,$rr_sid) if common_pid == %d",
		 RR_KPROBE_GROUP, ev[0], RR_STEP_SYNTH, pid);
	/* Up to 512 rmap_items per walk here; room for many walks. */
	snprintf(trig[2], 256, "hist:keys=sid:vals=hitcount:sort=sid:size=16384");
}

static const char *trig_system(int i)
{
	return i < 2 ? RR_KPROBE_GROUP : "synthetic";
}

static const char *trig_event(int i)
{
	return i < 2 ? ev[i] : RR_STEP_SYNTH;
}

/* Remove the triggers that were added, dependents first. */
static void disarm(struct rr_trace *t, char trig[3][256], int added)
{
	char cmd[260];
	int order[3] = { 1, 0, 2 }, k;

	for (k = 0; k < 3; k++) {
		int i = order[k];

		if (!(added & (1 << i)))
			continue;
		snprintf(cmd, sizeof(cmd), "!%s", trig[i]);
		tracefs_event_file_append(t->inst, trig_system(i),
					  trig_event(i), "trigger", cmd);
	}
}

static int arm(struct rr_trace *t, int pid, bool per_item, char *why,
	       size_t len)
{
	char trig[3][256], *err;
	int order[3] = { 2, 0, 1 }, added = 0, k;

	triggers(pid, per_item, trig);
	for (k = 0; k < 3; k++) {
		int i = order[k];

		if (!trig[i][0])
			continue;
		/*
		 * A trigger alone soft-enables the event: the hist counts
		 * every hit and no record is written to the ring buffer.
		 */
		if (tracefs_event_file_append(t->inst, trig_system(i),
					      trig_event(i), "trigger",
					      trig[i]) >= 0) {
			added |= 1 << i;
			continue;
		}
		err = tracefs_error_last(t->inst);
		snprintf(why, len, "cannot add '%s' to %s/%s: %s", trig[i],
			 trig_system(i), trig_event(i),
			 err ? err : strerror(errno));
		free(err);
		disarm(t, trig, added);
		return -EIO;
	}
	return 0;
}

int rr_iters_arm(struct rr_trace *t, int pid, bool *per_item, char *note,
		 size_t nlen, char *why, size_t len)
{
	if (*per_item && !arm(t, pid, true, note, nlen))
		return 0;
	*per_item = false;
	return arm(t, pid, false, why, len);
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

long rr_hist_items(const char *text, const char *key,
		   struct rr_item_count **out, unsigned long long *dropped)
{
	struct rr_item_count *v = NULL, *nv;
	size_t n = 0, cap = 0, klen = strlen(key);
	const char *line, *d;

	*out = NULL;
	*dropped = 0;
	/* "{ sid:  123456789 } hitcount:      19980" */
	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		const char *p = line, *h;
		char *end;
		uint64_t k;

		if (*p++ != '{')
			continue;
		while (*p == ' ')
			p++;
		if (strncmp(p, key, klen) || p[klen] != ':')
			continue;
		k = strtoull(p + klen + 1, &end, 10);
		h = strstr(end, "hitcount:");
		if (!h || (strchr(end, '\n') && h > strchr(end, '\n')))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
		}
		v[n].sid = k;
		v[n].steps = strtoull(h + 9, NULL, 10);
		n++;
	}
	d = text ? strstr(text, "Dropped:") : NULL;
	if (d)
		*dropped = strtoull(d + 8, NULL, 10);
	*out = v;
	return (long)n;
}

int rr_iters_read(struct rr_trace *t, int pid, bool per_item,
		  struct rr_iter_counts *out)
{
	unsigned long long *tot[2] = { &out->first, &out->next };
	char trig[3][256], *text;
	long n;
	int i, err = 0;

	memset(out, 0, sizeof(*out));
	triggers(pid, per_item, trig);
	for (i = 0; i < 2; i++) {
		text = tracefs_event_file_read(t->inst, RR_KPROBE_GROUP, ev[i],
					       "hist", NULL);
		if (!text)
			err = -EIO;
		*tot[i] = text ? rr_hist_hitcount(text, pid) : 0;
		free(text);
	}
	if (per_item) {
		text = tracefs_event_file_read(t->inst, "synthetic",
					       RR_STEP_SYNTH, "hist", NULL);
		n = text ? rr_hist_items(text, "sid", &out->items,
					 &out->dropped) : -1;
		if (n < 0)
			err = -EIO;
		else
			out->nitems = n;
		free(text);
	}
	disarm(t, trig, per_item ? 7 : 3);
	return err;
}

void rr_iter_counts_free(struct rr_iter_counts *c)
{
	free(c->items);
	c->items = NULL;
	c->nitems = 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct rr_item_count *x = a, *y = b;

	return x->sid < y->sid ? -1 : x->sid > y->sid;
}

static int cmp_span(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

unsigned long long rr_iters_attribute(struct rr_item_count *items, size_t n,
				      struct rr_spans *spans,
				      struct rr_samples *per_walk,
				      struct rr_samples *per_item,
				      size_t *outside)
{
	unsigned long long lost = 0;
	size_t i = 0, s;

	*outside = 0;
	if (n)
		qsort(items, n, sizeof(*items), cmp_item);
	if (spans->n)
		qsort(spans->v, spans->n, sizeof(*spans->v), cmp_span);
	/* Walks of one task do not overlap: one sweep over both lists. */
	for (s = 0; s < spans->n; s++) {
		uint64_t start = spans->v[s][0], end = spans->v[s][1];
		unsigned long long steps = 0;

		for (; i < n && items[i].sid < start; i++) {
			lost += items[i].steps;
			(*outside)++;
		}
		for (; i < n && items[i].sid <= end; i++) {
			steps += items[i].steps;
			rr_samples_add(per_item, (double)items[i].steps);
		}
		rr_samples_add(per_walk, (double)steps);
	}
	for (; i < n; i++) {
		lost += items[i].steps;
		(*outside)++;
	}
	return lost;
}
