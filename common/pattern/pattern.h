/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pattern builders: one mapping split into many VMAs by mprotect(), so
 * that all its VMAs sit on one anon_vma (anonymous) or one file's i_mmap
 * tree (MAP_SHARED), with some pages filled with identical content.
 *
 * Only the filled pages are populated. The VMAs of the unpopulated pages
 * still sit on the anon_vma (the mapping got its anon_vma from the first
 * fault, before the split), which is what a KSM walk iterates; leaving
 * them empty keeps the number of KSM pages, and so the length of a
 * trigger that walks all of them, under control.
 */
#ifndef RR_PATTERN_H
#define RR_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/opts.h"
#include "mm/pageflags.h"

enum rr_page_type { RR_PT_KSM, RR_PT_ANON, RR_PT_FILE, RR_PT_MAX };

const char *rr_page_type_name(enum rr_page_type t);

struct rr_pattern_spec {
	enum rr_page_type type;
	size_t pages;		/* size of the mapping */
	size_t split_every;	/* split off every Nth page; 0: no split */
	size_t identical;	/* pages filled, spread evenly; 0: all */
	/*
	 * Distinct contents among the filled pages, dealt in turn (the
	 * i-th filled page gets content i % contents); 0 or 1: all alike.
	 * KSM then makes at least one KSM page per content.
	 */
	size_t contents;
	/*
	 * How a page is split off: 0, mprotect(PROT_READ); else this
	 * madvise() advice, which splits only where it changes the VMA's
	 * flags (the kernel ignores some on some mappings: the VMAs
	 * counted are then fewer, and reported as counted). With
	 * MADV_MERGEABLE the advice is the KSM opt-in: the mapping is not
	 * opted in as a whole, and the filled pages sit on advised pages.
	 */
	int split_advice;
	/*
	 * Large folios: the mapping aligned to this many pages and
	 * MADV_HUGEPAGE, so that the first fault in each such range
	 * takes one folio of them (THP: the PMD size; mTHP sizes as the
	 * kernel's hugepages-*kB settings allow), before the split maps
	 * it by PTE ranges of many VMAs. 0: base pages (MADV_NOHUGEPAGE).
	 */
	size_t folio_pages;
	/*
	 * File pages: an unlinked file in this directory (O_TMPFILE: page
	 * cache of its filesystem, written back after the fill so that
	 * reclaim needs no swap) instead of a memfd (shmem); NULL: memfd.
	 */
	const char *file_dir;
};

struct rr_frames;
struct rr_family;
struct rr_victim_op;

struct rr_pattern {
	struct rr_pattern_spec spec;
	char *addr;
	size_t len;
	int memfd;
	size_t filled;		/* pages filled with identical content */
	size_t vmas;		/* counted in /proc/self/maps */
	size_t vmas_expected;
	char *victim;		/* a page whose mprotect needs the rmap lock */
	/* the victim's call instead of that mprotect() (NULL: none) */
	const struct rr_victim_op *victim_op;
	/*
	 * Other processes that map the pattern at the same addresses
	 * (forks): residency counts their pages too. Owned by the
	 * reproducer that made them, which reaps them in its teardown.
	 */
	int *pids;
	int nr_pids;
	/*
	 * The pages a trigger that acts on pages (migrate) moves, across
	 * processes, set by a reproducer (e.g. one mapping per frame of a
	 * family); NULL: this process's filled pages. Freed with it.
	 */
	struct rr_page_ref {
		int pid;		/* 0: this process */
		char *addr;
	} *refs;
	size_t nr_refs;
	struct rr_frames *frames;	/* the frames oracle's (oracle.h) */
	bool swaps_out;		/* the trigger swaps pages out (oracle.h) */
	struct rr_family *family;	/* its forked members (family.h) */
	/*
	 * ksm-scan: pages of this process ksmd must have merged for the
	 * trigger's call to end; 0: two full scans end it.
	 */
	size_t ksm_goal;
	void *priv;		/* the reproducer's own */
};

/*
 * The split pattern's options, declared once for every reproducer that
 * builds it: RR_SPLIT_OPTS(s) in its option table gives --pages,
 * --split-every and --identical over a struct rr_split_opts of its own
 * (the defaults are its own); rr_split_fits() checks them together and
 * rr_pattern_spec_of() lays the pattern out. What a reproducer does
 * with the split beyond this (advice instead of mprotect(), a family
 * of processes) its summary says.
 */
struct rr_split_opts {
	unsigned long long pages, split_every, identical;
};

