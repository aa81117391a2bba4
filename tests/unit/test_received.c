// SPDX-License-Identifier: GPL-2.0
/*
 * What a received file may hold (model/received.h) and the strict JSON
 * reader under it (lib/json_read.h): each hostile form refused with a
 * reason that names it, the suite's own files accepted; and where root
 * may write (lib/outdir.h): a directory open to others, one of another
 * user's on the way, a link planted where a directory is to be made.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "lib/json_read.h"
#include "lib/outdir.h"
#include "model/received.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char why[1024];

/* parse n bytes of text: 0 or -EINVAL (why says) */
static int parse_n(const char *text, size_t n)
{
	struct rr_jv v;
	int ret = rr_jv_parse(text, n, &v, why, sizeof(why));

	if (!ret)
		rr_jv_free(&v);
	return ret;
}

static int parse(const char *text)
{
	return parse_n(text, strlen(text));
}

static void test_reader(void)
{
	const char *text = "{\"a\": [1, 2.5e3, -0.5, \"x\\u00e9\\ud83d\\ude00\"], \"b\": null}";
	struct rr_jv v;

	CHECK_EQ(rr_jv_parse(text, strlen(text), &v, why, sizeof(why)), 0);
	if (v.type != RR_JV_OBJECT)
		return;
	CHECK_EQ(v.type, RR_JV_OBJECT);
	CHECK_EQ(v.n, 2);
	CHECK_EQ(rr_jv_get(&v, "a")->n, 4);
	CHECK_NEAR(rr_jv_get(&v, "a")->items[1].num, 2500, 0);
	CHECK(rr_jv_get(&v, "a")->items[0].integer);
	CHECK(!rr_jv_get(&v, "a")->items[1].integer);
	CHECK_STR(rr_jv_get(&v, "a")->items[3].str, "x\xc3\xa9\xf0\x9f\x98\x80");
	CHECK(rr_jv_get(&v, "c") == NULL);
	rr_jv_free(&v);
	CHECK_EQ(parse(" [] "), 0);
}

/* what jq reads otherwise, or a script could mistake */
static void test_reader_refuses(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "{} {}", "more after the one JSON value" },
		{ "{\"a\": 1, \"a\": 2}", "twice in one object" },
		{ "[nan]", "not a JSON" },
		{ "[NaN]", "not a JSON" },
		{ "[inf]", "not a JSON" },
		{ "[-Infinity]", "not a JSON number" },
		{ "[1e400]", "beyond a double's range" },
		{ "[0x10]", "',' or ']' expected" },
		{ "[01]", "',' or ']' expected" },
		{ "[1.]", "fraction has no digits" },
		{ "\xef\xbb\xbf{}", "byte order mark" },
		{ "[\"\xff\"]", "not UTF-8" },
		{ "[\"\xc0\xaf\"]", "not UTF-8" },
		{ "[\"\xed\xa0\x80\"]", "not a character" },
		{ "[\"\\ud800\"]", "lone high surrogate" },
		{ "[\"\\udc00\"]", "lone low surrogate" },
		{ "[\"a\\u0000b\"]", "NUL character" },
		{ "[\"a\tb\"]", "raw control character" },
		{ "[\"abc]", "without its closing quote" },
		{ "[\"\\x41\"]", "unknown escape" },
		{ "{\"a\" 1}", "':' expected" },
		{ "{1: 2}", "key must be a string" },
		{ "", "the text ends" },
	};
	char deep[80];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_EQ(parse(bad[i].text), -EINVAL);
		CHECK_CONTAINS(why, bad[i].why);
	}
	memset(deep, '[', 40);
	memset(deep + 40, ']', 40);
	CHECK_EQ(parse_n(deep, 80), -EINVAL);
	CHECK_CONTAINS(why, "nested deeper than 32");
	/* 32 levels are fine */
	CHECK_EQ(parse_n(deep + 8, 64), 0);
}

/* results text: 0 or -EINVAL */
static int results(const char *text)
{
	struct rr_jv v;
	int ret;

	if (rr_jv_parse(text, strlen(text), &v, why, sizeof(why)))
		return -EBADMSG;
	ret = rr_received_results(&v, why, sizeof(why));
	rr_jv_free(&v);
	return ret;
}

#define CASE(extra) "{\"results\": [{\"reproducer\": \"ksm-fork\", \"cases\": [{\"name\": \"ksm\", \"probe\": \"rmap-tp\"" extra "}]}]}"

static void test_results(void)
{
	CHECK_EQ(results(CASE("")), 0);
	CHECK_EQ(results(CASE(", \"samples_ms\": {\"of\": \"latency_ms\", \"kept\": 2, \"values\": [0.5, 1]}")), 0);
	/* -1 is "unknown" for a count: only times must not be negative */
	CHECK_EQ(results(CASE(", \"ksm_merging_pages\": -1")), 0);
	CHECK_EQ(results("{\"reproducer\": \"ksm-fork\", \"verdict\": \"skip\"}"), 0);
	CHECK_EQ(results("{\"reproducer\": \"ksm-fork\", \"cases\": null}"), 0);
	CHECK_EQ(results(CASE(", \"probe_detail\": {\"interval\": \"a\\ttab\"}")), 0);
	CHECK_EQ(results(CASE(", \"what\": \"caf\\u00e9 \\u2014 ok\"")), 0);
}

