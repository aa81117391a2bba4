// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <tracefs.h>
#include <unistd.h>

#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/util.h"
#include "probe/trace.h"

#define TRACEFS_DIR "/sys/kernel/tracing"

/* ---- undo (listed in core/undo.c) ---- */

/* Does a trigger file's text hold a trigger (a line not a comment)? */
static bool has_trigger(const char *text)
{
	const char *l;

	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (*l != '#' && *l != '\n')
			return true;
	return false;
}

/*
 * Hist triggers that refer to each other's variables keep the instance
 * busy: its rmdir fails with EBUSY. Opening a trigger file with O_TRUNC
 * removes the event's triggers unless another trigger still refers to
 * them; a few passes remove them all, those that refer first.
 */
static void clear_triggers(const char *inst)
{
	char path[PATH_MAX], text[4096];
	struct dirent *s, *e;
	DIR *sys, *evd;
	int pass, left = 1;

	for (pass = 0; pass < 8 && left; pass++) {
		left = 0;
		snprintf(path, sizeof(path), "%s/events", inst);
		sys = opendir(path);
		while (sys && (s = readdir(sys))) {
			if (s->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s", inst,
				 s->d_name);
			evd = opendir(path);
			while (evd && (e = readdir(evd))) {
				if (e->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path),
					 "%s/events/%s/%s/trigger", inst,
					 s->d_name, e->d_name);
				if (rr_read_file(path, text, sizeof(text)) ||
				    !has_trigger(text))
					continue;
				left++;
				rr_write_file(path, "");
			}
			if (evd)
				closedir(evd);
		}
		if (sys)
			closedir(sys);
	}
}

int rr_trace_remove_instance(const char *dir, bool verbose)
{
	if (rr_path_exists(dir))
		clear_triggers(dir);
	return journal_rmdir(dir, verbose);
}

static int undo_mount(const char *dir, bool verbose)
{
	if (!rr_mounted(dir, NULL))
		return 0;
	if (umount(dir))
		return -errno;
	if (verbose)
		rr_msg("unmounted %s", dir);
	return 0;
}

static int undo_instance(const char *dir, const char *unused, bool verbose)
{
	return rr_trace_remove_instance(dir, verbose);
}

static int undo_mount_rec(const char *dir, const char *unused, bool verbose)
{
	return undo_mount(dir, verbose);
}

/* An instance of the suite's name, in a tracefs's instances/. */
static int check_instance(const char *dir, const char *unused, char *why,
			  size_t len)
{
	static const char *const any[] = { "/", NULL };
	char copy[PATH_MAX], real[PATH_MAX], *base;
	size_t n;

	snprintf(copy, sizeof(copy), "%s", dir);
	base = strrchr(copy, '/');
	if (!base || !journal_trust_name(base + 1, RR_INSTANCE_PREFIX)) {
		snprintf(why, len, "not an instance of the suite's name (" RR_INSTANCE_PREFIX "PID)");
		return -EPERM;
	}
	*base = '\0';
	n = strlen(copy);
	if (n < 10 || strcmp(copy + n - 10, "/instances")) {
		snprintf(why, len, "not in a tracefs instances/ directory");
		return -EPERM;
	}
	return journal_trust_path(copy, any, RR_FS_TRACEFS, real, sizeof(real),
				  why, len);
}

/* The two mounts a run may make: tracefs, and debugfs (hwpoison.c). */
static int check_mount(const char *dir, const char *unused, char *why,
		       size_t len)
{
	static const char *const ours[] = {
		TRACEFS_DIR, "/sys/kernel/debug", NULL
	};

	if (journal_trust_one_of(dir, ours))
		return 0;
	snprintf(why, len, "not a mount the suite makes (%s, /sys/kernel/debug)",
		 TRACEFS_DIR);
	return -EPERM;
}

const struct journal_undo rr_undo_instance = {
	J_INSTANCE, undo_instance, check_instance, ENOSPC
};
const struct journal_undo rr_undo_mount = {
	J_MOUNT, undo_mount_rec, check_mount, EBUSY
};

/* ---- tracing ---- */

int rr_trace_mount(char *why, size_t len)
{
	int err;

	/* libtracefs would mount it silently; do it here, journaled. */
	if (rr_mounted(NULL, "tracefs"))
		return 0;
	err = journal_record(J_MOUNT, TRACEFS_DIR, "");
	if (!err && mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL))
		err = -errno;
	if (err)
		snprintf(why, len, "cannot mount tracefs on %s: %s",
			 TRACEFS_DIR, strerror(-err));
	return err;
}

