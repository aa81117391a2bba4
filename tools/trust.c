// SPDX-License-Identifier: GPL-2.0
/*
 * rmap-trust: the one gate every script passes a received file and an
 * output directory through before it does any work with them
 * (docs/running.md, "What the suite trusts"), so that the rules live in
 * one place, in C, and fail closed:
 *
 *   rmap-trust results FILE...    results.json files, or reproducers'
 *                                 own JSON (model/received.h)
 *   rmap-trust sweep FILE         a sweep.json
 *   rmap-trust out-dir [--make] DIR
 *                                 where root may write (lib/outdir.h);
 *                                 prints the resolved path to use
 *
 * Exit: 0 trusted; 2 refused or unreadable, with the reason on stderr.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_read.h"
#include "lib/outdir.h"
#include "model/received.h"

static const char usage[] =
"Usage: rmap-trust results FILE...\n"
"       rmap-trust sweep FILE\n"
"       rmap-trust out-dir [--make] DIR\n"
"\n"
"The suite's gate for what it did not write itself, which scripts/compare,\n"
"plot, sweep, fingerprint and vm-run call before they read a figure or\n"
"write a file (docs/running.md, \"What the suite trusts\").\n"
"\n"
"  results FILE...   each a results.json of run-all or vm-run, or a\n"
"                    reproducer's own JSON: strict JSON (one value, no key\n"
"                    twice, finite numbers, UTF-8), the suite's names\n"
"                    ([A-Za-z0-9@._-]+), no control character in any\n"
"                    string, no negative time (a key ending in _ms, _us,\n"
"                    _ns or _s), kept equal to the samples' count, and\n"
"                    sizes within the suite's own (docs/results.md)\n"
"  sweep FILE        a sweep.json of scripts/sweep: the same, and its\n"
"                    param, values and a point per value in each case\n"
"  out-dir DIR       DIR as a directory to write into: as root, it and\n"
"                    every directory above it must be root's and writable\n"
"                    by no one else (a sticky one such as /tmp aside,\n"
"                    above a directory made here); prints the resolved\n"
"                    path, the one to write to; --make creates the part\n"
"                    that does not exist, a level at a time\n"
"\n"
"Exit: 0 trusted, 2 refused (the reason on stderr).\n";

static int check_file(const char *kind, const char *path)
{
	char why[512];
	struct rr_jv root;
	int ret;

	ret = rr_jv_parse_file(path, &root, why, sizeof(why));
	if (!ret) {
		ret = strcmp(kind, "sweep") ?
		      rr_received_results(&root, why, sizeof(why)) :
		      rr_received_sweep(&root, why, sizeof(why));
		rr_jv_free(&root);
	}
	if (ret) {
		fprintf(stderr, "rmap-trust: %s: refused: %s\n", path, why);
		return 2;
	}
	return 0;
}

static int out_dir(int argc, char **argv)
{
	char resolved[PATH_MAX], why[1024];
	bool make = argc == 4 && !strcmp(argv[2], "--make");
	const char *dir = argv[argc - 1];

	if (!(argc == 3 || make) || !strncmp(dir, "--", 2)) {
		fputs(usage, stderr);
		return 2;
	}
	if (rr_out_dir(dir, make, resolved, sizeof(resolved), why,
		       sizeof(why))) {
		fprintf(stderr, "rmap-trust: %s\n", why);
		return 2;
	}
	printf("%s\n", resolved);
	return 0;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	/*
	 * No test hook reaches anything this gate does: it runs with one
	 * set too (run-all --test-build calls it), unlike the tools that a
	 * hook would turn into a test's.
	 */
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "out-dir"))
		return out_dir(argc, argv);
	if (argc < 3 || (strcmp(argv[1], "results") &&
			 strcmp(argv[1], "sweep")) ||
	    (!strcmp(argv[1], "sweep") && argc != 3)) {
		fputs(usage, stderr);
		return 2;
	}
	for (i = 2; i < argc; i++)
		if (check_file(argv[1], argv[i]))
			ret = 2;
	return ret;
}
