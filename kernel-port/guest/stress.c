// SPDX-License-Identifier: GPL-2.0
/*
 * stress.c - race i_mmap mutations against the kernel's rmap walkers on
 * an SMP guest, and detect a missed pte, not only a crash.
 *
 *   stress [-t SECONDS-PER-WALKER] [-w WORKERS] [-s SEED] TMPDIR DISKDIR [WALKER...]
 *
 * TMPDIR is on tmpfs (shmem pages: hole punch, reclaim to swap,
 * migration), DISKDIR on a block device file system (ext2 on virtio:
 * writeback and page_mkclean, truncate).  WALKERs: idle truncate punch
 * migrate pageout writeback (default all).
 *
 * Each walker runs in rounds.  A round writes a 64-page file with tags
 * (a word naming the round and the page), forks WORKERS processes that
 * map it MAP_SHARED in up to 48 vmas inside a private address region,
 * and opens a race window: the workers mutate their vmas (mremap
 * grow-and-move of part of a vma, mprotect splits and merges, munmap of
 * parts, new mmaps, fork and exit) while this process, pinned to another
 * CPU, drives one rmap walker over the file.  Then everybody stops and
 * an oracle checks every page of every vma:
 *
 *   idle       pages marked idle through /sys/kernel/mm/page_idle/bitmap
 *              (a walk clears every young pte), then loaded through
 *              exactly one vma, are read back in the window while that
 *              vma moves: a page that reads idle names a vma the walk
 *              missed.
 *   truncate   ftruncate() to a random size in the window: afterwards a
 *              page at or beyond EOF must raise SIGBUS in every vma; a
 *              missed pte still reads the old data.
 *   punch      fallocate(PUNCH_HOLE) of a random range in the window:
 *              afterwards the range must read zeros in every vma.
 *   migrate    move_pages(MPOL_MF_MOVE_ALL) of every page to the other
 *              NUMA node in the window; then the file is rewritten with
 *              pwrite() and every vma must read the new data (a missed
 *              pte reads the old page; a missed migration entry hangs
 *              the worker, which the watchdog reports).
 *   pageout    process_madvise(MADV_PAGEOUT) of the workers' regions in
 *              the window (tmpfs pages go to swap); each page is mapped
 *              by one pte only (6.1 pages out nothing else).  Afterwards
 *              a quiet pageout must leave no page mapped, and every page
 *              must read its data back from swap.
 *   writeback  all vmas write the pages (writable dirty ptes), fsync()
 *              in the window cleans them (page_mkclean write-protects
 *              every pte it finds); afterwards a store through a present
 *              pte must make the page dirty again (/proc/kpageflags): a
 *              pte the walk missed stays writable and the store leaves
 *              the page clean.  Finally the data must reach the disk
 *              (fsync, drop_caches, pread).
 *
 * Prints "PT-STRESS <walker> ok rounds=N ..." or
 * "PT-STRESS <walker> FAIL <details>" per walker (kernel-port/compare.py
 * requires ok).  Static, for the busybox initramfs; needs root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif
#ifndef MPOL_MF_MOVE_ALL
#define MPOL_MF_MOVE_ALL (1 << 2)
#endif
#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE	0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE	0x02
#endif

#define NP		64	/* pages in the file */
#define SLOTPAGES	(NP + 8)
#define NSLOT		40
#define MAXP		48	/* vma pieces a worker tracks */
#define MAXW		8
#define KPF_DIRTY	4

enum walker { W_IDLE, W_TRUNCATE, W_PUNCH, W_MIGRATE, W_PAGEOUT, W_WRITEBACK, NWALK };
static const char *const walker_name[NWALK] = {
	"idle", "truncate", "punch", "migrate", "pageout", "writeback",
};

enum phase { PH_SETUP, PH_WINDOW, PH_STOP };

/* What the processes of one round share (MAP_SHARED anonymous). */
struct shared {
	volatile int phase;
	volatile int barrier_count;
	volatile int barrier_gen;
	volatile int failed;		/* set once, with fail[] */
	char fail[400];
	volatile long mutations;
	volatile long checked;		/* page checks done by the oracles */
	volatile long inconclusive;
	volatile uintptr_t region[MAXW];
	/* idle: the page was loaded through one vma (1) of worker [w] */
	volatile int loaded[NP];
	volatile int loaded_by[NP];
	/* round parameters, set by the parent before the window ends */
	volatile long trunc_pages;	/* truncate: new size in pages */
	volatile long hole_lo, hole_hi;	/* punch: [lo, hi) */
	volatile uint64_t gen;
};

