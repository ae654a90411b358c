// SPDX-License-Identifier: GPL-2.0
/*
 * immapbench - time the kernel's address_space->i_mmap queries from
 * inside the QEMU guest, through real syscalls, on the i_mmap shapes of
 * the 2004 seed's benchmarks.
 *
 * Usage:  immapbench [-r REPS] [-t SECONDS] SPEC...
 *
 *   SPEC   test-mmap/LABEL:N:F     one process maps N >= 4 one-page vmas of
 *                                  the file in reverse file order, then
 *                                  forks F children;
 *          rmap-test/LABEL:P:M:S   P children each map the same M windows
 *                                  of S >= 3 pages at overlapping offsets
 *                                  of a file of 2*S pages.
 *   -r     repetitions of each timed operation (default 5).
 *   -t     watchdog for the whole run, in guest seconds (default 600).
 *
 * Each SPEC builds its shape on a fresh tmpfs file in /tmp (every page
 * of it faulted in by every process that maps it), then runs three timed
 * operations, each R times, and prints one line per operation:
 *
 *   PT-BENCH <kind/LABEL> <op> n=<vmas> reps=<R> ns=<total> ns_per_op=<x>
 *
 * n counts the vmas of the file's i_mmap.  The ops:
 *
 *   idle        one write of /sys/kernel/mm/page_idle/bitmap with a bit
 *               set for every page of the file.  Each bit is one
 *               rmap_walk_file(): one stabbing query [pgoff, pgoff] of
 *               i_mmap, then a pte check in every vma returned.
 *               ns_per_op is per page, i.e. per query.
 *   trunc-page  ftruncate() to one page less and back to the full size:
 *               unmap_mapping_range() of the last page, a range query
 *               [last, ULONG_MAX] of i_mmap.  ns_per_op is per pair.
 *   trunc-half  the same, cutting the second half of the file.
 *   mmap        mmap() of the two file pages just below the middle of
 *               the file, a range no vma of the shape has, and munmap():
 *               one i_mmap insert and one remove, MMAP_BATCH times per
 *               repetition.  ns_per_op is per pair.
 *   fork        fork() and reap a child that exits at once, from the
 *               process holding the shape's mappings (the parent of
 *               test-mmap, the first child of rmap-test): dup_mmap()
 *               adds a copy of each of its file vmas to i_mmap next to
 *               the original, and the child's exit takes them out again.
 *               ns_per_op is per fork, exit and wait.
 *
 * Before the timed loops of mmap and fork the guest idles a moment, so
 * that deferred work of the ops before (RCU callbacks) does not land in
 * them.
 *
 * Under "qemu -icount shift=0" the guest clock advances one nanosecond
 * per guest instruction, so every ns figure is an instruction count of
 * the guest (kernel and this program), repeatable from boot to boot.
 *
 * Every measurement checks what it timed; a failed check prints
 * "PT-BENCH <shape> <op> FAIL <expected, found>" and the exit status
 * is 1 (2 for a usage error):
 *   - setup: each process finds exactly its own mappings of the file in
 *     /proc/self/maps (N separate vmas: none merged), and the parent
 *     reads distinct PFNs of all pages in /proc/self/pagemap;
 *   - idle: before timing, every page must read idle right after being
 *     marked (it is on an LRU list, so page_idle reaches it).  Then every
 *     child loads every page it maps, which makes its ptes young again
 *     (each child is woken by a context switch, which flushes its TLB on
 *     this PCID-less guest CPU, so the load really walks the page table).
 *     After the timed writes every page must read idle: had the first
 *     write's rmap walk missed a child's vma, its young pte would survive
 *     and the read-back walk would report the page accessed.  Finally a
 *     child loads its pages of the second half, and some page must then
 *     read accessed (the oracle can fail);
 *   - trunc-*: untimed rounds before and after the timed ones fault
 *     every page from the one below the cut on into every process, cut
 *     the file, and require a load of the first page beyond the cut and
 *     of the last page to raise SIGBUS (a pte left by a missed vma would
 *     still read the old page), and of the page below the cut to
 *     succeed: in the parent and in every child;
 *   - fork: the first child forked, untimed, must find every file vma of
 *     its parent in its own /proc/self/maps; every child must exit 0;
 *   - mmap: untimed rounds before and after the timed ones must see one
 *     more vma of the file in /proc/self/maps (the new one merged with
 *     none) that reads the file's own pages, and none after munmap();
 *   - after fork and mmap, one more truncate round as above proves that
 *     i_mmap still reaches every vma of every process.
 *
 * Build static, it runs in a busybox initramfs:
 *
 *   cc -static -O2 -Wall -Wextra -o immapbench immapbench.c
 *
 * It needs root (PFNs in pagemap, the page_idle bitmap), a tmpfs on /tmp,
 * CONFIG_IDLE_PAGE_TRACKING and CONFIG_PROC_PAGE_MONITOR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
#include <sys/types.h>
#include <sys/wait.h>

#include "guest.h"

#define MAX_CHILDREN	64
#define CALIBRATE_ROUNDS 4
/*
 * "mmap" pairs per repetition: a pair is some 20,000 instructions, short
 * enough for one timer interrupt inside the timed loop to move a median
 * of a few pairs by 10-30%
 */
