/* SPDX-License-Identifier: GPL-2.0 */
/* Facts about the running kernel and machine that a report must carry. */
#ifndef RR_SYSINFO_H
#define RR_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>

struct rr_sysinfo {
	char release[128];
	char version[256];
	char machine[64];
	char cmdline[1024];
	long cpus;
	unsigned long long mem_kb;
	int numa_nodes;
	char thp[32];
	char suite_version[64];	/* git describe, or the tarball's */
	/*
	 * The kernel options that bear on the figures, "NAME=value ...",
	 * "" when no config is readable (rr_kconfig_items).
	 */
	char kconfig[512];
	/*
	 * Booted by scripts/vm-run --exact (rmap_repro.exact=1 on the
	 * command line): the guest's clocks are QEMU's instruction count.
	 */
	bool exact;
};

/* What the clocks of an exact run measure, in the reports' words. */
#define RR_EXACT_CLOCK "QEMU icount virtual time, 1 ns per guest instruction: a deterministic cost, not wall time; caches and host speed are not modelled"

void rr_sysinfo_read(struct rr_sysinfo *s);
/*
 * Does the kernel command line CMDLINE carry the parameter NAME (a
 * blank-separated word NAME, or NAME=VALUE with VALUE not "0")? The
 * suite's guests are told so by scripts/vm-run: rmap_repro.vm,
 * rmap_repro.exact.
 */
bool rr_cmdline_has(const char *cmdline, const char *name);
/*
 * The options of the kernel's config that matter to the figures: what
 * the suite uses (KSM, NUMA, MIGRATION, ...), the probes (FTRACE,
 * KPROBE_EVENTS, ...) and what changes latencies (preemption model, HZ,
 * lock and memory debugging), as "NAME=value" (n: not set). 0, or
 * -ENOENT when no config is readable.
 */
int rr_kconfig_items(char *buf, size_t size);

/*
 * Look up CONFIG_<name> in /proc/config.gz or /boot/config-<release>.
 * Returns 1 when set (val gets "y", "m" or the value), 0 when not set,
 * -ENOENT when no config is readable (then nothing can be concluded).
 */
int rr_kconfig(const char *name, char *val, size_t size);
/*
 * The first of names (NULL-terminated, without CONFIG_) that the
 * kernel's config shows as not set; NULL if all are set or no config is
 * readable.
 */
const char *rr_kconfig_missing(const char *const *names);
/* Test hook: read the config from this (possibly gzipped) file. */
void rr_kconfig_set_source(const char *path);

/*
 * The options a config fragment (configs/kernel.config) names that this
 * kernel does not set to y or m, "CONFIG_A CONFIG_B" ("" when it sets
 * them all): 0, or -ENOENT when no config is readable, -errno when the
 * fragment is not.
 */
int rr_kconfig_unset(const char *fragment, char *buf, size_t size);
/* /proc/cpuinfo's first "model name" ("" where it has none). */
void rr_cpu_model(char *buf, size_t size);

int rr_numa_nodes(void);
bool rr_numa_node_exists(unsigned long long node);

/*
 * Would bytes more of memory leave MemAvailable above floor_mb? 0 when
 * they would (or MemAvailable is unreadable), -ENOMEM with why if not.
 */
int rr_memory_floor(unsigned long long bytes, unsigned long long floor_mb,
		    char *why, size_t len);

#endif
