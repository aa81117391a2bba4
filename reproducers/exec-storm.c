// SPDX-License-Identifier: GPL-2.0
/*
 * exec-storm: exec() of a dynamically linked program in a loop while a
 * trigger walks the pages of a library that program loads and that many
 * processes map, as libc is mapped on a busy machine. Each exec() maps
 * the library through ld.so (text PROT_EXEC, data, a RELRO mprotect())
 * and each exit unmaps it: every step takes the library's i_mmap_rwsem
 * for write, so a long rmap walk of one of its pages (rmap_walk_file,
 * under that lock for read, visiting every process's VMAs of it) stalls
 * every exec() on the machine.
 *
 * The library is a copy of one this binary loads (libc.so.6 unless
 * --library names another), written into the pattern's memfd; --procs
 * processes map it as ld.so does and keep it, so its i_mmap tree holds
 * 4 VMAs per member (its inherited mapping, text, RELRO, data). The
 * victim thread posix_spawn()s this binary
 * with the copy preloaded (LD_PRELOAD=/proc/PID/fd/N; the copy stands in
 * for the library of the same soname) and an environment that makes it
 * exit as soon as it runs, and waits for it: one exec() per call, timed.
 * Its rate of calls with no trigger (--victim-alone, 1000 ms here by
 * default) against its rate during the trigger's walks is the figure a
 * user sees: execs per second. The exec()ed processes' own lock waits
 * are the victim's. The control is the same library mapped by the
 * measuring process alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "model/repro.h"
#include "pattern/family.h"
#include "pattern/victim.h"

static unsigned long long procs = 256;
static const char *library;

static const struct rr_opt opts[] = {
	{ "procs", OPT_UINT, &procs, "N",
	  "processes that map the library as ld.so does and keep it, the measuring process among them (N - 1 forked members): 4 VMAs each in its i_mmap tree, which each walk of one of its pages visits",
	  .min = 2, .max = RR_FAMILY_MAX + 1 },
	{ "library", OPT_STRING, &library, "PATH",
	  "the shared library to copy and preload, one this binary loads (default: the libc.so.6 of /proc/self/maps): the copy takes the place of the library of its soname in each exec()" },
	RR_OPT_END
};

static const char *const kconfig[] = { "MMU", "SHMEM", NULL };

static const struct rr_case cases[] = {
	{ .name = "many", .type = RR_PT_FILE, .role = RR_SUBJECT,
	  .what = "a copy of a shared library mapped as ld.so maps it by every process, and by each exec() of the victim: each page's walk visits 4 VMAs per member (rmap_walk_file)" },
	{ .name = "one", .type = RR_PT_FILE,
	  .what = "the same library mapped by the measuring process alone, and by each exec() of the victim (rmap_walk_file, control)" },
};

/* The library's bytes, read once in check(). */
static char lib_path[512];
static size_t lib_size;

/* The first mapping of /proc/self/maps whose path contains name. */
static bool mapped_path(const char *name, char *buf, size_t len)
{
	char line[768], *p;
	FILE *f = fopen("/proc/self/maps", "re");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (!p || !strstr(p, name))
			continue;
		p[strcspn(p, "\n")] = '\0';
		snprintf(buf, len, "%s", p);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

static bool check(char *why, size_t len)
{
	struct stat st;

	if (library)
		snprintf(lib_path, sizeof(lib_path), "%s", library);
	else if (!mapped_path("/libc.so", lib_path, sizeof(lib_path))) {
		snprintf(why, len,
			 "no libc.so in /proc/self/maps: give --library");
		return false;
	}
	if (stat(lib_path, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		snprintf(why, len, "--library %s: not a readable file",
			 lib_path);
		return false;
	}
	lib_size = st.st_size;
	return true;
}

static size_t lib_pages(void)
{
	size_t ps = rr_page_size();

	return (lib_size + ps - 1) / ps;
}

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	s->type = c->type;
	/* every page of the copy, filled; one VMA in each process */
	s->pages = lib_pages() ? lib_pages() : 1;
	s->split_every = 0;
	s->identical = 0;
}

/* The victim's exec(): what it runs, and the processes it started. */
static struct {
	char self[64], preload[64], want[96];
	int pids[4096];			/* the last ones, a ring */
	unsigned long n;
} ex;

static int exec_call(void *arg, unsigned long i)
{
	char env_preload[96];
	char *argv[] = { RR_EXEC_CHILD, ex.want, NULL };
	char *envp[] = { env_preload, NULL };
	int status, err;
	pid_t pid;

	snprintf(env_preload, sizeof(env_preload), "LD_PRELOAD=%s",
		 ex.preload);
	err = posix_spawn(&pid, ex.self, NULL, NULL, argv, envp);
	if (err)
		return -err;
	__atomic_store_n(&ex.pids[ex.n % ARRAY_SIZE(ex.pids)], pid,
			 __ATOMIC_RELEASE);
	__atomic_add_fetch(&ex.n, 1, __ATOMIC_RELEASE);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	/* 3: the copy was not preloaded (exec_exit() in the runner) */
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ENOEXEC;
}

static bool exec_owns(void *arg, int pid)
{
	unsigned long n = __atomic_load_n(&ex.n, __ATOMIC_ACQUIRE), k;

	for (k = 0; k < n && k < ARRAY_SIZE(ex.pids); k++)
		if (ex.pids[k] == pid)
			return true;
	return false;
}

static struct rr_victim_op exec_op = {
	.call = "exec()",
	.what = "a thread that posix_spawn()s this binary with the library's copy preloaded and waits for it, during the trigger: ld.so maps the copy (text PROT_EXEC, data, a RELRO mprotect()) and the exit unmaps it, each step under the library's i_mmap_rwsem for write; the exec()ed processes' lock waits are counted as the victim's",
	.fn = exec_call,
	.owns = exec_owns,
};

/* The copy into the memfd, over the pattern's fill. */
static int copy_library(struct rr_pattern *p, char *why, size_t len)
{
	char buf[65536];
	ssize_t n;
	off_t off = 0;
	int fd = open(lib_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, len, "%s: %s", lib_path, strerror(errno));
		return -errno;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (pwrite(p->memfd, buf, n, off) != n)
			break;
		off += n;
	}
	close(fd);
	if ((size_t)off != lib_size) {
		snprintf(why, len, "cannot copy %s into the memfd", lib_path);
		return -EIO;
	}
	return 0;
}

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	char link[64];
	ssize_t n;
	int err = rr_default_build(r, c, p, why, len);

	if (!err && p->memfd < 0) {
		snprintf(why, len, "the pattern has no memfd");
		err = -EINVAL;
	}
	if (!err)
		err = copy_library(p, why, len);
	if (err)
		return err;
	snprintf(ex.self, sizeof(ex.self), "/proc/%d/exe", (int)getpid());
	snprintf(ex.preload, sizeof(ex.preload), "/proc/%d/fd/%d",
		 (int)getpid(), p->memfd);
	n = readlink(ex.preload, link, sizeof(link) - 1);
	/* "/memfd:rmap-repro (deleted)": the exec()ed process checks it */
	link[n > 0 ? n : 0] = '\0';
	snprintf(ex.want, sizeof(ex.want), "%.*s", (int)strcspn(link, " "),
		 link);
	ex.n = 0;
	p->victim_op = &exec_op;
	/* once now: a memfd refused for exec, or a copy not preloaded */
	err = exec_call(NULL, 0);
	if (err)
		snprintf(why, len,
			 "exec() of this binary with %s preloaded from the memfd: %s",
			 lib_path, err == -ENOEXEC ?
			 "the copy was not preloaded (vm.memfd_noexec, or not a library ld.so takes)" :
			 strerror(-err));
	return err;
}