#define MMAP_BATCH	64
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000	/* Linux 4.17 */
#endif


/* One mapping of the file in one process: pages [pgoff, pgoff + npages). */
struct bench_map {
	char *addr;
	unsigned long pgoff;
	unsigned long npages;
};

/* A command from the parent to one child, on that child's own pipe. */
struct bench_cmd {
	char op;		/* 't' load pages, 'p' probe a cut, 'f' forks */
	unsigned long cut;	/* 't': from page cut on; 'p': EOF at cut */
};

/*
 * A child's answer: 'y' or 'n', then, for 'f' only, the guest ns that
 * its timed forks took.
 */
struct bench_fork_reply {
	char ok;
	uint64_t ns;
};

/* The shape under test; the children get a copy at fork. */
struct bench_shape {
	const char *name;	/* "test-mmap/small", printed as is */
	bool test_mmap;		/* else rmap-test */
	unsigned long n, f;	/* test-mmap: vmas, forks */
	unsigned long p, m, s;	/* rmap-test: processes, windows, pages */
	unsigned long file_pages;
	unsigned long nvmas;	/* vmas in i_mmap, all processes */
	char path[64];
	int fd;
	struct bench_map *maps;	/* this process's mappings */
	unsigned long nmaps;
	unsigned long nchildren;
	pid_t child[MAX_CHILDREN];
	int cmd_fd[MAX_CHILDREN];	/* parent: write end per child */
	int reply_fd;			/* parent: read end, shared */
};

static size_t page_size;
static unsigned int reps = 5;
static const char *current_shape = "-";
static const char *current_op = "setup";

static void __printf(1, 2) __noreturn bench_fail(const char *fmt, ...)
{
	va_list ap;

	printf("PT-BENCH %s %s FAIL ", current_shape, current_op);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	/* the children see EOF on their command pipes and exit */
	exit(1);
}

static void watchdog(int sig)
{
	static const char msg[] =
		"PT-BENCH - - FAIL watchdog: the run exceeded its time limit\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/* Load one word at @addr: 0, or the signal it raised (SIGBUS beyond EOF). */
static int probe_load(const char *addr)
{
	uint64_t value;

	return probe_word((volatile uint64_t *)addr, &value, false);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Let the kernel's deferred work drain before a timed loop: work left by
 * the ops before (RCU callbacks, for one) that ran inside it would count
 * as its instructions.  An idle guest's clock jumps to its next timer
 * under -icount, so the wait costs no instructions and little host time.
 */
static void settle(void)
{
	usleep(100 * 1000);
}

static void report(const struct bench_shape *sh, const char *op,
		   uint64_t ns, unsigned long ops)
{
	printf("PT-BENCH %s %s n=%lu reps=%u ns=%llu ns_per_op=%.1f\n",
	       sh->name, op, sh->nvmas, reps, (unsigned long long)ns,
	       (double)ns / ops);
	fflush(stdout);
}

/* The address of page @pgoff in this process's mappings, or NULL. */
static char *page_addr(const struct bench_shape *sh, unsigned long pgoff)
{
	unsigned long i;

	for (i = 0; i < sh->nmaps; i++) {
		const struct bench_map *bm = &sh->maps[i];

		if (pgoff >= bm->pgoff && pgoff - bm->pgoff < bm->npages)
			return bm->addr + (pgoff - bm->pgoff) * page_size;
	}
	return NULL;
}

/* Load every page from file page @from on, in every mapping here. */
static void touch_from(const struct bench_shape *sh, unsigned long from)
{
	const struct bench_map *bm;
	unsigned long i, pg;

	for (i = 0; i < sh->nmaps; i++) {
		bm = &sh->maps[i];
		for (pg = 0; pg < bm->npages; pg++)
			if (bm->pgoff + pg >= from)
				(void)*(volatile const unsigned long *)
					(bm->addr + pg * page_size);
	}
}

/* How many lines of /proc/self/maps name the file: its vmas here. */
static long count_file_vmas(const struct bench_shape *sh)
{
	char *line = NULL;
	size_t cap = 0, plen = strlen(sh->path);
	long count = 0;
	ssize_t len;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len >= plen &&
		    !strcmp(line + len - plen, sh->path))
			count++;
	}
	free(line);
	fclose(f);
	return count;
}

