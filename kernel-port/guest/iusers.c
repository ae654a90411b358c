// SPDX-License-Identifier: GPL-2.0
/*
 * iusers.c - two more kernel users of address_space->i_mmap, each with an
 * oracle that names a vma the stabbing query [pgoff, pgoff] missed, not
 * only a crash.  Run inside the QEMU guest only: it poisons guest memory
 * for good and plants breakpoints in running programs.
 *
 *   iusers [-s SEED] DIR
 *
 * DIR is a directory on tmpfs (shmem pages) for the hwpoison files; -s
 * seeds the layouts (default 1).  Both tests run; each prints one line,
 *
 *   PT-IUSER hwpoison ok rounds=R signals=S ...
 *   PT-IUSER uprobe ok procs=N hits=H ...
 *
 * or "PT-IUSER <test> FAIL <what was expected, what happened, where>".
 * The exit status is 0 only when both are ok, 2 for a usage error.  A
 * setup error (open, mmap, fork, a missing tracefs file, MADV_HWPOISON
 * refused) is a FAIL naming the errno, never a skip.  Needs root,
 * CONFIG_MEMORY_FAILURE and CONFIG_UPROBE_EVENTS, and tracefs at
 * /sys/kernel/tracing or /sys/kernel/debug/tracing (if neither has
 * uprobe_events, it mounts tracefs on /sys/kernel/tracing itself).
 *
 * Test "hwpoison" (mm/memory-failure.c: collect_procs_file() runs one
 * stabbing query of i_mmap per process and signals every early-kill
 * process with a vma covering the page, mapped in a pte or not).  Each
 * round writes a fresh file of HWP_PAGES pages with known words, picks a
 * target page t (0, the last page, or one between) and forks HWP_CHILDREN
 * children.  Each child maps the file MAP_SHARED in several vmas, each in
 * its own slot of a reserved region so that none can merge: at most one
 * covers t (a standard signal does not queue, so a second covering vma
 * would go unseen), made by plain mmap, by trimming its head or tail with
 * munmap, by an mprotect split, or moved by mremap; others end just below
 * t, start just above it, or lie elsewhere.  The later half of the
 * children inherit two vmas from the parent through fork (dup_mmap's
 * insertion beside the parent's vma), one of them covering t, which a
 * child meant to cover nothing unmaps again.  Every child reads its pages
 * (some leave the covering vma without a single pte), checks its vmas
 * against /proc/self/maps, sets PR_MCE_KILL_EARLY and a SIGBUS handler,
 * and waits.  The parent maps t itself (memory_failure kills
 * only if the page is mapped somewhere), sets early kill too, and calls
 * madvise(MADV_HWPOISON).  kill_procs() sends the signals only for a
 * dirty page: the file is written with pwrite(), which dirties shmem
 * pages, and tmpfs has no writeback (no page_mkclean) to clean them.
 * memory_failure() runs inside madvise(), so every signal has been sent
 * when it returns.  Expected: each child with a covering vma got exactly
 * one SIGBUS, si_code BUS_MCEERR_AO, si_addr = vm_start + (t - vm_pgoff)
 * pages, si_addr_lsb = the page shift; a child without one got nothing;
 * the parent got its own address; every child exits 0; and pread() of t
 * now fails with EIO (the page really is poisoned).  What a miss looks
 * like: a covering vma the query did not return gets no signal; a vma
 * returned though it does not cover t has no address for the page
 * (-EFAULT), and memory_failure SIGKILLs its process; a pte that
 * try_to_unmap's walk missed leaves the page mapped, and every collected
 * process is SIGKILLed.  Limit: a standard signal does not queue, so a
 * second signal pending for the same process is dropped; a vma returned
 * twice shows only when its second signal comes after the first was
 * handled, and a child with two covering vmas could not show that one was
 * missed, hence at most one per child.  Each round loses one page of
 * guest memory for good.
 *
 * Test "uprobe" (kernel/events/uprobes.c: register_for_each_vma() takes
 * the vmas to patch from build_map_info(), one stabbing query of the
 * probed file's i_mmap, on registration and again on unregistration).
 * The probe is on pt_uprobe_target() in this very binary, at its file
 * offset found in /proc/self/maps.  UP_CHILDREN children are forked
 * before the probe exists; besides the text they inherited, most map
 * more of the executable MAP_PRIVATE: the function's pages exactly, a
 * wider range, a range with its head trimmed, a range moved by mremap,
 * a PROT_READ-only range (VM_MAYEXEC is all valid_vma() asks, so it gets
 * a breakpoint too), and ranges just below and just above the function
 * that must get none; the later half inherit two of these from the
 * parent by fork.  So every breakpoint the probe plants in a child comes
 * from the i_mmap walk, none from uprobe_mmap() or dup_mmap().  Then:
 * the first UP_PEEK bytes of the function read the same through every
 * mapping; the event is defined and enabled (registration); every
 * mapping must now show the breakpoint (int3 on x86, else bytes that
 * differ); each child in turn calls the function UP_CALLS times through
 * each executable mapping, and uprobe_profile must count exactly those
 * calls after each batch (the children take turns because the kernel's
 * hit counter is a plain increment).  Then the event is disabled
 * (unregistration): every mapping must show the original bytes again,
 * and the same calls must add no hit and kill nobody (a breakpoint left
 * behind with its uprobe gone raises SIGTRAP); the event is removed and
 * every child must exit 0.  What a miss looks like: a vma the register
 * walk missed shows no breakpoint and its calls are not counted; one the
 * unregister walk missed keeps the breakpoint.  A vma returned though it
 * does not cover the offset is filtered by register_for_each_vma()
 * itself, so only a miss is visible here.
 *
 * Build static, it runs in a busybox initramfs:
 *
 *   cc -static -O2 -Wall -Wextra -Werror -o iusers iusers.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#include "guest.h"

#define HWP_PAGES	64	/* pages of each round's file */
#define HWP_CHILDREN	6
#define HWP_ROUNDS	5
#define HWP_SLOT_PAGES	(HWP_PAGES + 8)	/* one vma, with a trim */
#define HWP_TIMEOUT_S	60	/* each round, in guest seconds */

#define UP_CHILDREN	6
#define UP_CALLS	25	/* calls through each mapping, each phase */
#define UP_ARG		100	/* the target's loop count */
#define UP_SPAN		256	/* bytes the target's code fits in */
#define UP_PEEK		4	/* bytes of the probed insn compared */
#define UP_SLOT_PAGES	16
#define UP_TIMEOUT_S	180	/* the whole test: TCG single-steps */

#define MAX_MAPS	12	/* table entries of one process */
#define TMPFS_MAGIC	0x01021994
#define X86_INT3	0xcc	/* UPROBE_SWBP_INSN on x86 */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __used		__attribute__((used))

#ifdef __clang__
#define __noipa		__attribute__((noinline))
#else
#define __noipa		__attribute__((noipa))
#endif

static const char probe_group[] = "ptiusers";
static const char probe_event[] = "target";

/* Where a table entry came from: printed with every FAIL. */
enum map_origin {
	ORIG_TEXT	= 1 << 0,	/* the program text, from exec */
	ORIG_FORKED	= 1 << 1,	/* inherited from the parent */
	ORIG_TRIM_HEAD	= 1 << 2,	/* munmap cut its first page(s) */
	ORIG_TRIM_TAIL	= 1 << 3,	/* munmap cut its last page(s) */
	ORIG_SPLIT	= 1 << 4,	/* one side of an mprotect split */
	ORIG_MOVED	= 1 << 5,	/* mremap moved it */
	ORIG_RDONLY	= 1 << 6,	/* PROT_READ only */
};

/* One vma of one process: file pages [pgoff, pgoff + npages). */
struct map_entry {
	uint64_t addr;
	uint64_t fn;		/* uprobe: the target in it, or 0 */
	uint32_t pgoff;
	uint32_t npages;
	uint32_t origin;	/* enum map_origin bits */
	int32_t prot;
};

/* A process's own vmas of the file under test, as it made them. */
struct map_table {
	unsigned int n;
	struct map_entry e[MAX_MAPS];
};

/*
 * A reserved stretch of address space, PROT_NONE, cut into slots with
 * a guard page after each: a vma placed at a slot start (MAP_FIXED) has
 * no file vma for a neighbour, so nothing merges and /proc/self/maps
 * shows every table entry as a vma of its own.
 */
struct arena {
	char *base;
	size_t slot_bytes;
	unsigned int nslots;
	unsigned int next;
};

/* One child, as the parent sees it. */
struct child {
	pid_t pid;
	int cmd_fd;		/* parent's write end */
	int reply_fd;		/* parent's read end */
	bool killed;		/* SIGKILLed by us: its death is no news */
	bool reaped;
	int status;
};

