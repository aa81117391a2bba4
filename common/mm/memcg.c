// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal/fault.h"
#include "journal/journal.h"
#include "journal/trust.h"
#include "lib/util.h"
#include "mm/memcg.h"

const char *rr_memcg_ver_name(enum rr_memcg_ver v)
{
	return v == RR_MEMCG_V1 ? "v1" : v == RR_MEMCG_V2 ? "v2" : "none";
}

/*
 * mountinfo: "id parent maj:min root mountpoint opts ... - fstype src
 * superopts". Find a cgroup v1 mount with the memory option, else a
 * cgroup2 mount whose root offers the memory controller.
 */
enum rr_memcg_ver rr_memcg_detect(char *mnt, size_t size, char *why,
				  size_t len)
{
	char *line = NULL, v1[PATH_MAX] = "", v2[PATH_MAX] = "";
	char ctrl[512], path[PATH_MAX + 32];
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f) {
		snprintf(why, len, "cannot read /proc/self/mountinfo");
		return RR_MEMCG_NONE;
	}
	while (getline(&line, &cap, f) > 0) {
		char point[PATH_MAX], fstype[64], opts[512];
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1)
			continue;
		if (sscanf(sep + 3, "%63s %*s %511s", fstype, opts) != 2)
			continue;
		if (!strcmp(fstype, "cgroup") &&
		    (strstr(opts, ",memory") || !strncmp(opts, "memory", 6)))
			snprintf(v1, sizeof(v1), "%s", point);
		else if (!strcmp(fstype, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", point);
	}
	free(line);
	fclose(f);
	if (v1[0]) {
		snprintf(mnt, size, "%s", v1);
		return RR_MEMCG_V1;
	}
	if (v2[0]) {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", v2);
		if (!rr_read_file(path, ctrl, sizeof(ctrl)) &&
		    strstr(ctrl, "memory")) {
			snprintf(mnt, size, "%s", v2);
			return RR_MEMCG_V2;
		}
	}
	snprintf(why, len, "no memory cgroup controller is mounted");
	return RR_MEMCG_NONE;
}

/*
 * Is this "id:controllers:path" line the hierarchy of ver? v1: the
 * controllers (comma-separated) include memory; v2: id 0, none.
 */
static bool want(const char *list, size_t n, enum rr_memcg_ver ver,
		 const char *line)
{
	const char *p = list;

	if (ver == RR_MEMCG_V2)
		return !n && !strncmp(line, "0:", 2);
	while (p < list + n) {
		size_t k = strcspn(p, ",:");

		if (k == 6 && !strncmp(p, "memory", 6))
			return true;
		p += k + 1;
	}
	return false;
}

int rr_memcg_own_path(const char *text, enum rr_memcg_ver ver, char *buf,
		      size_t size)
{
	const char *line, *next, *c1, *c2;
	size_t n;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : NULL;
		n = next ? (size_t)(next - 1 - line) : strlen(line);
		c1 = memchr(line, ':', n);
		c2 = c1 ? memchr(c1 + 1, ':', n - (c1 + 1 - line)) : NULL;
		if (!c2 || !want(c1 + 1, c2 - c1 - 1, ver, line))
			continue;
		snprintf(buf, size, "%.*s", (int)(n - (c2 + 1 - line)), c2 + 1);
		return 0;
	}
	return -ENOENT;
}

/* Our own group in the hierarchy of ver, from /proc/self/cgroup. */
static int own_group(enum rr_memcg_ver ver, char *buf, size_t size)
{
	char text[4096];
	int err = rr_read_file("/proc/self/cgroup", text, sizeof(text));

	return err ? err : rr_memcg_own_path(text, ver, buf, size);
}

static int file_of(const struct rr_memcg *cg, const char *name, char *buf,
		   size_t size)
{
	return snprintf(buf, size, "%s/%s", cg->path, name) >= (int)size ?
	       -ENAMETOOLONG : 0;
}

