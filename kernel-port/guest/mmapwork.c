// SPDX-License-Identifier: GPL-2.0
/*
 * A userspace workload, run inside the QEMU guest, that fails
 * when the kernel's i_mmap index (our prio tree under
 * CONFIG_I_MMAP_PRIO_TREE) misses a vma mapping a file page.
 *
 * Usage:  mmapwork [-s SEED] [-q] TEST...
 *
 *   TEST   truncate, idle, or all (= truncate idle); several may be given.
 *   -s     seed of the PRNG that lays out the mappings and picks the
 *          trials (default 1).  One seed gives the same counts on every
 *          run on one kernel configuration; only elapsed_ms varies.
 *   -q     no progress messages on stderr.
 *
 * Each test prints one line on stdout, "PT-MMAP <test> ok key=value..."
 * or "PT-MMAP <test> FAIL <what was expected, what happened, where>", and
 * the exit status is 0 only when every requested test is ok (2 for a
 * usage error).  A setup error (open, mmap, fork, a missing /sys or /proc
 * file) is a FAIL naming the errno, never a skip.  Build it static, with
 * nothing but libc:
 *
 *   cc -static -O2 -Wall -Wextra -o mmapwork mmapwork.c
 *
 * It needs root (pagemap shows PFNs only with CAP_SYS_ADMIN) and a
 * writable /tmp; it works in /tmp/pt-mmapwork.PID and removes it.
 *
 * The mapping zoo.  Each test builds a fresh one.  The parent writes a file
 * F of NPAGES pages in which every 8-byte word of page p holds a value
 * derived from (p, generation, word).  NWORKERS forked processes map F
 * MAP_SHARED with seeded offsets and lengths: the whole file and three
 * common ranges that several processes map identically (vm_set lists of
 * equal radix and heap index), a nested triple, pairs sharing a start or
 * an end, single pages, a range running past EOF.  Then each worker makes
 * the kernel perform every i_mmap mutation: mprotect of a middle part
 * (split: remove + insert of three vmas), munmap of a middle part and of
 * either edge (split, vm_pgoff/vm_start change), mremap to a fixed new
 * address (move), mremap growing in place into room left free for it, and
 * mremap shrinking in place.  NGRANDCHILDREN workers then fork a
 * grandchild, which inherits every mapping (dup_mmap adds each copy beside
 * its parent vma), unmaps one, moves another and takes part as a process
 * of its own.  Each process keeps a table of (addr, pgoff, npages) for what
 * it did and checks every entry against /proc/self/maps before the tests
 * start.  The parent drives everyone through one command pipe and one
 * reply pipe per process; the replies are the barriers, nothing sleeps.
 * The parent is the child subreaper, so it reaps the grandchildren too, and
 * any process that dies of a signal it did not send is a FAIL.
 *
 * Test "truncate" (unmap_mapping_range: a range query [S, ULONG_MAX] of
 * i_mmap, then per-folio stabbing queries in truncate_inode_pages).
 * Everyone reads every page of every mapping and compares it with the
 * file's contents; markers written through one process's mapping must
 * be seen through another's and by pread().  Then the parent truncates F
 * to S pages for S = 3/4, 1/2, 17, 1 and 0 of NPAGES; after each cut
 * every process reads every page of every mapping again: a page below S
 * must read the current generation, a page at or beyond S must raise
 * SIGBUS.  Between cuts F is extended and rewritten (a new generation)
 * and everything is verified again.  Why a missed vma shows: truncate
 * removes the pages beyond EOF only from the page cache and from the
 * page tables that its i_mmap queries find.  A pte in a vma no query
 * returned survives, still pointing at the old page, so a load through it
 * succeeds instead of faulting; only a fault consults i_size and raises
 * SIGBUS.  A readable page beyond EOF therefore names a vma the tree
 * missed, and the FAIL line gives process, vma and page.  A vma returned
 * though it does not cover the range only costs a useless zap: this test
 * cannot see that, the idle test's stabbing walks and the kernel's own
 * VM_BUG_ON_VMA in rmap_walk_file (CONFIG_DEBUG_VM) can.
 *
 * Test "idle" (rmap_walk_file: a stabbing query [pgoff, pgoff] of
 * i_mmap).  Uses /sys/kernel/mm/page_idle/bitmap
 * (CONFIG_IDLE_PAGE_TRACKING) and /proc/self/pagemap.  Writing a 1 bit
 * for a PFN walks the page's reverse map, clearing the accessed bit of
 * every pte that maps it, and sets the page idle; reading the bit walks
 * the rmap again and reports idle unless one of those ptes was accessed
 * since.  Every process first faults in all its pages, so later loads go
 * through an existing pte and only its accessed bit tells of them (a
 * fault could clear the idle flag by itself).  The parent maps F too,
 * faults it in, reads the PFNs, then stops touching F: any load of its own
 * would spoil the oracle.  After draining the per-CPU LRU batches (a
 * scratch file's pages and an mlock of a scratch page) every page must
 * read idle right after being marked ("trackable").  Then NTRIALS seeded
 * trials: pick page p and nobody, one or several (process, vma) pairs
 * whose range covers p; mark p idle; have each chosen process load one
 * word of p through that vma's own address; read p's bit.  Expected: idle
 * iff nobody loaded.  A walk that missed the toucher's vma never sees its
 * young pte, so p reads idle although it was accessed: FAIL with page,
 * process and vma.  Touches through split, trimmed, moved, resized and
 * forked vmas are counted apart.  The guest is uniprocessor and its CPU
 * has no PCID, so waking the toucher (a context switch) flushes its TLB
 * and the load walks the page table, setting the accessed bit afresh; on
 * a host with PCID a stale TLB entry could hide a touch, which is one
 * reason this test is meant for the guest only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "guest.h"

#define NPAGES		256	/* pages of the mapped file F */
#define NWORKERS	12	/* processes forked by the parent */
#define NGRANDCHILDREN	4	/* workers 0..3 fork a grandchild each */
#define NSLOTS		(NWORKERS + NGRANDCHILDREN)
#define MAX_VMAS	40	/* table entries of one process */
#define NMARKERS	16	/* cross-process marker exchanges */
#define NTRIALS		3000	/* idle-bit trials */
#define NDRAIN_PAGES	64	/* scratch pages: flush the LRU batch */
#define MARKER_WORD	1	/* word of a page the markers go to */
#define TEST_TIMEOUT_S	55	/* each test, in guest seconds */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))


/* Where a table entry came from: printed with every FAIL and counted. */
enum vma_origin {
	VMA_SPLIT	= 1 << 0,	/* left by mprotect/munmap inside */
	VMA_TRIMMED	= 1 << 1,	/* munmap cut its head or tail */
	VMA_MOVED	= 1 << 2,	/* mremap to a fixed new address */
	VMA_RESIZED	= 1 << 3,	/* mremap grew/shrank it in place */
	VMA_FORKED	= 1 << 4,	/* a grandchild's copy from fork() */
	VMA_READONLY	= 1 << 5,	/* the mprotected middle */
};

struct vma_entry {
	uint64_t addr;
	uint32_t pgoff;
	uint32_t npages;
	uint32_t origin;	/* enum vma_origin bits */
	uint32_t unused;
};

enum cmd_op {
	CMD_CHECK,	/* every page of every vma against size and gen */
	CMD_WRITE,	/* store value at (vma, page, word) */
	CMD_EXPECT,	/* load (vma, page, word), it must equal value */
	CMD_TOUCH,	/* one load of page through vma: the idle trials */
	CMD_QUIT,
};

struct cmd {
	int32_t op;
	uint32_t vma;
	uint32_t page;
	uint32_t word;
	uint32_t size;	/* CMD_CHECK: file size in pages */
	uint32_t gen;	/* content generation */
	uint64_t value;
};

/* Every reply, the first one carrying the table, fits one atomic write. */
struct reply {
	int32_t ok;
	int32_t pid;
	uint32_t pages_checked;
	uint32_t sigbus_seen;
	uint32_t nvmas;
	uint32_t unused;
	struct vma_entry vmas[MAX_VMAS];
	char text[512];
};

