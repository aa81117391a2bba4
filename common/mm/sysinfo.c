// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/util.h"
#include "mm/sysinfo.h"

static const char *config_source;
static char *config_text;

int rr_numa_nodes(void)
{
	struct dirent *d;
	int n = 0;
	DIR *dir = opendir("/sys/devices/system/node");

	if (!dir)
		return 1;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) &&
		    d->d_name[4] >= '0' && d->d_name[4] <= '9')
			n++;
	closedir(dir);
	return n ? n : 1;
}

int rr_memory_floor(unsigned long long bytes, unsigned long long floor_mb,
		    char *why, size_t len)
{
	unsigned long long avail_kb;

	if (rr_read_keyed("/proc/meminfo", "MemAvailable", &avail_kb))
		return 0;
	if (avail_kb < (bytes >> 10) + (floor_mb << 10)) {
		snprintf(why, len,
			 "MemAvailable %llu MiB is below the %llu MiB floor (--min-free-mb) plus the %llu MiB the pattern needs",
			 avail_kb >> 10, floor_mb, bytes >> 20);
		return -ENOMEM;
	}
	return 0;
}

bool rr_numa_node_exists(unsigned long long node)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%llu",
		 node);
	return rr_path_exists(path);
}

#include "version.h"

/* In the order a reader looks for them. */
static const char *const kconfig_items[] = {
	"KSM", "NUMA", "MIGRATION", "COMPACTION", "MEMCG", "SWAP", "ZRAM",
	"TRANSPARENT_HUGEPAGE", "MEMORY_FAILURE", "HWPOISON_INJECT",
	"FTRACE", "FUNCTION_GRAPH_TRACER", "KPROBE_EVENTS", "HIST_TRIGGERS",
	"PREEMPT_NONE", "PREEMPT_VOLUNTARY", "PREEMPT", "PREEMPT_RT",
	"PREEMPT_DYNAMIC", "HZ", "PROVE_LOCKING", "LOCK_STAT", "DEBUG_VM",
	"KASAN", "KCSAN", NULL
};

int rr_kconfig_items(char *buf, size_t size)
{
	char val[64];
	size_t o = 0;
	int i, r;

	buf[0] = '\0';
	for (i = 0; kconfig_items[i] && o < size; i++) {
		r = rr_kconfig(kconfig_items[i], val, sizeof(val));
		if (r < 0) {
			buf[0] = '\0';
			return r;
		}
		o += snprintf(buf + o, size - o, "%s%s=%s", o ? " " : "",
			      kconfig_items[i], r ? val : "n");
	}
	return 0;
}

bool rr_cmdline_has(const char *cmdline, const char *name)
{
	size_t n = strlen(name);
	const char *p = cmdline;

	while (*p) {
		size_t w;

		p += strspn(p, " \t\n");
		w = strcspn(p, " \t\n");
		/* a word is the name alone, or the name set to non-zero */
		if (w >= n && !strncmp(p, name, n) &&
		    (w == n || (p[n] == '=' && !(w == n + 2 && p[n + 1] == '0'))))
			return true;
		p += w;
	}
	return false;
}

void rr_sysinfo_read(struct rr_sysinfo *s)
{
	struct utsname u;
	char raw[128];

	memset(s, 0, sizeof(*s));
	if (!uname(&u)) {
		snprintf(s->release, sizeof(s->release), "%s", u.release);
		snprintf(s->version, sizeof(s->version), "%s", u.version);
		snprintf(s->machine, sizeof(s->machine), "%s", u.machine);
	}
	rr_read_file("/proc/cmdline", s->cmdline, sizeof(s->cmdline));
	s->exact = rr_cmdline_has(s->cmdline, "rmap_repro.exact");
	s->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	rr_read_keyed("/proc/meminfo", "MemTotal", &s->mem_kb);
	s->numa_nodes = rr_numa_nodes();
	if (!rr_read_file("/sys/kernel/mm/transparent_hugepage/enabled", raw,
			  sizeof(raw)))
		rr_knob_value(raw, s->thp, sizeof(s->thp));
	else
		snprintf(s->thp, sizeof(s->thp), "unavailable");
	snprintf(s->suite_version, sizeof(s->suite_version), "%s",
		 RR_VERSION);
	rr_kconfig_items(s->kconfig, sizeof(s->kconfig));
}

void rr_kconfig_set_source(const char *path)
{
	config_source = path;
	free(config_text);
	config_text = NULL;
}

/* gzread() reads plain files too, so one loader serves both sources. */
static char *load(const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	gzFile gz;
	int n;

	if (!buf)
		return NULL;
	gz = gzopen(path, "rb");
	if (!gz) {
		free(buf);
		return NULL;
	}
	while ((n = gzread(gz, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	gzclose(gz);
	buf[len] = '\0';
	if (!len) {
		free(buf);
		return NULL;
	}
	return buf;
}

static const char *config(void)
{
	struct utsname u;
	char path[512];

	if (config_text)
		return config_text;
	if (config_source) {
		config_text = load(config_source);
		return config_text;
	}
	config_text = load("/proc/config.gz");
	if (!config_text && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		config_text = load(path);
	}
	return config_text;
}

const char *rr_kconfig_missing(const char *const *names)
{
	for (; names && *names; names++)
		if (rr_kconfig(*names, NULL, 0) == 0)
			return *names;
	return NULL;
}

int rr_kconfig(const char *name, char *val, size_t size)
{
	const char *text = config(), *p;
	char key[128];
	size_t klen;

	if (!text)
		return -ENOENT;
	klen = snprintf(key, sizeof(key), "CONFIG_%s=", name);
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen)) {
			size_t len = strcspn(p + klen, "\n");

			if (val && size) {
				if (len >= size)
					len = size - 1;
				memcpy(val, p + klen, len);
				val[len] = '\0';
			}
			return 1;
		}
	}
	return 0;
}

void rr_cpu_model(char *buf, size_t size)
{
	char line[512], *v;
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(v = strchr(line, ':')))
			continue;
		v += strspn(v + 1, " \t") + 1;
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, size, "%s", v);
		break;
	}
	if (f)
		fclose(f);
}

int rr_kconfig_unset(const char *fragment, char *buf, size_t size)
{
	char line[256], name[128], val[64];
	FILE *f = fopen(fragment, "re");
	size_t o = 0;
	int ret;

	if (!f)
		return -errno;
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "CONFIG_%127[A-Z0-9_]", name) != 1)
			continue;
		ret = rr_kconfig(name, val, sizeof(val));
		if (ret < 0) {
			fclose(f);
			return ret;
		}
		if (ret && (!strcmp(val, "y") || !strcmp(val, "m")))
			continue;
		if (o < size)
			o += snprintf(buf + o, size - o, "%sCONFIG_%s",
				      o ? " " : "", name);
	}
	fclose(f);
	return 0;
}
