// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "mm/pressure.h"

/* The largest value the kernel accepts (0.3 of memory). */
#define WSF_MAX 3000

/*
 * Per zone: "Node 0, zone   Normal", then "min N", "low N", "high N",
 * "managed N" and "protection: (a, b, ...)" (in pages). Zones without
 * managed pages do not count.
 */
int rr_zoneinfo_parse(const char *text, unsigned long long page_kb,
		      struct rr_watermarks *w)
{
	unsigned long long min = 0, low = 0, high = 0, managed = 0, prot = 0;
	const char *line = text;
	int zones = 0;

	memset(w, 0, sizeof(*w));
	for (;;) {
		const char *end = strchr(line, '\n');
		const char *at = line + strspn(line, " \t");
		bool last = !end || !end[1];

		if (!strncmp(at, "min ", 4))
			min = strtoull(at + 4, NULL, 10);
		else if (!strncmp(at, "low ", 4))
			low = strtoull(at + 4, NULL, 10);
		else if (!strncmp(at, "high ", 5))
			high = strtoull(at + 5, NULL, 10);
		else if (!strncmp(at, "managed ", 8))
			managed = strtoull(at + 8, NULL, 10);
		else if (!strncmp(at, "protection: (", 13)) {
			const char *p = at + 13;
			char *next;

			/* the largest: what a movable allocation faces */
			prot = 0;
			for (;;) {
				unsigned long long v = strtoull(p, &next, 10);

				if (next == p)
					break;
				if (v > prot)
					prot = v;
				/* a zone cannot keep back more than it has */
				if (prot > managed && managed)
					prot = managed;
				p = next + strspn(next, ", ");
			}
		}
		if (last || !strncmp(end + 1, "Node ", 5)) {
			if (managed) {
				w->min_kb += min * page_kb;
				w->low_kb += low * page_kb;
				w->high_kb += high * page_kb;
				w->reserve_kb += prot * page_kb;
				w->managed_kb += managed * page_kb;
				zones++;
			}
			min = low = high = managed = prot = 0;
		}
		if (last)
			break;
		line = end + 1;
	}
	return zones ? 0 : -EINVAL;
}

int rr_watermarks_read(struct rr_watermarks *w)
{
	size_t size = 1 << 16;
	char *text = malloc(size);
	int err;

	if (!text)
		return -ENOMEM;
	err = rr_read_file("/proc/zoneinfo", text, size);
	if (!err)
		err = rr_zoneinfo_parse(text, rr_page_size() >> 10, w);
	free(text);
	return err;
}

/*
 * The kernel's gap per zone is max(min / 4, managed * wsf / 10000):
 * solve for wsf over the sum.
 */
unsigned long rr_pressure_wsf(const struct rr_watermarks *w,
			      unsigned long wsf_now,
			      unsigned long long floor_kb)
{
	unsigned long long want = 4 * floor_kb, wsf;

	if (w->low_kb - w->min_kb >= want || !w->managed_kb)
		return wsf_now;
	wsf = (want * 10000 + w->managed_kb - 1) / w->managed_kb;
	if (wsf > WSF_MAX)
		wsf = WSF_MAX;
	return wsf > wsf_now ? wsf : wsf_now;
}

unsigned long long rr_pressure_bytes(const struct rr_watermarks *w,
				     unsigned long long free_kb,
				     unsigned long long floor_kb, char *why,
				     size_t len)
{
	unsigned long long left = w->min_kb + (w->low_kb - w->min_kb) / 3;
	unsigned long long target = w->reserve_kb + left;

	if (left < floor_kb) {
		snprintf(why, len,
			 "a third of the way from the min to the low watermark is %llu MiB, below the %llu MiB floor (--min-free-mb), and vm.watermark_scale_factor cannot widen the gap further here",
			 left >> 10, floor_kb >> 10);
		return 0;
	}
	if (free_kb <= target) {
		snprintf(why, len,
			 "MemFree %llu MiB is already below the target %llu MiB",
			 free_kb >> 10, target >> 10);
		return 0;
	}
	return (free_kb - target) << 10;
}