_Static_assert(sizeof(struct reply) <= PIPE_BUF, "reply must be atomic");

/* Layout every worker shares: made by the parent before fork(). */
struct zoo_plan {
	uint64_t seed;
	uint32_t common_pgoff[3];
	uint32_t common_npages[3];
	uint32_t common_single;
};

/* One mapping process, as it sees itself. */
struct proc {
	int slot;
	int cmd_fd;
	int reply_fd;
	int file_fd;
	uint64_t rng;
	unsigned int nvmas;
	struct vma_entry vmas[MAX_VMAS];
	unsigned int failures;
	char err[512];		/* first failure, for the next reply */
};

/* One mapping process, as the parent sees it. */
struct slot {
	bool present;
	bool killed;		/* SIGKILLed by the parent's watchdog */
	bool reaped;
	pid_t pid;
	int cmd_fd;		/* parent's write end */
	int reply_fd;		/* parent's read end */
	const char *lost_in;	/* phase in which its reply pipe closed */
	unsigned int nvmas;
	struct vma_entry vmas[MAX_VMAS];
};

struct zoo {
	char dir[64];
	char path[96];
	int fd;
	struct stat st;
	struct zoo_plan plan;
	struct slot slots[NSLOTS];
	unsigned int nprocs;
	unsigned int nvmas;
};

struct result {
	bool failed;
	bool provisional;	/* "no reply": the reaper will say why */
	char text[1024];
};

static size_t page_size;
static bool quiet;
static volatile sig_atomic_t timed_out;

/* ---------------------------------------------------------------- util */

/* splitmix64: the PRNG step and, alone, the content hash. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rng_next(uint64_t *state)
{
	*state += 0x9e3779b97f4a7c15ULL;
	return mix64(*state);
}

/* Uniform enough in [0, n) for n far below 2^32; n > 0. */
static unsigned int rng_below(uint64_t *state, unsigned int n)
{
	return rng_next(state) % n;
}

/* The value word @word of file page @page holds in generation @gen. */
static uint64_t word_value(unsigned int page, unsigned int gen,
			   unsigned int word)
{
	return mix64(((uint64_t)gen << 32 | page) + 0x5054) + word;
}

/*
 * The words a check reads: the first, the last and one that moves with
 * the page, never MARKER_WORD, so a marker in flight is never a mismatch.
 */
static unsigned int checked_word(unsigned int page, unsigned int i)
{
	unsigned int words = page_size / 8;

	if (i == 0)
		return 0;
	if (i == 1)
		return words - 1;
	return MARKER_WORD + 1 + page % (words - MARKER_WORD - 2);
}

#define NCHECKED_WORDS	3

static void note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	fputs("mmapwork: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void vfail(struct result *res, bool provisional, bool override,
		  const char *fmt, va_list ap)
{
	if (res->failed && !(override && res->provisional))
		return;
	res->failed = true;
	res->provisional = provisional;
	vsnprintf(res->text, sizeof(res->text), fmt, ap);
}

/* Record the first failure of a test; later ones add nothing. */
static void fail(struct result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(res, false, false, fmt, ap);
	va_end(ap);
}

/*
 * A process stopped answering: a failure whose cause (signal, exit
 * status) only reaping tells; fail_death() then replaces it.
 */
static void fail_silent(struct result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(res, true, false, fmt, ap);
	va_end(ap);
}

