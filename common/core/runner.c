// SPDX-License-Identifier: GPL-2.0
/*
 * The lifecycle every reproducer shares:
 *
 *   parse options (nothing changed yet; bad value: exit 2)
 *   take the run lock, replay a journal left by a killed run
 *   check prerequisites (missing: SKIP, exit 4)
 *   fork: the child measures; the parent supervises
 *   the parent waits for the child, a signal or the timeout, kills the
 *   child if needed, replays the journal, then reports
 *
 * All restore work happens in the parent, from the journal, after the
 * child is gone: the same code path for a normal end, an error, a crash
 * of the child, SIGINT/SIGTERM/SIGHUP and the timeout. After SIGKILL of
 * the parent, the child dies too (PR_SET_PDEATHSIG) and scripts/restore
 * replays the same journal.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "core/runner.h"
#include "core/undo.h"
#include "lib/hooks.h"
#include "lib/util.h"
#include "mm/sysinfo.h"
#include "report/report.h"

static void write_one(const struct rr_result *res, const char *dir,
		      const char *ext,
		      void (*fn)(FILE *, const struct rr_result *))
{
	char path[4096], tmp[4096];
	FILE *f;
	int fd, err;

	/*
	 * Written aside and renamed over the name: whatever is at the
	 * name (a link someone planted) is replaced, never written through.
	 */
	snprintf(path, sizeof(path), "%s/%s.%s", dir, res->reproducer, ext);
	snprintf(tmp, sizeof(tmp), "%s/.%s.%s.XXXXXX", dir, res->reproducer,
		 ext);
	fd = mkostemp(tmp, O_CLOEXEC);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rr_warn("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return;
	}
	fn(f, res);
	err = ferror(f) | fchmod(fd, 0644);
	if (fclose(f) || err || rename(tmp, path)) {
		rr_warn("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
}

static void report(const struct rr_result *res)
{
	static void (*const fns[])(FILE *, const struct rr_result *) = {
		[RR_FMT_TEXT] = rr_report_text,
		[RR_FMT_KTAP] = rr_report_ktap,
		[RR_FMT_JSON] = rr_report_json,
	};

	fns[rr_cfg.format](stdout, res);
	fflush(stdout);
	if (!rr_cfg.out)
		return;
	if (mkdir(rr_cfg.out, 0755) && errno != EEXIST) {
		rr_warn("cannot create %s: %s", rr_cfg.out, strerror(errno));
		return;
	}
	write_one(res, rr_cfg.out, "txt", rr_report_text);
	write_one(res, rr_cfg.out, "ktap", rr_report_ktap);
	write_one(res, rr_cfg.out, "json", rr_report_json);
}

static int finish(const struct rr_repro *r, struct rr_result *res, int sig)
{
	if (res->nr_cases && r->sentence)
		r->sentence(res, res->pattern_text, sizeof(res->pattern_text));
	report(res);
	rr_lock_release();
	if (sig) {
		/* Die of the same signal, as a shell expects of Ctrl-C. */
		sigset_t set;

		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	return rr_cfg.bisect ? rr_bisect_code(res->verdict) :
			       rr_exit_code(res->verdict);
}

/*
 * The result, in memory shared with the measuring child, with what is
 * known before anything runs; NULL if it cannot be had.
 */
static struct rr_result *new_result(const struct rr_repro *r, int argc,
				    char **argv)
{
	struct rr_result *res;

	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		perror("mmap");
		return NULL;
	}
	memset(res, 0, sizeof(*res));
	snprintf(res->reproducer, sizeof(res->reproducer), "%s", r->name);
	rr_command_line(res, argc, argv);
	if (rr_cfg.label)
		snprintf(res->reproducer, sizeof(res->reproducer), "%s",
			 rr_cfg.label);
	rr_sysinfo_read(&res->sys);
	res->runs_asked = rr_cfg.runs;
	res->max_runs = rr_max_runs(rr_cfg.runs, rr_cfg.max_runs);
	res->threshold_ms = rr_cfg.threshold_ms;
	res->min_ratio = rr_cfg.min_ratio;
	if (r->describe)
		r->describe(res);
	return res;
}

/*
 * argv[0] is RR_EXEC_CHILD: this binary was exec()ed as a small
 * dynamically linked program (a victim that times exec(): ld.so has
 * mapped its libraries by now). Exit at once: 0, or 3 when the argument,
 * other than "1", names a mapping that /proc/self/maps lacks (a library
 * that was to be preloaded and was not). Named by argv, not by the
 * environment: a variable left in a user's shell must not make every
 * reproducer exit 0.
 */
static int exec_exit(const char *want)
{
	char line[512];
	FILE *f;
	int found = 0;

	if (!strcmp(want, "1"))
		return 0;
	f = fopen("/proc/self/maps", "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found ? 0 : 3;
}

int rr_main(const struct rr_repro *r, int argc, char **argv)
{
	struct rr_result *res;
	char err[512];
	bool timed_out = false;
	int code, status = 0, sig;
	uint64_t began;

	/* exec-storm's exec()ed child (RR_EXEC_CHILD): in and out */
	if (argc == 2 && !strcmp(argv[0], RR_EXEC_CHILD))
		return exec_exit(argv[1]);

	rr_set_prog(r->name);
	rr_undos_use();
	/* before anything, --help included: 2, or 128 under --bisect */
	code = rr_hooks_refuse(r->name, rr_usage_error(argc, argv));
	if (code)
		return code;
	if (!rr_repro_valid(r, err, sizeof(err))) {
		fprintf(stderr, "%s: a bug in its declaration: %s\n", r->name,
			err);
		return 2;
	}
	/*
	 * A reader that goes away (| head) must not kill us before the
	 * restore: writes to a closed pipe fail with EPIPE instead.
	 */
	signal(SIGPIPE, SIG_IGN);
	if (!rr_parse_options(r, argc, argv, &code))
		return code;
	if (rr_cfg.parse_only)
		return 0;
	/* the lock, the journal and the checks before the child count too */
	began = rr_now_ns();
	res = new_result(r, argc, argv);
	if (!res)
		return 2;
	if (!rr_start(r, res))
		return finish(r, res, 0);
	sig = rr_run_child(r, res, began, &status, &timed_out);
	if (sig < 0) {
		rr_restore(res);
		return finish(r, res, 0);
	}
	if (!res->done)
		rr_child_stopped(res, sig, status, timed_out);
	/*
	 * Read here, once the child is gone, whatever it died of: a child
	 * killed inside its trigger never reaches the end of its body.
	 */
	if (res->nr_cases &&
	    rr_read_keyed("/proc/vmstat", "oom_kill", &res->oom_kill_after))
		res->oom_unknown = true;
	rr_restore(res);
	if (!sig)
		sig = rr_stopped_in_restore(res);
	return finish(r, res, sig);
}