static void test_results_refused(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "[]", "not a results file" },
		{ "{\"results\": {}}", ".results: not an array" },
		{ "{\"results\": [{\"reproducer\": \"../x\"}]}", "'../x' is not a name" },
		{ "{\"results\": [{}]}", ".reproducer: missing" },
		{ "{\"results\": [{\"reproducer\": 7}]}", "a number, not a name" },
		{ "{\"kernel\": {\"release\": \"6.12\\u001b]0;pwned\\u0007\"}, \"reproducer\": \"a\"}",
		  "control character (U+001B)" },
		{ "{\"reproducer\": \"a\", \"reason\": \"ok\\rno change\"}",
		  "control character (U+000D)" },
		{ "{\"reproducer\": \"a\", \"reason\": \"line\\nnext\"}",
		  "control character (U+000A)" },
		{ "{\"reproducer\": \"a\", \"reason\": \"\\u009b2J\"}",
		  "control character (U+009B)" },
		{ "{\"reproducer\": \"a\", \"reason\": \"x\\u007f\"}",
		  "control character (U+007F)" },
		{ "{\"reproducer\": \"a\", \"reason\": \"\\u202egnp.\"}",
		  "control character (U+202E)" },
		{ "{\"reproducer\": \"a\", \"x\\u001b\": 1}", "in a key" },
		{ CASE(", \"latency_ms\": {\"max\": -500}"), "negative time (-500)" },
		{ CASE(", \"timing_s\": {\"setup\": -1}"), "negative time" },
		{ CASE(", \"victim_stall_ms\": {\"log2_histogram\": [{\"lo_us\": -2}]}"),
		  "negative time" },
		{ CASE(", \"samples_ms\": {\"kept\": 3, \"values\": [1, 2]}"),
		  "kept is 3 but it has 2 values" },
		{ CASE(", \"samples_ms\": {\"kept\": 2.5, \"values\": [1, 2]}"),
		  "needs a whole number kept" },
		{ CASE(", \"samples_ms\": {\"kept\": 1, \"values\": [\"1\"]}"),
		  "not a number" },
		{ CASE(", \"samples_ms\": {\"kept\": 1, \"values\": [-1]}"),
		  "negative time" },
		{ CASE(", \"samples_ms\": {\"of\": \"a b\", \"kept\": 0, \"values\": []}"),
		  "'a b' is not a name" },
		{ "{\"results\": [{\"reproducer\": \"a\", \"cases\": [{\"name\": \"k\", \"probe\": \"x;y\"}]}]}",
		  "'x;y' is not a name" },
	};
	char *big;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_EQ(results(bad[i].text), -EINVAL);
		CHECK_CONTAINS(why, bad[i].why);
	}
	/* seven cases: one more than a reproducer may declare */
	CHECK_EQ(results("{\"reproducer\": \"a\", \"cases\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}, {\"name\": \"d\"}, {\"name\": \"e\"}, {\"name\": \"f\"}, {\"name\": \"g\"}]}"),
		 -EINVAL);
	CHECK_CONTAINS(why, "7 cases (at most 6)");
	/* 257 results */
	big = malloc(257 * 20 + 32);
	n = sprintf(big, "{\"results\": [");
	for (i = 0; i < 257; i++)
		n += sprintf(big + n, "%s{\"reproducer\": \"a\"}", i ? "," : "");
	sprintf(big + n, "]}");
	CHECK_EQ(results(big), -EINVAL);
	CHECK_CONTAINS(why, "257 results (at most 256)");
	free(big);
}

static int sweep(const char *text)
{
	struct rr_jv v;
	int ret;

	if (rr_jv_parse(text, strlen(text), &v, why, sizeof(why)))
		return -EBADMSG;
	ret = rr_received_sweep(&v, why, sizeof(why));
	rr_jv_free(&v);
	return ret;
}

#define SWEEP(k, p, v, c) "{\"reproducer\": \"ksm-fork\", \"param\": \"" p "\", \"values\": " v ", \"kernel\": \"" k "\", \"probe\": [\"rmap-tp\"], \"cases\": " c "}"