int rr_memcg_create(struct rr_memcg *cg, const char *name, char *why,
		    size_t len)
{
	char mnt[PATH_MAX], own[PATH_MAX] = "/", path[PATH_MAX + 64];
	char sub[256];
	int err;

	memset(cg, 0, sizeof(*cg));
	if (!rr_memcg_name_ours(name)) {
		snprintf(why, len, "a bug: the group name %s is not the suite's",
			 name);
		return -EINVAL;
	}
	cg->ver = rr_memcg_detect(mnt, sizeof(mnt), why, len);
	if (cg->ver == RR_MEMCG_NONE)
		return -ENODEV;
	if (cg->ver == RR_MEMCG_V1) {
		/* Under our own group: limits set on it still apply. */
		if (own_group(RR_MEMCG_V1, own, sizeof(own)))
			snprintf(own, sizeof(own), "/");
	} else {
		/*
		 * v2 forbids processes in inner groups that delegate the
		 * memory controller, so the group goes under the root.
		 */
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", mnt);
		if (rr_read_file(path, sub, sizeof(sub)) ||
		    !strstr(sub, "memory")) {
			snprintf(why, len,
				 "the memory controller is not enabled in %s",
				 path);
			return -ENODEV;
		}
	}
	snprintf(cg->path, sizeof(cg->path), "%s%s%s%s", mnt,
		 strcmp(own, "/") ? own : "", "/", name);
	err = journal_record(J_CGROUP, cg->path, "");
	if (!err && mkdir(cg->path, 0755))
		err = -errno;
	if (err) {
		snprintf(why, len, "cannot create %s: %s", cg->path,
			 strerror(-err));
		return err;
	}
	if (cg->ver == RR_MEMCG_V1) {
		/*
		 * Group-local settings: they go away with the group. The
		 * group's OOM killer off is what keeps a limit below its
		 * usage from killing anything: a run must not go on
		 * without it.
		 */
		file_of(cg, "memory.oom_control", path, sizeof(path));
		err = rr_write_file(path, "1");
		if (err) {
			snprintf(why, len,
				 "cannot turn the OOM killer of %s off (memory.oom_control): %s",
				 cg->path, strerror(-err));
			return err;
		}
		file_of(cg, "memory.swappiness", path, sizeof(path));
		if (rr_write_file(path, "200"))
			rr_write_file(path, "100");
	}
	return 0;
}

int rr_memcg_current(struct rr_memcg *cg, char *why, size_t len)
{
	char mnt[PATH_MAX], own[PATH_MAX];
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->ver = rr_memcg_detect(mnt, sizeof(mnt), why, len);
	if (cg->ver == RR_MEMCG_NONE)
		return -ENODEV;
	err = own_group(cg->ver, own, sizeof(own));
	if (err) {
		snprintf(why, len, "cannot find our own memory cgroup");
		return err;
	}
	snprintf(cg->path, sizeof(cg->path), "%s%s", mnt,
		 strcmp(own, "/") ? own : "");
	return 0;
}

int rr_memcg_join(const struct rr_memcg *cg)
{
	char path[PATH_MAX + 32];

	file_of(cg, "cgroup.procs", path, sizeof(path));
	return rr_write_file(path, "0");
}

int rr_memcg_usage(const struct rr_memcg *cg, unsigned long long *bytes)
{
	char path[PATH_MAX + 32];

	file_of(cg, cg->ver == RR_MEMCG_V1 ? "memory.usage_in_bytes" :
		"memory.current", path, sizeof(path));
	return rr_read_ull(path, bytes);
}

int rr_memcg_reclaim(const struct rr_memcg *cg, unsigned long long bytes,
		     char *how, size_t len)
{
	char path[PATH_MAX + 32], v[32];
	unsigned long long usage, limit, ps = rr_page_size();
	int err, err2;

	err = rr_memcg_usage(cg, &usage);
	if (err)
		return err;
	if (bytes == RR_RECLAIM_ALL)
		bytes = usage;
	if (cg->ver == RR_MEMCG_V2) {
		rr_test_hold("trigger reclaim: before memory.reclaim");
		file_of(cg, "memory.reclaim", path, sizeof(path));
		snprintf(v, sizeof(v), "%llu", bytes);
		err = rr_write_file(path, v);
		snprintf(how, len, "memory.reclaim %llu KiB%s", bytes >> 10,
			 err == -EAGAIN ? " (kernel reclaimed less)" : "");
		return err == -EAGAIN ? 0 : err;
	}
	limit = usage > bytes + ps ? usage - bytes : ps;
	limit &= ~(ps - 1);
	file_of(cg, "memory.limit_in_bytes", path, sizeof(path));
	snprintf(v, sizeof(v), "%llu", limit);
	err = rr_write_file(path, v);
	/* a test's signal, the limit still low (fault.h) */
	rr_test_hold("trigger reclaim: memcg limit lowered");
	/* Lift the limit at once: nothing else may run against it. */
	err2 = rr_write_file(path, "-1");
	snprintf(how, len,
		 "memory.limit_in_bytes %llu -> %llu KiB%s, then unlimited",
		 usage >> 10, limit >> 10,
		 err == -EBUSY ? " (EBUSY: kernel reclaimed less)" :
		 err == -EINTR ? " (EINTR: a signal stopped the reclaim)" :
		 "");
	/*
	 * Both end the reclaim loop early, with what it reclaimed done: a
	 * short trigger, said, not a failed one. EINTR comes with a victim
	 * that starts processes (exec-storm): their exits' SIGCHLD.
	 */
	if (err == -EBUSY || err == -EINTR)
		err = 0;
	return err ? err : err2;
}