static struct shared *sh;
static long ps;
static int nworkers = 4;
static unsigned int seed = 1;
static int ncpus = 1;

struct piece {
	char *addr;
	long pgoff;
	long npages;
	int slot;
};

/* ------------------------------------------------------------- helpers */

static uint64_t tag(uint64_t gen, long idx)
{
	return 0x5054000000000000ULL | gen << 20 | (uint64_t)idx;
}

static uint64_t tag2(uint64_t gen, long idx)
{
	return 0x5057000000000000ULL | gen << 20 | (uint64_t)idx;
}

static unsigned int rnd_state;

static unsigned int rnd(unsigned int n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return n ? (rnd_state >> 8) % n : 0;
}

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST))
		return;
	va_start(ap, fmt);
	vsnprintf(sh->fail, sizeof(sh->fail), fmt, ap);
	va_end(ap);
}

/* All nworkers + 1 processes meet; false after 60 s (someone died). */
static bool barrier(void)
{
	int gen = sh->barrier_gen;
	double limit = guest_now() + 60;

	if (__atomic_add_fetch(&sh->barrier_count, 1, __ATOMIC_SEQ_CST) ==
	    nworkers + 1) {
		sh->barrier_count = 0;
		__atomic_add_fetch(&sh->barrier_gen, 1, __ATOMIC_SEQ_CST);
		return true;
	}
	while (__atomic_load_n(&sh->barrier_gen, __ATOMIC_SEQ_CST) == gen) {
		if (guest_now() > limit) {
			failf("barrier timeout: a process died or hung");
			return false;
		}
		usleep(200);
	}
	return true;
}

static int pagemap_fd = -1, kpageflags_fd = -1;

static uint64_t pte_of(const void *addr)
{
	uint64_t e = 0;

	if (pagemap_entry(pagemap_fd, addr, ps, &e))
		return 0;
	return e;
}

static int kpf(uint64_t pfn, uint64_t *flags)
{
	return pread(kpageflags_fd, flags, 8, pfn * 8) == 8 ? 0 : -1;
}

/* ------------------------------------------------------------- workers */

static struct piece pieces[MAXP];
static int npieces;
static char *region;
static int fd;
static int walker;
static int wid;

static char *slot_base(int s)
{
	return region + (long)s * SLOTPAGES * ps;
}

static void reserve(char *addr, long len)
{
	if (mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED)
		failf("worker %d: cannot re-reserve %p: %s", wid, addr,
		      strerror(errno));
}

static int free_slot(void)
{
	bool used[NSLOT] = { false };
	int i, s, tries;

	for (i = 0; i < npieces; i++)
		used[pieces[i].slot] = true;
	for (tries = 0; tries < 4; tries++) {
		s = rnd(NSLOT);
		if (!used[s])
			return s;
	}
	for (s = 0; s < NSLOT; s++)
		if (!used[s])
			return s;
	return -1;
}

/* Load each page of piece @p (SIGBUS beyond EOF is fine). */
static void touch_piece(struct piece *p)
{
	long k;
	uint64_t v;

	for (k = 0; k < p->npages; k++)
		probe_word((volatile uint64_t *)(p->addr + k * ps), &v, false);
}

static bool faults_allowed(void)
{
	return walker != W_IDLE && walker != W_PAGEOUT;
}

static void map_new(void)
{
	int s = free_slot();
	long pgoff, n;
	char *a;

	if (s < 0 || npieces >= MAXP)
		return;
	pgoff = rnd(NP);
	n = 1 + rnd(NP - pgoff);
	a = mmap(slot_base(s), n * ps, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, pgoff * ps);
	if (a == MAP_FAILED) {
		failf("worker %d: mmap: %s", wid, strerror(errno));
		return;
	}
	pieces[npieces++] = (struct piece){ a, pgoff, n, s };
}

static void drop_piece(int i)
{
	pieces[i] = pieces[--npieces];
}