static void test_sweep(void)
{
	CHECK_EQ(sweep(SWEEP("6.12", "pages", "[1, 2]",
			     "[{\"name\": \"ksm\", \"points\": [{\"max_ms\": 1}, {\"max_ms\": null}]}]")),
		 0);
	CHECK_EQ(sweep(SWEEP("6.12\\n\\ttouch\\tPWNED;#", "pages", "[1]", "[]")),
		 -EINVAL);
	CHECK_CONTAINS(why, "U+000A");
	CHECK_EQ(sweep(SWEEP("6.12", "pages;x", "[1]", "[]")), -EINVAL);
	CHECK_CONTAINS(why, ".param");
	CHECK_EQ(sweep(SWEEP("6.12", "pages", "[1.5]", "[]")), -EINVAL);
	CHECK_CONTAINS(why, "not a whole number");
	CHECK_EQ(sweep(SWEEP("6.12", "pages", "[1, 2]",
			     "[{\"name\": \"ksm\", \"points\": [{\"max_ms\": 1}]}]")),
		 -EINVAL);
	CHECK_CONTAINS(why, "not a point per value");
	CHECK_EQ(sweep(SWEEP("6.12", "pages", "[1]",
			     "[{\"name\": \"ksm\", \"points\": [{\"max_ms\": \"1; system\"}]}]")),
		 -EINVAL);
	CHECK_CONTAINS(why, "max_ms: not a number");
	CHECK_EQ(sweep(SWEEP("6.12", "pages", "[1]",
			     "[{\"name\": \"ksm\", \"points\": [{\"max_ms\": -3}]}]")),
		 -EINVAL);
	CHECK_CONTAINS(why, "negative time");
}

static char base[PATH_MAX];

static void test_out_dir(void)
{
	char d[PATH_MAX + 64], got[PATH_MAX], want[PATH_MAX + 64];

	snprintf(d, sizeof(d), "%s/a/b", base);
	CHECK_EQ(rr_out_dir(d, false, got, sizeof(got), why, sizeof(why)), 0);
	CHECK(access(d, F_OK));		/* only checked */
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)), 0);
	CHECK_STR(got, d);
	CHECK(!access(d, F_OK));
	/* a resolved path: the link is not followed again */
	snprintf(want, sizeof(want), "%s/link", base);
	CHECK(!symlink("a", want));
	snprintf(d, sizeof(d), "%s/link/b/c", base);
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "%s/a/b/c", base);
	CHECK_STR(got, want);
	snprintf(d, sizeof(d), "%s/a/new/../../x", base);
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)),
		 -EINVAL);
	CHECK_CONTAINS(why, "'.' or '..'");
	snprintf(d, sizeof(d), "%s/file", base);
	close(creat(d, 0600));
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)),
		 -ENOTDIR);
}

/* As root: the chain of directories above. */
static void test_out_dir_root(void)
{
	char d[PATH_MAX + 64], got[PATH_MAX], open[PATH_MAX + 64];

	if (geteuid()) {
		printf("    # not root: the rule is root's\n");
		return;
	}
	snprintf(open, sizeof(open), "%s/open", base);
	CHECK(!mkdir(open, 0755) && !chmod(open, 0777));
	CHECK_EQ(rr_out_dir(open, true, got, sizeof(got), why, sizeof(why)),
		 -EPERM);
	CHECK_CONTAINS(why, "other users can write to");
	snprintf(d, sizeof(d), "%s/new", open);
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)),
		 -EPERM);
	CHECK(access(d, F_OK));
	/* sticky, as /tmp: a new directory under it is fine */
	CHECK(!chmod(open, 01777));
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)), 0);
	CHECK_EQ(rr_out_dir(open, true, got, sizeof(got), why, sizeof(why)),
		 -EPERM);
	/* a link planted where the directory is to be made */
	snprintf(d, sizeof(d), "%s/planted", open);
	CHECK(!symlink(base, d));
	snprintf(d, sizeof(d), "%s/planted/x", open);
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)), 0);
	/* it resolved to base/x, root's: fine; one of another user's not */
	snprintf(d, sizeof(d), "%s/other", base);
	CHECK(!mkdir(d, 0755) && !chown(d, 65534, 65534));
	snprintf(d, sizeof(d), "%s/other/x", base);
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)),
		 -EPERM);
	CHECK_CONTAINS(why, "belongs to another user (uid 65534)");
	CHECK(access(d, F_OK));
	/* and one that appears, a user's, where mkdir is to make it */
	snprintf(d, sizeof(d), "%s/theirs", open);
	CHECK(!mkdir(d, 0700) && !chown(d, 65534, 65534));
	snprintf(d, sizeof(d), "%s/theirs/y", open);
	CHECK_EQ(rr_out_dir(d, true, got, sizeof(got), why, sizeof(why)),
		 -EPERM);
}

__attribute__((constructor)) static void setup(void)
{
	const char *tmp = getenv("TEST_TMPDIR");

	snprintf(base, sizeof(base), "%s/received.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(base))
		t_setup_failures++;
	chmod(base, 0755);
}

TEST_MAIN(T(test_reader), T(test_reader_refuses), T(test_results),
	  T(test_results_refused), T(test_sweep), T(test_out_dir),
	  T(test_out_dir_root))