struct result {
	bool failed;
	char text[1536];
};

static size_t page_size;
static unsigned int page_shift;
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

/* Uniform enough in [0, n) for small n; 0 when n is 0. */
static unsigned int rng_below(uint64_t *state, unsigned int n)
{
	return n ? rng_next(state) % n : 0;
}

static unsigned int min_u(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/* Record the first failure of a test; later ones add nothing. */
static void __printf(2, 3) fail(struct result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->failed)
		return;
	res->failed = true;
	va_start(ap, fmt);
	vsnprintf(res->text, sizeof(res->text), fmt, ap);
	va_end(ap);
}

static void print_result(const char *test, const struct result *res,
			 const char *counts)
{
	if (res->failed)
		printf("PT-IUSER %s FAIL %s\n", test, res->text);
	else
		printf("PT-IUSER %s ok %s\n", test, counts);
	fflush(stdout);
}

static void watchdog(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void arm_watchdog(unsigned int seconds)
{
	timed_out = 0;
	alarm(seconds);
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

/* Why a transfer with a child failed, for a FAIL line. */
static const char *xfer_error(void)
{
	if (timed_out)
		return "timed out";
	if (!errno)
		return "pipe closed (the child died)";
	return strerror(errno);
}

static const char *origin_names(uint32_t origin, char *buf, size_t len)
{
	static const char *const names[] = {
		" text", " forked", " trimmed-head", " trimmed-tail", " split",
		" moved", " read-only",
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

static const char *describe_map(const struct map_entry *e, char *buf,
				size_t len)
{
	char origin[96];

	snprintf(buf, len, "vma [addr=%#llx pgoff=%u npages=%u%s]",
		 (unsigned long long)e->addr, e->pgoff, e->npages,
		 origin_names(e->origin, origin, sizeof(origin)));
	return buf;
}

/* "exited with status 1", "was killed by signal 9 (Killed)" */
static const char *describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d",
			 WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
	return buf;
}

/* ------------------------------------------------ a process's own vmas */

static char child_err[256];

/* A child's first failure, sent with its next reply. */
static void __printf(1, 2) child_fail(const char *fmt, ...)
{
	va_list ap;

	if (child_err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(child_err, sizeof(child_err), fmt, ap);
	va_end(ap);
}

static int arena_init(struct arena *a, unsigned int nslots,
		      unsigned int slot_pages)
{
	void *base;

	a->slot_bytes = (size_t)(slot_pages + 1) * page_size;
	a->nslots = nslots;
	a->next = 0;
	base = mmap(NULL, a->slot_bytes * nslots, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED) {
		child_fail("reserve %u slots: %s", nslots, strerror(errno));
		a->base = NULL;
		return -1;
	}
	a->base = base;
	return 0;
}

static char *arena_slot(struct arena *a)
{
	if (!a->base || a->next == a->nslots) {
		child_fail("out of arena slots (%u)", a->nslots);
		return NULL;
	}
	return a->base + a->slot_bytes * a->next++;
}

static struct map_entry *table_add(struct map_table *t, char *addr,
				   unsigned int pgoff, unsigned int npages,
				   int prot, uint32_t origin)
{
	struct map_entry *e;

	if (t->n == MAX_MAPS) {
		child_fail("more than %d table entries", MAX_MAPS);
		return NULL;
	}
	e = &t->e[t->n++];
	*e = (struct map_entry){
		.addr = (uintptr_t)addr, .pgoff = pgoff, .npages = npages,
		.origin = origin, .prot = prot,
	};
	return e;
}

static void table_del(struct map_table *t, unsigned int i)
{
	memmove(&t->e[i], &t->e[i + 1], (t->n - i - 1) * sizeof(t->e[0]));
	t->n--;
}

static int map_fixed(char *addr, int fd, unsigned int pgoff,
		     unsigned int npages, int prot, int flags)
{
	void *p = mmap(addr, (size_t)npages * page_size, prot,
		       flags | MAP_FIXED, fd, (off_t)pgoff * page_size);

	if (p == MAP_FAILED) {
		child_fail("mmap pgoff=%u npages=%u at %p: %s", pgoff, npages,
			   (void *)addr, strerror(errno));
		return -1;
	}
	return 0;
}

enum map_how { HOW_PLAIN, HOW_TRIM_HEAD, HOW_TRIM_TAIL, HOW_MOVED };

/*
 * Map file pages [pgoff, pgoff + npages) of @fd into a fresh slot so that
 * the vma ends up made the way @how says: mapped as is; mapped with up to
 * 2 more pages in front (or behind) which munmap then cuts off, so the
 * kernel split it and, for the head, changed vm_pgoff; or mapped in one
 * slot and moved to another by mremap.  A trim that the file's
 * @file_pages do not allow falls back to the other trim, then to plain.
 */
static struct map_entry *map_how(struct map_table *t, struct arena *a,
				 int fd, unsigned int file_pages,
				 unsigned int pgoff, unsigned int npages,
				 int prot, int flags, enum map_how how,
				 uint32_t origin)
{
	unsigned int k = 1 + (pgoff + npages) % 2;
	char *slot = arena_slot(a), *dst;

	if (!slot)
		return NULL;
	if (how == HOW_TRIM_HEAD && pgoff < k)
		how = HOW_TRIM_TAIL;
	if (how == HOW_TRIM_TAIL && pgoff + npages + k > file_pages)
		how = pgoff >= k ? HOW_TRIM_HEAD : HOW_PLAIN;
	switch (how) {
	case HOW_TRIM_HEAD:
		if (map_fixed(slot, fd, pgoff - k, npages + k, prot, flags))
			return NULL;
		if (munmap(slot, k * page_size)) {
			child_fail("munmap head of %p: %s", (void *)slot,
				   strerror(errno));
			return NULL;
		}
		return table_add(t, slot + k * page_size, pgoff, npages, prot,
				 origin | ORIG_TRIM_HEAD);
	case HOW_TRIM_TAIL:
		if (map_fixed(slot, fd, pgoff, npages + k, prot, flags))
			return NULL;
		if (munmap(slot + (size_t)npages * page_size,
			   k * page_size)) {
			child_fail("munmap tail of %p: %s", (void *)slot,
				   strerror(errno));
			return NULL;
		}
		return table_add(t, slot, pgoff, npages, prot,
				 origin | ORIG_TRIM_TAIL);
	case HOW_MOVED:
		dst = arena_slot(a);
		if (!dst || map_fixed(slot, fd, pgoff, npages, prot, flags))
			return NULL;
		if (mremap(slot, (size_t)npages * page_size,
			   (size_t)npages * page_size,
			   MREMAP_MAYMOVE | MREMAP_FIXED, dst) == MAP_FAILED) {
			child_fail("mremap %p to %p: %s", (void *)slot,
				   (void *)dst, strerror(errno));
			return NULL;
		}
		return table_add(t, dst, pgoff, npages, prot,
				 origin | ORIG_MOVED);
	case HOW_PLAIN:
		break;
	}
	if (map_fixed(slot, fd, pgoff, npages, prot, flags))
		return NULL;
	return table_add(t, slot, pgoff, npages, prot, origin);
}

/*
 * Every table entry must be one whole vma of /proc/self/maps with the
 * same start, end, file offset and inode: the oracles compute what the
 * kernel must do from the table, so a merge or a split the table does
 * not know of would make them wrong.
 */
static int check_table(const struct map_table *t, ino_t ino)
{
	bool found[MAX_MAPS] = { false };
	unsigned long start, end, off, inode;
	char line[512], desc[160];
	unsigned int i;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		child_fail("open /proc/self/maps: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx %*s %lu", &start, &end, &off,
			   &inode) != 4)
			continue;
		for (i = 0; i < t->n; i++) {
			const struct map_entry *e = &t->e[i];

			if (start != e->addr ||
			    end != e->addr + (uint64_t)e->npages * page_size)
				continue;
			if (off == (uint64_t)e->pgoff * page_size &&
			    inode == ino)
				found[i] = true;
		}
	}
	fclose(f);
	for (i = 0; i < t->n; i++) {
		if (!found[i]) {
			child_fail("%s is not a vma of its own in /proc/self/maps",
				   describe_map(&t->e[i], desc, sizeof(desc)));
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ children */

typedef void child_body(unsigned int idx, int cmd_fd, int reply_fd);

/*
 * Fork child @idx of @kids running @body, with a command and a reply
 * pipe of its own.  The child closes every other child's pipe ends it
 * inherited, so that closing a command pipe is an EOF its child sees.
 */
static int spawn(struct child *kids, unsigned int nkids, unsigned int idx,
		 child_body *body, struct result *res)
{
	int cmd[2], reply[2];
	unsigned int i;
	pid_t pid;

	if (pipe(cmd)) {
		fail(res, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe(reply)) {
		fail(res, "pipe: %s", strerror(errno));
		close(cmd[0]);
		close(cmd[1]);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fail(res, "fork child %u: %s", idx, strerror(errno));
		close(cmd[0]);
		close(cmd[1]);
		close(reply[0]);
		close(reply[1]);
		return -1;
	}
	if (pid == 0) {
		for (i = 0; i < nkids; i++) {
			if (kids[i].pid <= 0)
				continue;
			close(kids[i].cmd_fd);
			close(kids[i].reply_fd);
		}
		close(cmd[1]);
		close(reply[0]);
		alarm(0);
		signal(SIGALRM, SIG_DFL);
		body(idx, cmd[0], reply[1]);
		_exit(0);
	}
	close(cmd[0]);
	close(reply[1]);
	kids[idx] = (struct child){
		.pid = pid, .cmd_fd = cmd[1], .reply_fd = reply[0],
	};
	return 0;
}

static void kill_child(struct child *k)
{
	kill(k->pid, SIGKILL);
	k->killed = true;
}

/*
 * End every child: close its command pipe (a healthy child exits 0 on
 * the EOF) and reap it.  Whoever is still there when the watchdog fires,
 * or has fired, is SIGKILLed.
 */
static void reap_all(struct child *kids, unsigned int nkids)
{
	unsigned int i;

	for (i = 0; i < nkids; i++) {
		if (kids[i].pid <= 0 || kids[i].reaped)
			continue;
		close(kids[i].cmd_fd);
		close(kids[i].reply_fd);
	}
	for (i = 0; i < nkids; i++) {
		if (kids[i].pid <= 0 || kids[i].reaped)
			continue;
		if (timed_out)
			kill_child(&kids[i]);
		while (waitpid(kids[i].pid, &kids[i].status, 0) < 0) {
			if (errno != EINTR) {
				kids[i].status = -1;
				break;
			}
			kill_child(&kids[i]);
		}
		kids[i].reaped = true;
	}
}

/* --------------------------------------------------------- hwpoison */

/*
 * What a hwpoison child tells the parent: its table when ready, then
 * the SIGBUS it received.  One atomic pipe write.
 */
struct hwp_reply {
	int32_t ok;
	int32_t covering;	/* table index of the vma covering t, or -1 */
	uint32_t touched;	/* it loaded that vma's pages */
	uint32_t nsig;		/* SIGBUS received */
	int32_t sig_code;	/* of the first */
	int32_t sig_lsb;
	uint64_t sig_addr;
	struct map_table maps;
	char err[256];
};

_Static_assert(sizeof(struct hwp_reply) <= PIPE_BUF, "reply must be atomic");

/* The round, as every child inherits it at fork. */
struct hwp_round {
	uint64_t seed;
	unsigned int round;
	unsigned int target;	/* the page to poison */
	int fd;
	ino_t ino;
	bool covers[HWP_CHILDREN];
	/*
	 * Two vmas of the parent that children HWP_CHILDREN / 2 and later
	 * inherit: [0] covers the target, [1] lies beside it.
	 */
	struct map_table inherited;
};

static struct hwp_round hr;

/* The SIGBUS a process received, recorded by its handler. */
static volatile sig_atomic_t sigbus_count;
static volatile int sigbus_code;
static volatile int sigbus_lsb;
static volatile uintptr_t sigbus_addr;

static void sigbus_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	(void)uc;
	if (!sigbus_count++) {
		sigbus_code = si->si_code;
		sigbus_addr = (uintptr_t)si->si_addr;
		sigbus_lsb = si->si_addr_lsb;
	}
	/*
	 * BUS_MCEERR_AO only tells; any other code is a real fault of this
	 * process, which would repeat forever after a return: let the
	 * repetition kill it, and the parent see how it died.
	 */
	if (si->si_code != BUS_MCEERR_AO)
		sigaction(sig, &dfl, NULL);
}

static void install_sigbus(void)
{
	struct sigaction sa = { .sa_sigaction = sigbus_handler };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGBUS, &sa, NULL);
	sigbus_count = 0;
}

/* The value word @word of page @page holds in round @round's file. */
static uint64_t hwp_word(unsigned int round, unsigned int page,
			 unsigned int word)
{
	return mix64(((uint64_t)round << 32 | page) + 0x4857) + word;
}

/* A range of 1..max_len pages within [lo_bound, hi_bound) of the file. */
static void hwp_range(uint64_t *rng, unsigned int lo_bound,
		      unsigned int hi_bound, unsigned int max_len,
		      unsigned int *pgoff, unsigned int *npages)
{
	unsigned int room = hi_bound - lo_bound;

	*npages = 1 + rng_below(rng, min_u(room, max_len));
	*pgoff = lo_bound + rng_below(rng, room - *npages + 1);
}

/*
 * Child @c's vmas.  Invariant: exactly one covers the target when
 * hr.covers[c], none otherwise.
 */
static int hwp_layout(unsigned int c, uint64_t *rng, struct map_table *t,
		      int *covering)
{
	unsigned int tp = hr.target, lo, hi, np, split, i;
	bool need_cover = hr.covers[c];
	struct map_entry *e;
	struct arena a;
	int prot;

	*covering = -1;
	t->n = 0;
	if (c >= HWP_CHILDREN / 2) {
		*t = hr.inherited;
		for (i = 0; i < t->n; i++)
			t->e[i].origin |= ORIG_FORKED;
		if (need_cover) {
			*covering = 0;
			need_cover = false;
		} else {
			if (munmap((void *)(uintptr_t)t->e[0].addr,
				   (size_t)t->e[0].npages * page_size)) {
				child_fail("munmap the inherited covering vma: %s",
					   strerror(errno));
				return -1;
			}
			table_del(t, 0);
		}
	}
	if (arena_init(&a, MAX_MAPS, HWP_SLOT_PAGES))
		return -1;

	if (need_cover) {
		/* [lo, hi) with lo <= t < hi; now and then the whole file */
		lo = tp - rng_below(rng, min_u(tp, 12) + 1);
		hi = tp + 1 + rng_below(rng, min_u(HWP_PAGES - 1 - tp, 12) + 1);
		if (!rng_below(rng, 6)) {
			lo = 0;
			hi = HWP_PAGES;
		}
		prot = PROT_READ | (rng_below(rng, 2) ? PROT_WRITE : 0);
		if (hi - lo >= 2 && !rng_below(rng, 5)) {
			/*
			 * An mprotect split: two vmas, the one holding t
			 * covers it, the other must not be signalled.
			 */
			split = lo + 1 + rng_below(rng, hi - lo - 1);
			e = map_how(t, &a, hr.fd, HWP_PAGES, lo, hi - lo,
				    PROT_READ | PROT_WRITE, MAP_SHARED,
				    HOW_PLAIN, ORIG_SPLIT);
			if (!e)
				return -1;
			if (mprotect((char *)(uintptr_t)e->addr +
				     (size_t)(split - lo) * page_size,
				     (size_t)(hi - split) * page_size,
				     PROT_READ)) {
				child_fail("mprotect split at pgoff %u: %s",
					   split, strerror(errno));
				return -1;
			}
			e->npages = split - lo;
			if (!table_add(t, (char *)(uintptr_t)e->addr +
				       (size_t)(split - lo) * page_size,
				       split, hi - split, PROT_READ,
				       ORIG_SPLIT | ORIG_RDONLY))
				return -1;
			*covering = tp < split ? (int)t->n - 2 : (int)t->n - 1;
		} else {
			e = map_how(t, &a, hr.fd, HWP_PAGES, lo, hi - lo, prot,
				    MAP_SHARED, rng_below(rng, 4),
				    prot == PROT_READ ? ORIG_RDONLY : 0);
			if (!e)
				return -1;
			*covering = (int)t->n - 1;
		}
	}

	/* the pages right below and right above t, most of the time */
	if (tp > 0 && rng_below(rng, 4)) {
		np = 1 + rng_below(rng, min_u(tp, 6));
		if (!map_how(t, &a, hr.fd, HWP_PAGES, tp - np, np,
			     PROT_READ | PROT_WRITE, MAP_SHARED,
			     rng_below(rng, 4), 0))
			return -1;
	}
	if (tp + 1 < HWP_PAGES && rng_below(rng, 4)) {
		np = 1 + rng_below(rng, min_u(HWP_PAGES - 1 - tp, 6));
		if (!map_how(t, &a, hr.fd, HWP_PAGES, tp + 1, np, PROT_READ,
			     MAP_SHARED, rng_below(rng, 4), ORIG_RDONLY))
			return -1;
	}
	/* one to three elsewhere, wholly below or wholly above t */
	for (i = 1 + rng_below(rng, 3); i; i--) {
		bool below = tp > 0 &&
			     (tp + 1 == HWP_PAGES || rng_below(rng, 2));

		if (below)
			hwp_range(rng, 0, tp, 20, &lo, &np);
		else
			hwp_range(rng, tp + 1, HWP_PAGES, 20, &lo, &np);
		if (!map_how(t, &a, hr.fd, HWP_PAGES, lo, np,
			     PROT_READ | PROT_WRITE, MAP_SHARED,
			     rng_below(rng, 4), 0))
			return -1;
	}
	return 0;
}

/*
 * Load word 0 of every page of every vma and check it, and store word 1
 * back through the writable ones (dirty ptes).  Table entry @skip (-1:
 * none) is left alone: a covering vma without a single pte, which the
 * kernel must signal all the same.  Skipping only page t would not do,
 * as fault-around maps the pages around a faulting one.
 */
static int hwp_touch(const struct map_table *t, int skip)
{
	char desc[160];
	unsigned int i, p, page;
	uint64_t v;

	for (i = 0; i < t->n; i++) {
		const struct map_entry *e = &t->e[i];

		if ((int)i == skip)
			continue;
		for (p = 0; p < e->npages; p++) {
			volatile uint64_t *w = (volatile uint64_t *)
				(uintptr_t)(e->addr + (uint64_t)p * page_size);

			page = e->pgoff + p;
			v = w[0];
			if (v != hwp_word(hr.round, page, 0)) {
				child_fail("%s: page %u word 0 holds %#llx, expected %#llx",
					   describe_map(e, desc, sizeof(desc)),
					   page, (unsigned long long)v,
					   (unsigned long long)hwp_word(hr.round,
									page, 0));
				return -1;
			}
			if (e->prot & PROT_WRITE)
				w[1] = hwp_word(hr.round, page, 1);
		}
	}
	return 0;
}

static void hwp_child(unsigned int c, int cmd_fd, int reply_fd)
{
	static struct hwp_reply r;
	uint64_t rng = mix64(hr.seed ^ ((uint64_t)hr.round << 8 | c) ^
			     0x6877706f69736f6eULL);
	bool untouched = !rng_below(&rng, 3);
	char cmd;

	alarm(HWP_TIMEOUT_S * 2);
	if (prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0))
		child_fail("prctl(PR_MCE_KILL_EARLY): %s", strerror(errno));
	install_sigbus();
	if (!child_err[0] && !hwp_layout(c, &rng, &r.maps, &r.covering) &&
	    !hwp_touch(&r.maps, untouched ? r.covering : -1))
		check_table(&r.maps, hr.ino);
	r.touched = r.covering >= 0 && !untouched;
	r.ok = !child_err[0];
	snprintf(r.err, sizeof(r.err), "%s", child_err);
	if (xfer_all(reply_fd, &r, sizeof(r), true))
		_exit(1);
	/* a failure reported is the parent's to print, not a death */
	if (!r.ok)
		_exit(0);
	/* 'r': report what memory_failure sent; then wait for the EOF */
	while (xfer_all(cmd_fd, &cmd, 1, false) == 0) {
		r.nsig = sigbus_count;
		r.sig_code = sigbus_code;
		r.sig_addr = sigbus_addr;
		r.sig_lsb = sigbus_lsb;
		if (xfer_all(reply_fd, &r, sizeof(r), true))
			_exit(1);
	}
	_exit(0);
}

/*
 * The parent's vmas the later children inherit: one covering the target
 * and one of the pages beside it, each in a slot of @a.
 */
static int hwp_inherited(uint64_t *rng, struct arena *a, struct result *res)
{
	unsigned int tp = hr.target, lo, hi;
	struct map_table *t = &hr.inherited;

	t->n = 0;
	lo = tp - rng_below(rng, min_u(tp, 8) + 1);
	hi = tp + 1 + rng_below(rng, min_u(HWP_PAGES - 1 - tp, 8) + 1);
	if (!map_how(t, a, hr.fd, HWP_PAGES, lo, hi - lo,
		     PROT_READ | PROT_WRITE, MAP_SHARED, HOW_PLAIN, 0))
		goto err;
	if (tp + 1 < HWP_PAGES)
		lo = tp + 1;
	else
		lo = tp - 1;
	if (!map_how(t, a, hr.fd, HWP_PAGES, lo, 1, PROT_READ, MAP_SHARED,
		     HOW_PLAIN, ORIG_RDONLY))
		goto err;
	return 0;
err:
	fail(res, "round %u: the parent's vmas to inherit: %s", hr.round,
	     child_err);
	return -1;
}

/* Fill the round's file with its words; 0 or -1 with a FAIL. */
static int hwp_fill(const char *path, struct result *res)
{
	uint64_t *buf = malloc(page_size);
	unsigned int p, w, words = page_size / 8;
	int ret = 0;

	if (!buf) {
		fail(res, "malloc: %s", strerror(errno));
		return -1;
	}
	for (p = 0; p < HWP_PAGES && !ret; p++) {
		for (w = 0; w < words; w++)
			buf[w] = hwp_word(hr.round, p, w);
		if (pwrite(hr.fd, buf, page_size, (off_t)p * page_size) !=
		    (ssize_t)page_size) {
			fail(res, "pwrite %s page %u: %s", path, p,
			     strerror(errno));
			ret = -1;
		}
	}
	free(buf);
	return ret;
}

/* What the parent itself received: its own vma at @addr covers t. */
static void hwp_check_parent(uintptr_t addr, struct result *res)
{
	if (sigbus_count != 1 || sigbus_code != BUS_MCEERR_AO ||
	    sigbus_addr != addr || sigbus_lsb != (int)page_shift)
		fail(res, "round %u page %u: the parent, early-kill, with the one-page vma [addr=%#lx pgoff=%u], expected 1 SIGBUS BUS_MCEERR_AO addr=%#lx lsb=%u, got %d (first: si_code=%d addr=%#lx lsb=%d)",
		     hr.round, hr.target, (unsigned long)addr, hr.target,
		     (unsigned long)addr, page_shift, (int)sigbus_count,
		     sigbus_code, (unsigned long)sigbus_addr, sigbus_lsb);
}

/* The oracle for child @c: one signal, right address, iff it covers t. */
static void hwp_check_child(unsigned int c, const struct hwp_reply *r,
			    struct result *res)
{
	const struct map_entry *e;
	char desc[160];
	uint64_t want;

	if (r->covering < 0) {
		if (r->nsig)
			fail(res, "round %u page %u: child %u has no vma covering the page but got %u SIGBUS (first: si_code=%d addr=%#llx): the query returned a vma that does not cover it",
			     hr.round, hr.target, c, r->nsig, r->sig_code,
			     (unsigned long long)r->sig_addr);
		return;
	}
	e = &r->maps.e[r->covering];
	want = e->addr + (uint64_t)(hr.target - e->pgoff) * page_size;
	if (r->nsig == 1 && r->sig_code == BUS_MCEERR_AO &&
	    r->sig_addr == want && r->sig_lsb == (int)page_shift)
		return;
	if (!r->nsig)
		fail(res, "round %u page %u: child %u got no SIGBUS although its %s covers the page (%s through it): the i_mmap query missed that vma",
		     hr.round, hr.target, c,
		     describe_map(e, desc, sizeof(desc)),
		     r->touched ? "its pages loaded" : "not one pte");
	else
		fail(res, "round %u page %u: child %u with covering %s expected 1 SIGBUS BUS_MCEERR_AO addr=%#llx lsb=%u, got %u (first: si_code=%d addr=%#llx lsb=%d)",
		     hr.round, hr.target, c,
		     describe_map(e, desc, sizeof(desc)),
		     (unsigned long long)want, page_shift, r->nsig,
		     r->sig_code, (unsigned long long)r->sig_addr,
		     r->sig_lsb);
}

/* How a hwpoison child that did not answer or exit 0 ended. */
static void hwp_check_death(unsigned int c, const struct child *k,
			    const struct hwp_reply *r, bool have_table,
			    struct result *res)
{
	char how[96], desc[160], vmas[900];
	size_t used = 0;
	unsigned int i;

	if (k->status == 0)
		return;
	vmas[0] = '\0';
	for (i = 0; have_table && i < r->maps.n && used < sizeof(vmas); i++)
		used += snprintf(vmas + used, sizeof(vmas) - used, "%s%s",
				 i ? ", " : "",
				 describe_map(&r->maps.e[i], desc,
					      sizeof(desc)));
	if (WIFSIGNALED(k->status) && WTERMSIG(k->status) == SIGKILL)
		fail(res, "round %u page %u: child %u was killed by SIGKILL: memory_failure kills by force a process whose vma it found but which has no address for the page (a vma not covering it), or all of them when the page stayed mapped after try_to_unmap (a missed pte); its vmas: %s",
		     hr.round, hr.target, c, have_table ? vmas : "unknown");
	else
		fail(res, "round %u page %u: child %u %s; its vmas: %s",
		     hr.round, hr.target, c,
		     describe_status(k->status, how, sizeof(how)),
		     have_table ? vmas : "unknown");
}

/*
 * Map page t, load it, poison it.  Returns the address of the parent's
 * mapping (still mapped, for the caller to unmap) or NULL with a FAIL.
 */
static char *hwp_poison(const char *path, struct result *res)
{
	char *addr;
	uint64_t v, buf;
	ssize_t n;

	addr = mmap(NULL, page_size, PROT_READ, MAP_SHARED, hr.fd,
		    (off_t)hr.target * page_size);
	if (addr == MAP_FAILED) {
		fail(res, "mmap page %u of %s in the parent: %s", hr.target,
		     path, strerror(errno));
		return NULL;
	}
	v = *(volatile uint64_t *)addr;
	if (v != hwp_word(hr.round, hr.target, 0)) {
		fail(res, "round %u: the parent reads %#llx from page %u, expected %#llx",
		     hr.round, (unsigned long long)v, hr.target,
		     (unsigned long long)hwp_word(hr.round, hr.target, 0));
		return addr;
	}
	install_sigbus();
	if (prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0)) {
		fail(res, "prctl(PR_MCE_KILL_EARLY) in the parent: %s",
		     strerror(errno));
		return addr;
	}
	if (madvise(addr, page_size, MADV_HWPOISON)) {
		fail(res, "madvise(MADV_HWPOISON): %s", strerror(errno));
		prctl(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 0, 0, 0);
		return addr;
	}
	prctl(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 0, 0, 0);
	/* shmem keeps a poisoned page in the cache and fails reads of it */
	n = pread(hr.fd, &buf, sizeof(buf), (off_t)hr.target * page_size);
	if (n >= 0 || errno != EIO)
		fail(res, "round %u: after MADV_HWPOISON, pread of page %u of %s returned %zd (%s), expected EIO: the page was not poisoned",
		     hr.round, hr.target, path, n,
		     n < 0 ? strerror(errno) : "no error");
	return addr;
}

static int hwp_run_round(const char *dir, uint64_t seed, unsigned int round,
			 unsigned long *signals, struct result *res)
{
	static struct hwp_reply replies[HWP_CHILDREN];
	struct child kids[HWP_CHILDREN] = { { 0 } };
	bool have_table[HWP_CHILDREN] = { false };
	bool answered[HWP_CHILDREN] = { false };
	uint64_t rng = mix64(seed ^ 0x4857504f49534f4eULL ^ round);
	unsigned int c, ncover = 0, got = 0;
	char path[PATH_MAX], *mine = NULL;
	struct arena a = { 0 };
	struct stat st;
	char cmd = 'r';

	memset(&hr, 0, sizeof(hr));
	hr.seed = seed;
	hr.round = round;
	hr.fd = -1;
	switch (round % 3) {
	case 1:
		hr.target = 0;
		break;
	case 2:
		hr.target = HWP_PAGES - 1;
		break;
	default:
		hr.target = 1 + rng_below(&rng, HWP_PAGES - 2);
	}
	/* child 0 covers t and child 1 does not; the rest at random */
	for (c = 0; c < HWP_CHILDREN; c++) {
		hr.covers[c] = c == 0 || (c != 1 && rng_below(&rng, 3));
		ncover += hr.covers[c];
	}
	snprintf(path, sizeof(path), "%s/pt-iusers-hwp.%d.%u", dir,
		 (int)getpid(), round);
	hr.fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (hr.fd < 0) {
		fail(res, "open %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(hr.fd, &st)) {
		fail(res, "fstat %s: %s", path, strerror(errno));
		goto out;
	}
	hr.ino = st.st_ino;
	if (hwp_fill(path, res))
		goto out;
	child_err[0] = '\0';
	if (arena_init(&a, 2, HWP_SLOT_PAGES)) {
		fail(res, "round %u: %s", round, child_err);
		goto out;
	}
	for (c = 0; c < HWP_CHILDREN; c++) {
		if (c == HWP_CHILDREN / 2 && hwp_inherited(&rng, &a, res))
			goto out;
		if (spawn(kids, HWP_CHILDREN, c, hwp_child, res))
			goto out;
	}
	/* the children have their copies; the parent keeps only its page */
	munmap(a.base, a.slot_bytes * a.nslots);
	a.base = NULL;

	for (c = 0; c < HWP_CHILDREN; c++) {
		if (xfer_all(kids[c].reply_fd, &replies[c], sizeof(replies[c]),
			     false)) {
			fail(res, "round %u: no ready reply from child %u: %s",
			     round, c, xfer_error());
			goto out;
		}
		if (!replies[c].ok) {
			fail(res, "round %u: child %u: %s", round, c,
			     replies[c].err);
			goto out;
		}
		have_table[c] = true;
	}
	mine = hwp_poison(path, res);
	if (res->failed)
		goto out;
	/* every signal is pending or handled by now: collect, then judge */
	got = sigbus_count;
	for (c = 0; c < HWP_CHILDREN; c++) {
		if (xfer_all(kids[c].cmd_fd, &cmd, 1, true) ||
		    xfer_all(kids[c].reply_fd, &replies[c],
			     sizeof(replies[c]), false)) {
			/* it died, its ready table stays: reaping says how */
			answered[c] = false;
			continue;
		}
		answered[c] = true;
		got += replies[c].nsig;
	}
	*signals += got;
	if (!got)
		fail(res, "round %u page %u: memory_failure signalled nobody, not even the parent (%u children cover the page): it never reached collect_procs_file",
		     round, hr.target, ncover);
	hwp_check_parent((uintptr_t)mine, res);
	for (c = 0; c < HWP_CHILDREN; c++)
		if (answered[c])
			hwp_check_child(c, &replies[c], res);
out:
	reap_all(kids, HWP_CHILDREN);
	/*
	 * A death by a signal we did not send outranks what it left
	 * unanswered; a child exits non-zero only when its pipe to us
	 * broke, which is news only if nothing failed before.
	 */
	for (c = 0; c < HWP_CHILDREN; c++) {
		if (kids[c].pid <= 0 || kids[c].killed || !kids[c].status)
			continue;
		if (WIFSIGNALED(kids[c].status))
			res->failed = false;
		hwp_check_death(c, &kids[c], &replies[c], have_table[c], res);
		break;
	}
	if (timed_out && !res->failed)
		fail(res, "round %u: timed out after %d s", round,
		     HWP_TIMEOUT_S);
	if (mine)
		munmap(mine, page_size);
	if (a.base)
		munmap(a.base, a.slot_bytes * a.nslots);
	close(hr.fd);
	unlink(path);
	return res->failed ? -1 : 0;
}

static bool test_hwpoison(const char *dir, uint64_t seed)
{
	struct result res = { 0 };
	unsigned long signals = 0;
	unsigned int round, done = 0;
	char counts[128];
	struct statfs sfs;
	FILE *f;
	int recovery = -1;

	/* memory_failure() panics instead when recovery is off */
	f = fopen("/proc/sys/vm/memory_failure_recovery", "r");
	if (f) {
		if (fscanf(f, "%d", &recovery) != 1)
			recovery = -1;
		fclose(f);
	}
	if (recovery == 0)
		fail(&res, "vm.memory_failure_recovery is 0: MADV_HWPOISON would panic the kernel");
	else if (statfs(dir, &sfs))
		fail(&res, "statfs %s: %s", dir, strerror(errno));
	else if (sfs.f_type != TMPFS_MAGIC)
		fail(&res, "%s is not on tmpfs (f_type %#lx): the oracle expects shmem pages",
		     dir, (unsigned long)sfs.f_type);
	for (round = 0; round < HWP_ROUNDS && !res.failed; round++) {
		arm_watchdog(HWP_TIMEOUT_S);
		if (!hwp_run_round(dir, seed, round, &signals, &res))
			done++;
		alarm(0);
	}
	snprintf(counts, sizeof(counts), "rounds=%u signals=%lu children=%d",
		 done, signals, HWP_CHILDREN);
	print_result("hwpoison", &res, counts);
	return !res.failed;
}

/* ------------------------------------------------------------ uprobe */

/*
 * The probed function: a leaf that touches no memory but its stack and
 * calls nothing, so that it runs unchanged from any mapping of its page
 * (the children call it through aliases of the text at other addresses).
 * noipa: no clone or inlined copy may run in its place, and the calls go
 * through a volatile pointer, so every call enters at the probed offset.
 * The empty asm keeps the loop a loop (no constant folding, and no
 * vectorising, whose constants would be RIP-relative loads).
 */
static __noipa __used unsigned long
pt_uprobe_target(unsigned long n)
{
	unsigned long acc = 0x5054, i;

	for (i = 0; i < n; i++) {
		acc = acc * 31 + i;
		asm volatile("" : "+r" (acc) : : "memory");
	}
	return acc;
}

typedef unsigned long target_fn(unsigned long);

static target_fn *volatile target_ptr = pt_uprobe_target;

/* Aliases of the executable a child maps besides its text. */
enum up_kind {
	UK_EXACT,	/* the function's pages */
	UK_WIDE,	/* a few more pages either side */
	UK_TRIMMED,	/* mapped wider, head or tail cut off */
	UK_MOVED,	/* moved by mremap */
	UK_RDONLY,	/* PROT_READ: breakpoint, but not callable */
	UK_BELOW,	/* the page(s) before: no breakpoint */
	UK_ABOVE,	/* the page(s) after: no breakpoint */
	UK_NR,
};

enum up_op { UP_OP_PEEK, UP_OP_CALL };

struct up_cmd {
	int32_t op;
	uint32_t map;		/* UP_OP_CALL: table index */
	uint32_t calls;
	uint32_t unused;
};

/* A child's reply: its table when ready, then peeks and calls. */
struct up_reply {
	int32_t ok;
	uint32_t calls;		/* UP_OP_CALL: calls made */
	struct map_table maps;
	uint8_t bytes[MAX_MAPS][UP_PEEK];	/* UP_OP_PEEK, where fn != 0 */
	char err[256];
};

_Static_assert(sizeof(struct up_reply) <= PIPE_BUF, "reply must be atomic");

/* What every child inherits at fork. */
struct up_setup {
	char exe[PATH_MAX];
	char tracing[64];
	int exe_fd;
	ino_t ino;
	uint64_t seed;
	unsigned long func_off;		/* file offset of the target */
	unsigned int file_pages;
	unsigned int first_page;	/* pages its code may span */
	unsigned int last_page;
	unsigned long expected;		/* pt_uprobe_target(UP_ARG) */
	uint8_t orig[UP_PEEK];		/* its first bytes, unprobed */
	struct map_entry text;		/* the text vma holding it */
	/* mapped by the parent for children UP_CHILDREN / 2 and later */
	struct map_table inherited;
};

static struct up_setup us;

/* The target's address in @e, if @e maps the target's file offset. */
static uint64_t up_fn_in(const struct map_entry *e)
{
	uint64_t start = (uint64_t)e->pgoff * page_size;

	if (us.func_off < start ||
	    us.func_off >= start + (uint64_t)e->npages * page_size)
		return 0;
	return e->addr + us.func_off - start;
}

/* A mapping the target can run from: executable, all its code inside. */
static bool up_callable(const struct map_entry *e)
{
	return e->fn && (e->prot & PROT_EXEC) &&
	       e->pgoff <= us.first_page &&
	       e->pgoff + e->npages > us.last_page;
}

/*
 * Map one alias of kind @kind into a slot of @a.  0 also when the file
 * has no such range (nothing below or above the target's pages); -1,
 * with child_err, when a call failed.
 */
static int up_map_kind(struct map_table *t, struct arena *a,
		       enum up_kind kind, uint64_t *rng, uint32_t origin)
{
	unsigned int lo = us.first_page, hi = us.last_page + 1, k;
	int prot = PROT_READ | PROT_EXEC;
	enum map_how how = HOW_PLAIN;
	struct map_entry *e;

	switch (kind) {
	case UK_EXACT:
		break;
	case UK_WIDE:
		lo -= min_u(lo, 1 + rng_below(rng, 3));
		hi = min_u(us.file_pages, hi + 1 + rng_below(rng, 3));
		break;
	case UK_TRIMMED:
		how = rng_below(rng, 2) ? HOW_TRIM_HEAD : HOW_TRIM_TAIL;
		break;
	case UK_MOVED:
		how = HOW_MOVED;
		break;
	case UK_RDONLY:
		prot = PROT_READ;
		origin |= ORIG_RDONLY;
		break;
	case UK_BELOW:
		if (!lo)
			return 0;
		k = min_u(lo, 1 + rng_below(rng, 2));
		hi = lo;
		lo -= k;
		break;
	case UK_ABOVE:
		if (hi >= us.file_pages)
			return 0;
		lo = hi;
		hi = min_u(us.file_pages, lo + 1 + rng_below(rng, 2));
		break;
	case UK_NR:
		return 0;
	}
	e = map_how(t, a, us.exe_fd, us.file_pages, lo, hi - lo, prot,
		    MAP_PRIVATE, how, origin);
	if (!e)
		return -1;
	e->fn = up_fn_in(e);
	return 0;
}

/*
 * Child @c's mappings of the executable.  Child 0 keeps only its text;
 * child c >= 1 maps kinds c - 1 and c + 2 (mod UK_NR), so that five
 * children cover every kind, and each other kind with odds 1 in 4.
 */
static int up_layout(unsigned int c, struct map_table *t)
{
	uint64_t rng = mix64(us.seed ^ 0x7570726f6265ULL ^ c);
	struct map_entry *e;
	struct arena a;
	unsigned int k;

	/* the text vma, a copy of the parent's made by fork */
	t->n = 0;
	e = table_add(t, NULL, 0, 0, 0, 0);
	if (!e)
		return -1;
	*e = us.text;
	if (c >= UP_CHILDREN / 2) {
		for (k = 0; k < us.inherited.n; k++) {
			e = table_add(t, NULL, 0, 0, 0, 0);
			if (!e)
				return -1;
			*e = us.inherited.e[k];
			e->origin |= ORIG_FORKED;
		}
	}
	if (!c)
		return 0;
	if (arena_init(&a, 2 * UK_NR, UP_SLOT_PAGES))
		return -1;
	for (k = 0; k < UK_NR; k++) {
		if (k != (c - 1) % UK_NR && k != (c + 2) % UK_NR &&
		    rng_below(&rng, 4))
			continue;
		if (up_map_kind(t, &a, k, &rng, 0))
			return -1;
	}
	return 0;
}

static void up_peek(const struct map_table *t, uint8_t bytes[][UP_PEEK])
{
	unsigned int i, b;

	for (i = 0; i < t->n; i++) {
		const volatile uint8_t *p =
			(const volatile uint8_t *)(uintptr_t)t->e[i].fn;

		for (b = 0; b < UP_PEEK; b++)
			bytes[i][b] = p ? p[b] : 0;
	}
}

static void up_child(unsigned int c, int cmd_fd, int reply_fd)
{
	static struct up_reply r;
	struct up_cmd cmd;
	target_fn *fn;
	unsigned long v;
	char desc[160];
	unsigned int i;

	alarm(UP_TIMEOUT_S * 2);
	if (!up_layout(c, &r.maps))
		check_table(&r.maps, us.ino);
	r.ok = !child_err[0];
	snprintf(r.err, sizeof(r.err), "%s", child_err);
	if (xfer_all(reply_fd, &r, sizeof(r), true))
		_exit(1);
	/* a failure reported is the parent's to print, not a death */
	if (!r.ok)
		_exit(0);
	while (xfer_all(cmd_fd, &cmd, sizeof(cmd), false) == 0) {
		r.calls = 0;
		if (cmd.op == UP_OP_PEEK) {
			up_peek(&r.maps, r.bytes);
		} else if (cmd.map < r.maps.n &&
			   up_callable(&r.maps.e[cmd.map])) {
			fn = (target_fn *)(uintptr_t)r.maps.e[cmd.map].fn;
			for (i = 0; i < cmd.calls; i++) {
				v = fn(UP_ARG);
				if (v != us.expected) {
					child_fail("%s: the target returned %#lx, expected %#lx",
						   describe_map(&r.maps.e[cmd.map],
								desc,
								sizeof(desc)),
						   v, us.expected);
					break;
				}
				r.calls++;
			}
		} else {
			child_fail("no callable mapping %u", cmd.map);
		}
		r.ok = !child_err[0];
		snprintf(r.err, sizeof(r.err), "%s", child_err);
		if (xfer_all(reply_fd, &r, sizeof(r), true))
			_exit(1);
	}
	_exit(0);
}

/*
 * Where the target lives: the executable, the text vma holding the
 * target and the target's file offset, from /proc/self/exe and
 * /proc/self/maps; its first bytes and its value, before any probe.
 */
static int up_find_self(struct result *res)
{
	uintptr_t fn = (uintptr_t)target_ptr;
	unsigned long start, end, off, inode;
	char line[PATH_MAX + 128], perms[8];
	bool found = false;
	struct stat st;
	ssize_t len;
	unsigned int b;
	FILE *f;

	len = readlink("/proc/self/exe", us.exe, sizeof(us.exe) - 1);
	if (len < 0) {
		fail(res, "readlink /proc/self/exe: %s", strerror(errno));
		return -1;
	}
	us.exe[len] = '\0';
	f = fopen("/proc/self/maps", "r");
	if (!f) {
		fail(res, "open /proc/self/maps: %s", strerror(errno));
		return -1;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %lu", &start, &end,
			   perms, &off, &inode) != 5)
			continue;
		found = fn >= start && fn < end;
	}
	fclose(f);
	if (!found || !strchr(perms, 'x')) {
		fail(res, "no executable vma holds pt_uprobe_target (%#lx) in /proc/self/maps",
		     (unsigned long)fn);
		return -1;
	}
	us.text = (struct map_entry){
		.addr = start, .fn = fn, .pgoff = off / page_size,
		.npages = (end - start) / page_size, .origin = ORIG_TEXT,
		.prot = PROT_READ | PROT_EXEC,
	};
	us.func_off = fn - start + off;
	us.exe_fd = open(us.exe, O_RDONLY);
	if (us.exe_fd < 0 || fstat(us.exe_fd, &st)) {
		fail(res, "open %s: %s", us.exe, strerror(errno));
		return -1;
	}
	if (st.st_ino != inode) {
		fail(res, "%s is inode %lu, the text vma maps inode %lu",
		     us.exe, (unsigned long)st.st_ino, inode);
		return -1;
	}
	us.ino = st.st_ino;
	us.file_pages = (st.st_size + page_size - 1) / page_size;
	us.first_page = us.func_off / page_size;
	us.last_page = (us.func_off + UP_SPAN - 1) / page_size;
	/* its code ends inside the text, whatever UP_SPAN says */
	us.last_page = min_u(us.last_page, us.text.pgoff + us.text.npages - 1);
	for (b = 0; b < UP_PEEK; b++)
		us.orig[b] = ((const volatile uint8_t *)fn)[b];
	us.expected = target_ptr(UP_ARG);
	return 0;
}

/* tracefs where /init mounted it, else mounted here */
static int up_tracing(struct result *res)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[PATH_MAX];
	unsigned int i;
	int merr = 0;

	for (;;) {
		for (i = 0; i < ARRAY_SIZE(dirs); i++) {
			snprintf(path, sizeof(path), "%s/uprobe_events",
				 dirs[i]);
			if (!access(path, W_OK)) {
				snprintf(us.tracing, sizeof(us.tracing), "%s",
					 dirs[i]);
				return 0;
			}
		}
		if (merr || !mount("tracefs", dirs[0], "tracefs", 0, NULL))
			break;
		merr = errno;
	}
	fail(res, "no uprobe_events in %s or %s (mounting tracefs on %s: %s): CONFIG_UPROBE_EVENTS?",
	     dirs[0], dirs[1], dirs[0], merr ? strerror(merr) : "no error");
	return -1;
}

