// SPDX-License-Identifier: GPL-2.0
/*
 * file-many-mappers: one file mapped by many processes, as libc and the
 * dynamic loader are on a busy machine. The measuring process maps
 * --pages pages of a MAP_SHARED memfd (shmem; --backing disk: an
 * unlinked file on a disk-backed filesystem), splits its mapping with
 * mprotect() every --split-every pages, fills --identical of them, and
 * forks --procs - 1 members that hold the same mapping and fault in its
 * filled pages: the file's i_mmap tree then holds procs x VMAs, and an
 * rmap walk of one of its pages (rmap_walk_file) visits the VMA that
 * maps it in every process,
 * under i_mmap_rwsem for read. The victim thread's mprotect() on the
 * same mapping splits and merges a VMA, which takes i_mmap_rwsem for
 * write behind the walk; --victim-op mmap times mmap() and munmap() of
 * the file instead, load a library-like mapping of it (what exec() and
 * dlopen() do). The control is the same mapping, the same VMAs, in one
 * process.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>

#include "lib/util.h"
#include "model/repro.h"
#include "pattern/family.h"
#include "pattern/victim.h"
#include "trigger/trigger.h"

static unsigned long long procs = 256;
static int backing;
static const char *dir;
static int victim_op;

enum { SHMEM, DISK };
enum { V_MPROTECT, V_MMAP, V_LOAD };

static const char *const backing_names[] = { "shmem", "disk", NULL };
static const char *const victim_op_names[] = {
	"mprotect", "mmap", "load", NULL
};

static struct rr_split_opts split = {
	.pages = 2000, .split_every = 2, .identical = 64,
};

static const struct rr_opt opts[] = {
	RR_SPLIT_OPTS(split),
	{ "procs", OPT_UINT, &procs, "N",
	  "processes that map the file, the measuring process among them (N - 1 forked members); each page's walk visits one VMA in each",
	  .min = 2, .max = RR_FAMILY_MAX + 1 },
	{ "backing", OPT_ENUM, &backing, "KIND",
	  "the file: shmem (a memfd) or disk (an unlinked file, O_TMPFILE, on a disk-backed filesystem: page cache, written back after the fill, that reclaim drops with no swap)",
	  .choices = backing_names },
	{ "dir", OPT_STRING, &dir, "DIR",
	  "with --backing disk: where the file goes (default: the first of /var/tmp, /tmp on a filesystem that is not tmpfs or ramfs)" },
	{ "victim-op", OPT_ENUM, &victim_op, "OP",
	  "what the victim thread times, each needing i_mmap_rwsem for write: mprotect (toggling a page of the split mapping: a VMA split or merge), mmap (mmap() and munmap() of one page of the file: a VMA into and out of its i_mmap tree), load (the file mapped as ld.so maps a library of up to 2 MiB: text PROT_EXEC, data over its second half, a RELRO mprotect(), then munmap())",
	  .choices = victim_op_names },
	RR_OPT_END
};

static const char *const kconfig[] = { "MMU", "SHMEM", NULL };

static const struct rr_case cases[] = {
	{ .name = "many", .type = RR_PT_FILE, .role = RR_SUBJECT,
	  .what = "one file (a memfd, or with --backing disk a disk file's page cache) MAP_SHARED by every process: each page's walk visits one VMA per process (rmap_walk_file)" },
	{ .name = "one", .type = RR_PT_FILE,
	  .what = "the same mapping and VMAs in one process (rmap_walk_file, control)" },
};

static bool check(char *why, size_t len)
{
	return rr_split_fits(&split, why, len);
}

/* A disk-backed directory for the file; set by setup(). */
static char disk_dir[256];

static void spec(const struct rr_case *c, struct rr_pattern_spec *s)
{
	rr_pattern_spec_of(s, c->type, &split);
	if (backing == DISK && disk_dir[0])
		s->file_dir = disk_dir;
}

/* Is dir on a filesystem whose pages are page cache of a disk? */
static bool disk_backed(const char *d)
{
	struct statfs st;

	/* tmpfs and ramfs: memory only */
	return !statfs(d, &st) && st.f_type != 0x01021994 &&
	       st.f_type != (typeof(st.f_type))0x858458f6;
}

static int setup(const struct rr_repro *r, struct rr_result *res, char *why,
		 size_t len)
{
	static const char *const dirs[] = { "/var/tmp", "/tmp", NULL };
	int i;

	if (backing == DISK) {
		for (i = 0; !dir && dirs[i]; i++)
			if (disk_backed(dirs[i]))
				dir = dirs[i];
		if (!dir || !disk_backed(dir)) {
			snprintf(why, len,
				 "--backing disk: %s is not on a disk-backed filesystem (tmpfs, ramfs or missing); give --dir",
				 dir ? dir : "neither /var/tmp nor /tmp");
			return -ENODEV;
		}
		snprintf(disk_dir, sizeof(disk_dir), "%s", dir);
	}
	return rr_default_setup(r, res, why, len);
}

