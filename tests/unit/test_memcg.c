// SPDX-License-Identifier: GPL-2.0
/*
 * memcg.c's reclaim trigger on a directory of files standing in for a
 * cgroup: v1 lowers memory.limit_in_bytes below the usage and lifts it
 * at once (what is left behind is "unlimited"), v2 writes the amount to
 * memory.reclaim; the sentence for the report says which.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "harness.h"
#include "lib/util.h"
#include "mm/memcg.h"

static struct rr_memcg cg;

static void put(const char *name, const char *val)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", cg.path, name);
	CHECK_EQ(rr_write_file(p, val) == 0 ||
		 (creat(p, 0644) >= 0 && rr_write_file(p, val) == 0), 1);
}

static const char *get(const char *name)
{
	static char buf[64];
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", cg.path, name);
	return rr_read_file(p, buf, sizeof(buf)) ? "(unreadable)" : buf;
}

static void setup(enum rr_memcg_ver ver)
{
	const char *tmp = getenv("TEST_TMPDIR");

	memset(&cg, 0, sizeof(cg));
	cg.ver = ver;
	snprintf(cg.path, sizeof(cg.path), "%s/rr-memcg-XXXXXX",
		 tmp ? tmp : "/tmp");
	CHECK(mkdtemp(cg.path) != NULL);
}

static void test_v1_all(void)
{
	char how[256];

	setup(RR_MEMCG_V1);
	put("memory.usage_in_bytes", "104857600");
	put("memory.limit_in_bytes", "9223372036854771712");
	CHECK_EQ(rr_memcg_reclaim(&cg, RR_RECLAIM_ALL, how, sizeof(how)), 0);
	/* the limit went down to one page, and back up to unlimited */
	CHECK_CONTAINS(how, "memory.limit_in_bytes 102400 -> 4 KiB");
	CHECK_CONTAINS(how, "then unlimited");
	CHECK_STR(get("memory.limit_in_bytes"), "-1");
	CHECK_STR(rr_memcg_ver_name(cg.ver), "v1");
}

static void test_v1_part(void)
{
	char how[256];

	setup(RR_MEMCG_V1);
	put("memory.usage_in_bytes", "104857600");
	put("memory.limit_in_bytes", "9223372036854771712");
	CHECK_EQ(rr_memcg_reclaim(&cg, 10 << 20, how, sizeof(how)), 0);
	CHECK_CONTAINS(how, "102400 -> 92160 KiB");
	CHECK_STR(get("memory.limit_in_bytes"), "-1");
}

static void test_v2(void)
{
	char how[256];

	setup(RR_MEMCG_V2);
	put("memory.current", "104857600");
	put("memory.reclaim", "");
	CHECK_EQ(rr_memcg_reclaim(&cg, RR_RECLAIM_ALL, how, sizeof(how)), 0);
	CHECK_STR(get("memory.reclaim"), "104857600");
	CHECK_CONTAINS(how, "memory.reclaim 102400 KiB");
	CHECK_STR(rr_memcg_ver_name(cg.ver), "v2");
}

static void test_no_group(void)
{
	char how[256];

	setup(RR_MEMCG_V2);
	/* no memory.current: the error comes back, nothing is written */
	CHECK(rr_memcg_reclaim(&cg, RR_RECLAIM_ALL, how, sizeof(how)) < 0);
}

/* One parser of /proc/self/cgroup for both hierarchies. */
static void test_own_path(void)
{
	const char *v1 = "12:pids:/a\n"
			 "7:cpu,cpuacct:/b\n"
			 "4:blkio,memory:/process_api/42\n"
			 "1:name=systemd:/c\n";
	const char *hybrid = "3:memoryx:/no\n0::/user.slice/s.scope\n";
	char buf[256];

	CHECK_EQ(rr_memcg_own_path(v1, RR_MEMCG_V1, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/process_api/42");
	CHECK(rr_memcg_own_path(v1, RR_MEMCG_V2, buf, sizeof(buf)) < 0);
	/* "memoryx" is not memory; v2's line has no controllers */
	CHECK(rr_memcg_own_path(hybrid, RR_MEMCG_V1, buf, sizeof(buf)) < 0);
	CHECK_EQ(rr_memcg_own_path(hybrid, RR_MEMCG_V2, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/user.slice/s.scope");
	/* the last line without its newline */
	CHECK_EQ(rr_memcg_own_path("0::/", RR_MEMCG_V2, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/");
}

TEST_MAIN(T(test_own_path), T(test_v1_all), T(test_v1_part), T(test_v2), T(test_no_group))