/*
 * Probe a cut at page @cut from this process: the first page beyond EOF
 * and the last page of the file must raise SIGBUS, the last page below
 * the cut must load.  Pages this process does not map are skipped.
 * Returns NULL or what went wrong.
 */
static const char *probe_cut(const struct bench_shape *sh, unsigned long cut,
			     char *why, size_t len)
{
	unsigned long beyond[2] = { cut, sh->file_pages - 1 };
	char *addr;
	int i, sig;

	for (i = 0; i < 2; i++) {
		addr = page_addr(sh, beyond[i]);
		if (!addr)
			continue;
		sig = probe_load(addr);
		if (sig != SIGBUS) {
			snprintf(why, len,
				 "page %lu beyond EOF (%lu pages): %s, expected SIGBUS: truncate's i_mmap query missed a vma",
				 beyond[i], cut,
				 sig ? strsignal(sig) : "load succeeded");
			return why;
		}
	}
	addr = cut ? page_addr(sh, cut - 1) : NULL;
	sig = addr ? probe_load(addr) : 0;
	if (sig) {
		snprintf(why, len, "page %lu below EOF (%lu pages): %s, expected a load",
			 cut - 1, cut, strsignal(sig));
		return why;
	}
	return NULL;
}

/* Reap @pid; true if it exited with status 0. */
static bool reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/*
 * Fork @count children that exit at once, one after another, from this
 * process, which holds the shape's mappings; *@ns gets the guest ns from
 * the first fork to the last reap.  An untimed fork first checks that a
 * child sees every file vma of this process.  Returns NULL or what went
 * wrong.
 */
static const char *time_forks(const struct bench_shape *sh,
			      unsigned int count, uint64_t *ns)
{
	unsigned int i;
	uint64_t t0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return "fork failed";
	if (!pid)
		_exit(count_file_vmas(sh) == (long)sh->nmaps ? 0 : 1);
	if (!reap(pid))
		return "a forked child did not find every file vma of its parent in /proc/self/maps";

	settle();
	t0 = now_ns();
	for (i = 0; i < count; i++) {
		pid = fork();
		if (pid < 0)
			return "fork failed";
		if (!pid)
			_exit(0);
		if (!reap(pid))
			return "a forked child did not exit with status 0";
	}
	*ns = now_ns() - t0;
	return NULL;
}

/*
 * A child: map the shape (rmap-test) or keep the inherited mappings
 * (test-mmap), load every page, check /proc/self/maps, say 'y' or 'n',
 * then serve the parent's commands until its pipe closes.
 */