int rr_load_start(struct rr_load *l, const struct rr_memcg *cg,
		  unsigned long long bytes, int workers, unsigned int secs,
		  char *why, size_t len)
{
	char w[16], b[32], t[16], procs[PATH_MAX + 32];
	char *argv[] = {
		"stress-ng", "--vm", w, "--vm-bytes", b, "--vm-keep",
		"--vm-locked", "--vm-hang", "0", "--timeout", t,
		"--oomable", "--no-oom-adjust", NULL
	};
	int i;

	memset(l, 0, sizeof(*l));
	snprintf(w, sizeof(w), "%d", workers);
	snprintf(b, sizeof(b), "%lluk", bytes >> 10);
	snprintf(t, sizeof(t), "%us", secs);
	for (i = 0; argv[i]; i++)
		snprintf(l->cmd + strlen(l->cmd), sizeof(l->cmd) -
			 strlen(l->cmd), "%s%s", i ? " " : "", argv[i]);
	l->bytes = bytes;
	l->workers = workers;
	l->log = tmpfile();
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg->path);
	if (!l->log) {
		snprintf(why, len, "cannot start stress-ng: %s",
			 strerror(errno));
		return -errno;
	}
	fflush(NULL);
	l->pid = fork();
	if (l->pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -errno;
	}
	if (!l->pid) {
		/* the load never outlives the run */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (rr_write_file("/proc/self/oom_score_adj", "1000") ||
		    rr_write_file(procs, "0"))
			_exit(125);
		dup2(fileno(l->log), 1);
		dup2(fileno(l->log), 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return 0;
}

bool rr_load_exited(struct rr_load *l, char *why, size_t len)
{
	char line[160] = "";
	int status;

	if (l->pid <= 0 || waitpid(l->pid, &status, WNOHANG) != l->pid)
		return false;
	l->pid = 0;
	/* its last line says why */
	if (l->log) {
		rewind(l->log);
		while (fgets(line, sizeof(line), l->log))
			;
		line[strcspn(line, "\n")] = '\0';
	}
	snprintf(why, len, "stress-ng exited early (%s%d)%s%s",
		 WIFEXITED(status) ? "status " : "signal ",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		 line[0] ? ": " : "", line);
	return true;
}

bool rr_load_stop(struct rr_load *l, const struct rr_memcg *cg)
{
	int status = 0;
	bool exited;

	exited = l->pid <= 0 || waitpid(l->pid, &status, WNOHANG) == l->pid;
	rr_memcg_kill(cg->path);
	if (!exited)
		waitpid(l->pid, &status, 0);
	l->pid = 0;
	if (l->log) {
		fclose(l->log);
		l->log = NULL;
	}
	return exited;
}

int rr_kswapd_revive(const struct rr_memcg *scratch,
		     const struct rr_memcg *home, char *how, size_t len)
{
	static char buf[1 << 20];
	unsigned long long before = 0, after = 0;
	int fd, i, err = 0;

	/*
	 * No child: a fork of a process that maps the pattern would copy
	 * its VMAs under the anon_vma lock, which kswapd's walks only try
	 * (a contended walk counts the folio as referenced). The process
	 * charges the page cache to the scratch group by writing it from
	 * there, then goes home; its other pages stay charged where they
	 * are.
	 */
	err = rr_memcg_join(scratch);
	if (err)
		return err;
	fd = open("/var/tmp", O_TMPFILE | O_RDWR, 0600);
	if (fd < 0)
		fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	if (fd < 0)
		err = -errno;
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; !err && i < 4; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			err = -EIO;
	if (!err)
		fsync(fd);
	if (rr_memcg_join(home) && !err)
		err = -EIO;
	if (!err) {
		rr_memcg_usage(scratch, &before);
		err = rr_memcg_reclaim(scratch, RR_RECLAIM_ALL, how, len);
		rr_memcg_usage(scratch, &after);
	}
	if (fd >= 0)
		close(fd);
	if (!err)
		snprintf(how, len, "%llu KiB of unmapped page cache reclaimed",
			 before > after ? (before - after) >> 10 : 0);
	return err;
}
