// SPDX-License-Identifier: GPL-2.0
/*
 * sigdfl: run a command with SIGINT, SIGQUIT, SIGTERM and SIGHUP at
 * their default disposition and unblocked, whatever it inherited.
 *
 * A job started with nohup, or in the background of a shell without job
 * control, inherits SIGINT (and SIGHUP) ignored, and a shell cannot undo
 * an ignore it was started with. A test that signals the suite must not
 * send a signal its child was told to ignore: tests/run starts every test
 * through this (what env --default-signal does, where env has it).
 *
 * Usage: sigdfl COMMAND [ARG...]
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	sigset_t set;
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		printf("usage: sigdfl COMMAND [ARG...]\n"
		       "Run COMMAND with SIGINT, SIGQUIT, SIGTERM and SIGHUP at their default\n"
		       "disposition and unblocked (a nohup job inherits them ignored).\n");
		return argc < 2 ? 2 : 0;
	}
	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		signal(sigs[i], SIG_DFL);
		sigaddset(&set, sigs[i]);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "sigdfl: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
