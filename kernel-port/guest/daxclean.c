// SPDX-License-Identifier: GPL-2.0
/*
 * daxclean.c - fs/dax.c's i_mmap walk, with an oracle that names the vma
 * a walk missed.  Run inside the QEMU guest only.
 *
 *   daxclean [-r ROUNDS] [-s SEED] DIR
 *
 * DIR is on a file system mounted with -o dax (ext2 on the legacy pmem
 * device that memmap=SIZE!START makes).  Prints one line,
 *
 *   PT-IUSER dax ok rounds=R checks=C vmas=V ...
 *
 * or "PT-IUSER dax FAIL <what was expected, what happened, where>", and
 * exits 0 only when ok (2 for a usage error).  A setup error is a FAIL
 * naming the errno, never a skip.
 *
 * A DAX file has no page cache: its pages are the device's, mapped
 * straight into every vma, and "writeback" is a cache flush.  To know
 * which ptes may have dirtied a page since the last flush, msync() and
 * fsync() end in dax_writeback_one(), whose dax_entry_mkclean() walks
 * i_mmap with the stabbing query [index, index] and write-protects and
 * cleans the pte of every vma it returns.  The next store through each of
 * those vmas must then fault again (dax_iomap_fault()'s pfn_mkwrite path,
 * which dirties the entry for the next flush); a vma that the walk missed
 * keeps a writable pte, and its store does not fault, so a later flush
 * would skip the page.  That is the oracle: the task's minor fault count
 * (getrusage()) across one store.
 *
 * This process maps one FILE_PAGES-page file in NVMAS vmas, each in its
 * own slot of a reserved region so that none can merge: plain mmaps of a
 * random range, copies of an earlier vma's range (vm_set lists in the
 * prio tree), vmas split in two by unmapping a page in the middle, with
 * the head trimmed, and moved by mremap.  Each round picks a page t and:
 *
 *  1. stores through every vma covering t (the first store faults the
 *     pte in, writable and dirty);
 *  2. control: stores through each again, which must not fault (a pte
 *     that is already writable); a fault here means something else
 *     cleaned the pte (the flusher, whose periodic writeback this
 *     program turns off while it runs), and the round is counted
 *     inconclusive, not failed;
 *  3. msync(MS_SYNC) of page t through one of the vmas;
 *  4. stores through each covering vma once more: each must fault;
 *  5. pread() of page t must return the last word stored (the stores
 *     reached the device, and the file reads it).
 *
 * Needs root (to write /proc/sys/vm/dirty_writeback_centisecs) and
 * statx()'s STATX_ATTR_DAX (Linux 5.8).  Static, for the busybox
 * initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"

#ifndef STATX_ATTR_DAX
#define STATX_ATTR_DAX		0x00200000
#endif

#define FILE_PAGES	64	/* under a pmd: every mapping is of ptes */
#define NVMAS		48
#define SLOT_PAGES	(FILE_PAGES + 2)	/* a vma and a guard page */
#define ROUNDS		300

static const char writeback_knob[] = "/proc/sys/vm/dirty_writeback_centisecs";

struct dax_vma {
	char		*addr;		/* vm_start */
	unsigned long	pgoff;		/* file page at vm_start */
	unsigned long	pages;
	const char	*how;		/* how it was made, for the report */
};

static struct dax_vma vmas[NVMAS * 2];	/* a split makes two */
static int nvmas;
static size_t page_size;
static char *region;			/* NVMAS * 2 slots, PROT_NONE */
static int nslots_used;
static uint64_t rng;
static long saved_knob = -1;	/* the writeback period to put back */

static void restore_writeback(void);