static void fail_death(struct result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(res, false, true, fmt, ap);
	va_end(ap);
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	       (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* " split moved ..." for a FAIL line, written into @buf. */
static const char *origin_names(uint32_t origin, char *buf, size_t len)
{
	static const char *const names[] = {
		" split", " trimmed", " moved", " resized", " forked", " ro",
	};
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (origin & (1u << i) && used < len)
			used += snprintf(buf + used, len - used, "%s",
					 names[i]);
	return buf;
}

static void describe_vma(char *buf, size_t len, int slot,
			 const struct vma_entry *e)
{
	char origin[64];

	snprintf(buf, len, "proc %d vma [addr=%#llx pgoff=%u npages=%u%s]",
		 slot, (unsigned long long)e->addr, e->pgoff, e->npages,
		 origin_names(e->origin, origin, sizeof(origin)));
}

/* Read or write exactly @len bytes; 0, or -1 with errno (0 on EOF). */
static int xfer_all(int fd, void *buf, size_t len, bool writing)
{
	char *p = buf;

	while (len) {
		ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR && !timed_out)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* ------------------------------------------------------ a mapping process */

static void proc_fail(struct proc *p, const char *fmt, ...)
{
	va_list ap;

	if (p->failures++)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
}

static struct vma_entry *vma_add(struct proc *p, uint64_t addr,
				 unsigned int pgoff, unsigned int npages,
				 uint32_t origin)
{
	struct vma_entry *e;

	if (p->nvmas == MAX_VMAS) {
		proc_fail(p, "proc %d: more than %d table entries", p->slot,
			  MAX_VMAS);
		return NULL;
	}
	e = &p->vmas[p->nvmas++];
	*e = (struct vma_entry){ addr, pgoff, npages, origin, 0 };
	return e;
}

static void vma_del(struct proc *p, unsigned int i)
{
	p->vmas[i] = p->vmas[--p->nvmas];
}

/* mmap @npages of F from @pgoff, at @fixed if not NULL; NULL on failure. */
static struct vma_entry *map_file(struct proc *p, unsigned int pgoff,
				  unsigned int npages, void *fixed)
{
	void *addr = mmap(fixed, npages * page_size, PROT_READ | PROT_WRITE,
			  MAP_SHARED | (fixed ? MAP_FIXED : 0), p->file_fd,
			  (off_t)pgoff * page_size);

	if (addr == MAP_FAILED) {
		proc_fail(p, "proc %d: mmap pgoff=%u npages=%u: %s", p->slot,
			  pgoff, npages, strerror(errno));
		return NULL;
	}
	return vma_add(p, (uintptr_t)addr, pgoff, npages, 0);
}

/* Room for @npages nobody else will take: a PROT_NONE anonymous map. */
static void *reserve(struct proc *p, unsigned int npages)
{
	void *addr = mmap(NULL, npages * page_size, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (addr == MAP_FAILED) {
		proc_fail(p, "proc %d: reserve %u pages: %s", p->slot, npages,
			  strerror(errno));
		return NULL;
	}
	return addr;
}

/* A random range of at least @min and at most @max pages inside F. */
static void random_range(struct proc *p, unsigned int min, unsigned int max,
			 unsigned int *pgoff, unsigned int *npages)
{
	*npages = min + rng_below(&p->rng, max - min + 1);
	*pgoff = rng_below(&p->rng, NPAGES - *npages + 1);
}

/*
 * Cut the middle [a, a + k) out of a fresh mapping of @len pages, by
 * mprotect (three vmas, the middle read-only) or by munmap (two vmas).
 */
static void churn_split(struct proc *p, bool by_munmap)
{
	unsigned int pgoff, len, a, k;
	struct vma_entry e, *fresh;
	uint64_t mid;
	int rc;

	random_range(p, 5, 40, &pgoff, &len);
	a = 1 + rng_below(&p->rng, len - 2);
	k = 1 + rng_below(&p->rng, len - 1 - a);
	fresh = map_file(p, pgoff, len, NULL);
	if (!fresh)
		return;
	e = *fresh;
	p->nvmas--;
	mid = e.addr + a * page_size;
	if (by_munmap)
		rc = munmap((void *)(uintptr_t)mid, k * page_size);
	else
		rc = mprotect((void *)(uintptr_t)mid, k * page_size,
			      PROT_READ);
	if (rc) {
		proc_fail(p, "proc %d: %s middle of pgoff=%u npages=%u: %s",
			  p->slot, by_munmap ? "munmap" : "mprotect", pgoff,
			  len, strerror(errno));
		return;
	}
	vma_add(p, e.addr, pgoff, a, VMA_SPLIT);
	if (!by_munmap)
		vma_add(p, mid, pgoff + a, k, VMA_SPLIT | VMA_READONLY);
	vma_add(p, mid + k * page_size, pgoff + a + k, len - a - k,
		VMA_SPLIT);
}

/* munmap the head (vm_start and vm_pgoff move) or the tail of a mapping. */
static void churn_trim(struct proc *p, bool head)
{
	unsigned int pgoff, len, k;
	struct vma_entry *e;
	uint64_t cut;

	random_range(p, 2, 40, &pgoff, &len);
	k = 1 + rng_below(&p->rng, len - 1);
	e = map_file(p, pgoff, len, NULL);
	if (!e)
		return;
	cut = head ? e->addr : e->addr + (len - k) * page_size;
	if (munmap((void *)(uintptr_t)cut, k * page_size)) {
		proc_fail(p, "proc %d: munmap %s of pgoff=%u npages=%u: %s",
			  p->slot, head ? "head" : "tail", pgoff, len,
			  strerror(errno));
		return;
	}
	if (head) {
		e->addr += k * page_size;
		e->pgoff += k;
	}
	e->npages -= k;
	e->origin |= VMA_TRIMMED;
}

/* mremap table entry @i, same size, to a fresh fixed address. */
static void churn_move(struct proc *p, unsigned int i)
{
	struct vma_entry *e = &p->vmas[i];
	size_t len = e->npages * page_size;
	void *dst = reserve(p, e->npages);
	void *got;

	if (!dst)
		return;
	got = mremap((void *)(uintptr_t)e->addr, len, len,
		     MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	if (got != dst) {
		proc_fail(p, "proc %d: mremap move of pgoff=%u npages=%u: %s",
			  p->slot, e->pgoff, e->npages,
			  got == MAP_FAILED ? strerror(errno) : "wrong address");
		return;
	}
	e->addr = (uintptr_t)dst;
	e->origin |= VMA_MOVED;
}

/*
 * mremap in place: grow into pages left free just behind the mapping (a
 * reservation whose tail is unmapped), or shrink.  Both stay inside F.
 */
static void churn_resize(struct proc *p, bool grow)
{
	unsigned int pgoff, len, k, new_len;
	struct vma_entry *e;
	void *room = NULL, *got;

	random_range(p, 2, 40, &pgoff, &len);
	k = 1 + rng_below(&p->rng, grow ? 8 : len - 1);
	if (grow) {
		if (pgoff + len + k > NPAGES)
			pgoff = NPAGES - len - k;
		room = reserve(p, len + k);
		if (!room)
			return;
	}
	e = map_file(p, pgoff, len, room);
	if (!e)
		return;
	if (grow && munmap((char *)room + len * page_size, k * page_size)) {
		proc_fail(p, "proc %d: munmap room behind pgoff=%u: %s",
			  p->slot, pgoff, strerror(errno));
		return;
	}
	new_len = grow ? len + k : len - k;
	got = mremap((void *)(uintptr_t)e->addr, len * page_size,
		     new_len * page_size, 0);
	if (got != (void *)(uintptr_t)e->addr) {
		proc_fail(p, "proc %d: mremap %s in place of pgoff=%u npages=%u to %u: %s",
			  p->slot, grow ? "grow" : "shrink", pgoff, len,
			  new_len,
			  got == MAP_FAILED ? strerror(errno) : "moved");
		return;
	}
	e->npages = new_len;
	e->origin |= VMA_RESIZED;
}

/* The worker's own mappings, see the header for the shapes and why. */
static void build_mappings(struct proc *p, const struct zoo_plan *plan)
{
	unsigned int pgoff, len, len2, end, j;

	if (p->slot % 2 == 0)
		map_file(p, 0, NPAGES, NULL);
	for (j = 0; j < 3; j++)
		if ((p->slot + j) % 3 != 0)
			map_file(p, plan->common_pgoff[j],
				 plan->common_npages[j], NULL);
	if (p->slot % 3 == 0)
		map_file(p, plan->common_single, 1, NULL);
	map_file(p, rng_below(&p->rng, NPAGES), 1, NULL);

	/* nested: [s, s+len) contains [s+1, s+len-1) contains [s+2] */
	random_range(p, 6, 60, &pgoff, &len);
	map_file(p, pgoff, len, NULL);
	map_file(p, pgoff + 1, len - 2, NULL);
	map_file(p, pgoff + 2, 1, NULL);

	/* a shared start, then a shared end */
	pgoff = rng_below(&p->rng, NPAGES - 1);
	len = 1 + rng_below(&p->rng, NPAGES - pgoff);
	len2 = 1 + rng_below(&p->rng, NPAGES - pgoff);
	map_file(p, pgoff, len, NULL);
	map_file(p, pgoff, len2, NULL);
	end = 1 + rng_below(&p->rng, NPAGES);
	len = 1 + rng_below(&p->rng, end);
	len2 = 1 + rng_below(&p->rng, end);
	map_file(p, end - len, len, NULL);
	map_file(p, end - len2, len2, NULL);

	for (j = 0; j < 3; j++) {
		random_range(p, 1, NPAGES, &pgoff, &len);
		map_file(p, pgoff, len, NULL);
	}
	/* pages NPAGES.. of this one always raise SIGBUS */
	if (p->slot % 4 == 1)
		map_file(p, NPAGES - 3, 5, NULL);

	churn_split(p, false);
	churn_split(p, true);
	churn_trim(p, true);
	churn_trim(p, false);
	if (map_file(p, rng_below(&p->rng, NPAGES), 1, NULL))
		churn_move(p, p->nvmas - 1);
	random_range(p, 1, 40, &pgoff, &len);
	if (map_file(p, pgoff, len, NULL))
		churn_move(p, p->nvmas - 1);
	churn_resize(p, true);
	churn_resize(p, false);
}

/* A grandchild: every entry is a fork() copy; drop one, move another. */
static void churn_grandchild(struct proc *p)
{
	unsigned int i;

	for (i = 0; i < p->nvmas; i++)
		p->vmas[i].origin |= VMA_FORKED;
	i = rng_below(&p->rng, p->nvmas);
	if (munmap((void *)(uintptr_t)p->vmas[i].addr,
		   p->vmas[i].npages * page_size)) {
		proc_fail(p, "proc %d: munmap inherited pgoff=%u: %s", p->slot,
			  p->vmas[i].pgoff, strerror(errno));
		return;
	}
	vma_del(p, i);
	churn_move(p, rng_below(&p->rng, p->nvmas));
}

struct maps_line {
	unsigned long long lo, hi, off, ino;
	unsigned int maj, mnr;
	char perms[8];
};

/*
 * Every table entry must lie inside one /proc/self/maps line of F with the
 * matching file offset and permissions (the kernel may have merged it
 * with a neighbour, so "inside", not "equal").
 */
static void check_maps(struct proc *p, const struct stat *st)
{
	static struct maps_line lines[4096];
	static char buf[1 << 18];
	unsigned int i, j, nlines = 0;
	char *line, *save = NULL;
	size_t used = 0;
	ssize_t n;
	int fd;

	fd = open("/proc/self/maps", O_RDONLY);
	if (fd < 0) {
		proc_fail(p, "proc %d: open /proc/self/maps: %s", p->slot,
			  strerror(errno));
		return;
	}
	while ((n = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0)
		used += n;
	close(fd);
	buf[used] = '\0';
	for (line = strtok_r(buf, "\n", &save); line && nlines < 4096;
	     line = strtok_r(NULL, "\n", &save)) {
		struct maps_line *l = &lines[nlines];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &l->lo,
			   &l->hi, l->perms, &l->off, &l->maj, &l->mnr,
			   &l->ino) == 7 && l->ino == st->st_ino &&
		    l->maj == major(st->st_dev) && l->mnr == minor(st->st_dev))
			nlines++;
	}

	for (i = 0; i < p->nvmas; i++) {
		const struct vma_entry *e = &p->vmas[i];
		uint64_t end = e->addr + e->npages * page_size;
		char want_w = e->origin & VMA_READONLY ? '-' : 'w';
		char desc[160];

		for (j = 0; j < nlines; j++) {
			const struct maps_line *l = &lines[j];

			if (l->lo <= e->addr && end <= l->hi &&
			    l->off + (e->addr - l->lo) ==
				    (uint64_t)e->pgoff * page_size &&
			    l->perms[0] == 'r' && l->perms[1] == want_w &&
			    l->perms[3] == 's')
				break;
		}
		if (j == nlines) {
			describe_vma(desc, sizeof(desc), p->slot, e);
			proc_fail(p, "%s: no line of /proc/self/maps maps it",
				  desc);
		}
	}
}

static uint64_t *page_addr(const struct vma_entry *e, unsigned int page)
{
	return (uint64_t *)(uintptr_t)(e->addr +
				       (page - e->pgoff) * page_size);
}

/*
 * One page of CMD_CHECK: below @c->size pages it holds generation
 * @c->gen, from @c->size on a load raises SIGBUS.
 */
static void check_page(struct proc *p, const struct vma_entry *e,
		       unsigned int page, const struct cmd *c,
		       struct reply *r)
{
	bool beyond = page >= c->size;
	unsigned int w, word = 0;
	uint64_t value = 0, want = 0;
	char desc[160];
	int sig = 0;

	for (w = 0; w < NCHECKED_WORDS; w++) {
		word = checked_word(page, w);
		want = word_value(page, c->gen, word);
		sig = probe_word(page_addr(e, page) + word, &value, false);
		if (beyond || sig || value != want)
			break;
	}
	if (beyond && sig == SIGBUS)
		r->sigbus_seen++;
	if (beyond ? sig == SIGBUS : w == NCHECKED_WORDS)
		return;
	describe_vma(desc, sizeof(desc), p->slot, e);
	if (sig)
		proc_fail(p, "%s: page %u %s EOF (%u pages) raised %s%s", desc,
			  page, beyond ? "beyond" : "below", c->size,
			  strsignal(sig), beyond ? ", expected SIGBUS" : "");
	else if (beyond)
		proc_fail(p, "%s: page %u beyond EOF (%u pages) still readable (word 0 = %#llx), expected SIGBUS: truncate's i_mmap query missed this vma",
			  desc, page, c->size, (unsigned long long)value);
	else
		proc_fail(p, "%s: page %u word %u holds %#llx, expected %#llx (generation %u)",
			  desc, page, word, (unsigned long long)value,
			  (unsigned long long)want, c->gen);
}

static void proc_check(struct proc *p, const struct cmd *c, struct reply *r)
{
	unsigned int i, page;

	for (i = 0; i < p->nvmas; i++) {
		const struct vma_entry *e = &p->vmas[i];

		for (page = e->pgoff; page < e->pgoff + e->npages; page++) {
			check_page(p, e, page, c, r);
			r->pages_checked++;
		}
	}
}

/* CMD_WRITE, CMD_EXPECT and CMD_TOUCH: one word of one page of one vma. */
static void proc_word(struct proc *p, const struct cmd *c)
{
	const struct vma_entry *e = &p->vmas[c->vma < p->nvmas ? c->vma : 0];
	uint64_t value = c->value;
	char desc[160];
	int sig;

	describe_vma(desc, sizeof(desc), p->slot, e);
	if (c->vma >= p->nvmas || c->page < e->pgoff ||
	    c->page >= e->pgoff + e->npages) {
		proc_fail(p, "proc %d: asked for page %u through vma %u of %u, which does not map it",
			  p->slot, c->page, c->vma, p->nvmas);
		return;
	}
	sig = probe_word(page_addr(e, c->page) + c->word, &value,
			 c->op == CMD_WRITE);
	if (sig)
		proc_fail(p, "%s: %s page %u word %u raised %s", desc,
			  c->op == CMD_WRITE ? "store to" : "load from",
			  c->page, c->word, strsignal(sig));
	else if (c->op != CMD_WRITE && value != c->value)
		proc_fail(p, "%s: page %u word %u holds %#llx, expected %#llx%s",
			  desc, c->page, c->word, (unsigned long long)value,
			  (unsigned long long)c->value,
			  c->op == CMD_EXPECT ?
			  " (a marker another process stored through its own mapping)" :
			  "");
}

static void proc_reply(struct proc *p, struct reply *r)
{
	r->ok = p->failures == 0;
	r->pid = getpid();
	if (p->failures > 1) {
		size_t len = strlen(p->err);

		snprintf(p->err + len, sizeof(p->err) - len,
			 " (%u failures in all)", p->failures);
	}
	snprintf(r->text, sizeof(r->text), "%s", p->err);
	if (xfer_all(p->reply_fd, r, sizeof(*r), true))
		_exit(3);
	p->failures = 0;
	p->err[0] = '\0';
}

/* Serve the parent's commands until CMD_QUIT or its end of the pipe. */
static void __noreturn proc_serve(struct proc *p)
{
	struct reply r;
	struct cmd c;

	for (;;) {
		if (xfer_all(p->cmd_fd, &c, sizeof(c), false))
			_exit(errno ? 4 : 0);
		if (c.op == CMD_QUIT)
			_exit(0);
		memset(&r, 0, sizeof(r));
		if (c.op == CMD_CHECK)
			proc_check(p, &c, &r);
		else
			proc_word(p, &c);
		proc_reply(p, &r);
	}
}

/* Keep the two pipe ends of slot @keep (and @keep2, -1 for none). */
static void close_other_slots(struct zoo *z, int keep, int keep2)
{
	int s;

	for (s = 0; s < NSLOTS; s++) {
		struct slot *sl = &z->slots[s];

		if (s == keep || s == keep2)
			continue;
		if (sl->cmd_fd >= 0)
			close(sl->cmd_fd);
		if (sl->reply_fd >= 0)
			close(sl->reply_fd);
		sl->cmd_fd = sl->reply_fd = -1;
	}
}

/*
 * Body of worker @w, inherited pipes in @child_ends[slot][0 read, 1
 * write].  Builds the mappings, forks its grandchild, reports its table.
 */
static void __noreturn
worker_main(struct zoo *z, int w, int child_ends[NSLOTS][2])
{
	int g = w < NGRANDCHILDREN ? NWORKERS + w : -1;
	struct proc *p = calloc(1, sizeof(*p));
	struct reply r;
	pid_t pid;
	int s;

	if (!p)
		_exit(5);
	/* the parent's ends, and every other process's, are not ours */
	for (s = 0; s < NSLOTS; s++) {
		close(z->slots[s].cmd_fd);
		close(z->slots[s].reply_fd);
		z->slots[s].cmd_fd = child_ends[s][0];
		z->slots[s].reply_fd = child_ends[s][1];
	}
	close_other_slots(z, w, g);
	p->slot = w;
	p->cmd_fd = z->slots[w].cmd_fd;
	p->reply_fd = z->slots[w].reply_fd;
	p->file_fd = z->fd;
	p->rng = z->plan.seed ^ mix64(w + 1);
	build_mappings(p, &z->plan);
	if (!p->failures)
		check_maps(p, &z->st);

	if (g >= 0 && !p->failures) {
		pid = fork();
		if (pid < 0) {
			proc_fail(p, "proc %d: fork of grandchild: %s", w,
				  strerror(errno));
		} else if (pid == 0) {
			close_other_slots(z, g, -1);
			p->slot = g;
			p->cmd_fd = z->slots[g].cmd_fd;
			p->reply_fd = z->slots[g].reply_fd;
			p->rng = z->plan.seed ^ mix64(g + 1);
			churn_grandchild(p);
			if (!p->failures)
				check_maps(p, &z->st);
			memset(&r, 0, sizeof(r));
			r.nvmas = p->nvmas;
			memcpy(r.vmas, p->vmas, sizeof(r.vmas));
			proc_reply(p, &r);
			proc_serve(p);
		}
	}
	if (g >= 0)
		close_other_slots(z, w, -1);
	memset(&r, 0, sizeof(r));
	r.nvmas = p->nvmas;
	memcpy(r.vmas, p->vmas, sizeof(r.vmas));
	proc_reply(p, &r);
	proc_serve(p);
}

/* -------------------------------------------------------------- the parent */

static int send_cmd(struct zoo *z, int s, const struct cmd *c,
		    struct result *res)
{
	if (!xfer_all(z->slots[s].cmd_fd, (void *)c, sizeof(*c), true))
		return 0;
	fail(res, "write to proc %d (pid %d): %s", s, z->slots[s].pid,
	     timed_out ? "timed out" : strerror(errno));
	return -1;
}

/* Read slot @s's reply to @phase; 0, or -1 with the FAIL recorded. */
static int recv_reply(struct zoo *z, int s, struct reply *r,
		      const char *phase, struct result *res)
{
	if (xfer_all(z->slots[s].reply_fd, r, sizeof(*r), false)) {
		if (timed_out)
			fail(res, "timeout: no reply from proc %d (pid %d) within %d s, during %s",
			     s, z->slots[s].pid, TEST_TIMEOUT_S, phase);
		else
			fail_silent(res, "proc %d (pid %d) gave no reply during %s: %s",
				    s, z->slots[s].pid, phase,
				    errno ? strerror(errno) :
				    "it closed its pipe");
		z->slots[s].lost_in = phase;
		return -1;
	}
	if (!r->ok) {
		fail(res, "%s: %s", phase, r->text);
		return -1;
	}
	return 0;
}

static int roundtrip(struct zoo *z, int s, const struct cmd *c,
		     const char *phase, struct result *res)
{
	struct reply r;

	if (send_cmd(z, s, c, res))
		return -1;
	return recv_reply(z, s, &r, phase, res);
}

/* CMD_CHECK to everyone, then every reply: a barrier.  Adds the counts. */
static int check_all(struct zoo *z, unsigned int size, unsigned int gen,
		     const char *phase, unsigned long *pages,
		     unsigned long *sigbus, struct result *res)
{
	struct cmd c = { .op = CMD_CHECK, .size = size, .gen = gen };
	struct reply r;
	int s, rc = 0;

	for (s = 0; s < NSLOTS; s++)
		if (z->slots[s].present && send_cmd(z, s, &c, res))
			return -1;
	for (s = 0; s < NSLOTS; s++) {
		if (!z->slots[s].present)
			continue;
		if (recv_reply(z, s, &r, phase, res)) {
			rc = -1;
			if (timed_out)
				break;
			continue;
		}
		*pages += r.pages_checked;
		*sigbus += r.sigbus_seen;
	}
	return rc;
}

/* pwrite every page of F with the words of generation @gen. */
static int write_generation(struct zoo *z, unsigned int gen,
			    struct result *res)
{
	uint64_t *buf = malloc(page_size);
	unsigned int page, w;

	if (!buf) {
		fail(res, "malloc: %s", strerror(errno));
		return -1;
	}
	for (page = 0; page < NPAGES; page++) {
		for (w = 0; w < page_size / 8; w++)
			buf[w] = word_value(page, gen, w);
		if (pwrite(z->fd, buf, page_size,
			   (off_t)page * page_size) != (ssize_t)page_size) {
			fail(res, "pwrite %s page %u: %s", z->path, page,
			     strerror(errno));
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

static void plan_zoo(struct zoo_plan *plan, uint64_t seed)
{
	uint64_t rng = seed;
	unsigned int j;

	plan->seed = seed;
	for (j = 0; j < 3; j++) {
		plan->common_npages[j] = 1 + rng_below(&rng, NPAGES / 2);
		plan->common_pgoff[j] =
			rng_below(&rng, NPAGES - plan->common_npages[j] + 1);
	}
	plan->common_single = rng_below(&rng, NPAGES);
}

/*
 * Create F (generation 1) and the processes, and collect their tables.
 * On failure the FAIL is recorded; zoo_stop() must run either way.
 */
static int zoo_start(struct zoo *z, uint64_t seed, struct result *res)
{
	int child_ends[NSLOTS][2];
	struct reply r;
	int s, fds[2];
	pid_t pid;

	memset(z, 0, sizeof(*z));
	z->fd = -1;
	for (s = 0; s < NSLOTS; s++)
		z->slots[s].cmd_fd = z->slots[s].reply_fd = -1;
	if (mkdir("/tmp", 01777) && errno != EEXIST) {
		fail(res, "mkdir /tmp: %s", strerror(errno));
		return -1;
	}
	snprintf(z->dir, sizeof(z->dir), "/tmp/pt-mmapwork.%d", getpid());
	if (mkdir(z->dir, 0700) && errno != EEXIST) {
		fail(res, "mkdir %s: %s", z->dir, strerror(errno));
		z->dir[0] = '\0';
		return -1;
	}
	snprintf(z->path, sizeof(z->path), "%s/F", z->dir);
	z->fd = open(z->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (z->fd < 0) {
		fail(res, "open %s: %s", z->path, strerror(errno));
		return -1;
	}
	if (write_generation(z, 1, res))
		return -1;
	if (fstat(z->fd, &z->st)) {
		fail(res, "fstat %s: %s", z->path, strerror(errno));
		return -1;
	}
	plan_zoo(&z->plan, seed);

	for (s = 0; s < NSLOTS; s++) {
		if (pipe(fds)) {
			fail(res, "pipe: %s", strerror(errno));
			return -1;
		}
		z->slots[s].cmd_fd = fds[1];
		child_ends[s][0] = fds[0];
		if (pipe(fds)) {
			fail(res, "pipe: %s", strerror(errno));
			return -1;
		}
		z->slots[s].reply_fd = fds[0];
		child_ends[s][1] = fds[1];
	}
	fflush(NULL);
	for (s = 0; s < NWORKERS; s++) {
		pid = fork();
		if (pid < 0) {
			fail(res, "fork of proc %d: %s", s, strerror(errno));
			break;
		}
		if (pid == 0)
			worker_main(z, s, child_ends);
		z->slots[s].pid = pid;
		z->slots[s].present = true;
	}
	for (s = 0; s < NSLOTS; s++) {
		close(child_ends[s][0]);
		close(child_ends[s][1]);
	}
	if (res->failed)
		return -1;

	/* a worker replies after forking its grandchild, if it could */
	for (s = 0; s < NSLOTS; s++) {
		int g = s < NGRANDCHILDREN ? NWORKERS + s : -1;

		if (!z->slots[s].present)
			continue;
		if (recv_reply(z, s, &r, "building the mapping zoo", res))
			continue;
		z->slots[s].nvmas = r.nvmas;
		memcpy(z->slots[s].vmas, r.vmas, sizeof(r.vmas));
		if (s >= NWORKERS)
			z->slots[s].pid = r.pid;
		if (g >= 0)
			z->slots[g].present = true;
	}
	for (s = 0; s < NSLOTS; s++) {
		if (z->slots[s].present) {
			z->nprocs++;
			z->nvmas += z->slots[s].nvmas;
		}
	}
	return res->failed ? -1 : 0;
}

static int slot_of(const struct zoo *z, pid_t pid)
{
	int s;

	for (s = 0; s < NSLOTS; s++)
		if (z->slots[s].pid == pid)
			return s;
	return -1;
}

/*
 * QUIT to everyone, reap every child and orphaned grandchild (we are the
 * subreaper), judge how each ended, remove F.  After a timeout whoever
 * is left is SIGKILLed: that death is ours, not a FAIL of its own.
 */
static void zoo_stop(struct zoo *z, struct result *res)
{
	struct cmd quit = { .op = CMD_QUIT };
	void (*report)(struct result *res, const char *fmt, ...);
	const char *when;
	int s, status;
	pid_t pid;

	for (s = 0; s < NSLOTS; s++) {
		if (z->slots[s].present && !timed_out)
			xfer_all(z->slots[s].cmd_fd, &quit, sizeof(quit), true);
		if (z->slots[s].cmd_fd >= 0)
			close(z->slots[s].cmd_fd);
		if (z->slots[s].reply_fd >= 0)
			close(z->slots[s].reply_fd);
		z->slots[s].cmd_fd = z->slots[s].reply_fd = -1;
	}
	for (;;) {
		if (timed_out) {
			for (s = 0; s < NSLOTS; s++) {
				struct slot *sl = &z->slots[s];

				if (sl->pid > 0 && !sl->killed && !sl->reaped) {
					kill(sl->pid, SIGKILL);
					sl->killed = true;
				}
			}
		}
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;	/* ECHILD: everyone reaped */
		}
		s = slot_of(z, pid);
		when = s >= 0 && z->slots[s].lost_in ? z->slots[s].lost_in :
			"the test";
		/* only the death of the process that went silent says why */
		report = s >= 0 && z->slots[s].lost_in ? fail_death : fail;
		if (WIFSIGNALED(status) && !(s >= 0 && z->slots[s].killed))
			report(res, "proc %d (pid %d) killed by signal %d (%s) during %s",
			       s, pid, WTERMSIG(status),
			       strsignal(WTERMSIG(status)), when);
		else if (WIFEXITED(status) && WEXITSTATUS(status))
			report(res, "proc %d (pid %d) exited with status %d during %s",
			       s, pid, WEXITSTATUS(status), when);
		if (s >= 0)
			z->slots[s].reaped = true;
	}
	if (z->fd >= 0)
		close(z->fd);
	if (z->path[0])
		unlink(z->path);
	if (z->dir[0])
		rmdir(z->dir);
}

static void count_origins(const struct zoo *z, char *buf, size_t len)
{
	unsigned int split = 0, trimmed = 0, moved = 0, resized = 0;
	unsigned int forked = 0, i;
	int s;

	for (s = 0; s < NSLOTS; s++) {
		for (i = 0; z->slots[s].present && i < z->slots[s].nvmas;
		     i++) {
			uint32_t o = z->slots[s].vmas[i].origin;

			split += !!(o & VMA_SPLIT);
			trimmed += !!(o & VMA_TRIMMED);
			moved += !!(o & VMA_MOVED);
			resized += !!(o & VMA_RESIZED);
			forked += !!(o & VMA_FORKED);
		}
	}
	snprintf(buf, len,
		 "procs=%u vmas=%u split=%u trimmed=%u moved=%u resized=%u forked=%u",
		 z->nprocs, z->nvmas, split, trimmed, moved, resized, forked);
}

struct candidate {
	uint8_t slot;
	uint8_t vma;
};

/* Every (process, vma) whose range covers @page, writable ones if asked. */
static unsigned int covering(const struct zoo *z, unsigned int page,
			     bool writable, struct candidate *out)
{
	unsigned int n = 0, i;
	int s;

	for (s = 0; s < NSLOTS; s++) {
		const struct slot *sl = &z->slots[s];

		for (i = 0; sl->present && i < sl->nvmas; i++) {
			const struct vma_entry *e = &sl->vmas[i];

			if (page < e->pgoff || page >= e->pgoff + e->npages)
				continue;
			if (writable && e->origin & VMA_READONLY)
				continue;
			out[n++] = (struct candidate){ s, i };
		}
	}
	return n;
}

/*
 * Have slot @s store @c->value into the marker word of @c->page through
 * its vma @c->vma, then pread() must read that value from F.
 */
static int store_marker(struct zoo *z, int s, struct cmd *c,
			const char *phase, struct result *res)
{
	off_t off = (off_t)c->page * page_size + MARKER_WORD * 8;
	uint64_t seen;

	c->op = CMD_WRITE;
	if (roundtrip(z, s, c, phase, res))
		return -1;
	if (pread(z->fd, &seen, 8, off) != 8) {
		fail(res, "pread %s page %u: %s", z->path, c->page,
		     strerror(errno));
		return -1;
	}
	if (seen == c->value)
		return 0;
	fail(res, "%s: proc %d stored %#llx in page %u through its mapping, pread reads %#llx",
	     phase, s, (unsigned long long)c->value, c->page,
	     (unsigned long long)seen);
	return -1;
}

/*
 * One marker exchange on a page of generation @gen: a writer stores
 * through its mapping, pread and a reader in another process must see it,
 * then the reader stores the old value back and pread must see that.
 */
static int exchange_marker(struct zoo *z, uint64_t *rng, unsigned int gen,
			   struct result *res)
{
	static struct candidate cand[NSLOTS * MAX_VMAS];
	struct cmd c = { .word = MARKER_WORD };
	unsigned int n, tries, page = 0, wi = 0, ri = 0;

	for (tries = 0; tries < 100; tries++) {
		page = rng_below(rng, NPAGES);
		n = covering(z, page, true, cand);
		if (n < 2)
			continue;
		wi = rng_below(rng, n);
		ri = rng_below(rng, n);
		if (cand[ri].slot != cand[wi].slot)
			break;
	}
	if (tries == 100) {
		fail(res, "markers: no page mapped writably by two processes");
		return -1;
	}
	c.page = page;
	c.vma = cand[wi].vma;
	c.value = ~word_value(page, gen, MARKER_WORD);
	if (store_marker(z, cand[wi].slot, &c, "a marker store", res))
		return -1;
	c.op = CMD_EXPECT;
	c.vma = cand[ri].vma;
	if (roundtrip(z, cand[ri].slot, &c, "a marker load", res))
		return -1;
	c.value = word_value(page, gen, MARKER_WORD);
	return store_marker(z, cand[ri].slot, &c, "a marker restore", res);
}

static void print_result(const char *test, const struct result *res,
			 const char *counts)
{
	if (res->failed)
		printf("PT-MMAP %s FAIL %s\n", test, res->text);
	else
		printf("PT-MMAP %s ok %s\n", test, counts);
	fflush(stdout);
}

static void watchdog(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void arm_watchdog(void)
{
	timed_out = 0;
	alarm(TEST_TIMEOUT_S);
}

static bool test_truncate(uint64_t seed)
{
	static const unsigned int cuts[] = {
		NPAGES * 3 / 4, NPAGES / 2, 17, 1, 0,
	};
	unsigned long pages = 0, sigbus = 0;
	struct result res = { 0 };
	char phase[64], counts[512], origins[256];
	unsigned int gen = 1, i;
	struct timespec t0;
	uint64_t rng = seed ^ 0x7472756e63617465ULL;
	struct zoo z;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	arm_watchdog();
	if (zoo_start(&z, seed, &res))
		goto out;
	note("truncate: %u processes, %u vmas", z.nprocs, z.nvmas);
	if (check_all(&z, NPAGES, gen, "the first fault-in", &pages, &sigbus,
		      &res))
		goto out;
	for (i = 0; i < NMARKERS; i++)
		if (exchange_marker(&z, &rng, gen, &res))
			goto out;
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		if (ftruncate(z.fd, (off_t)cuts[i] * page_size)) {
			fail(&res, "ftruncate %s to %u pages: %s", z.path,
			     cuts[i], strerror(errno));
			goto out;
		}
		snprintf(phase, sizeof(phase), "the check after truncate to %u pages",
			 cuts[i]);
		if (check_all(&z, cuts[i], gen, phase, &pages, &sigbus, &res))
			goto out;
		if (ftruncate(z.fd, (off_t)NPAGES * page_size)) {
			fail(&res, "ftruncate %s back to %u pages: %s", z.path,
			     NPAGES, strerror(errno));
			goto out;
		}
		if (write_generation(&z, ++gen, &res))
			goto out;
		snprintf(phase, sizeof(phase), "the re-check after extending to generation %u",
			 gen);
		if (check_all(&z, NPAGES, gen, phase, &pages, &sigbus, &res))
			goto out;
	}
out:
	zoo_stop(&z, &res);
	alarm(0);
	count_origins(&z, origins, sizeof(origins));
	snprintf(counts, sizeof(counts),
		 "%s pages_checked=%lu sigbus=%lu truncations=%zu markers=%u elapsed_ms=%ld",
		 origins, pages, sigbus, ARRAY_SIZE(cuts),
		 NMARKERS, elapsed_ms(&t0));
	print_result("truncate", &res, counts);
	return !res.failed;
}

/* -------------------------------------------------------- test "idle" */

struct idle_probe {
	int bitmap_fd;
	int pagemap_fd;
	uint64_t *parent_map;	/* the parent's own mapping of all of F */
	uint64_t pfn[NPAGES];
	/*
	 * Pages whose bitmap word straddles max_pfn: the kernel walks their
	 * bits but counts only whole words, so it transfers 0 bytes and a
	 * read never returns their state.  At most the 63 PFNs just below
	 * max_pfn; trials leave them out.
	 */
	bool out_of_reach[NPAGES];
	unsigned int nr_out_of_reach;
};

#define IDLE_OUT_OF_REACH	(-2)

static int pfn_of(struct idle_probe *ip, unsigned int page, uint64_t *pfn,
		  struct result *res)
{
	uint64_t entry;

	if (pagemap_entry(ip->pagemap_fd,
			  (char *)ip->parent_map + page * page_size,
			  page_size, &entry)) {
		fail(res, "pread %s: %s", pagemap_path, strerror(errno));
		return -1;
	}
	*pfn = entry & PFN_MASK;
	if (!(entry & PAGE_PRESENT) || !*pfn) {
		fail(res, "%s: page %u of the parent's mapping %s (need root for PFNs)",
		     pagemap_path, page,
		     entry & PAGE_PRESENT ? "shows PFN 0" : "is not present");
		return -1;
	}
	return 0;
}

/*
 * Mark, or read, the idle bit of @pfn; a read returns 1 for idle.
 * IDLE_OUT_OF_REACH (no failure recorded) when the kernel transfers
 * nothing because @pfn's word runs past max_pfn.
 */
static int idle_bit(struct idle_probe *ip, uint64_t pfn, bool mark,
		    struct result *res)
{
	off_t off = pfn / 64 * 8;
	uint64_t word = mark ? 1ULL << (pfn % 64) : 0;
	ssize_t n;

	n = mark ? pwrite(ip->bitmap_fd, &word, 8, off) :
		   pread(ip->bitmap_fd, &word, 8, off);
	if (n == 0)
		return IDLE_OUT_OF_REACH;
	if (n != 8) {
		fail(res, "%s %s at pfn %#llx: %s", mark ? "write" : "read",
		     idle_bitmap_path, (unsigned long long)pfn,
		     n < 0 ? strerror(errno) : "short transfer");
		return -1;
	}
	return !!(word & 1ULL << (pfn % 64));
}

/*
 * Put pages still in the per-CPU LRU batches on an LRU list, where
 * page_idle can find them: fill a scratch file (each new page goes
 * through the batch) and mlock a scratch page (lru_add_drain()).
 */
static int drain_lru(struct zoo *z, unsigned int round, struct result *res)
{
	char path[128];
	char *buf = calloc(1, page_size);
	void *anon;
	unsigned int i;
	int fd;

	if (!buf) {
		fail(res, "calloc: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/scratch%u", z->dir, round);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fail(res, "open %s: %s", path, strerror(errno));
		free(buf);
		return -1;
	}
	for (i = 0; i < NDRAIN_PAGES; i++) {
		buf[0] = i;
		if (pwrite(fd, buf, page_size, (off_t)i * page_size) !=
		    (ssize_t)page_size) {
			fail(res, "pwrite %s: %s", path, strerror(errno));
			break;
		}
	}
	close(fd);
	unlink(path);
	free(buf);
	anon = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED) {
		fail(res, "mmap scratch page: %s", strerror(errno));
		return -1;
	}
	/* only the drain matters: an RLIMIT_MEMLOCK refusal is harmless */
	if (!mlock(anon, page_size))
		munlock(anon, page_size);
	munmap(anon, page_size);
	return res->failed ? -1 : 0;
}

/* Mark each page idle and read it back, draining again for stragglers. */
static int calibrate(struct zoo *z, struct idle_probe *ip,
		     unsigned int *rounds, struct result *res)
{
	bool trackable[NPAGES] = { false };
	unsigned int page, missing = NPAGES;
	int idle;

	for (*rounds = 1; missing && *rounds <= 4; ++*rounds) {
		if (drain_lru(z, *rounds, res))
			return -1;
		for (page = 0; page < NPAGES; page++) {
			if (trackable[page])
				continue;
			idle = idle_bit(ip, ip->pfn[page], true, res);
			if (idle == IDLE_OUT_OF_REACH ||
			    (idle >= 0 &&
			     (idle = idle_bit(ip, ip->pfn[page], false,
					      res)) == IDLE_OUT_OF_REACH)) {
				ip->out_of_reach[page] = true;
				ip->nr_out_of_reach++;
				trackable[page] = true;
				missing--;
				continue;
			}
			if (idle < 0)
				return -1;
			if (idle) {
				trackable[page] = true;
				missing--;
			}
		}
	}
	--*rounds;
	if (ip->nr_out_of_reach > 63) {
		fail(res, "%u pages transfer no page_idle bitmap word; only the last, partial word below max_pfn may (63 PFNs at most)",
		     ip->nr_out_of_reach);
		return -1;
	}
	for (page = 0; page < NPAGES && missing; page++) {
		if (!trackable[page]) {
			fail(res, "page %u not trackable: pfn %#llx marked idle reads accessed (%u such pages, %u drain rounds)",
			     page, (unsigned long long)ip->pfn[page], missing,
			     *rounds);
			return -1;
		}
	}
	return 0;
}

/* Trials by outcome; touched ones by where the touchers' vmas came from. */
struct idle_counts {
	unsigned long untouched, touched, multi, touches;
	unsigned long via_split, via_trimmed, via_moved, via_resized;
	unsigned long via_forked, via_plain;
};

/* @origins: the touchers' origin bits ORed; @plain: no toucher had any. */
static void count_trial(struct idle_counts *ic, unsigned int touchers,
			uint32_t origins, bool plain)
{
	ic->untouched += !touchers;
	ic->touched += !!touchers;
	ic->multi += touchers > 1;
	ic->touches += touchers;
	if (!touchers)
		return;
	ic->via_split += !!(origins & VMA_SPLIT);
	ic->via_trimmed += !!(origins & VMA_TRIMMED);
	ic->via_moved += !!(origins & VMA_MOVED);
	ic->via_resized += !!(origins & VMA_RESIZED);
	ic->via_forked += !!(origins & VMA_FORKED);
	ic->via_plain += plain;
}

/* One trial: mark, let nobody/one/several touch through their vma, read. */
static int idle_trial(struct zoo *z, struct idle_probe *ip, uint64_t *rng,
		      unsigned int trial, struct idle_counts *ic,
		      struct result *res)
{
	static struct candidate cand[NSLOTS * MAX_VMAS];
	unsigned int page, n, mode, chosen, i;
	struct cmd c = { .op = CMD_TOUCH, .gen = 1 };
	char who[700] = "", desc[160];
	uint32_t origins = 0;
	bool plain = true;
	size_t used = 0;
	int idle;

	do
		page = rng_below(rng, NPAGES);
	while (ip->out_of_reach[page]);
	c.page = page;
	n = covering(z, page, false, cand);
	mode = rng_below(rng, 4);
	chosen = mode == 0 ? 0 : mode < 3 ? 1 : 2 + rng_below(rng, 2);
	if (chosen > n)
		chosen = n;
	/* the first @chosen of a partial Fisher-Yates shuffle */
	for (i = 0; i < chosen; i++) {
		unsigned int j = i + rng_below(rng, n - i);
		struct candidate t = cand[i];

		cand[i] = cand[j];
		cand[j] = t;
	}
	idle = idle_bit(ip, ip->pfn[page], true, res);
	if (idle < 0)
		goto no_bit;
	for (i = 0; i < chosen; i++) {
		const struct vma_entry *e =
			&z->slots[cand[i].slot].vmas[cand[i].vma];

		c.vma = cand[i].vma;
		c.word = checked_word(page, 2);
		c.value = word_value(page, 1, c.word);
		if (roundtrip(z, cand[i].slot, &c, "an idle trial touch", res))
			return -1;
		origins |= e->origin;
		plain &= !e->origin;
		describe_vma(desc, sizeof(desc), cand[i].slot, e);
		if (used < sizeof(who))
			used += snprintf(who + used, sizeof(who) - used,
					 "%s%s", i ? ", " : "", desc);
	}
	idle = idle_bit(ip, ip->pfn[page], false, res);
	if (idle < 0)
		goto no_bit;
	if (!chosen && !idle) {
		fail(res, "trial %u: page %u (pfn %#llx) reads accessed although nobody touched it since it was marked idle",
		     trial, page, (unsigned long long)ip->pfn[page]);
		return -1;
	}
	if (chosen && idle) {
		fail(res, "trial %u: page %u (pfn %#llx) reads idle after a load through %s: the rmap walk missed %s",
		     trial, page, (unsigned long long)ip->pfn[page], who,
		     chosen > 1 ? "all of those vmas" : "that vma");
		return -1;
	}
	count_trial(ic, chosen, origins, plain);
	return 0;

no_bit:
	if (idle == IDLE_OUT_OF_REACH)
		fail(res, "trial %u: page %u (pfn %#llx) transfers no page_idle bitmap word, though it did in the calibration",
		     trial, page, (unsigned long long)ip->pfn[page]);
	return -1;
}

static int idle_setup(struct zoo *z, struct idle_probe *ip,
		      struct result *res)
{
	unsigned int page;
	uint64_t v;

	ip->pagemap_fd = open(pagemap_path, O_RDONLY);
	if (ip->pagemap_fd < 0) {
		fail(res, "open %s: %s", pagemap_path, strerror(errno));
		return -1;
	}
	ip->parent_map = mmap(NULL, NPAGES * page_size, PROT_READ,
			      MAP_SHARED, z->fd, 0);
	if (ip->parent_map == MAP_FAILED) {
		ip->parent_map = NULL;
		fail(res, "mmap %s in the parent: %s", z->path,
		     strerror(errno));
		return -1;
	}
	for (page = 0; page < NPAGES; page++) {
		v = ip->parent_map[page * (page_size / 8)];
		if (v != word_value(page, 1, 0)) {
			fail(res, "parent: page %u word 0 holds %#llx, expected %#llx",
			     page, (unsigned long long)v,
			     (unsigned long long)word_value(page, 1, 0));
			return -1;
		}
		if (pfn_of(ip, page, &ip->pfn[page], res))
			return -1;
	}
	return 0;
}

/* The PFNs must not change under the test (no migration in the guest). */
static void idle_recheck_pfns(struct idle_probe *ip, struct result *res)
{
	unsigned int page;
	uint64_t pfn;

	for (page = 0; page < NPAGES && !res->failed; page++) {
		if (pfn_of(ip, page, &pfn, res))
			return;
		if (pfn != ip->pfn[page])
			fail(res, "page %u moved from pfn %#llx to %#llx during the trials",
			     page, (unsigned long long)ip->pfn[page],
			     (unsigned long long)pfn);
	}
}

static bool test_idle(uint64_t seed)
{
	struct idle_probe ip = { .bitmap_fd = -1, .pagemap_fd = -1 };
	unsigned long pages = 0, sigbus = 0;
	struct idle_counts ic = { 0 };
	struct result res = { 0 };
	char counts[768], origins[256];
	unsigned int trial, rounds = 0;
	uint64_t rng = seed ^ 0x69646c6500000000ULL;
	struct timespec t0;
	struct zoo z;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ip.bitmap_fd = open(idle_bitmap_path, O_RDWR);
	if (ip.bitmap_fd < 0) {
		if (errno == ENOENT)
			fail(&res, "no %s (CONFIG_IDLE_PAGE_TRACKING)",
			     idle_bitmap_path);
		else
			fail(&res, "open %s: %s", idle_bitmap_path,
			     strerror(errno));
		print_result("idle", &res, "");
		return false;
	}
	arm_watchdog();
	if (zoo_start(&z, seed, &res))
		goto out;
	note("idle: %u processes, %u vmas", z.nprocs, z.nvmas);
	if (check_all(&z, NPAGES, 1, "the fault-in before the idle trials",
		      &pages, &sigbus, &res) ||
	    idle_setup(&z, &ip, &res) ||
	    calibrate(&z, &ip, &rounds, &res))
		goto out;
	for (trial = 0; trial < NTRIALS; trial++)
		if (idle_trial(&z, &ip, &rng, trial, &ic, &res))
			goto out;
	idle_recheck_pfns(&ip, &res);
out:
	if (ip.parent_map)
		munmap(ip.parent_map, NPAGES * page_size);
	if (ip.pagemap_fd >= 0)
		close(ip.pagemap_fd);
	close(ip.bitmap_fd);
	zoo_stop(&z, &res);
	alarm(0);
	count_origins(&z, origins, sizeof(origins));
	snprintf(counts, sizeof(counts),
		 "%s pages=%u out_of_reach=%u trials=%u untouched=%lu touched=%lu multi=%lu touches=%lu via_split=%lu via_trimmed=%lu via_moved=%lu via_resized=%lu via_forked=%lu via_plain=%lu drain_rounds=%u elapsed_ms=%ld",
		 origins, NPAGES, ip.nr_out_of_reach, NTRIALS, ic.untouched,
		 ic.touched, ic.multi,
		 ic.touches, ic.via_split, ic.via_trimmed, ic.via_moved,
		 ic.via_resized, ic.via_forked, ic.via_plain, rounds,
		 elapsed_ms(&t0));
	print_result("idle", &res, counts);
	return !res.failed;
}

/* ----------------------------------------------------------------- main */

static void __noreturn usage(void)
{
	fprintf(stderr, "usage: mmapwork [-s SEED] [-q] truncate|idle|all...\n");
	exit(2);
}

static void install_handlers(void)
{
	struct sigaction sa = { 0 };

	probe_install();
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the watchdog must interrupt a blocked read */
	sa.sa_handler = watchdog;
	sa.sa_flags = 0;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int main(int argc, char **argv)
{
	bool run_truncate = false, run_idle = false, ok = true;
	uint64_t seed = 1;
	int opt, i;

	while ((opt = getopt(argc, argv, "s:q")) != -1) {
		switch (opt) {
		case 's':
			if (!guest_option("mmapwork", opt, optarg, 0, UINT64_MAX,
					  &seed))
				usage();
			break;
		case 'q':
			quiet = true;
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		usage();
	for (i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "truncate")) {
			run_truncate = true;
		} else if (!strcmp(argv[i], "idle")) {
			run_idle = true;
		} else if (!strcmp(argv[i], "all")) {
			run_truncate = run_idle = true;
		} else {
			fprintf(stderr, "mmapwork: unknown test \"%s\"\n",
				argv[i]);
			usage();
		}
	}
	page_size = sysconf(_SC_PAGESIZE);
	install_handlers();
	/* orphaned grandchildren come to us, so we reap and judge them too */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
		printf("PT-MMAP %s FAIL prctl(PR_SET_CHILD_SUBREAPER): %s\n",
		       run_truncate ? "truncate" : "idle", strerror(errno));
		return 1;
	}
	if (run_truncate)
		ok &= test_truncate(seed);
	if (run_idle)
		ok &= test_idle(seed);
	return ok ? 0 : 1;
}