#define RR_SPLIT_OPTS(s)						\
	{ "pages", OPT_UINT, &(s).pages, "N",				\
	  "size of the mapping in pages, in every process that maps the pattern; with --split-every 2 it becomes N VMAs", \
	  .min = 16, .max = 4000000 },					\
	{ "split-every", OPT_UINT, &(s).split_every, "N",		\
	  "split the mapping into VMAs at every Nth page (2: every other page): mprotect(PROT_READ), or the call the reproducer's summary names", \
	  .min = 2, .max = 4000000 },					\
	{ "identical", OPT_UINT, &(s).identical, "N",			\
	  "pages filled with identical content (what KSM merges, where it runs; only filled pages are walked), spread evenly; the rest stay unpopulated. 0: every page", \
	  .min = 2, .max = 4000000, .zero_ok = true }

/* Neither --split-every nor --identical more than --pages: or why. */
bool rr_split_fits(const struct rr_split_opts *o, char *why, size_t len);
/* The split pattern of one page type, from the options. */
void rr_pattern_spec_of(struct rr_pattern_spec *s, enum rr_page_type t,
			const struct rr_split_opts *o);

/* The split pattern of one page type (pattern.c's default layout). */
void rr_pattern_spec_split(struct rr_pattern_spec *s, enum rr_page_type t,
			   size_t pages, size_t split_every,
			   size_t identical);
size_t rr_pattern_expected_vmas(const struct rr_pattern_spec *s);
/* Count the pattern's VMAs in /proc/self/maps: 0, or -errno with why. */
int rr_pattern_count_vmas(const struct rr_pattern *p, size_t *vmas,
			  char *why, size_t len);
/* How many pages a spec fills (identical 0: all it can). */
size_t rr_pattern_spec_filled(const struct rr_pattern_spec *s);
/* Index of the i-th filled page. */
size_t rr_pattern_filled_index(const struct rr_pattern *p, size_t i);
/* Raise vm.max_map_count through the journal if `vmas` more need it. */
int rr_pattern_map_count(size_t vmas, char *why, size_t len);
/*
 * One anonymous mapping of pages for ksmd to scan: THP off (ksmd scans
 * base pages), each page written by fill(page, page size, index, arg),
 * opted in to KSM. p->spec is the caller's; the rest is filled here.
 */
int rr_pattern_map_mergeable(struct rr_pattern *p, size_t pages,
			     void (*fill)(char *, size_t, size_t, void *),
			     void *arg, char *why, size_t len);
int rr_pattern_build(struct rr_pattern *p, const struct rr_pattern_spec *s,
		     char *why, size_t len);
/*
 * Count filled pages present in RAM and swapped out (/proc/PID/pagemap),
 * in this process and in the pattern's other processes.
 */
int rr_pattern_residency(const struct rr_pattern *p, size_t *present,
			 size_t *swapped);
void rr_pattern_free(struct rr_pattern *p);
/*
 * Write each filled page's first byte back (a read-only page opened for
 * the write and closed again, which leaves the VMAs as they were): in a
 * fork, a private copy of every page with the same content. The first
 * n filled pages (more than filled: all of them).
 */
int rr_pattern_rewrite(struct rr_pattern *p, size_t n);
/*
 * MADV_DONTNEED churn: fault in and zap every page that is neither
 * filled nor split off. It splits nothing: -EPROTO, with why, if the
 * VMA count changed.
 */
int rr_pattern_churn(struct rr_pattern *p, char *why, size_t len);
/*
 * One mapping (pid, address) of each distinct frame of the filled pages,
 * in this process and (unless self_only) the pattern's other processes,
 * this process's mapping first where it has one; sorted by process, then
 * address. 0 with *refs (to free), -EPERM when pagemap hides frames.
 */
int rr_pattern_frame_refs(const struct rr_pattern *p, bool self_only,
			  struct rr_page_ref **refs, size_t *nr);
/*
 * The frame numbers of this process's distinct frames of the filled
 * pages, present ones only: 0 with *pfn (to free, *n of them), or
 * -errno with why.
 */
int rr_pattern_pfns(const struct rr_pattern *p, unsigned long long **pfn,
		    size_t *n, char *why, size_t len);
/*
 * Map len bytes of fd as ld.so maps a shared library: text
 * PROT_READ|PROT_EXEC over all of it, data MAP_PRIVATE|MAP_FIXED over
 * its second half, then a RELRO mprotect() of the data's first page
 * (3 VMAs, each step under the file's i_mmap_rwsem for write). The
 * address, or MAP_FAILED with errno; *err gets a later step's -errno.
 */
char *rr_map_like_ld_so(int fd, size_t len, int *err);

/*
 * How many of this process's filled pages sit in large folios (compound
 * frames: THP or mTHP), from pagemap and kpageflags: 0, or -errno.
 */
int rr_pattern_large_folios(const struct rr_pattern *p, size_t *large);

#endif