static uint64_t next_random(void)
{
	/* xorshift64*: reproducible layouts from -s */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static void __noreturn fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void __noreturn fail(const char *fmt, ...)
{
	va_list ap;

	printf("PT-IUSER dax FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	restore_writeback();
	exit(1);
}

static void __noreturn usage(void)
{
	fprintf(stderr, "usage: daxclean [-r ROUNDS] [-s SEED] DIR\n");
	exit(2);
}

static long minor_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		fail("getrusage: %s", strerror(errno));
	return ru.ru_minflt;
}

/* The address of file page @page in @v, which must cover it. */
static volatile uint64_t *page_in(const struct dax_vma *v, unsigned long page)
{
	return (volatile uint64_t *)(v->addr + (page - v->pgoff) * page_size);
}

static bool covers(const struct dax_vma *v, unsigned long page)
{
	return v->pgoff <= page && page < v->pgoff + v->pages;
}

/* Map @pages file pages from @pgoff at the start of a fresh slot. */
static struct dax_vma *map_slot(int fd, unsigned long pgoff,
				unsigned long pages, const char *how)
{
	char *want = region + (size_t)nslots_used++ * SLOT_PAGES * page_size;
	struct dax_vma *v = &vmas[nvmas++];
	char *p;

	p = mmap(want, pages * page_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, (off_t)(pgoff * page_size));
	if (p == MAP_FAILED)
		fail("mmap of file pages [%lu, %lu]: %s", pgoff,
		     pgoff + pages - 1, strerror(errno));
	v->addr = p;
	v->pgoff = pgoff;
	v->pages = pages;
	v->how = how;
	return v;
}

/*
 * NVMAS vmas of the file, in five shapes.  Each keeps its slot's guard
 * page, so neighbours never touch and never merge; the mremap target is a
 * slot of its own.
 */
static void make_vmas(int fd)
{
	struct dax_vma *v, *tail;
	unsigned long pgoff, pages;
	char *to;
	int i;

	for (i = 0; i < NVMAS; i++) {
		pgoff = next_random() % FILE_PAGES;
		pages = 1 + next_random() % (FILE_PAGES - pgoff);
		switch (i % 5) {
		case 0:
			map_slot(fd, pgoff, pages, "plain");
			break;
		case 1:
			/* the range of an earlier vma: a vm_set list member */
			v = &vmas[next_random() % nvmas];
			map_slot(fd, v->pgoff, v->pages, "same range");
			break;
		case 2:
			/* split in two by unmapping a page in the middle */
			if (pages < 3) {
				map_slot(fd, pgoff, pages, "plain");
				break;
			}
			v = map_slot(fd, pgoff, pages, "split head");
			tail = &vmas[nvmas++];
			tail->pgoff = pgoff + pages / 2 + 1;
			tail->pages = pages - pages / 2 - 1;
			tail->addr = v->addr + (pages / 2 + 1) * page_size;
			tail->how = "split tail";
			v->pages = pages / 2;
			if (munmap(v->addr + v->pages * page_size, page_size))
				fail("munmap to split: %s", strerror(errno));
			break;
		case 3:
			/* head trimmed: vm_start and vm_pgoff move up */
			if (pages < 2) {
				map_slot(fd, pgoff, pages, "plain");
				break;
			}
			v = map_slot(fd, pgoff, pages, "head trimmed");
			if (munmap(v->addr, page_size))
				fail("munmap to trim: %s", strerror(errno));
			v->addr += page_size;
			v->pgoff++;
			v->pages--;
			break;
		case 4:
			/* moved by mremap to a slot of its own */
			v = map_slot(fd, pgoff, pages, "moved");
			to = region + (size_t)nslots_used++ * SLOT_PAGES *
				page_size;
			if (mremap(v->addr, pages * page_size,
				   pages * page_size,
				   MREMAP_MAYMOVE | MREMAP_FIXED, to) != to)
				fail("mremap: %s", strerror(errno));
			v->addr = to;
			break;
		}
	}
}

/* Open the file, give it FILE_PAGES pages and check that it is DAX. */
static int open_dax_file(const char *dir)
{
	char path[4096];
	struct statx stx;
	int fd;

	snprintf(path, sizeof(path), "%s/daxclean.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	if (ftruncate(fd, (off_t)(FILE_PAGES * page_size)))
		fail("ftruncate %s: %s", path, strerror(errno));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx))
		fail("statx %s: %s", path, strerror(errno));
	if (!(stx.stx_attributes_mask & STATX_ATTR_DAX) ||
	    !(stx.stx_attributes & STATX_ATTR_DAX))
		fail("expected %s to be a DAX file (statx STATX_ATTR_DAX), it is not: is %s mounted with -o dax?",
		     path, dir);
	return fd;
}

/*
 * Turn the flusher's periodic writeback off (it would clean ptes behind
 * the control's back); restore_writeback() puts the period back, also on
 * the way out of a FAIL.
 */
static void stop_writeback(void)
{
	FILE *f = fopen(writeback_knob, "r+");

	if (!f)
		fail("open %s: %s", writeback_knob, strerror(errno));
	if (fscanf(f, "%ld", &saved_knob) != 1 || fseek(f, 0, SEEK_SET) ||
	    fprintf(f, "0\n") < 0 || fclose(f)) {
		saved_knob = -1;
		fail("set %s to 0: %s", writeback_knob, strerror(errno));
	}
}

static void restore_writeback(void)
{
	FILE *f;

	if (saved_knob < 0)
		return;
	f = fopen(writeback_knob, "w");
	if (f) {
		fprintf(f, "%ld\n", saved_knob);
		fclose(f);
	}
	saved_knob = -1;
}

