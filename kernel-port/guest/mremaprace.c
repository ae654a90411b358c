// SPDX-License-Identifier: GPL-2.0
/*
 * mremaprace.c - provoke, on purpose, the one race that patch 0004's
 * change to copy_vma() closes, and detect the pte it leaves behind.
 *
 *   mremaprace [-t SECONDS] [-n MAPPINGS] [-p PAGES] TMPDIR
 *
 * 6.1's mremap() moves a file vma's ptes without i_mmap_rwsem when the
 * destination vma is new, trusting that every rmap walk meets the source
 * before the destination.  On the prio tree, the destination of a
 * grow-and-move of a tail (file pages [4, PAGES + 3] from a vma of
 * [0, PAGES - 1]) has the higher last page and is visited first.  A
 * walk that visits the destination before a pte moves, and the source
 * after it left, misses that pte.
 *
 * copy_vma() inserts the destination under i_mmap_rwsem, so the walk
 * must begin after that and before move_page_tables() reaches the pte,
 * and the pte must move before the walk reaches the source.  Both
 * windows are made wide:
 *
 *  - the mover's source maps PAGES (default 4096) pages, all populated,
 *    and its destination is placed so that no pmd can move whole: the
 *    pte moves walk the range in order for milliseconds, and the target
 *    pages, the last TARGETS of the source, move last;
 *  - this process (the migrator) maps the same PAGES pages MAPPINGS times
 *    (default 128) and loads the target pages in each, so the tree node
 *    of the source's range carries a vm_set of MAPPINGS vmas that every
 *    walk of a target page crosses, the mover's source vma last (it
 *    joins the vm_set last).
 *
 * The mover, pinned to the other CPU, loops: mmap the PAGES pages with
 * MAP_POPULATE; mremap the tail, grown by 8 pages, to a fixed place; load
 * the target pages through the destination and check their tags; unmap.
 * The migrator moves the target pages between the two NUMA nodes with
 * move_pages(MPOL_MF_MOVE_ALL) in a loop.  Each migration ends in
 * remove_migration_ptes(), a walk of the destination first, the vm_set
 * next, the mover's source last.  A migration entry that mremap moves
 * during that walk stays in the destination after the migration, and the
 * mover's load through it refaults for ever (6.1 retries the fault as
 * long as the entry stays): the migrator's watchdog sees the mover's
 * iteration count stop and names the iteration and step.  A pte left
 * pointing at the old page would read a wrong tag instead.
 *
 * With the fix, move_ptes() takes i_mmap_rwsem and waits the walk out;
 * on the rbtree the source (pgoff 0) comes first.  Either way: no hang.
 *
 * Prints "PT-STRESS mremap ok iterations=N migrations=M pages_moved=K"
 * or "PT-STRESS mremap FAIL <what>".  Needs root (MPOL_MF_MOVE_ALL) and
 * two NUMA nodes (numa=fake=2).  Static, for the busybox initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#ifndef MPOL_MF_MOVE_ALL
#define MPOL_MF_MOVE_ALL	(1 << 2)
#endif

#define MOVED_FIRST	4	/* the tail mremap moves starts at page 4 */
#define GROW		8	/* and grows by 8 pages */
#define TARGETS		8	/* the last pages of the source migrate */
#define PMD_PAGES	512	/* x86-64: pages a pte table maps */
#define STUCK_SECONDS	10

/* The mover's steps, for the watchdog's report. */
enum step { S_MAP, S_LOAD_P, S_MREMAP, S_LOAD_Q, S_UNMAP, NSTEP };
static const char *const step_name[NSTEP] = {
	"mmap of the source", "loads through the source", "mremap",
	"loads through the destination", "unmap",
};

/* What mover and migrator share (MAP_SHARED anonymous). */
struct shared {
	volatile long iterations;
	volatile int step;
	volatile int stop;
	volatile int failed;
	char fail[300];
};

static struct shared *sh;
static long ps;
static long npages = 4096;	/* the source's pages, -p */

/* The first target page: the targets are the source's last pages. */
static long first_target(void)
{
	return npages - TARGETS;
}

