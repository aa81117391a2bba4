/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every file: messages, clocks, sysfs/procfs file
 * access. Nothing here changes system state on its own; writes that change
 * a knob go through journal.c.
 */
#ifndef RR_UTIL_H
#define RR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL

/* Messages go to stderr so that stdout carries only the report. */
void rr_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rr_set_quiet(bool quiet);
bool rr_is_quiet(void);
void rr_set_prog(const char *name);
const char *rr_prog(void);

/*
 * Progress line for a phase longer than a second: printed 1, 2, 5, 10, 20
 * and 30 s into the phase, then every 30 s (rr_progress_next()), never a
 * line a second, so polling loops can call it every iteration.
 */
struct rr_progress {
	const char *phase;
	uint64_t start_ns;
	uint64_t next_ns;	/* since start_ns: when the next line is due */
};
void rr_progress_start(struct rr_progress *p, const char *phase);
void rr_progress(struct rr_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* After a line at elapsed_ns into a phase, when the next is due (ns). */
uint64_t rr_progress_next(uint64_t elapsed_ns);

/*
 * A ticker prints "phase: still running (N s)" on the same schedule from
 * its own thread, for a phase that blocks in one system call (a trigger);
 * how_far, where not NULL, adds how far the call has come ("1200 of 2000
 * pattern pages out"; "" when it cannot tell). It runs in the ticker's
 * thread: it may read only what the phase publishes for it.
 */
typedef void rr_how_far_fn(char *buf, size_t len);
struct rr_ticker;
struct rr_ticker *rr_ticker_start(const char *phase, rr_how_far_fn *how_far);
void rr_ticker_stop(struct rr_ticker *t);

uint64_t rr_now_ns(void);	/* CLOCK_MONOTONIC */
void rr_sleep_ms(unsigned int ms);

/*
 * File helpers return 0 or a negative errno. Values are read without the
 * trailing newline.
 */
int rr_read_file(const char *path, char *buf, size_t size);
int rr_write_file(const char *path, const char *val);
/*
 * Append without truncating: for kprobe_events and dynamic_events, where
 * opening with O_TRUNC removes every dynamic event of the system.
 */
int rr_append_file(const char *path, const char *val);
int rr_read_long(const char *path, long *val);
int rr_read_ull(const char *path, unsigned long long *val);
bool rr_path_exists(const char *path);

/*
 * Where sysfs and procfs are for journal undo handlers:
 * RMAP_REPRO_SYS_DIR and RMAP_REPRO_PROC_DIR let the unit tests stand
 * a directory tree in for them.
 */
const char *rr_sys_dir(void);
const char *rr_proc_dir(void);

/* "always [madvise] never" -> "madvise"; other values are copied. */
void rr_knob_value(const char *raw, char *out, size_t size);

/* Look up "key value" in a /proc/meminfo or /proc/vmstat style file. */
int rr_read_keyed(const char *path, const char *key, unsigned long long *val);

/*
 * A whole string of decimal digits (no sign, blank, 0x or suffix):
 * 0, -EINVAL for anything else, -ERANGE beyond unsigned long long.
 */
int rr_parse_dec(const char *s, unsigned long long *val);
/* The same, true on success; and a whole floating-point string. */
bool rr_parse_ull(const char *s, unsigned long long *val);
bool rr_parse_double(const char *s, double *val);

/* Is there an executable NAME in $PATH? */
bool rr_have_command(const char *name);
/* Run a program (no shell) and wait; returns its exit status or -errno. */
int rr_run(const char *const argv[], bool quiet);

size_t rr_page_size(void);

/* Is something mounted at dir (NULL: anywhere) of fstype (NULL: any)? */
bool rr_mounted(const char *dir, const char *fstype);

/*
 * Print text from column col, breaking lines at blanks before width and
 * starting each new line at column indent; ends with a newline. A word
 * longer than a line stands alone.
 */
void rr_wrap(FILE *f, const char *text, int col, int indent, int width);

/*
 * The suite's state directory: /run/rmap-repro (RMAP_REPRO_STATE_DIR in
 * the test build, lib/hooks.h), where the journal, the run lock and the
 * test hooks' lists live.
 */
const char *rr_state_dir(void);

#endif
