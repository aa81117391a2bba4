// SPDX-License-Identifier: GPL-2.0
/* Kernel config lookup (plain and gzip sources) and system facts. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"
#include "mm/sysinfo.h"

static const char config[] =
	"# comment\n"
	"CONFIG_KSM=y\n"
	"# CONFIG_MEMORY_FAILURE is not set\n"
	"CONFIG_ZRAM=m\n"
	"CONFIG_ZRAM_DEF_COMP=\"lzo-rle\"\n";

static void write_file(const char *path, bool gz)
{
	if (gz) {
		gzFile f = gzopen(path, "wb");

		gzwrite(f, config, sizeof(config) - 1);
		gzclose(f);
	} else {
		FILE *f = fopen(path, "w");

		fputs(config, f);
		fclose(f);
	}
}

static void check_source(bool gz)
{
	char path[256], val[32], val2[512];
	const char *tmp = getenv("TEST_TMPDIR");

	snprintf(path, sizeof(path), "%s/config%s", tmp ? tmp : "/tmp",
		 gz ? ".gz" : "");
	write_file(path, gz);
	rr_kconfig_set_source(path);
	CHECK_EQ(rr_kconfig("KSM", val, sizeof(val)), 1);
	CHECK_STR(val, "y");
	CHECK_EQ(rr_kconfig("ZRAM", val, sizeof(val)), 1);
	CHECK_STR(val, "m");
	CHECK_EQ(rr_kconfig("MEMORY_FAILURE", val, sizeof(val)), 0);
	CHECK_EQ(rr_kconfig("ZRAM_DEF", val, sizeof(val)), 0);
	CHECK_EQ(rr_kconfig("ZRAM_DEF_COMP", val, sizeof(val)), 1);
	CHECK_STR(val, "\"lzo-rle\"");
	CHECK(rr_kconfig_missing((const char *const[]){ "KSM", "ZRAM", NULL })
	      == NULL);
	CHECK_STR(rr_kconfig_missing((const char *const[]){
		"KSM", "MEMORY_FAILURE", "ZRAM", NULL }), "MEMORY_FAILURE");
	/* the report's Kconfig line: every item, set or not, in order */
	CHECK_EQ(rr_kconfig_items(val2, sizeof(val2)), 0);
	CHECK(!strncmp(val2, "KSM=y NUMA=n MIGRATION=n", 24));
	CHECK(strstr(val2, " ZRAM=m ") != NULL);
	CHECK(strstr(val2, " MEMORY_FAILURE=n ") != NULL);
	CHECK(strstr(val2, " KASAN=n KCSAN=n") != NULL);
	unlink(path);
}

static void test_plain(void)
{
	check_source(false);
}

static void test_gzip(void)
{
	check_source(true);
}

static void test_missing(void)
{
	char buf[64] = "x";

	rr_kconfig_set_source("/nonexistent/config");
	CHECK_EQ(rr_kconfig("KSM", NULL, 0), -ENOENT);
	/* nothing to say: empty, and the report says it was not readable */
	CHECK_EQ(rr_kconfig_items(buf, sizeof(buf)), -ENOENT);
	CHECK_STR(buf, "");
}

static void test_sysinfo(void)
{
	struct rr_sysinfo s;

	rr_sysinfo_read(&s);
	CHECK(s.release[0] != '\0');
	CHECK(s.cpus >= 1);
	CHECK(s.mem_kb > 0);
	CHECK(s.numa_nodes >= 1);
	/* the build's version: git describe, or the tarball's VERSION */
	CHECK(s.suite_version[0] != '\0');
}

/* vm-run's parameters are words of the command line, set or not */
static void test_cmdline(void)
{
	const char *c = "console=ttyS0 quiet rmap_repro.vm=1 rmap_repro.exact=1\n";

	CHECK(rr_cmdline_has(c, "rmap_repro.vm"));
	CHECK(rr_cmdline_has(c, "rmap_repro.exact"));
	CHECK(rr_cmdline_has("rmap_repro.vm", "rmap_repro.vm"));
	CHECK(rr_cmdline_has("a rmap_repro.exact=yes", "rmap_repro.exact"));
	CHECK(!rr_cmdline_has("rmap_repro.exact=0 quiet", "rmap_repro.exact"));
	CHECK(!rr_cmdline_has("xrmap_repro.exact=1", "rmap_repro.exact"));
	CHECK(!rr_cmdline_has("rmap_repro.exactly=1", "rmap_repro.exact"));
	CHECK(!rr_cmdline_has("rmap_repro.vmx", "rmap_repro.vm"));
	CHECK(!rr_cmdline_has("", "rmap_repro.vm"));
}

TEST_MAIN(T(test_plain), T(test_gzip), T(test_missing), T(test_sysinfo),
	  T(test_cmdline))
