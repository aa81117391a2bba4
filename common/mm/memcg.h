/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A private memory cgroup (v1 or v2) that the measuring process joins
 * before it allocates, so that reclaim can be forced on its pages alone
 * and pressure never leaves it. Created through the journal.
 */
#ifndef RR_MEMCG_H
#define RR_MEMCG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

enum rr_memcg_ver { RR_MEMCG_NONE, RR_MEMCG_V1, RR_MEMCG_V2 };

struct rr_memcg {
	enum rr_memcg_ver ver;
	char path[PATH_MAX];
};

/* Where the memory controller lives; why says why not when it does not. */
enum rr_memcg_ver rr_memcg_detect(char *mnt, size_t size, char *why,
				  size_t len);
const char *rr_memcg_ver_name(enum rr_memcg_ver v);
/*
 * A new group named name, which must be the suite's (rr_memcg_name_ours):
 * the journal's replay removes no other, and kills what it holds.
 */
int rr_memcg_create(struct rr_memcg *cg, const char *name, char *why,
		    size_t len);
#define RR_MEMCG_PREFIX "rmap-repro-"
/* RR_MEMCG_PREFIX, optionally lower-case letters and '-', then a pid. */
bool rr_memcg_name_ours(const char *name);
/*
 * The path of ver's group in /proc/PID/cgroup's text (pure: tested
 * alone); -ENOENT if that hierarchy is not there.
 */
int rr_memcg_own_path(const char *text, enum rr_memcg_ver ver, char *buf,
		      size_t size);
/* The group the calling process is in now. */
int rr_memcg_current(struct rr_memcg *cg, char *why, size_t len);
/* Move the calling process (all its threads) into the group. */
int rr_memcg_join(const struct rr_memcg *cg);
int rr_memcg_usage(const struct rr_memcg *cg, unsigned long long *bytes);
/*
 * Reclaim about `bytes` (RR_RECLAIM_ALL: all it holds) from the group
 * in the caller's context: v2 writes
 * memory.reclaim; v1 lowers memory.limit_in_bytes below the usage and
 * lifts it again at once (EBUSY there only means the kernel reclaimed
 * what it could). Neither can wake the OOM killer: v1's oom_kill_disable
 * is set in the group, and v2's memory.reclaim never OOMs.
 * how gets a one-line description of what was written.
 */
#define RR_RECLAIM_ALL (~0ULL)
int rr_memcg_reclaim(const struct rr_memcg *cg, unsigned long long bytes,
		     char *how, size_t len);

/* The tasks in the group (at most max): how many, or -errno. */
int rr_memcg_tasks(const struct rr_memcg *cg, int *pids, int max);
/* SIGKILL every task in the group until it is empty (or 30 s pass). */
int rr_memcg_kill(const char *path);
/*
 * Cap what the group may hold at bytes without an OOM kill: v1's limit
 * (the group's OOM killer is disabled: a task at the limit waits), v2's
 * memory.high (a task above it is throttled, never killed).
 */
int rr_memcg_cap(const struct rr_memcg *cg, unsigned long long bytes);

/* Its kind of journal record, and its undo handler (core/undo.c). */
#define J_CGROUP	"cgroup"	/* directory we created */
struct journal_undo;
extern const struct journal_undo rr_undo_cgroup;

#endif