/* Write @text to tracing file @file; 0, or -1 with errno. */
static int trace_write(const char *file, const char *text)
{
	size_t len = strlen(text);
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", us.tracing, file);
	/* never O_TRUNC: on uprobe_events that deletes every uprobe */
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	errno = err;
	return -1;
}

static const char *enable_file(void)
{
	static char file[64];

	snprintf(file, sizeof(file), "events/%s/%s/enable", probe_group,
		 probe_event);
	return file;
}

static const char *remove_cmd(void)
{
	static char cmd[64];

	snprintf(cmd, sizeof(cmd), "-:%s/%s\n", probe_group, probe_event);
	return cmd;
}

/* The hit count of our event in uprobe_profile ("  FILE EVENT HITS"). */
static int up_hits(unsigned long *hits, struct result *res)
{
	char path[PATH_MAX], line[PATH_MAX + 128], file[PATH_MAX], ev[128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uprobe_profile", us.tracing);
	f = fopen(path, "r");
	if (!f) {
		fail(res, "open %s: %s", path, strerror(errno));
		return -1;
	}
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%4095s %127s %lu", file, ev, hits) == 3 &&
			!strcmp(file, us.exe) && !strcmp(ev, probe_event);
	fclose(f);
	if (!found) {
		fail(res, "no line for %s %s in %s", us.exe, probe_event, path);
		return -1;
	}
	return 0;
}

static void hex_bytes(const uint8_t *bytes, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int b;

	buf[0] = '\0';
	for (b = 0; b < UP_PEEK && used < len; b++)
		used += snprintf(buf + used, len - used, "%s%02x",
				 b ? " " : "", bytes[b]);
}

/*
 * Whether @bytes are what the target's first bytes must be: the
 * breakpoint when @bp (int3 in front of the rest on x86; elsewhere just
 * not the original), else the original bytes.
 */
static bool up_bytes_ok(const uint8_t *bytes, bool bp)
{
	bool same = !memcmp(bytes, us.orig, UP_PEEK);

	if (!bp)
		return same;
#if defined(__x86_64__) || defined(__i386__)
	return bytes[0] == X86_INT3 && !memcmp(bytes + 1, us.orig + 1,
					       UP_PEEK - 1);
#else
	return !same;
#endif
}

/* One phase's expectation, for the checks and their FAIL lines. */
struct up_phase {
	const char *when;	/* "after registration" */
	bool bp;		/* breakpoints expected */
	const char *miss;	/* what a wrong peek means */
};

static void up_bad_bytes(const struct up_phase *ph, const char *who,
			 const struct map_entry *e, const uint8_t *bytes,
			 struct result *res)
{
	char got[32], want[32], desc[160];

	hex_bytes(bytes, got, sizeof(got));
	hex_bytes(us.orig, want, sizeof(want));
	fail(res, "%s, %s %s reads %s at the target (%#llx), expected %s%s: %s",
	     ph->when, who, describe_map(e, desc, sizeof(desc)), got,
	     (unsigned long long)e->fn, ph->bp ? "a breakpoint instead of " :
	     "", want, ph->miss);
}

/* Every child's mappings of the target, and the parent's text. */
static int up_peek_all(struct child *kids, struct map_table *tables,
		       const struct up_phase *ph, const char **lost,
		       struct result *res)
{
	static struct up_reply r;
	struct up_cmd cmd = { .op = UP_OP_PEEK };
	uint8_t mine[1][UP_PEEK];
	struct map_table self = { .n = 1, .e = { us.text } };
	char who[32];
	unsigned int c, i;

	up_peek(&self, mine);
	if (!up_bytes_ok(mine[0], ph->bp)) {
		up_bad_bytes(ph, "the parent's", &us.text, mine[0], res);
		return -1;
	}
	for (c = 0; c < UP_CHILDREN; c++) {
		if (xfer_all(kids[c].cmd_fd, &cmd, sizeof(cmd), true) ||
		    xfer_all(kids[c].reply_fd, &r, sizeof(r), false)) {
			lost[c] = ph->when;
			fail(res, "%s: no reply from child %u to a peek: %s",
			     ph->when, c, xfer_error());
			return -1;
		}
		if (!r.ok) {
			fail(res, "%s: child %u: %s", ph->when, c, r.err);
			return -1;
		}
		snprintf(who, sizeof(who), "child %u's", c);
		for (i = 0; i < tables[c].n; i++) {
			if (!tables[c].e[i].fn ||
			    up_bytes_ok(r.bytes[i], ph->bp))
				continue;
			up_bad_bytes(ph, who, &tables[c].e[i], r.bytes[i],
				     res);
			return -1;
		}
	}
	return 0;
}

/*
 * Each child in turn, UP_CALLS calls through each mapping it can call
 * the target from; after each batch the profile must have grown by
 * UP_CALLS when @ph->bp, else not at all.
 */
static int up_call_all(struct child *kids, struct map_table *tables,
		       const struct up_phase *ph, unsigned long *hits,
		       unsigned long *calls, const char **lost,
		       struct result *res)
{
	static struct up_reply r;
	struct up_cmd cmd = { .op = UP_OP_CALL, .calls = UP_CALLS };
	unsigned long now, want = ph->bp ? UP_CALLS : 0;
	char desc[160];
	unsigned int c, i;

	for (c = 0; c < UP_CHILDREN; c++) {
		for (i = 0; i < tables[c].n; i++) {
			const struct map_entry *e = &tables[c].e[i];

			if (!up_callable(e))
				continue;
			cmd.map = i;
			if (xfer_all(kids[c].cmd_fd, &cmd, sizeof(cmd), true) ||
			    xfer_all(kids[c].reply_fd, &r, sizeof(r), false)) {
				lost[c] = ph->when;
				fail(res, "%s: no reply from child %u to %u calls through its %s: %s",
				     ph->when, c, UP_CALLS,
				     describe_map(e, desc, sizeof(desc)),
				     xfer_error());
				return -1;
			}
			if (!r.ok || r.calls != UP_CALLS) {
				fail(res, "%s: child %u made %u of %u calls: %s",
				     ph->when, c, r.calls, UP_CALLS, r.err);
				return -1;
			}
			*calls += UP_CALLS;
			if (up_hits(&now, res))
				return -1;
			if (now - *hits != want) {
				fail(res, "%s: %u calls by child %u through its %s added %lu hits to uprobe_profile, expected %lu: %s",
				     ph->when, UP_CALLS, c,
				     describe_map(e, desc, sizeof(desc)),
				     now - *hits, want, ph->miss);
				return -1;
			}
			*hits = now;
		}
	}
	return 0;
}

/*
 * The parent's two vmas children UP_CHILDREN / 2 and later inherit: the
 * target's pages exactly, and read-only.
 */
static int up_inherited(struct arena *a, struct result *res)
{
	uint64_t rng = us.seed;

	child_err[0] = '\0';
	us.inherited.n = 0;
	if (arena_init(a, 2, UP_SLOT_PAGES) ||
	    up_map_kind(&us.inherited, a, UK_EXACT, &rng, 0) ||
	    up_map_kind(&us.inherited, a, UK_RDONLY, &rng, 0)) {
		fail(res, "the parent's vmas to inherit: %s", child_err);
		return -1;
	}
	return 0;
}

static bool test_uprobe(uint64_t seed)
{
	static const struct up_phase before = {
		"before the probe", false,
		"the mappings disagree before any probe exists",
	}, registered = {
		"after registration", true,
		"the register walk (build_map_info) missed that vma",
	}, unregistered = {
		"after unregistration", false,
		"the unregister walk missed that vma and left its breakpoint",
	};
	static struct up_reply ready;
	static struct map_table tables[UP_CHILDREN];
	struct child kids[UP_CHILDREN] = { { 0 } };
	const char *lost[UP_CHILDREN] = { NULL };
	unsigned long hits0 = 0, hits = 0, calls = 0, calls2 = 0;
	unsigned int c, i, vmas = 0, kinds = 0;
	bool defined = false, enabled = false;
	struct result res = { 0 };
	char cmd[PATH_MAX + 64], counts[256], how[96];
	struct arena a = { 0 };

	memset(&us, 0, sizeof(us));
	us.exe_fd = -1;
	us.seed = seed;
	arm_watchdog(UP_TIMEOUT_S);
	if (up_find_self(&res) || up_tracing(&res))
		goto out;
	/* a run that died with the event still there */
	trace_write(enable_file(), "0\n");
	trace_write("uprobe_events", remove_cmd());

	for (c = 0; c < UP_CHILDREN; c++) {
		if (c == UP_CHILDREN / 2 && up_inherited(&a, &res))
			goto out;
		if (spawn(kids, UP_CHILDREN, c, up_child, &res))
			goto out;
	}
	if (a.base) {
		munmap(a.base, a.slot_bytes * a.nslots);
		a.base = NULL;
	}
	for (c = 0; c < UP_CHILDREN; c++) {
		if (xfer_all(kids[c].reply_fd, &ready, sizeof(ready), false)) {
			lost[c] = "its setup";
			fail(&res, "no ready reply from child %u: %s", c,
			     xfer_error());
			goto out;
		}
		if (!ready.ok) {
			fail(&res, "child %u: %s", c, ready.err);
			goto out;
		}
		tables[c] = ready.maps;
		for (i = 0; i < tables[c].n; i++) {
			vmas += !!tables[c].e[i].fn;
			kinds |= tables[c].e[i].origin;
		}
	}
	if (up_peek_all(kids, tables, &before, lost, &res))
		goto out;

	snprintf(cmd, sizeof(cmd), "p:%s/%s %s:%#lx\n", probe_group,
		 probe_event, us.exe, us.func_off);
	if (trace_write("uprobe_events", cmd)) {
		cmd[strlen(cmd) - 1] = '\0';
		fail(&res, "write \"%s\" to %s/uprobe_events: %s", cmd,
		     us.tracing, strerror(errno));
		goto out;
	}
	defined = true;
	if (up_hits(&hits0, &res))
		goto out;
	hits = hits0;
	if (trace_write(enable_file(), "1\n")) {
		fail(&res, "enable %s/%s (uprobe_register): %s", us.tracing,
		     enable_file(), strerror(errno));
		goto out;
	}
	enabled = true;
	if (up_peek_all(kids, tables, &registered, lost, &res) ||
	    up_call_all(kids, tables, &registered, &hits, &calls, lost, &res))
		goto out;
	/* implied by the batches; stated, as it is the test's headline */
	if (hits - hits0 != calls) {
		fail(&res, "uprobe_profile counts %lu hits for %lu calls through probed mappings",
		     hits - hits0, calls);
		goto out;
	}

	if (trace_write(enable_file(), "0\n")) {
		fail(&res, "disable %s/%s (uprobe_unregister): %s", us.tracing,
		     enable_file(), strerror(errno));
		goto out;
	}
	enabled = false;
	if (up_peek_all(kids, tables, &unregistered, lost, &res) ||
	    up_call_all(kids, tables, &unregistered, &hits, &calls2, lost,
			&res))
		goto out;
	if (trace_write("uprobe_events", remove_cmd())) {
		fail(&res, "remove the event: write \"-:%s/%s\" to %s/uprobe_events: %s",
		     probe_group, probe_event, us.tracing, strerror(errno));
		goto out;
	}
	defined = false;
out:
	/* never leave a probe behind, whatever failed */
	if (enabled)
		trace_write(enable_file(), "0\n");
	if (defined)
		trace_write("uprobe_events", remove_cmd());
	reap_all(kids, UP_CHILDREN);
	for (c = 0; c < UP_CHILDREN; c++) {
		if (kids[c].pid <= 0 || kids[c].killed || !kids[c].status)
			continue;
		/* as for hwpoison: a signal death outranks the rest */
		if (WIFSIGNALED(kids[c].status))
			res.failed = false;
		fail(&res, "child %u %s%s%s%s", c,
		     describe_status(kids[c].status, how, sizeof(how)),
		     lost[c] ? " during the peeks or calls " : "",
		     lost[c] ? lost[c] : "",
		     lost[c] == unregistered.when &&
		     WIFSIGNALED(kids[c].status) &&
		     WTERMSIG(kids[c].status) == SIGTRAP ?
		     ": it ran into a breakpoint whose uprobe is gone, which the unregister walk missed" :
		     "");
		break;
	}
	if (timed_out && !res.failed)
		fail(&res, "timed out after %d s", UP_TIMEOUT_S);
	alarm(0);
	if (a.base)
		munmap(a.base, a.slot_bytes * a.nslots);
	if (us.exe_fd >= 0)
		close(us.exe_fd);
	snprintf(counts, sizeof(counts),
		 "procs=%d hits=%lu vmas=%u calls=%lu calls_unprobed=%lu forked=%s trimmed=%s moved=%s",
		 UP_CHILDREN, hits - hits0, vmas, calls, calls2,
		 kinds & ORIG_FORKED ? "yes" : "no",
		 kinds & (ORIG_TRIM_HEAD | ORIG_TRIM_TAIL) ? "yes" : "no",
		 kinds & ORIG_MOVED ? "yes" : "no");
	print_result("uprobe", &res, counts);
	return !res.failed;
}

/* ----------------------------------------------------------------- main */

static void __noreturn usage(void)
{
	fprintf(stderr,
		"usage: iusers [-s SEED] DIR\n"
		"  DIR   a directory on tmpfs for the hwpoison test's files\n"
		"  -s    seed of the layouts (default 1)\n"
		"Runs the hwpoison and uprobe tests; for the test guest only.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = watchdog };
	uint64_t seed = 1;
	struct stat st;
	bool ok = true;
	int opt;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		switch (opt) {
		case 's':
			if (!guest_option("iusers", opt, optarg, 0, UINT64_MAX,
					  &seed))
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "iusers: expected one DIR, got %d arguments\n",
			argc - optind);
		usage();
	}
	if (stat(argv[optind], &st)) {
		fprintf(stderr, "iusers: %s: %s\n", argv[optind],
			strerror(errno));
		usage();
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iusers: %s: not a directory\n", argv[optind]);
		usage();
	}
	page_size = sysconf(_SC_PAGESIZE);
	page_shift = __builtin_ctzl(page_size);
	/* no SA_RESTART: the watchdog must interrupt a blocked read */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	ok &= test_hwpoison(argv[optind], seed);
	ok &= test_uprobe(seed);
	return ok ? 0 : 1;
}