/* mremap part of a piece, one page larger when the file has room, to a free slot. */
static void move_part(void)
{
	int i, s;
	long a, len, newlen;
	struct piece p, right;
	char *to;

	if (!npieces || npieces >= MAXP - 1)
		return;
	i = rnd(npieces);
	p = pieces[i];
	s = free_slot();
	if (s < 0)
		return;
	a = rnd(p.npages);
	len = 1 + rnd(p.npages - a);
	newlen = len + (p.pgoff + a + len < NP ? 1 : 0);
	to = mremap(p.addr + a * ps, len * ps, newlen * ps,
		    MREMAP_MAYMOVE | MREMAP_FIXED, slot_base(s));
	if (to == MAP_FAILED) {
		failf("worker %d: mremap of pages %ld+%ld of [%p pgoff %ld n %ld]: %s",
		      wid, a, len, p.addr, p.pgoff, p.npages, strerror(errno));
		return;
	}
	reserve(p.addr + a * ps, len * ps);
	right = (struct piece){ p.addr + (a + len) * ps, p.pgoff + a + len,
				p.npages - a - len, p.slot };
	if (a > 0) {
		pieces[i].npages = a;
	} else {
		drop_piece(i);
	}
	if (right.npages > 0)
		pieces[npieces++] = right;
	pieces[npieces++] = (struct piece){ to, p.pgoff + a, newlen, s };
}

/* mprotect a middle part read-only and back: a split, then a merge. */
static void split_merge(void)
{
	struct piece *p;
	long a, len;

	if (!npieces)
		return;
	p = &pieces[rnd(npieces)];
	a = rnd(p->npages);
	len = 1 + rnd(p->npages - a);
	if (mprotect(p->addr + a * ps, len * ps, PROT_READ) ||
	    mprotect(p->addr + a * ps, len * ps, PROT_READ | PROT_WRITE))
		failf("worker %d: mprotect: %s", wid, strerror(errno));
}

static void unmap_part(void)
{
	int i;
	long a, len;
	struct piece p;

	if (!npieces || npieces >= MAXP - 1)
		return;
	i = rnd(npieces);
	p = pieces[i];
	a = rnd(p.npages);
	len = 1 + rnd(p.npages - a);
	reserve(p.addr + a * ps, len * ps);	/* MAP_FIXED unmaps the part */
	if (a > 0)
		pieces[i].npages = a;
	else
		drop_piece(i);
	if (p.npages - a - len > 0)
		pieces[npieces++] = (struct piece){ p.addr + (a + len) * ps,
			p.pgoff + a + len, p.npages - a - len, p.slot };
}