/*
 * A member's preparation: the library mapped as ld.so maps it (text
 * PROT_READ|PROT_EXEC, data MAP_FIXED over its second half, a RELRO
 * mprotect()), kept; its pages read, as a running program's are.
 */
static void map_like_ld_so(struct rr_pattern *p)
{
	size_t ps = rr_page_size(), len = lib_pages() * ps, i;
	unsigned long sum = 0;
	int err;
	char *a = rr_map_like_ld_so(p->memfd, len, &err);

	if (a == MAP_FAILED)
		return;
	for (i = 0; i < len; i += ps)
		sum += *(volatile char *)(a + i);
	(void)sum;
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	if (c->role != RR_SUBJECT)
		return 0;
	return rr_family_spawn(p, procs - 1, 1, map_like_ld_so, why, len);
}

static const struct rr_repro_ops ops = {
	.build = build,
	.after_merge = after_merge,
};

static void describe(struct rr_result *res)
{
	const char *base = strrchr(lib_path, '/');

	res->pages = lib_pages();
	rr_result_param(res, "procs", procs);
	rr_result_param(res, "library_bytes", lib_size);
	rr_result_param_text(res, "library", base ? base + 1 : lib_path);
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	const char *base = strrchr(lib_path, '/');
	size_t o;

	o = snprintf(buf, len,
		     "a copy of %s (%zu bytes, %zu pages) in a memfd, mapped as ld.so maps a library by %llu processes and by each exec() of the victim, which preloads it: the copy's i_mmap tree holds 4 VMAs per member (its inherited mapping, and the library as ld.so maps it: text, RELRO, data; the count below is of the first only), as libc's does on a machine running thousands of processes, and every exec() takes its i_mmap_rwsem for write.",
		     base ? base + 1 : lib_path, lib_size, lib_pages(), procs);
	if (o < len)
		rr_result_counts_text(res, buf + o, len - o);
}

static const struct rr_repro exec_storm = {
	.name = "exec-storm",
	.summary = "Reproduce exec() stalls behind long file rmap walks: a copy of a shared library (--library, default this binary's libc.so.6) in a memfd, mapped as ld.so maps it by --procs processes, while a victim thread exec()s this binary with the copy preloaded, in a loop. A trigger walks the library's pages; the report gives the exec() latencies, the rate of exec()s with no trigger against during the walks (--victim-alone), and the exec()ed processes' waits on the library's i_mmap_rwsem.",
	.opts = opts,
	.kconfig = kconfig,
	.cases = cases,
	.nr_cases = ARRAY_SIZE(cases),
	.check = check,
	.spec = spec,
	.describe = describe,
	.sentence = sentence,
	.ops = &ops,
};

int main(int argc, char **argv)
{
	/* the figure of this reproducer: exec()s per second without walks */
	rr_cfg.victim_alone_ms = 1000;
	return rr_main(&exec_storm, argc, argv);
}