static int tasks_of(const char *dir, int *pids, int max)
{
	char path[PATH_MAX + 32];
	FILE *f;
	int n = 0, pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (n < max && fscanf(f, "%d", &pid) == 1)
		pids[n++] = pid;
	fclose(f);
	return n;
}

int rr_memcg_tasks(const struct rr_memcg *cg, int *pids, int max)
{
	return tasks_of(cg->path, pids, max);
}

int rr_memcg_kill(const char *path)
{
	int pids[256], n, i, others, tries;

	/* a task freeing gigabytes of locked memory takes seconds to go */
	for (tries = 0; tries < 3000; tries++) {
		n = tasks_of(path, pids, 256);
		if (n < 0)
			return n == -ENOENT ? 0 : n;
		for (i = others = 0; i < n; i++) {
			if (pids[i] == getpid())	/* never ourselves */
				continue;
			kill(pids[i], SIGKILL);
			others++;
		}
		if (!others)
			return 0;
		rr_sleep_ms(10);
	}
	return -EBUSY;
}

int rr_memcg_cap(const struct rr_memcg *cg, unsigned long long bytes)
{
	char path[PATH_MAX + 32], v[32];

	file_of(cg, cg->ver == RR_MEMCG_V1 ? "memory.limit_in_bytes" :
		"memory.high", path, sizeof(path));
	snprintf(v, sizeof(v), "%llu", bytes);
	return rr_write_file(path, v);
}

/*
 * Undo: the group directory, once the tasks that were in it are gone.
 * Any task still in it is the suite's own (a load the killed run
 * started): it is killed first.
 */
static int undo_cgroup(const char *dir, const char *unused, bool verbose)
{
	int err = rr_memcg_kill(dir);

	if (err && verbose)
		rr_msg("cannot empty %s: %s", dir, strerror(-err));
	return journal_rmdir(dir, verbose);
}

/*
 * The suite's group names: rmap-repro-PID, or rmap-repro-WHAT-PID (the
 * pressure trigger's load-, revive-), WHAT in lower-case letters.
 */
bool rr_memcg_name_ours(const char *name)
{
	const char *p = name + strlen(RR_MEMCG_PREFIX), *dash;

	if (strncmp(name, RR_MEMCG_PREFIX, strlen(RR_MEMCG_PREFIX)))
		return false;
	dash = strrchr(p, '-');
	if (dash) {
		for (; p < dash; p++)
			if (*p < 'a' || *p > 'z')
				return false;
		p = dash + 1;
	}
	return journal_trust_name(p, "");
}

/*
 * Its undo SIGKILLs whatever the group holds: only a group of the
 * suite's name, inside a cgroup file system.
 */
static int check_cgroup(const char *dir, const char *unused, char *why,
			size_t len)
{
	static const char *const any[] = { "/", NULL };
	char copy[PATH_MAX], real[PATH_MAX], *base, *parent;

	snprintf(copy, sizeof(copy), "%s", dir);
	base = strrchr(copy, '/');
	if (!base || !rr_memcg_name_ours(base + 1)) {
		snprintf(why, len, "not a cgroup of the suite's name (" RR_MEMCG_PREFIX "PID)");
		return -EPERM;
	}
	*base = '\0';
	parent = copy[0] ? copy : "/";
	return journal_trust_path(parent, any, RR_FS_CGROUP, real,
				  sizeof(real), why, len);
}

const struct journal_undo rr_undo_cgroup = {
	J_CGROUP, undo_cgroup, check_cgroup, ENOSPC	/* no room for one more */
};