static void fork_exit(void)
{
	pid_t pid = fork();
	int i;

	if (pid == 0) {
		if (faults_allowed())
			for (i = 0; i < 3 && npieces; i++)
				touch_piece(&pieces[rnd(npieces)]);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void mutate(void)
{
	switch (rnd(walker == W_IDLE ? 3 : 6)) {
	case 0:
	case 1:
		move_part();
		break;
	case 2:
		split_merge();
		break;
	case 3:
		unmap_part();
		break;
	case 4:
		map_new();
		if (faults_allowed() && npieces)
			touch_piece(&pieces[npieces - 1]);
		break;
	default:
		fork_exit();
		break;
	}
	__atomic_add_fetch(&sh->mutations, 1, __ATOMIC_RELAXED);
}

static bool owned(long idx)
{
	return idx % nworkers == wid;
}

static void describe(char *buf, size_t n, const struct piece *p)
{
	snprintf(buf, n, "[%p pgoff=%ld npages=%ld]", p->addr, p->pgoff,
		 p->npages);
}

/* Every page of every piece against the walker's expectation. */
static void check_data(void)
{
	int i;
	long k, idx;
	uint64_t v, want;
	int sig;
	char d[80];

	for (i = 0; i < npieces; i++) {
		struct piece *p = &pieces[i];

		for (k = 0; k < p->npages; k++) {
			idx = p->pgoff + k;
			if (idx >= NP)
				continue;
			v = 0;
			sig = probe_word((volatile uint64_t *)(p->addr + k * ps),
					 &v, false);
			describe(d, sizeof(d), p);
			__atomic_add_fetch(&sh->checked, 1, __ATOMIC_RELAXED);
			if (walker == W_TRUNCATE && idx >= sh->trunc_pages) {
				if (sig != SIGBUS)
					failf("truncate to %ld pages: page %ld still "
					      "readable (0x%llx) through worker %d vma %s: "
					      "a pte the truncate walk missed", sh->trunc_pages,
					      idx, (unsigned long long)v, wid, d);
				continue;
			}
			if (walker == W_PUNCH && idx >= sh->hole_lo && idx < sh->hole_hi)
				want = 0;
			else
				want = tag(sh->gen, idx);
			if (sig)
				failf("%s: page %ld raised signal %d through worker %d vma %s",
				      walker_name[walker], idx, sig, wid, d);
			else if (v != want)
				failf("%s: page %ld reads 0x%llx, want 0x%llx, through "
				      "worker %d vma %s: a pte the %s walk missed",
				      walker_name[walker], idx, (unsigned long long)v,
				      (unsigned long long)want, wid, d, walker_name[walker]);
		}
	}
}

/* pageout: no owned page may still be mapped after a quiet MADV_PAGEOUT. */
static void check_unmapped(void)
{
	int i;
	long k;
	char d[80];

	for (i = 0; i < npieces; i++) {
		struct piece *p = &pieces[i];

		for (k = 0; k < p->npages; k++) {
			/* another worker's page is mapped twice: not paged out */
			if (p->pgoff + k >= NP || !owned(p->pgoff + k))
				continue;
			__atomic_add_fetch(&sh->checked, 1, __ATOMIC_RELAXED);
			if (pte_of(p->addr + k * ps) & PAGE_PRESENT) {
				describe(d, sizeof(d), p);
				failf("pageout: page %ld still mapped after MADV_PAGEOUT "
				      "through worker %d vma %s: reclaim's rmap walk "
				      "(try_to_unmap) missed it", p->pgoff + k, wid, d);
			}
		}
	}
}

/* writeback: a store through a present pte must redirty the page. */
static void check_redirty(void)
{
	long idx, k;
	int i;
	uint64_t e, fl, v;
	char d[80];

	for (idx = 0; idx < NP; idx++) {
		if (!owned(idx))
			continue;
		for (i = 0; i < npieces; i++) {
			struct piece *p = &pieces[i];

			if (idx < p->pgoff || idx >= p->pgoff + p->npages)
				continue;
			k = idx - p->pgoff;
			e = pte_of(p->addr + k * ps);
			if (!(e & PAGE_PRESENT) || kpf(e & PFN_MASK, &fl))
				continue;
			if (fl & (1ULL << KPF_DIRTY)) {
				/* only a store of ours dirties it: inconclusive */
				__atomic_add_fetch(&sh->inconclusive, 1, __ATOMIC_RELAXED);
				break;
			}
			v = tag2(sh->gen, idx);
			if (probe_word((volatile uint64_t *)(p->addr + k * ps) + 1,
				       &v, true)) {
				failf("writeback: store to page %ld faulted", idx);
				break;
			}
			__atomic_add_fetch(&sh->checked, 1, __ATOMIC_RELAXED);
			if (kpf(e & PFN_MASK, &fl) == 0 && !(fl & (1ULL << KPF_DIRTY))) {
				describe(d, sizeof(d), p);
				failf("writeback: a store to page %ld through worker %d "
				      "vma %s left it clean after fsync: page_mkclean "
				      "missed that writable pte", idx, wid, d);
			}
			sh->loaded[idx] = 1;	/* the parent checks the disk */
			break;
		}
	}
}

static void worker_setup(void)
{
	int i;
	long k, idx;
	uint64_t v;

	for (i = 0; i < 8; i++)
		map_new();
	for (i = 0; i < npieces; i++) {
		struct piece *p = &pieces[i];

		for (k = 0; k < p->npages; k++) {
			idx = p->pgoff + k;
			if (walker == W_PAGEOUT) {
				/* one pte per page: load owned pages once */
				if (!owned(idx) || sh->loaded[idx])
					continue;
				sh->loaded[idx] = 1;
			}
			v = tag(sh->gen, idx);
			probe_word((volatile uint64_t *)(p->addr + k * ps), &v,
				   walker == W_WRITEBACK);
		}
	}
}

/* idle: load each owned page through one vma, after a TLB flush. */
static void worker_idle_load(void)
{
	long idx, k;
	int i;
	uint64_t v;

	for (idx = 0; idx < NP; idx++) {
		if (!owned(idx))
			continue;
		for (i = 0; i < npieces; i++) {
			struct piece *p = &pieces[i];

			if (idx < p->pgoff || idx >= p->pgoff + p->npages)
				continue;
			k = idx - p->pgoff;
			/* the young bit is set on a TLB miss only */
			mprotect(p->addr, p->npages * ps, PROT_READ);
			mprotect(p->addr, p->npages * ps, PROT_READ | PROT_WRITE);
			if (probe_word((volatile uint64_t *)(p->addr + k * ps),
				       &v, false) == 0) {
				sh->loaded[idx] = 1;
				sh->loaded_by[idx] = wid;
			}
			break;
		}
	}
}

static void __noreturn worker(int id, const char *path)
{
	wid = id;
	rnd_state = seed * 7919u + (unsigned int)sh->gen * 131u + (unsigned int)id;
	guest_pin(id + 1);
	alarm(120);	/* a hung worker (stale migration entry) dies */
	fd = open(path, O_RDWR);
	pagemap_fd = open(pagemap_path, O_RDONLY);
	kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	probe_install();
	region = mmap(NULL, (long)NSLOT * SLOTPAGES * ps, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (fd < 0 || pagemap_fd < 0 || region == MAP_FAILED) {
		failf("worker %d: setup: %s", id, strerror(errno));
		_exit(1);
	}
	sh->region[id] = (uintptr_t)region;
	worker_setup();
	if (!barrier())		/* A: mapped and loaded */
		_exit(1);
	if (walker == W_IDLE) {
		if (!barrier())	/* B: the parent marked every page idle */
			_exit(1);
		worker_idle_load();
		if (!barrier())	/* C: loaded */
			_exit(1);
	}
	if (!barrier())		/* D: window opens */
		_exit(1);
	while (sh->phase == PH_WINDOW && !sh->failed)
		mutate();
	if (!barrier())		/* E: window closed */
		_exit(1);
	if (!barrier())		/* F: the parent's post step done */
		_exit(1);
	switch (walker) {
	case W_TRUNCATE:
	case W_PUNCH:
	case W_MIGRATE:
		check_data();
		break;
	case W_PAGEOUT:
		check_unmapped();
		check_data();
		break;
	case W_WRITEBACK:
		check_redirty();
		break;
	default:
		break;
	}
	barrier();		/* G: checked */
	_exit(0);
}

/* -------------------------------------------------------------- parent */

static int write_file(const char *path, const char *s)
{
	int f = open(path, O_WRONLY);
	int r = -1;

	if (f >= 0) {
		r = write(f, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
		close(f);
	}
	return r;
}

static int fill(int f, uint64_t gen)
{
	static uint64_t buf[8192];
	long idx;

	if (ftruncate(f, 0) || ftruncate(f, NP * ps))
		return -1;
	for (idx = 0; idx < NP; idx++) {
		memset(buf, 0, ps);
		buf[0] = tag(gen, idx);
		if (pwrite(f, buf, ps, idx * ps) != ps)
			return -1;
	}
	return 0;
}

/* Empty every CPU's LRU add batch: move_pages() does lru_cache_disable(). */
static void drain_lru(char *self_map)
{
	void *pg = self_map;
	int status = -1, node = 0;

	/* the page itself need not be present: the drain comes first */
	syscall(SYS_move_pages, 0, 1, &pg, &node, &status, MPOL_MF_MOVE_ALL);
}

static long pageout_workers(const int *pidfds)
{
	int w;
	long n = 0;
	struct iovec iov;

	for (w = 0; w < nworkers; w++) {
		iov.iov_base = (void *)sh->region[w];
		iov.iov_len = (long)NSLOT * SLOTPAGES * ps;
		if (syscall(SYS_process_madvise, pidfds[w], &iov, 1UL,
			    MADV_PAGEOUT, 0U) >= 0 || errno == ENOMEM)
			n++;
	}
	return n;
}

struct result {
	long rounds, detail1, detail2;
};

/* One round; false when it failed (sh->fail says why). */
static bool round_(const char *path, uint64_t gen, struct result *res)
{
	pid_t pids[MAXW];
	int pidfds[MAXW];
	int f, w, i, st;
	char *self_map;
	uint64_t pfn[NP] = { 0 };
	bool ok = true;
	long idx;

	f = open(path, O_RDWR | O_CREAT, 0644);
	if (f < 0 || fill(f, gen)) {
		failf("%s: cannot create %s: %s", walker_name[walker], path,
		      strerror(errno));
		return false;
	}
	memset((void *)sh, 0, sizeof(*sh));
	sh->gen = gen;
	sh->trunc_pages = NP;
	sh->phase = PH_SETUP;
	/* the parent's own mapping: PFNs (idle), migration and draining */
	self_map = mmap(NULL, NP * ps, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	if (self_map == MAP_FAILED) {
		failf("mmap: %s", strerror(errno));
		close(f);
		return false;
	}
	if (walker != W_PAGEOUT)
		for (idx = 0; idx < NP; idx++)
			(void)*(volatile char *)(self_map + idx * ps);
	for (w = 0; w < nworkers; w++) {
		pids[w] = fork();
		if (pids[w] == 0)
			worker(w, path);
		if (pids[w] < 0)
			failf("fork: %s", strerror(errno));
		pidfds[w] = pids[w] > 0 ? syscall(SYS_pidfd_open, pids[w], 0) : -1;
	}
	if (!barrier())
		goto out;
	if (walker == W_IDLE) {
		int bfd = open(idle_bitmap_path, O_RDWR);
		uint64_t all = ~0ULL;

		for (idx = 0; idx < NP; idx++)
			pfn[idx] = pte_of(self_map + idx * ps) & PFN_MASK;
		/* the parent's own ptes must not keep pages young */
		munmap(self_map, NP * ps);
		self_map = MAP_FAILED;
		/* a word straddling max_pfn transfers nothing: out of reach */
		for (idx = 0; idx < NP; idx++)
			if (bfd >= 0 && (!pfn[idx] ||
			    pwrite(bfd, &all, 8, pfn[idx] / 64 * 8) != 8))
				pfn[idx] = 0;
		if (bfd < 0)
			failf("idle: %s: %s", idle_bitmap_path, strerror(errno));
		if (bfd >= 0)
			close(bfd);
		if (!barrier() || !barrier())	/* B, C */
			goto out;
	}
	if (walker == W_PAGEOUT)
		drain_lru(self_map);
	sh->phase = PH_WINDOW;
	if (!barrier())		/* D */
		goto out;
	usleep(rnd(3000));
	switch (walker) {
	case W_IDLE: {
		int bfd = open(idle_bitmap_path, O_RDONLY);
		uint64_t word;

		for (idx = 0; idx < NP; idx++) {
			if (!sh->loaded[idx])
				continue;
			if (!pfn[idx] || pread(bfd, &word, 8, pfn[idx] / 64 * 8) != 8) {
				res->detail2++;	/* beyond max_pfn's word */
				continue;
			}
			res->detail1++;
			if (word >> (pfn[idx] % 64) & 1)
				failf("idle: page %ld (pfn %#llx) reads idle after a "
				      "load through worker %d: the rmap walk missed "
				      "the vma (moved in the window?)", idx,
				      (unsigned long long)pfn[idx], sh->loaded_by[idx]);
		}
		close(bfd);
		break;
	}
	case W_TRUNCATE:
		sh->trunc_pages = rnd(NP);
		if (ftruncate(f, sh->trunc_pages * ps))
			failf("ftruncate: %s", strerror(errno));
		break;
	case W_PUNCH:
		sh->hole_lo = rnd(NP);
		sh->hole_hi = sh->hole_lo + 1 + rnd(NP - sh->hole_lo);
		if (fallocate(f, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      sh->hole_lo * ps, (sh->hole_hi - sh->hole_lo) * ps))
			failf("fallocate(PUNCH_HOLE): %s", strerror(errno));
		break;
	case W_MIGRATE: {
		void *pages[NP];
		int nodes[NP], status[NP];
		int to = (int)(gen % 2);

		for (idx = 0; idx < NP; idx++) {
			pages[idx] = self_map + idx * ps;
			nodes[idx] = to;
		}
		if (syscall(SYS_move_pages, 0, NP, pages, nodes, status,
			    MPOL_MF_MOVE_ALL) < 0)
			failf("move_pages: %s", strerror(errno));
		for (idx = 0; idx < NP; idx++)
			if (status[idx] == to)
				res->detail1++;
		break;
	}
	case W_PAGEOUT:
		for (i = 0; i < 3; i++)
			res->detail1 += pageout_workers(pidfds);
		break;
	case W_WRITEBACK:
		if (fsync(f))
			failf("fsync: %s", strerror(errno));
		break;
	default:
		break;
	}
	usleep(2000 + rnd(5000));
	sh->phase = PH_STOP;
	if (!barrier())		/* E */
		goto out;
	switch (walker) {
	case W_MIGRATE:
		/* new data through the page cache, which now holds the new pages */
		for (idx = 0; idx < NP; idx++) {
			uint64_t t = tag(gen + 1000, idx);

			if (pwrite(f, &t, 8, idx * ps) != 8)
				failf("migrate: pwrite: %s", strerror(errno));
		}
		sh->gen = gen + 1000;
		break;
	case W_PAGEOUT:
		drain_lru(self_map);
		pageout_workers(pidfds);
		break;
	default:
		break;
	}
	if (!barrier())		/* F */
		goto out;
	barrier();		/* G */
out:
	for (w = 0; w < nworkers; w++) {
		double limit = guest_now() + 30;
		pid_t r;

		if (pids[w] <= 0) {
			failf("fork: %s", strerror(errno));
			continue;
		}
		while ((r = waitpid(pids[w], &st, WNOHANG)) == 0 && guest_now() < limit)
			usleep(10000);
		if (r == 0) {
			failf("%s: worker %d hung (stale migration entry?)",
			      walker_name[walker], w);
			kill(pids[w], SIGKILL);
		} else if (r > 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			failf("%s: worker %d ended with status %#x (signal %d)",
			      walker_name[walker], w, st,
			      WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		}
		if (pidfds[w] >= 0)
			close(pidfds[w]);
	}
	if (self_map != MAP_FAILED)
		munmap(self_map, NP * ps);
	if (walker == W_WRITEBACK && !sh->failed) {
		static uint64_t buf[8192];

		if (fsync(f) || write_file("/proc/sys/vm/drop_caches", "1"))
			failf("writeback: fsync or drop_caches: %s", strerror(errno));
		for (idx = 0; idx < NP && !sh->failed; idx++) {
			if (pread(f, buf, ps, idx * ps) != ps)
				failf("writeback: pread: %s", strerror(errno));
			else if (buf[0] != tag(gen, idx) ||
				 (sh->loaded[idx] && buf[1] != tag2(gen, idx)))
				failf("writeback: page %ld on disk reads 0x%llx 0x%llx "
				      "after fsync and drop_caches, want 0x%llx 0x%llx",
				      idx, (unsigned long long)buf[0],
				      (unsigned long long)buf[1],
				      (unsigned long long)tag(gen, idx),
				      (unsigned long long)tag2(gen, idx));
			else if (sh->loaded[idx])
				res->detail1++;
		}
	}
	close(f);
	ok = !sh->failed;
	res->rounds++;
	return ok;
}

static bool walker_usable(int wk, char *why, size_t n)
{
	if (wk == W_IDLE && access(idle_bitmap_path, R_OK | W_OK)) {
		snprintf(why, n, "%s: %s", idle_bitmap_path, strerror(errno));
		return false;
	}
	if (wk == W_MIGRATE && guest_nnodes() < 2) {
		snprintf(why, n, "%d NUMA node(s), need 2 (numa=fake=2)", guest_nnodes());
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	double secs = 8;
	int opt, wk, i;
	bool want[NWALK] = { false }, any = false, all_ok = true;
	const char *tmpdir, *diskdir;
	char path[256], why[200];

	while ((opt = getopt(argc, argv, "t:w:s:")) != -1) {
		uint64_t v = 0;	/* kept only when good */
		bool good;

		switch (opt) {
		case 't':
			good = guest_option("stress", opt, optarg,
					    1, 3600, &v);
			secs = (double)v;
			break;
		case 'w':
			good = guest_option("stress", opt, optarg,
					    1, MAXW, &v);
			nworkers = (int)v;
			break;
		case 's':
			good = guest_option("stress", opt, optarg,
					    0, UINT_MAX, &v);
			seed = (unsigned int)v;
			break;
		default:
			good = false;
		}
		if (!good) {
			fprintf(stderr, "usage: stress [-t 1..3600] [-w 1..%d] [-s SEED] "
				"TMPDIR DISKDIR [WALKER...]\n", MAXW);
			return 2;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: stress [-t 1..3600] [-w 1..%d] [-s SEED] "
			"TMPDIR DISKDIR [WALKER...]\n", MAXW);
		return 2;
	}
	tmpdir = argv[optind];
	diskdir = argv[optind + 1];
	for (i = optind + 2; i < argc; i++) {
		for (wk = 0; wk < NWALK; wk++)
			if (!strcmp(argv[i], walker_name[wk]))
				want[wk] = any = true;
		if (!any) {
			fprintf(stderr, "stress: unknown walker %s\n", argv[i]);
			return 2;
		}
	}
	if (!any)
		for (wk = 0; wk < NWALK; wk++)
			want[wk] = true;
	ps = sysconf(_SC_PAGESIZE);
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pagemap_fd = open(pagemap_path, O_RDONLY);
	kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	if (sh == MAP_FAILED || pagemap_fd < 0 || kpageflags_fd < 0) {
		printf("PT-STRESS setup FAIL shared memory, pagemap or kpageflags: %s\n",
		       strerror(errno));
		return 1;
	}
	rnd_state = seed;
	guest_pin(0);
	printf("PT-STRESS-START cpus=%d nodes=%d workers=%d seconds=%g\n",
	       ncpus, guest_nnodes(), nworkers, secs);
	fflush(stdout);
	for (wk = 0; wk < NWALK; wk++) {
		struct result res = { 0, 0, 0 };
		long mutations = 0, checked = 0, inconclusive = 0;
		double end;
		uint64_t gen = 1;
		bool ok = true;

		if (!want[wk])
			continue;
		walker = wk;
		if (!walker_usable(wk, why, sizeof(why))) {
			printf("PT-STRESS %s FAIL cannot run: %s\n", walker_name[wk], why);
			all_ok = false;
			continue;
		}
		snprintf(path, sizeof(path), "%s/stress-%s",
			 wk == W_WRITEBACK || wk == W_TRUNCATE ? diskdir : tmpdir,
			 walker_name[wk]);
		/*
		 * pageout: a load maps the cached neighbours too (fault-around),
		 * and 6.1 pages out only pages mapped once: one page per fault.
		 */
		if (wk == W_PAGEOUT &&
		    write_file("/sys/kernel/debug/fault_around_bytes", "4096")) {
			printf("PT-STRESS %s FAIL cannot run: "
			       "/sys/kernel/debug/fault_around_bytes: %s\n",
			       walker_name[wk], strerror(errno));
			all_ok = false;
			continue;
		}
		end = guest_now() + secs;
		while (ok && guest_now() < end) {
			ok = round_(path, gen++, &res);
			mutations += sh->mutations;
			checked += sh->checked;
			inconclusive += sh->inconclusive;
		}
		unlink(path);
		if (wk == W_PAGEOUT)
			write_file("/sys/kernel/debug/fault_around_bytes", "65536");
		if (ok) {
			printf("PT-STRESS %s ok rounds=%ld mutations=%ld checks=%ld",
			       walker_name[wk], res.rounds, mutations,
			       checked + (wk == W_IDLE ? res.detail1 : 0));
			switch (wk) {
			case W_IDLE:
				printf(" out_of_reach=%ld", res.detail2);
				break;
			case W_MIGRATE:
				printf(" pages_moved=%ld", res.detail1);
				break;
			case W_PAGEOUT:
				printf(" pageout_calls=%ld", res.detail1);
				break;
			case W_WRITEBACK:
				printf(" on_disk=%ld inconclusive=%ld", res.detail1,
				       inconclusive);
				break;
			default:
				break;
			}
			printf("\n");
		} else {
			printf("PT-STRESS %s FAIL round %ld: %s\n", walker_name[wk],
			       res.rounds, sh->fail);
			all_ok = false;
		}
		fflush(stdout);
	}
	return all_ok ? 0 : 1;
}
