// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <spawn.h>
#include <time.h>
#include <unistd.h>

#include "lib/hooks.h"
#include "lib/util.h"

extern char **environ;

static bool quiet;
static const char *prog = "rmap-repro";

void rr_set_quiet(bool q)
{
	quiet = q;
}

bool rr_is_quiet(void)
{
	return quiet;
}

void rr_set_prog(const char *name)
{
	prog = name;
}

const char *rr_prog(void)
{
	return prog;
}

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* One write per line so that lines of parent and child never mix. */
	dprintf(STDERR_FILENO, "%s: %s%s\n", prog, tag, buf);
}

void rr_msg(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void rr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

uint64_t rr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void rr_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

uint64_t rr_progress_next(uint64_t elapsed_ns)
{
	static const unsigned int at_s[] = { 1, 2, 5, 10, 20, 30 };
	uint64_t s = elapsed_ns / NSEC_PER_SEC;
	size_t i;

	for (i = 0; i < sizeof(at_s) / sizeof(at_s[0]); i++)
		if (at_s[i] > s)
			return (uint64_t)at_s[i] * NSEC_PER_SEC;
	return (s / 30 + 1) * 30 * NSEC_PER_SEC;
}

void rr_progress_start(struct rr_progress *p, const char *phase)
{
	p->phase = phase;
	p->start_ns = rr_now_ns();
	p->next_ns = rr_progress_next(0);
}

void rr_progress(struct rr_progress *p, const char *fmt, ...)
{
	uint64_t el = rr_now_ns() - p->start_ns;
	char buf[512];
	va_list ap;

	if (el < p->next_ns)
		return;
	p->next_ns = rr_progress_next(el);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rr_msg("%s: %s (%.1f s)", p->phase, buf, (double)el / NSEC_PER_SEC);
}

struct rr_ticker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	char phase[128];
	rr_how_far_fn *how_far;
};

static void *ticker_fn(void *arg)
{
	struct rr_ticker *t = arg;
	uint64_t start = rr_now_ns(), next = rr_progress_next(0), el;
	struct timespec ts;
	char far[160];

	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		clock_gettime(CLOCK_REALTIME, &ts);
		el = rr_now_ns() - start;
		if (next > el) {
			ts.tv_sec += (next - el) / NSEC_PER_SEC;
			ts.tv_nsec += (next - el) % NSEC_PER_SEC;
			if (ts.tv_nsec >= (long)NSEC_PER_SEC) {
				ts.tv_sec++;
				ts.tv_nsec -= (long)NSEC_PER_SEC;
			}
		}
		if (pthread_cond_timedwait(&t->cond, &t->lock, &ts) !=
		    ETIMEDOUT || t->stop)
			continue;
		el = rr_now_ns() - start;
		if (el < next)
			continue;
		next = rr_progress_next(el);
		far[0] = '\0';
		if (t->how_far)
			t->how_far(far, sizeof(far));
		rr_msg("%s: still running (%.0f s)%s%s", t->phase,
		       (double)el / NSEC_PER_SEC, far[0] ? ": " : "", far);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

struct rr_ticker *rr_ticker_start(const char *phase, rr_how_far_fn *how_far)
{
	struct rr_ticker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	snprintf(t->phase, sizeof(t->phase), "%s", phase);
	t->how_far = how_far;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	if (pthread_create(&t->thread, NULL, ticker_fn, t)) {
		free(t);
		return NULL;
	}
	return t;
}

void rr_ticker_stop(struct rr_ticker *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	free(t);
}

int rr_read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	size_t len = 0;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return 0;
}

static int write_with(const char *path, const char *val, int flags)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int rr_write_file(const char *path, const char *val)
{
	/* O_TRUNC: harmless on sysfs/procfs, needed on plain files. */
	return write_with(path, val, O_TRUNC);
}

int rr_append_file(const char *path, const char *val)
{
	return write_with(path, val, O_APPEND);
}