int main(int argc, char **argv)
{
	long rounds = ROUNDS, round, before, faults = 0;
	long checks = 0, inconclusive = 0, uncovered = 0, lists = 0;
	uint64_t seed = 1, number, word, back;
	struct dax_vma *v, *sync_vma;
	unsigned long t;
	int fd, i, j, opt, ncover, max_cover = 0;

	while ((opt = getopt(argc, argv, "r:s:")) != -1) {
		switch (opt) {
		case 'r':
			if (!guest_option("daxclean", opt, optarg, 1, LONG_MAX,
					  &number))
				usage();
			rounds = (long)number;
			break;
		case 's':
			if (!guest_option("daxclean", opt, optarg, 0, UINT64_MAX,
					  &seed))
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "daxclean: expected one DIR, got %d arguments\n",
			argc - optind);
		usage();
	}
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	probe_install();

	fd = open_dax_file(argv[optind]);
	region = mmap(NULL, (size_t)NVMAS * 2 * SLOT_PAGES * page_size,
		      PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		      -1, 0);
	if (region == MAP_FAILED)
		fail("reserve the slots: %s", strerror(errno));
	make_vmas(fd);
	for (i = 0; i < nvmas; i++)
		for (j = 0; j < i; j++)
			if (vmas[j].pgoff == vmas[i].pgoff &&
			    vmas[j].pages == vmas[i].pages) {
				lists++;
				break;
			}

	stop_writeback();
	for (round = 0; round < rounds; round++) {
		t = next_random() % FILE_PAGES;
		ncover = 0;
		sync_vma = NULL;
		for (i = 0; i < nvmas; i++) {
			if (!covers(&vmas[i], t))
				continue;
			ncover++;
			if (!sync_vma || next_random() % ncover == 0)
				sync_vma = &vmas[i];
		}
		if (!ncover) {
			uncovered++;
			continue;
		}
		if (ncover > max_cover)
			max_cover = ncover;
		word = (uint64_t)round << 32 | t;

		/* 1: fault every pte in, writable and dirty */
		for (i = 0; i < nvmas; i++)
			if (covers(&vmas[i], t) &&
			    probe_word(page_in(&vmas[i], t), &word, true))
				fail("round %ld: store to page %lu through vma %p (%s, pgoff %lu, %lu pages) raised a signal",
				     round, t, (void *)vmas[i].addr,
				     vmas[i].how, vmas[i].pgoff,
				     vmas[i].pages);

		/* 2: control: writable ptes take a store without a fault */
		for (i = 0; i < nvmas; i++) {
			if (!covers(&vmas[i], t))
				continue;
			before = minor_faults();
			*page_in(&vmas[i], t) = word;
			if (minor_faults() != before)
				break;
		}
		if (i < nvmas) {
			inconclusive++;
			continue;
		}

		/* 3: flush page t: dax_writeback_one() cleans every pte */
		if (msync(sync_vma->addr + (t - sync_vma->pgoff) * page_size,
			  page_size, MS_SYNC))
			fail("round %ld: msync of page %lu: %s", round, t,
			     strerror(errno));

		/* 4: every covering vma must fault on its next store */
		for (i = 0; i < nvmas; i++) {
			v = &vmas[i];
			if (!covers(v, t))
				continue;
			word++;
			before = minor_faults();
			*page_in(v, t) = word;
			checks++;
			if (minor_faults() == before)
				fail("round %ld: expected a write fault through vma %p-%p (%s, pgoff %lu, %lu pages) after msync of page %lu through vma %p, got none: the dax_entry_mkclean() walk of i_mmap missed that vma (%d vmas cover the page)",
				     round, (void *)v->addr,
				     (void *)(v->addr + v->pages * page_size),
				     v->how, v->pgoff, v->pages, t,
				     (void *)sync_vma->addr, ncover);
			faults++;
		}

		/* 5: the file reads what the last store wrote */
		if (pread(fd, &back, sizeof(back),
			  (off_t)(t * page_size)) != (ssize_t)sizeof(back))
			fail("round %ld: pread of page %lu: %s", round, t,
			     strerror(errno));
		if (back != word)
			fail("round %ld: expected pread of page %lu to return %#llx, the last word stored, got %#llx",
			     round, t, (unsigned long long)word,
			     (unsigned long long)back);
	}
	restore_writeback();
	if (inconclusive > rounds / 2)
		fail("expected at most half of %ld rounds inconclusive, got %ld: the control store faulted without a flush",
		     rounds, inconclusive);

	printf("PT-IUSER dax ok rounds=%ld checks=%ld faults=%ld vmas=%d lists=%ld max_cover=%d uncovered=%ld inconclusive=%ld\n",
	       rounds, checks, faults, nvmas, lists, max_cover, uncovered,
	       inconclusive);
	return 0;
}
