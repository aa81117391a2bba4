// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe probe: a kprobe at the entry and a kretprobe at the return
 * of each walk function, dynamic events of the suite's own group
 * (rmap_repro/rr_walk_TYPE and rr_walk_TYPE_ret). They are journaled
 * before they are made, and before the instance exists, so that the
 * replay removes the instance first and then them; only the suite's own
 * group is ever removed.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <tracefs.h>

#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/util.h"
#include "probe/bracket.h"
#include "probe/probe.h"

/* ---- undo (listed in core/undo.c) ---- */

/* Remove a dynamic event of ours: disabled everywhere first. */
static int undo_dynevent(const char *name, const char *dir, bool verbose)
{
	char path[PATH_MAX], cmd[256];
	struct dirent *d;
	DIR *inst;
	int err;

	snprintf(path, sizeof(path), "%s/events/%s", dir, name);
	if (!rr_path_exists(path))
		return 0;
	snprintf(path, sizeof(path), "%s/events/%s/enable", dir, name);
	rr_write_file(path, "0");
	snprintf(path, sizeof(path), "%s/instances", dir);
	inst = opendir(path);
	while (inst && (d = readdir(inst))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s/events/%s/enable",
			 dir, d->d_name, name);
		if (rr_path_exists(path))
			rr_write_file(path, "0");
	}
	if (inst)
		closedir(inst);
	snprintf(path, sizeof(path), "%s/dynamic_events", dir);
	snprintf(cmd, sizeof(cmd), "-:%s\n", name);
	err = rr_append_file(path, cmd);
	if (!err && verbose)
		rr_msg("removed dynamic event %s", name);
	return err;
}

/*
 * A dynamic event of the suite's own: rmap_repro/NAME, or the synthetic
 * event synthetic/rmap_repro_NAME; in a tracefs.
 */
static int check_dynevent(const char *name, const char *dir, char *why,
			  size_t len)
{
	static const char *const any[] = { "/", NULL };
	static const char *const groups[] = {
		RR_KPROBE_GROUP "/", "synthetic/" RR_KPROBE_GROUP "_", NULL
	};
	char real[PATH_MAX];
	const char *p = NULL;
	int i;

	for (i = 0; groups[i] && !p; i++)
		if (!strncmp(name, groups[i], strlen(groups[i])))
			p = name + strlen(groups[i]);
	for (; p && *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= '0' && *p <= '9') &&
		    *p != '_')
			break;
	if (!p || *p || p == name) {
		snprintf(why, len, "not a dynamic event of the suite's (" RR_KPROBE_GROUP "/NAME)");
		return -EPERM;
	}
	return journal_trust_path(dir, any, RR_FS_TRACEFS, real, sizeof(real),
				  why, len);
}

const struct journal_undo rr_undo_dynevent = {
	J_DYNEVENT, undo_dynevent, check_dynevent, ENOSPC
};

static bool kprobe_available(struct rr_probe_setup *ps, int trigger_bracket,
			     char *why, size_t len)
{
	struct rr_walkfn *fns = ps->fns;

	ps->bracket = RR_BR_KPROBE;
	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		snprintf(why, len, "no kprobe_events (CONFIG_KPROBE_EVENTS off)");
		return false;
	}
	if (!rr_walkfn_resolve(fns) || !fns[RR_PT_KSM].found) {
		snprintf(why, len, "rmap_walk_ksm is not in /proc/kallsyms");
		return false;
	}
	return true;
}

int rr_kprobe_create(const char *event, const char *func, bool ret,
		     char *why, size_t len)
{
	return rr_kprobe_create_fmt(event, func, ret, NULL, why, len);
}

int rr_kprobe_create_fmt(const char *event, const char *func, bool ret,
			 const char *fmt, char *why, size_t len)
{
	struct tracefs_dynevent *ev;
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/%s", RR_KPROBE_GROUP, event);
	err = journal_record(J_DYNEVENT, path, tracefs_tracing_dir());
	if (err) {
		snprintf(why, len, "cannot create %s on %s: journal: %s",
			 path, func, strerror(-err));
		return err;
	}
	ev = ret ? tracefs_kretprobe_alloc(RR_KPROBE_GROUP, event, func, fmt,
					   0) :
		   tracefs_kprobe_alloc(RR_KPROBE_GROUP, event, func, fmt);
	if (!ev || tracefs_dynevent_create(ev)) {
		err = errno ? -errno : -EIO;
		snprintf(why, len, "cannot create %s on %s: %s", path, func,
			 strerror(-err));
		tracefs_dynevent_free(ev);
		return err;
	}
	tracefs_dynevent_free(ev);
	return 0;
}

int rr_kprobe_pairs(int bracket, const struct rr_walkfn *fns, char *why,
		    size_t len)
{
	char entry[64], ret[64];
	int t, err;

	for (t = 0; t < RR_PT_MAX; t++) {
		if (!fns[t].found)
			continue;
		rr_kprobe_names(bracket, t, entry, ret, sizeof(entry));
		err = rr_kprobe_create(entry, fns[t].name, false, why, len);
		if (!err)
			err = rr_kprobe_create(ret, fns[t].name, true, why, len);
		if (err)
			return err;
	}
	return 0;
}

static int kprobe_prepare(struct rr_probe_setup *ps, char *why, size_t len)
{
	return rr_kprobe_pairs(RR_BR_KPROBE, ps->fns, why, len);
}

int rr_probe_sweep(void)
{
	struct tracefs_dynevent **evs;
	int i, n = 0;

	evs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_KRETPROBE,
				       RR_KPROBE_GROUP);
	for (i = 0; evs && evs[i]; i++)
		if (!tracefs_dynevent_destroy(evs[i], true))
			n++;
	tracefs_dynevent_list_free(evs);
	if (n)
		rr_msg("removed %d stale %s dynamic events", n, RR_KPROBE_GROUP);
	return n;
}

const struct rr_probe_ops rr_probe_kprobe = {
	.kind = RR_PROBE_KPROBE,
	.available = kprobe_available,
	.prepare = kprobe_prepare,
};