int rr_read_ull(const char *path, unsigned long long *val)
{
	char buf[64];
	int err = rr_read_file(path, buf, sizeof(buf));

	if (err)
		return err;
	if (!rr_parse_ull(buf, val))
		return -EINVAL;
	return 0;
}

int rr_read_long(const char *path, long *val)
{
	char buf[64], *end;
	int err = rr_read_file(path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

bool rr_path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

void rr_knob_value(const char *raw, char *out, size_t size)
{
	const char *lb = strchr(raw, '[');
	const char *rb = lb ? strchr(lb, ']') : NULL;
	size_t len;

	if (lb && rb) {
		len = rb - lb - 1;
		if (len >= size)
			len = size - 1;
		memcpy(out, lb + 1, len);
		out[len] = '\0';
		return;
	}
	snprintf(out, size, "%s", raw);
}

static const char *dir_env(const char *name, const char *dflt)
{
	const char *dir = rr_hook_env(name);

	return dir ? dir : dflt;
}

const char *rr_sys_dir(void)
{
	return dir_env("RMAP_REPRO_SYS_DIR", "/sys");
}

const char *rr_proc_dir(void)
{
	return dir_env("RMAP_REPRO_PROC_DIR", "/proc");
}

int rr_read_keyed(const char *path, const char *key, unsigned long long *val)
{
	size_t klen = strlen(key);
	char line[256];
	int err = -ENOENT;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + klen;

		if (strncmp(line, key, klen))
			continue;
		/* The key must end here: "oom_kill" is not "oom_kill_x". */
		if (*p == ':')
			p++;
		if (!isspace((unsigned char)*p))
			continue;
		*val = strtoull(p, NULL, 10);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

int rr_parse_dec(const char *s, unsigned long long *val)
{
	unsigned long long v = 0;
	const char *p;

	/* Plain decimal digits only: no sign, blank, base prefix or suffix. */
	if (!s || !*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	for (p = s; *p; p++) {
		if (v > (ULLONG_MAX - (*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (*p - '0');
	}
	*val = v;
	return 0;
}

bool rr_parse_ull(const char *s, unsigned long long *val)
{
	return !rr_parse_dec(s, val);
}

/*
 * A decimal number: [+-]digits[.digits][e[+-]digits]. strtod() alone
 * would also take 0x10 (16), inf and nan.
 */
static bool decimal_float(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-');
	size_t digits = 0;

	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '+' || p[1] == '-');
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return !*p;
}

bool rr_parse_double(const char *s, double *val)
{
	char *end;

	if (!s || !*s || !decimal_float(s))
		return false;
	errno = 0;
	*val = strtod(s, &end);
	return !errno && *end == '\0';
}

bool rr_have_command(const char *name)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX], file[PATH_MAX + 256];
	size_t n;

	if (!path || !*path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		n = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s", (int)n, path);
		snprintf(file, sizeof(file), "%s/%s", n ? dir : ".", name);
		if (!access(file, X_OK))
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

int rr_run(const char *const argv[], bool quiet_out)
{
	posix_spawn_file_actions_t fa;
	int status, err;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	if (quiet_out) {
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
						 "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO,
						 "/dev/null", O_WRONLY, 0);
	}
	err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
			   environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return -err;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

size_t rr_page_size(void)
{
	static size_t ps;

	if (!ps)
		ps = (size_t)sysconf(_SC_PAGESIZE);
	return ps;
}

void rr_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;
	bool first = true;

	while (*p == ' ')
		p++;
	while (*p) {
		int len = strcspn(p, " ");

		if (!first && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		first = false;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

bool rr_mounted(const char *dir, const char *fstype)
{
	char line[1024], where[512], fs[64];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (!f)
		return false;
	/* "source mountpoint fstype options 0 0" */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %511s %63s", where, fs) == 2 &&
			(!dir || !strcmp(where, dir)) &&
			(!fstype || !strcmp(fs, fstype));
	fclose(f);
	return found;
}

const char *rr_state_dir(void)
{
	const char *dir = rr_hook_env("RMAP_REPRO_STATE_DIR");

	return dir ? dir : "/run/rmap-repro";
}