/* The word at the start of file page @idx. */
static uint64_t tag(long idx)
{
	return 0x50542d4d52000000ULL | (uint64_t)idx;
}

/* The watchdog's verdict: the mover has not finished @last_it + 1. */
static void stuck(long last_it)
{
	snprintf(sh->fail, sizeof(sh->fail),
		 "the mover is stuck in iteration %ld (%s) for %d s: a migration entry that remove_migration_ptes() missed",
		 last_it + 1, step_name[sh->step], STUCK_SECONDS);
	sh->failed = 1;
}

/* Record the first failure; the migrator prints it. */
static void failf(const char *what, long iteration, long page, uint64_t got)
{
	if (__atomic_exchange_n(&sh->failed, 1, __ATOMIC_SEQ_CST))
		return;
	snprintf(sh->fail, sizeof(sh->fail),
		 "iteration %ld: %s, file page %ld: read %#llx, expected %#llx",
		 iteration, what, page, (unsigned long long)got,
		 (unsigned long long)(page >= 0 ? tag(page) : 0));
}

static void __attribute__((noreturn)) mover(int fd)
{
	/*
	 * The destination starts Q_GAP pages after the source: not a whole
	 * number of pte tables from the moved tail, so move_page_tables()
	 * moves every pte one by one (no move_normal_pmd()).
	 */
	const long q_gap = npages + PMD_PAGES + 64;
	const long region_pages = q_gap + npages + GROW;
	char *region, *p, *q;
	long i, it;
	uint64_t v;

	guest_pin(1);
	region = mmap(NULL, region_pages * ps, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		failf("cannot reserve the mover's region", 0, -1, 0);
		_exit(1);
	}
	for (it = 0; !sh->stop; it++) {
		sh->step = S_MAP;
		p = mmap(region, npages * ps, PROT_READ,
			 MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd, 0);
		if (p == MAP_FAILED) {
			failf("mmap of the source failed", it, -1, 0);
			_exit(1);
		}
		sh->step = S_LOAD_P;
		for (i = first_target(); i < npages; i++) {
			v = *(volatile uint64_t *)(p + i * ps);
			if (v != tag(i)) {
				failf("a load through the source", it, i, v);
				_exit(1);
			}
		}
		/*
		 * The reservation right after p keeps mremap from growing in
		 * place: it must copy_vma() a new destination and move ptes.
		 */
		sh->step = S_MREMAP;
		q = mremap(p + MOVED_FIRST * ps, (npages - MOVED_FIRST) * ps,
			   (npages - MOVED_FIRST + GROW) * ps,
			   MREMAP_MAYMOVE | MREMAP_FIXED, region + q_gap * ps);
		if (q == MAP_FAILED) {
			failf("mremap of the tail failed", it, -1, 0);
			_exit(1);
		}
		sh->step = S_LOAD_Q;
		for (i = first_target(); i < npages; i++) {
			v = *(volatile uint64_t *)(q + (i - MOVED_FIRST) * ps);
			if (v != tag(i)) {
				failf("a load through the destination (a stale pte?)",
				      it, i, v);
				_exit(1);
			}
		}
		sh->step = S_UNMAP;
		/* one PROT_NONE reservation again, p and q gone */
		if (mmap(region, region_pages * ps, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED) {
			failf("cannot reset the mover's region", it, -1, 0);
			_exit(1);
		}
		sh->iterations = it + 1;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	long mappings = 128, migrations = 0, moved = 0, last_it = -1, i, m;
	double secs = 8, end, stuck_since;
	void *addr[TARGETS];
	int node[TARGETS], status[TARGETS];
	char path[256], **maps, *page;
	int opt, fd, wstatus, to = 1;
	pid_t pid;
	bool ok = true;

	while ((opt = getopt(argc, argv, "t:n:p:")) != -1) {
		uint64_t v = 0;	/* kept only when good */
		bool good;

		switch (opt) {
		case 't':
			good = guest_option("mremaprace", opt, optarg,
					    1, 3600, &v);
			secs = (double)v;
			break;
		case 'n':
			good = guest_option("mremaprace", opt, optarg,
					    1, 4096, &v);
			mappings = (long)v;
			break;
		case 'p':
			good = guest_option("mremaprace", opt, optarg,
					    2 * TARGETS, 65536, &v);
			npages = (long)v;
			break;
		default:
			good = false;
		}
		if (!good) {
			fprintf(stderr, "usage: mremaprace [-t 1..3600] [-n 1..4096] [-p %d..65536] TMPDIR\n",
				2 * TARGETS);
			return 2;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: mremaprace [-t 1..3600] [-n 1..4096] [-p %d..65536] TMPDIR\n",
			2 * TARGETS);
		return 2;
	}
	if (guest_nnodes() < 2) {
		printf("PT-STRESS mremap FAIL cannot run: %d NUMA node(s), need 2 (numa=fake=2)\n",
		       guest_nnodes());
		return 1;
	}
	ps = sysconf(_SC_PAGESIZE);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	maps = calloc(mappings, sizeof(*maps));
	page = calloc(1, ps);
	snprintf(path, sizeof(path), "%s/mremaprace", argv[optind]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (sh == MAP_FAILED || !maps || !page || fd < 0) {
		printf("PT-STRESS mremap FAIL set-up: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < npages + GROW; i++) {
		*(uint64_t *)page = tag(i);
		if (pwrite(fd, page, ps, i * ps) != ps) {
			printf("PT-STRESS mremap FAIL writing %s: %s\n", path,
			       strerror(errno));
			return 1;
		}
	}
	/* the vm_set the walk must cross between q and p */
	for (m = 0; m < mappings; m++) {
		maps[m] = mmap(NULL, npages * ps, PROT_READ, MAP_SHARED,
			       fd, 0);
		if (maps[m] == MAP_FAILED) {
			printf("PT-STRESS mremap FAIL mapping %ld: %s\n", m,
			       strerror(errno));
			return 1;
		}
		for (i = first_target(); i < npages; i++)
			(void)*(volatile uint64_t *)(maps[m] + i * ps);
	}
	for (i = 0; i < TARGETS; i++)
		addr[i] = maps[0] + (first_target() + i) * ps;

	guest_pin(0);
	pid = fork();
	if (pid < 0) {
		printf("PT-STRESS mremap FAIL fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0)
		mover(fd);

	end = guest_now() + secs;
	stuck_since = guest_now();
	while (guest_now() < end && !sh->failed) {
		for (i = 0; i < TARGETS; i++)
			node[i] = to;
		if (syscall(SYS_move_pages, 0, TARGETS, addr, node, status,
			    MPOL_MF_MOVE_ALL) >= 0) {
			migrations++;
			for (i = 0; i < TARGETS; i++)
				moved += status[i] == to;
		}
		to = !to;
		if (sh->iterations != last_it) {
			last_it = sh->iterations;
			stuck_since = guest_now();
		} else if (guest_now() - stuck_since > STUCK_SECONDS) {
			stuck(last_it);
		}
	}
	/* a mover that did not finish an iteration in the last seconds */
	stuck_since = guest_now();
	while (!sh->failed && sh->iterations == last_it &&
	       guest_now() - stuck_since <= STUCK_SECONDS)
		usleep(10000);
	if (!sh->failed && sh->iterations == last_it)
		stuck(last_it);
	sh->stop = 1;
	if (sh->failed)
		kill(pid, SIGKILL);
	if (waitpid(pid, &wstatus, 0) != pid)
		ok = false;
	if (sh->failed) {
		printf("PT-STRESS mremap FAIL %s\n", sh->fail);
		ok = false;
	} else if (!ok || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus)) {
		printf("PT-STRESS mremap FAIL the mover ended abnormally (status %#x)\n",
		       wstatus);
		ok = false;
	} else if (!migrations || !moved || !sh->iterations) {
		printf("PT-STRESS mremap FAIL nothing raced: iterations=%ld migrations=%ld pages_moved=%ld\n",
		       sh->iterations, migrations, moved);
		ok = false;
	} else {
		printf("PT-STRESS mremap ok iterations=%ld migrations=%ld pages_moved=%ld mappings=%ld pages=%ld\n",
		       sh->iterations, migrations, moved, mappings, npages);
	}
	fflush(stdout);
	unlink(path);
	return ok ? 0 : 1;
}
