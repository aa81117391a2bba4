// SPDX-License-Identifier: GPL-2.0
/*
 * Test hooks, on in the test build only (hooks.h). Not part of
 * libcommon.a: the Makefile links this file's user object into
 * build/bin and its RR_TEST_BUILD object into build/test/bin and the
 * unit tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hooks.h"

/* Every variable a hook reads: a user's build refuses each of them. */
static const char *const hook_vars[] = {
	"RMAP_REPRO_TEST_FAIL_CHANGE",
	"RMAP_REPRO_TEST_BREAK_UNDO",
	"RMAP_REPRO_TEST_HOLD_AT",
	"RMAP_REPRO_TEST_HOLD_MS",
	"RMAP_REPRO_STATE_DIR",
	"RMAP_REPRO_SYS_DIR",
	"RMAP_REPRO_PROC_DIR",
	"RMAP_REPRO_KSM_DIR",
	"RMAP_REPRO_KMSG",
	NULL
};

bool rr_test_build(void)
{
#ifdef RR_TEST_BUILD
	return true;
#else
	return false;
#endif
}

static bool known(const char *name)
{
	int i;

	for (i = 0; hook_vars[i]; i++)
		if (!strcmp(hook_vars[i], name))
			return true;
	return false;
}

const char *rr_hook_env(const char *name)
{
	const char *v;

	/* a hook read here and not listed would escape the refusal */
	if (!known(name)) {
		fprintf(stderr, "rmap-repro: a bug: %s is not a listed hook\n",
			name);
		abort();
	}
	if (!rr_test_build())
		return NULL;
	v = getenv(name);
	return v && *v ? v : NULL;
}

const char *rr_hook_set(void)
{
	int i;

	if (rr_test_build())
		return NULL;
	for (i = 0; hook_vars[i]; i++)
		if (getenv(hook_vars[i]))
			return hook_vars[i];
	return NULL;
}

int rr_hooks_refuse(const char *prog, int code)
{
	const char *v = rr_hook_set();

	if (!v)
		return 0;
	fprintf(stderr,
		"%s: %s is set: it drives a test hook, which only the test build honours (build/test/bin, for make check); this binary does nothing with it set. Unset it (env -u %s) and run again.\n",
		prog, v, v);
	return code;
}