/* The victim's calls on the file (op arg: the pattern). */
static int mmap_call(void *arg, unsigned long i)
{
	const struct rr_pattern *p = arg;
	size_t ps = rr_page_size();
	void *a = mmap(NULL, ps, PROT_READ, MAP_SHARED, p->memfd,
		       (off_t)(i % (p->len / ps)) * ps);

	if (a == MAP_FAILED)
		return -errno;
	return munmap(a, ps) ? -errno : 0;
}

static int load_call(void *arg, unsigned long i)
{
	const struct rr_pattern *p = arg;
	size_t len = p->len < (2 << 20) ? p->len : 2 << 20;
	int err;
	char *a = rr_map_like_ld_so(p->memfd, len, &err);

	if (a == MAP_FAILED)
		return -errno;
	munmap(a, len);
	return err;
}

static struct rr_victim_op vops[] = {
	[V_MMAP] = {
		.call = "mmap() + munmap()",
		.what = "a thread that mmap()s one page of the file and munmap()s it again during the trigger; each call links a VMA into the file's i_mmap tree and unlinks it, so needs i_mmap_rwsem for write",
		.fn = mmap_call,
	},
	[V_LOAD] = {
		.call = "library load",
		.what = "a thread that maps the file as ld.so maps a shared library of up to 2 MiB (text PROT_READ|PROT_EXEC, data MAP_FIXED over its second half, a RELRO mprotect()) and unmaps it, during the trigger; each step takes i_mmap_rwsem for write, as exec() and dlopen() do",
		.fn = load_call,
	},
};

static int build(const struct rr_repro *r, const struct rr_case *c,
		 struct rr_pattern *p, char *why, size_t len)
{
	int err = rr_default_build(r, c, p, why, len);

	if (err || victim_op == V_MPROTECT)
		return err;
	vops[victim_op].arg = p;
	p->victim_op = &vops[victim_op];
	/* once now: a filesystem mounted noexec refuses the load */
	err = vops[victim_op].fn(p, 0);
	if (err)
		snprintf(why, len, "--victim-op %s: %s",
			 victim_op_names[victim_op], strerror(-err));
	return err;
}

/*
 * A member's preparation: fault in each filled page (a read maps the
 * file's page): fork copies no PTE of a shared file mapping, and a page
 * mapped in every process is what libc's are, and what reclaim must
 * unmap from each.
 */
static void map_filled(struct rr_pattern *p)
{
	size_t ps = rr_page_size(), i;
	unsigned long sum = 0;

	for (i = 0; i < p->filled; i++)
		sum += *(volatile char *)(p->addr +
					  rr_pattern_filled_index(p, i) * ps);
	(void)sum;
}

static int after_merge(const struct rr_repro *r, const struct rr_case *c,
		       struct rr_pattern *p, char *why, size_t len)
{
	if (c->role != RR_SUBJECT)
		return 0;
	return rr_family_spawn(p, procs - 1, 1, map_filled, why, len);
}

static const struct rr_repro_ops ops = {
	.setup = setup,
	.build = build,
	.after_merge = after_merge,
};

static unsigned long long filled(void)
{
	return rr_case_filled(spec, &cases[0]);
}

static void describe(struct rr_result *res)
{
	res->pages = split.pages;
	rr_result_param(res, "procs", procs);
	rr_result_param(res, "split_every", split.split_every);
	rr_result_param(res, "identical_pages", filled());
	rr_result_param_text(res, "backing", backing_names[backing]);
	rr_result_param_text(res, "victim_op", victim_op_names[victim_op]);
}

static void sentence(const struct rr_result *res, char *buf, size_t len)
{
	size_t o;

	o = snprintf(buf, len,
		     "a MAP_SHARED %s of %llu pages (%llu filled) mapped by %llu processes, every %llu pages mprotect(PROT_READ) in each: the i_mmap tree of one file holds every process's VMAs, as libc's and the dynamic loader's do on a machine running thousands of processes, where a walk or an exec() waits on i_mmap_rwsem.",
		     backing == DISK ? "file on a disk-backed filesystem" :
		     "memfd (shmem)", split.pages, filled(), procs, split.split_every);
	if (o < len)
		rr_result_counts_text(res, buf + o, len - o);
}

static const struct rr_repro file_many_mappers = {
	.name = "file-many-mappers",
	.summary = "Reproduce long file rmap walks: one MAP_SHARED memfd (shmem; --backing disk: a file on a disk-backed filesystem) of --pages pages mapped by --procs processes, each mapping split by mprotect() every --split-every pages, so that the file's i_mmap tree holds procs x 2 x pages / split-every VMAs and each page's walk visits one VMA per process (libc and ld.so on a busy machine). A trigger walks the filled pages while a victim thread measures how long mprotect() on the same mapping (i_mmap_rwsem for write) waits, or with --victim-op an mmap()/munmap() of the file or a library-like load of it.",
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
	return rr_main(&file_many_mappers, argc, argv);
}
