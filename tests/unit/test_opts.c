// SPDX-License-Identifier: GPL-2.0
/* Option parsing: types, ranges, enums, flags, errors, --help. */
#include <stdlib.h>

#include "harness.h"
#include "lib/opts.h"

static unsigned long long pages, identical;
static double threshold;
static int fmt;
static bool quiet;
static const char *out;
static const char *const fmts[] = { "text", "ktap", "json", NULL };

static const struct rr_opt table[] = {
	{ "pages", OPT_UINT, &pages, "N", "pages", .min = 16, .max = 100 },
	{ "identical", OPT_UINT, &identical, "N", "identical pages",
	  .min = 2, .max = 100, .zero_ok = true },
	{ "threshold-ms", OPT_DOUBLE, &threshold, "MS", "threshold",
	  .dmin = 0.001, .dmax = 1000 },
	{ "format", OPT_ENUM, &fmt, "FMT", "format", .choices = fmts },
	{ "quiet", OPT_FLAG, &quiet, NULL, "quiet" },
	{ "out", OPT_STRING, &out, "DIR", "output directory" },
	RR_OPT_END
};

static const struct rr_opt *const tables[] = { table, NULL };

static int parse(const char *line, char *err, size_t len)
{
	char buf[512], *argv[32];
	int argc = 0;
	char *tok, *save = NULL;

	pages = 20;
	identical = 4;
	threshold = 10;
	fmt = 0;
	quiet = false;
	out = NULL;
	snprintf(buf, sizeof(buf), "prog %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strdup(tok);
	argv[argc] = NULL;
	return rr_opts_parse(tables, argc, argv, err, len);
}

static void test_values(void)
{
	char err[256];

	CHECK_EQ(parse("--pages 64 --threshold-ms=2.5 --format json --quiet --out /tmp/x",
		       err, sizeof(err)), 0);
	CHECK_EQ(pages, 64);
	CHECK_NEAR(threshold, 2.5, 0);
	CHECK_EQ(fmt, 2);
	CHECK(quiet);
	CHECK_STR(out, "/tmp/x");
	CHECK_EQ(parse("", err, sizeof(err)), 0);
	CHECK_EQ(pages, 20);	/* defaults untouched */
}

static void test_ranges(void)
{
	char err[256];

	CHECK_EQ(parse("--pages 15", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "out of range [16, 100]");
	CHECK_EQ(parse("--pages 101", err, sizeof(err)), -1);
	CHECK_EQ(parse("--pages 16", err, sizeof(err)), 0);
	CHECK_EQ(parse("--pages 100", err, sizeof(err)), 0);
	CHECK_EQ(parse("--pages -5", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "'-5' is not a decimal number");
	CHECK_EQ(parse("--pages 12abc", err, sizeof(err)), -1);
	CHECK_EQ(parse("--threshold-ms 0", err, sizeof(err)), -1);
	CHECK_EQ(parse("--threshold-ms nan", err, sizeof(err)), -1);
	CHECK_EQ(parse("--identical 0", err, sizeof(err)), 0);
	CHECK_EQ(identical, 0);
	CHECK_EQ(parse("--identical 1", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "(or 0)");
}

/* Decimal digits only; too many of them is a range error, not junk. */
static void test_numbers(void)
{
	char err[256];

	CHECK_EQ(parse("--pages 0x10", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "--pages: '0x10' is not a decimal number");
	CHECK_EQ(parse("--pages 020", err, sizeof(err)), 0);
	CHECK_EQ(pages, 20);	/* decimal, not octal */
	CHECK_EQ(parse("--pages +20", err, sizeof(err)), -1);
	CHECK_EQ(parse("--pages=", err, sizeof(err)), -1);
	/* strtod() alone would take these: 16, infinity, 0.5 */
	CHECK_EQ(parse("--threshold-ms 0x10", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "--threshold-ms: '0x10' is not a decimal number");
	CHECK_EQ(parse("--threshold-ms inf", err, sizeof(err)), -1);
	CHECK_EQ(parse("--threshold-ms 0x1p-1", err, sizeof(err)), -1);
	CHECK_EQ(parse("--threshold-ms 1e", err, sizeof(err)), -1);
	CHECK_EQ(parse("--threshold-ms 2.5", err, sizeof(err)), 0);
	CHECK_NEAR(threshold, 2.5, 1e-12);
	CHECK_EQ(parse("--threshold-ms 1e1", err, sizeof(err)), 0);
	CHECK_NEAR(threshold, 10, 1e-12);
	CHECK_EQ(parse("--pages 99999999999999999999", err, sizeof(err)), -1);
	CHECK_CONTAINS(err,
		       "--pages: 99999999999999999999 is out of range [16, 100]");
	CHECK_EQ(parse("--pages 18446744073709551615", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "is out of range");
}

static void test_errors(void)
{
	char err[256];

	CHECK_EQ(parse("--bogus 1", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "unknown option '--bogus'");
	CHECK_EQ(parse("--pages", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "needs a value");
	CHECK_EQ(parse("--format xml", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "text|ktap|json");
	CHECK_EQ(parse("--quiet=1", err, sizeof(err)), -1);
	CHECK_EQ(parse("stray", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "unexpected argument");
	CHECK_EQ(parse("--pa 20", err, sizeof(err)), -1);	/* no prefixes */
	CHECK_EQ(parse("--out=", err, sizeof(err)), -1);
	/* A failed parse leaves earlier options' values, but the caller
	 * exits with 2 before using any. The error names the option. */
	CHECK_EQ(parse("--pages 50 --pages 500", err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "--pages");
}

static void test_help(void)
{
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_EQ(parse("--pages 20 --help", err, sizeof(err)), 1);
	CHECK_EQ(parse("-h", err, sizeof(err)), 1);
	f = open_memstream(&buf, &len);
	pages = 20;
	rr_opts_help(f, "prog [OPTIONS]", "Summary text.", tables);
	fclose(f);
	CHECK_CONTAINS(buf, "Usage: prog [OPTIONS]");
	CHECK_CONTAINS(buf, "--pages N");
	CHECK_CONTAINS(buf, "(default 20)");
	CHECK_CONTAINS(buf, "--format FMT");
	/* every choice of an enum is listed, from the table itself */
	CHECK_CONTAINS(buf, "one of text|ktap|json");
	CHECK_CONTAINS(buf, "--help");
	free(buf);
}

/* A reproducer's cross-option check says both options and values. */
static void test_at_most(void)
{
	char why[128] = "";

	CHECK(rr_opt_at_most("identical", 16, "pages", 16, why, sizeof(why)));
	CHECK_STR(why, "");
	CHECK(!rr_opt_at_most("identical", 17, "pages", 16, why, sizeof(why)));
	CHECK_STR(why, "--identical 17 is more than --pages 16");
}

TEST_MAIN(T(test_at_most), T(test_values), T(test_ranges), T(test_numbers),
	  T(test_errors), T(test_help))