static void __noreturn child_main(struct bench_shape *sh, int cmd_fd,
				  int reply_fd)
{
	struct bench_cmd cmd;
	char why[200], ok = 'y';
	unsigned long w;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!sh->test_mmap) {
		for (w = 0; w < sh->nmaps; w++) {
			struct bench_map *bm = &sh->maps[w];

			bm->addr = mmap(NULL, bm->npages * page_size,
					PROT_READ, MAP_SHARED, sh->fd,
					bm->pgoff * page_size);
			if (bm->addr == MAP_FAILED)
				ok = 'n';
		}
	}
	if (ok == 'y') {
		touch_from(sh, 0);
		if (count_file_vmas(sh) != (long)sh->nmaps)
			ok = 'n';
	}
	if (write(reply_fd, &ok, 1) != 1)
		_exit(1);
	while (read(cmd_fd, &cmd, sizeof(cmd)) == sizeof(cmd)) {
		struct bench_fork_reply fr = { .ok = 'y' };

		ok = 'y';
		if (cmd.op == 'f') {
			if (time_forks(sh, reps, &fr.ns))
				fr.ok = 'n';
			if (write(reply_fd, &fr, sizeof(fr)) != sizeof(fr))
				_exit(1);
			continue;
		}
		if (cmd.op == 't')
			touch_from(sh, cmd.cut);
		else if (cmd.op == 'p' && probe_cut(sh, cmd.cut, why,
						    sizeof(why)))
			ok = 'n';
		if (write(reply_fd, &ok, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/*
 * Send @cmd to child @i and read its answer, @size bytes, into @reply.
 * Both fit in a pipe's atomic write (PIPE_BUF), so each arrives whole.
 */
static void child_exchange(struct bench_shape *sh, unsigned long i,
			   const struct bench_cmd *cmd, void *reply,
			   size_t size)
{
	if (write(sh->cmd_fd[i], cmd, sizeof(*cmd)) != sizeof(*cmd))
		bench_fail("write to child %lu: %s", i, strerror(errno));
	if (read(sh->reply_fd, reply, size) != (ssize_t)size)
		bench_fail("child %lu did not answer '%c'", i, cmd->op);
}

/* Send @op to child @i; true if it answered 'y'. */
static bool ask_child(struct bench_shape *sh, unsigned long i, char op,
		      unsigned long cut)
{
	struct bench_cmd cmd = { .op = op, .cut = cut };
	char ok;

	child_exchange(sh, i, &cmd, &ok, sizeof(ok));
	return ok == 'y';
}

static void fork_children(struct bench_shape *sh, unsigned long count)
{
	int reply[2], cmd[2];
	unsigned long i;
	char ok;

	if (pipe(reply))
		bench_fail("pipe: %s", strerror(errno));
	for (i = 0; i < count; i++) {
		if (pipe(cmd))
			bench_fail("pipe: %s", strerror(errno));
		fflush(stdout);
		sh->child[i] = fork();
		if (sh->child[i] < 0)
			bench_fail("fork child %lu: %s", i, strerror(errno));
		if (!sh->child[i]) {
			unsigned long j;

			/* a child holds no write end but the reply pipe's */
			for (j = 0; j < i; j++)
				close(sh->cmd_fd[j]);
			close(cmd[1]);
			close(reply[0]);
			child_main(sh, cmd[0], reply[1]);
		}
		close(cmd[0]);
		sh->cmd_fd[i] = cmd[1];
	}
	close(reply[1]);
	sh->reply_fd = reply[0];
	sh->nchildren = count;
	for (i = 0; i < count; i++) {
		if (read(sh->reply_fd, &ok, 1) != 1)
			bench_fail("child died during setup");
		if (ok != 'y')
			bench_fail("a child could not map its windows, or /proc/self/maps did not show them as separate vmas");
	}
}

static void end_children(struct bench_shape *sh)
{
	unsigned long i;
	int status;

	for (i = 0; i < sh->nchildren; i++)
		close(sh->cmd_fd[i]);
	close(sh->reply_fd);
	for (i = 0; i < sh->nchildren; i++) {
		if (waitpid(sh->child[i], &status, 0) < 0)
			bench_fail("waitpid: %s", strerror(errno));
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bench_fail("child %lu ended with status %#x", i, status);
	}
	sh->nchildren = 0;
}

/* Create the file: every page written, so it is in the page cache. */
static void make_file(struct bench_shape *sh)
{
	unsigned long pg;
	char *buf;

	snprintf(sh->path, sizeof(sh->path), "/tmp/pt-immapbench.%d",
		 (int)getpid());
	sh->fd = open(sh->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (sh->fd < 0)
		bench_fail("open %s: %s", sh->path, strerror(errno));
	buf = calloc(1, page_size);
	if (!buf)
		bench_fail("calloc: %s", strerror(errno));
	for (pg = 0; pg < sh->file_pages; pg++) {
		memcpy(buf, &pg, sizeof(pg));
		if (pwrite(sh->fd, buf, page_size, (off_t)pg * page_size) !=
		    (ssize_t)page_size)
			bench_fail("pwrite %s: %s", sh->path, strerror(errno));
	}
	free(buf);
}

/*
 * test-mmap: N one-page vmas, page i at base + (N - 1 - i) pages.  In
 * reverse file order no two neighbours can merge (the higher one would
 * need the next pgoff), so i_mmap gets N distinct ranges; each of the F
 * children then adds a copy of every vma beside its parent's.
 */
static void setup_test_mmap(struct bench_shape *sh)
{
	unsigned long i;
	char *base;

	sh->file_pages = sh->n;
	make_file(sh);
	sh->maps = calloc(sh->n, sizeof(*sh->maps));
	if (!sh->maps)
		bench_fail("calloc: %s", strerror(errno));
	base = mmap(NULL, sh->n * page_size, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		bench_fail("reserve %lu pages: %s", sh->n, strerror(errno));
	for (i = 0; i < sh->n; i++) {
		struct bench_map *bm = &sh->maps[i];

		bm->pgoff = i;
		bm->npages = 1;
		bm->addr = mmap(base + (sh->n - 1 - i) * page_size, page_size,
				PROT_READ, MAP_SHARED | MAP_FIXED, sh->fd,
				i * page_size);
		if (bm->addr == MAP_FAILED)
			bench_fail("mmap page %lu: %s", i, strerror(errno));
	}
	sh->nmaps = sh->n;
	touch_from(sh, 0);
	if (count_file_vmas(sh) != (long)sh->n)
		bench_fail("/proc/self/maps shows %ld vmas of %s, expected %lu separate ones",
			   count_file_vmas(sh), sh->path, sh->n);
	sh->nvmas = sh->n * (sh->f + 1);
	fork_children(sh, sh->f);
}

/*
 * rmap-test: window w starts at a fixed pseudo-random page of the first
 * half of a 2*S page file, so the windows overlap in many ways and some
 * coincide.  The parent maps the whole file once (it reads the PFNs and
 * probes the cuts); the P children map the M windows each.
 */
static void setup_rmap_test(struct bench_shape *sh)
{
	struct bench_map *whole;
	unsigned long w, x = 12345;

	sh->file_pages = 2 * sh->s;
	make_file(sh);
	sh->maps = calloc(sh->m, sizeof(*sh->maps));
	whole = calloc(1, sizeof(*whole));
	if (!sh->maps || !whole)
		bench_fail("calloc: %s", strerror(errno));
	for (w = 0; w < sh->m; w++) {
		/* a fixed LCG: the same windows on every boot */
		x = x * 1103515245 + 12345;
		sh->maps[w].pgoff = (x >> 16) % (sh->s + 1);
		sh->maps[w].npages = sh->s;
	}
	sh->nmaps = sh->m;
	sh->nvmas = sh->p * sh->m + 1;
	fork_children(sh, sh->p);

	/* from here on the parent's table is its one whole-file mapping */
	whole->pgoff = 0;
	whole->npages = sh->file_pages;
	whole->addr = mmap(NULL, sh->file_pages * page_size, PROT_READ,
			   MAP_SHARED, sh->fd, 0);
	if (whole->addr == MAP_FAILED)
		bench_fail("mmap the file: %s", strerror(errno));
	free(sh->maps);
	sh->maps = whole;
	sh->nmaps = 1;
	touch_from(sh, 0);
	if (count_file_vmas(sh) != 1)
		bench_fail("/proc/self/maps shows %ld vmas of %s, expected 1",
			   count_file_vmas(sh), sh->path);
}

/* The file's PFNs through the parent's own mappings (all faulted in). */
static uint64_t *read_pfns(struct bench_shape *sh)
{
	uint64_t *pfn, entry;
	unsigned long pg, i;
	int fd;

	pfn = calloc(sh->file_pages, sizeof(*pfn));
	if (!pfn)
		bench_fail("calloc: %s", strerror(errno));
	fd = open(pagemap_path, O_RDONLY);
	if (fd < 0)
		bench_fail("open %s: %s", pagemap_path, strerror(errno));
	for (pg = 0; pg < sh->file_pages; pg++) {
		if (pagemap_entry(fd, page_addr(sh, pg), page_size, &entry))
			bench_fail("pread %s: %s", pagemap_path,
				   strerror(errno));
		pfn[pg] = entry & PFN_MASK;
		if (!(entry & PAGE_PRESENT) || !pfn[pg])
			bench_fail("%s: page %lu not present or PFN 0 (need root)",
				   pagemap_path, pg);
	}
	close(fd);
	/* distinct PFNs, or the bitmap would walk some page twice */
	for (pg = 0; pg < sh->file_pages; pg++)
		for (i = pg + 1; i < sh->file_pages &&
			    i < pg + 64; i++)
			if (pfn[i] == pfn[pg])
				bench_fail("pages %lu and %lu share PFN %#llx",
					   pg, i, (unsigned long long)pfn[pg]);
	return pfn;
}

/* The bitmap words [first, first + nwords) with a bit per file page. */
struct idle_bitmap {
	uint64_t first, nwords;
	uint64_t *words;
	uint64_t *readback;
	int fd;
};

/* Move words [@from, @from + @count) of the range, between @buf and sysfs. */
static void bitmap_io(struct idle_bitmap *ib, uint64_t *buf, uint64_t from,
		      uint64_t count, bool write_it)
{
	size_t done = 0, len = count * 8;
	char *p = (char *)(buf + from);
	ssize_t r;

	/* sysfs moves at most a page per call */
	while (done < len) {
		off_t off = (off_t)((ib->first + from) * 8 + done);

		if (write_it)
			r = pwrite(ib->fd, p + done, len - done, off);
		else
			r = pread(ib->fd, p + done, len - done, off);
		/*
		 * 0: the kernel moves whole 64-bit words only, so the last
		 * word of a max_pfn that is no multiple of 64 stays out of
		 * reach (boot with mem= a multiple of 256 KiB).
		 */
		if (r <= 0)
			bench_fail("%s %s at byte %lld: %s",
				   write_it ? "write" : "read",
				   idle_bitmap_path, (long long)off,
				   r ? strerror(errno) : "end of the bitmap: a file page lies in the partial last word above max_pfn rounded down to 64 pages");
		done += r;
	}
}

/*
 * Mark every file page idle: one write per run of consecutive words
 * that hold file pages.  The kernel tests every bit of what it is
 * given, so writing the zero words between scattered pages too would
 * add the same cost to both kernels and blur the comparison.
 */
static void mark_idle(struct idle_bitmap *ib)
{
	uint64_t w = 0, end;

	while (w < ib->nwords) {
		if (!ib->words[w]) {
			w++;
			continue;
		}
		for (end = w + 1; end < ib->nwords && ib->words[end]; end++)
			;
		bitmap_io(ib, ib->words, w, end - w, true);
		w = end;
	}
}

/* Pages that read accessed (not idle) in a fresh read of the bitmap. */
static unsigned long count_accessed(struct idle_bitmap *ib,
				    const uint64_t *pfn, unsigned long npages,
				    unsigned long *first)
{
	unsigned long pg, accessed = 0;

	bitmap_io(ib, ib->readback, 0, ib->nwords, false);
	for (pg = 0; pg < npages; pg++) {
		uint64_t bit = pfn[pg] - ib->first * 64;

		if (!(ib->readback[bit / 64] >> (bit % 64) & 1)) {
			if (!accessed++)
				*first = pg;
		}
	}
	return accessed;
}

/* lru_add_drain(): pages still in a per-CPU batch are on no LRU list. */
static void drain_lru(void)
{
	void *scratch = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (scratch == MAP_FAILED)
		bench_fail("mmap scratch page: %s", strerror(errno));
	if (!mlock(scratch, page_size))
		munlock(scratch, page_size);
	munmap(scratch, page_size);
}

static void bench_idle(struct bench_shape *sh)
{
	struct idle_bitmap ib;
	unsigned long pg, i, accessed = 0, first = 0;
	uint64_t *pfn, lo, hi, t0, ns;
	unsigned int r;

	current_op = "idle";
	pfn = read_pfns(sh);
	lo = hi = pfn[0];
	for (pg = 1; pg < sh->file_pages; pg++) {
		lo = pfn[pg] < lo ? pfn[pg] : lo;
		hi = pfn[pg] > hi ? pfn[pg] : hi;
	}
	ib.first = lo / 64;
	ib.nwords = hi / 64 - ib.first + 1;
	ib.words = calloc(ib.nwords, 8);
	ib.readback = calloc(ib.nwords, 8);
	if (!ib.words || !ib.readback)
		bench_fail("calloc: %s", strerror(errno));
	for (pg = 0; pg < sh->file_pages; pg++) {
		uint64_t bit = pfn[pg] - ib.first * 64;

		ib.words[bit / 64] |= 1ULL << (bit % 64);
	}
	ib.fd = open(idle_bitmap_path, O_RDWR);
	if (ib.fd < 0)
		bench_fail("open %s: %s", idle_bitmap_path, strerror(errno));

	/* every page must be reachable by page_idle: on an LRU list */
	for (i = 0; i < CALIBRATE_ROUNDS; i++) {
		drain_lru();
		mark_idle(&ib);
		accessed = count_accessed(&ib, pfn, sh->file_pages, &first);
		if (!accessed)
			break;
	}
	if (accessed)
		bench_fail("%lu pages (first: page %lu, pfn %#llx) read accessed right after being marked idle, %u drain rounds",
			   accessed, first, (unsigned long long)pfn[first],
			   CALIBRATE_ROUNDS);

	/* young ptes in every child vma, for the first timed walk to clear */
	for (i = 0; i < sh->nchildren; i++)
		if (!ask_child(sh, i, 't', 0))
			bench_fail("child %lu could not load its pages", i);

	t0 = now_ns();
	for (r = 0; r < reps; r++)
		mark_idle(&ib);
	ns = now_ns() - t0;

	accessed = count_accessed(&ib, pfn, sh->file_pages, &first);
	if (accessed)
		bench_fail("%lu pages (first: page %lu) read accessed after the timed writes: their rmap walks missed a young pte of a child's vma",
			   accessed, first);
	if (sh->nchildren) {
		/*
		 * The oracle must be able to say "accessed".  Every mapping
		 * reaches the middle of the file (an rmap-test window ends
		 * at page S - 1 or later), so the child loads something.
		 */
		if (!ask_child(sh, sh->nchildren - 1, 't',
			       sh->file_pages / 2 - 1))
			bench_fail("child could not load its pages");
		accessed = count_accessed(&ib, pfn, sh->file_pages, &first);
		if (!accessed)
			bench_fail("no page reads accessed after a child loaded its second half: the read-back oracle is blind");
	}
	report(sh, "idle", ns, (unsigned long)reps * sh->file_pages);
	close(ib.fd);
	free(ib.words);
	free(ib.readback);
	free(pfn);
}

static void set_size(struct bench_shape *sh, unsigned long pages)
{
	if (ftruncate(sh->fd, (off_t)pages * page_size))
		bench_fail("ftruncate %s to %lu pages: %s", sh->path, pages,
			   strerror(errno));
}

/*
 * An untimed round: fault the pages from @cut - 1 on back in, in every
 * process, cut, probe in the parent and in every child, and restore the
 * size.
 */
static void check_cut(struct bench_shape *sh, unsigned long cut)
{
	char why[200];
	unsigned long i;

	touch_from(sh, cut - 1);
	for (i = 0; i < sh->nchildren; i++)
		if (!ask_child(sh, i, 't', cut - 1))
			bench_fail("child %lu could not load its pages", i);
	set_size(sh, cut);
	if (probe_cut(sh, cut, why, sizeof(why)))
		bench_fail("parent: %s", why);
	for (i = 0; i < sh->nchildren; i++)
		if (!ask_child(sh, i, 'p', cut))
			bench_fail("child %lu: a page beyond EOF (%lu pages) did not raise SIGBUS, or one below it did: truncate's i_mmap query missed a vma",
				   i, cut);
	set_size(sh, sh->file_pages);
}

static void bench_truncate(struct bench_shape *sh, const char *op,
			   unsigned long cut)
{
	uint64_t t0, ns;
	unsigned int r;

	current_op = op;
	check_cut(sh, cut);
	t0 = now_ns();
	for (r = 0; r < reps; r++) {
		set_size(sh, cut);
		set_size(sh, sh->file_pages);
	}
	ns = now_ns() - t0;
	check_cut(sh, cut);
	report(sh, op, ns, reps);
}

static void bench_fork(struct bench_shape *sh)
{
	struct bench_cmd cmd = { .op = 'f' };
	struct bench_fork_reply fr;
	const char *why;
	uint64_t ns;

	current_op = "fork";
	if (sh->test_mmap) {
		why = time_forks(sh, reps, &ns);
		if (why)
			bench_fail("%s", why);
	} else {
		/* the windows are the children's: the first one forks */
		child_exchange(sh, 0, &cmd, &fr, sizeof(fr));
		if (fr.ok != 'y')
			bench_fail("child 0: a child it forked did not see all its file vmas, or did not exit 0");
		ns = fr.ns;
	}
	report(sh, "fork", ns, reps);
}

/*
 * Map file pages [@pgoff, @pgoff + 1] into @hole (two pages with an
 * anonymous PROT_NONE vma on either side, which no file vma merges with)
 * and unmap them, @count times; if @check, also prove the mapping was a
 * new vma of the file that reads the file's pages.
 */
static void map_unmap(struct bench_shape *sh, char *hole, unsigned long pgoff,
		      unsigned int count, bool check)
{
	const unsigned long *word;
	unsigned int i;
	unsigned long pg;
	long vmas;
	char *addr;

	for (i = 0; i < count; i++) {
		addr = mmap(hole, 2 * page_size, PROT_READ,
			    MAP_SHARED | MAP_FIXED_NOREPLACE, sh->fd,
			    (off_t)pgoff * page_size);
		if (addr != hole)
			bench_fail("mmap 2 pages at page %lu: %s", pgoff,
				   addr == MAP_FAILED ? strerror(errno) :
				   "not at the hole");
		if (check) {
			vmas = count_file_vmas(sh);
			if (vmas != (long)sh->nmaps + 1)
				bench_fail("/proc/self/maps shows %ld vmas of %s with the new mapping, expected %lu",
					   vmas, sh->path, sh->nmaps + 1);
			/* make_file() wrote each page's number at its start */
			for (pg = 0; pg < 2; pg++) {
				word = (const unsigned long *)
					(addr + pg * page_size);
				if (*word != pgoff + pg)
					bench_fail("the new mapping's page %lu reads %lu, expected file page %lu",
						   pg, *word, pgoff + pg);
			}
		}
		if (munmap(addr, 2 * page_size))
			bench_fail("munmap: %s", strerror(errno));
	}
	if (check && count_file_vmas(sh) != (long)sh->nmaps)
		bench_fail("/proc/self/maps shows %ld vmas of %s after munmap, expected %lu",
			   count_file_vmas(sh), sh->path, sh->nmaps);
}

static void bench_mmap(struct bench_shape *sh)
{
	/*
	 * test-mmap vmas map one page each, rmap-test windows S >= 3 pages;
	 * below the trunc-half cut, so the pages still hold what make_file()
	 * wrote (a cut zeroes what lies beyond it)
	 */
	unsigned long pgoff = sh->file_pages / 2 - 2;
	char *reserve;
	uint64_t t0, ns;

	current_op = "mmap";
	reserve = mmap(NULL, 4 * page_size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (reserve == MAP_FAILED)
		bench_fail("reserve 4 pages: %s", strerror(errno));
	if (munmap(reserve + page_size, 2 * page_size))
		bench_fail("munmap: %s", strerror(errno));

	map_unmap(sh, reserve + page_size, pgoff, 1, true);
	settle();
	t0 = now_ns();
	map_unmap(sh, reserve + page_size, pgoff, reps * MMAP_BATCH, false);
	ns = now_ns() - t0;
	map_unmap(sh, reserve + page_size, pgoff, 1, true);
	report(sh, "mmap", ns, reps * MMAP_BATCH);
	munmap(reserve, 4 * page_size);
}

/*
 * Unmap the parent's mappings of the file.  The children of the next
 * shapes are forked from the parent, and a fork copies every vma: left
 * mapped, this shape's vmas would be copied into them and add to what
 * their "fork" measures, and i_mmap inserts into this file's tree.
 */
static void unmap_shape(struct bench_shape *sh)
{
	char *start = sh->maps[0].addr;
	size_t pages = sh->maps[0].npages;
	long left;

	/* test-mmap's pages lie in reverse file order, back to back */
	if (sh->test_mmap) {
		start = sh->maps[sh->nmaps - 1].addr;
		pages = sh->nmaps;
	}
	if (munmap(start, pages * page_size))
		bench_fail("munmap the parent's mappings: %s", strerror(errno));
	left = count_file_vmas(sh);
	if (left)
		bench_fail("/proc/self/maps still shows %ld vmas of %s after munmap",
			   left, sh->path);
	free(sh->maps);
	sh->maps = NULL;
	sh->nmaps = 0;
}

static void run_shape(struct bench_shape *sh)
{
	current_shape = sh->name;
	current_op = "setup";
	if (sh->test_mmap)
		setup_test_mmap(sh);
	else
		setup_rmap_test(sh);
	bench_idle(sh);
	bench_truncate(sh, "trunc-page", sh->file_pages - 1);
	bench_truncate(sh, "trunc-half", sh->file_pages / 2);
	bench_mmap(sh);
	bench_fork(sh);
	/* fork and mmap changed i_mmap: every vma must still be reached */
	current_op = "recheck";
	check_cut(sh, sh->file_pages / 2);
	current_op = "teardown";
	end_children(sh);
	unmap_shape(sh);
	close(sh->fd);
	unlink(sh->path);
}

static void __noreturn usage(void)
{
	fprintf(stderr,
		"usage: immapbench [-r REPS] [-t SECONDS] SPEC...\n"
		"  SPEC: test-mmap/LABEL:N:F or rmap-test/LABEL:P:M:S\n");
	exit(2);
}

/* Parse "kind/label:a:b[:c]" into @sh; the name stays "kind/label". */
static bool parse_spec(char *spec, struct bench_shape *sh)
{
	unsigned long v[3];
	char *colon = strchr(spec, ':'), *end;
	int i, want;

	if (!colon)
		return false;
	memset(sh, 0, sizeof(*sh));
	sh->name = spec;
	if (!strncmp(spec, "test-mmap/", 10)) {
		sh->test_mmap = true;
		want = 2;
	} else if (!strncmp(spec, "rmap-test/", 10)) {
		want = 3;
	} else {
		return false;
	}
	end = colon;
	for (i = 0; i < want; i++) {
		if (*end != ':')
			return false;
		v[i] = strtoul(end + 1, &end, 10);
		if (!v[i])
			return false;
	}
	if (*end)
		return false;
	*colon = '\0';
	if (sh->test_mmap) {
		sh->n = v[0];
		sh->f = v[1];
		/* N >= 4: "mmap" maps pages N/2 - 2 and N/2 - 1 */
		return sh->n >= 4 && sh->f <= MAX_CHILDREN;
	}
	sh->p = v[0];
	sh->m = v[1];
	sh->s = v[2];
	/* S >= 3: no window is the two-page range that "mmap" maps */
	return sh->p <= MAX_CHILDREN && sh->s >= 3;
}

int main(int argc, char **argv)
{
	struct bench_shape *shapes;
	unsigned int timeout = 600;
	int opt, i;

	while ((opt = getopt(argc, argv, "r:t:")) != -1) {
		if (opt == 'r')
			reps = strtoul(optarg, NULL, 10);
		else if (opt == 't')
			timeout = strtoul(optarg, NULL, 10);
		else
			usage();
	}
	if (optind == argc || !reps || !timeout)
		usage();
	shapes = calloc(argc - optind, sizeof(*shapes));
	if (!shapes)
		return 1;
	for (i = optind; i < argc; i++) {
		if (!parse_spec(argv[i], &shapes[i - optind])) {
			fprintf(stderr, "immapbench: bad SPEC %s\n", argv[i]);
			usage();
		}
	}
	page_size = sysconf(_SC_PAGESIZE);
	signal(SIGALRM, watchdog);
	probe_install();
	alarm(timeout);
	for (i = 0; i < argc - optind; i++)
		run_shape(&shapes[i]);
	alarm(0);
	printf("PT-BENCH-DONE %d shapes\n", argc - optind);
	return 0;
}