int rr_trace_sweep(void)
{
	/* A basic regular expression: "+" would be a literal there. */
	char **list = tracefs_instances("^" RR_INSTANCE_PREFIX
					"[0-9][0-9]*$");
	char path[PATH_MAX];
	int i, n = 0;

	for (i = 0; list && list[i]; i++) {
		long pid = strtol(list[i] + strlen(RR_INSTANCE_PREFIX),
				  NULL, 10);

		/* Only the instances of runs that are gone. */
		if (pid > 0 && (!kill(pid, 0) || errno != ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s",
			 tracefs_tracing_dir(), list[i]);
		if (!rr_trace_remove_instance(path, false)) {
			rr_msg("removed stale tracefs instance %s", list[i]);
			n++;
		}
	}
	tracefs_list_free(list);
	return n;
}

bool rr_trace_event_exists(const char *system, const char *event)
{
	return tracefs_event_file_exists(NULL, system, event, "format");
}

static int missed_cb(struct tep_event *ev, struct tep_record *rec, int cpu,
		     void *ctx)
{
	struct rr_trace *t = ctx;

	/* -1 means "some, count unknown": count it as one. */
	t->missed += rec->missed_events > 0 ? rec->missed_events : 1;
	return 0;
}

int rr_trace_open(struct rr_trace *t, size_t buffer_kb, char *why,
		  size_t len)
{
	const char *systems[] = { "rmap", "migrate", "vmscan", "compaction", "ksm",
				  "ftrace", "rmap_repro", "lock",
				  "mmap_lock", NULL };
	char path[512];
	int err;

	memset(t, 0, sizeof(*t));
	t->buffer_kb = buffer_kb;
	snprintf(t->name, sizeof(t->name), RR_INSTANCE_PREFIX "%d", getpid());
	snprintf(path, sizeof(path), "%s/instances/%s",
		 tracefs_tracing_dir(), t->name);
	err = journal_record(J_INSTANCE, path, "");
	if (err) {
		snprintf(why, len, "journal: %s", strerror(-err));
		return err;
	}
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst) {
		snprintf(why, len, "cannot create tracefs instance %s: %s",
			 t->name, strerror(errno));
		return -errno;
	}
	/* Created off; then configured; switched on only around a trigger. */
	if (tracefs_trace_off(t->inst) ||
	    tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0 ||
	    tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1)) {
		snprintf(why, len, "cannot configure instance %s: %s",
			 t->name, strerror(errno));
		return -EIO;
	}
	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep) {
		snprintf(why, len, "cannot parse event formats: %s",
			 strerror(errno));
		return -EIO;
	}
	tracefs_follow_missed_events(t->inst, missed_cb, t);
	return 0;
}

int rr_trace_grow(struct rr_trace *t, size_t buffer_kb)
{
	if (!t->inst || tracefs_instance_set_buffer_size(t->inst, buffer_kb,
							 -1))
		return -EIO;
	t->buffer_kb = buffer_kb;
	return 0;
}

void rr_trace_use_top(struct rr_trace *t)
{
	t->top_graph = true;
	tracefs_follow_missed_events(NULL, missed_cb, t);
}

int rr_trace_enable(struct rr_trace *t, const char *system,
		    const char *event, const char *filter)
{
	/* "0" clears a filter; an empty one would be an error */
	if (tracefs_event_file_write(t->inst, system, event, "filter",
				     filter && filter[0] ? filter : "0") < 0)
		return -EINVAL;
	return tracefs_event_enable(t->inst, system, event) ? -EINVAL : 0;
}

int rr_trace_disable_all(struct rr_trace *t)
{
	return tracefs_event_disable(t->inst, NULL, NULL) ? -EIO : 0;
}

int rr_trace_on(struct rr_trace *t)
{
	if (t->top_graph && tracefs_trace_on(NULL))
		return -EIO;
	return tracefs_trace_on(t->inst) ? -EIO : 0;
}

/*
 * Off between triggers: the top level too, or it would record the walks
 * the task makes on its own (NUMA balancing faults migrate pages too).
 */
int rr_trace_off(struct rr_trace *t)
{
	if (t->top_graph && tracefs_trace_off(NULL))
		return -EIO;
	return tracefs_trace_off(t->inst) ? -EIO : 0;
}

int rr_trace_reset(struct rr_trace *t)
{
	t->missed = 0;
	/*
	 * Opening "trace" for writing with truncation clears all CPUs. The
	 * top level holds our records only: it was empty when we took it.
	 */
	if (t->top_graph && tracefs_instance_file_clear(NULL, "trace"))
		return -EIO;
	return tracefs_instance_file_clear(t->inst, "trace") ? -EIO : 0;
}

int rr_trace_read(struct rr_trace *t, rr_record_fn fn, void *ctx)
{
	/* Each probe pairs records of one buffer: one after the other. */
	if (tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, fn, ctx))
		return -EIO;
	if (t->top_graph &&
	    tracefs_iterate_raw_events(t->tep, NULL, NULL, 0, fn, ctx))
		return -EIO;
	return 0;
}

unsigned long long rr_trace_stat_sum(struct tracefs_instance *inst,
				     const char *key)
{
	unsigned long long sum = 0, v;
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char file[64], *path;

	for (cpu = 0; cpu < ncpu; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%ld/stats", cpu);
		path = tracefs_instance_get_file(inst, file);
		if (!path)
			continue;
		if (!rr_read_keyed(path, key, &v))
			sum += v;
		tracefs_put_tracing_file(path);
	}
	return sum;
}

static unsigned long long lost(struct tracefs_instance *inst)
{
	return rr_trace_stat_sum(inst, "overrun") +
	       rr_trace_stat_sum(inst, "dropped events");
}

unsigned long long rr_trace_lost(struct rr_trace *t)
{
	return t->missed + lost(t->inst) + (t->top_graph ? lost(NULL) : 0);
}

void rr_trace_close(struct rr_trace *t)
{
	if (t->inst) {
		tracefs_trace_off(t->inst);
		tracefs_event_disable(t->inst, NULL, NULL);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	if (t->tep)
		tep_free(t->tep);
	memset(t, 0, sizeof(*t));
}
