/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest.h - what the guest programs share: the pagemap and page_idle
 * interfaces, option numbers, loads or stores that may fault, a
 * monotonic clock, CPU pinning and the NUMA node count.  Header-only, so each program still
 * builds from its one .c file ("cc -static -O2 mmapwork.c" finds this
 * header beside it); each defines _GNU_SOURCE before any include.
 */
#ifndef PT_GUEST_H
#define PT_GUEST_H

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define __noreturn	__attribute__((noreturn))

/* /proc/PID/pagemap: one 64-bit entry per virtual page */
#define PFN_MASK	((1ULL << 55) - 1)
#define PAGE_PRESENT	(1ULL << 63)

static const char idle_bitmap_path[] = "/sys/kernel/mm/page_idle/bitmap";
static const char pagemap_path[] = "/proc/self/pagemap";

/*
 * The pagemap entry of the page at @addr, read from @pagemap_fd (open on
 * pagemap_path).  Returns 0, or -1 with errno set (EIO for a short read).
 * The PFN (entry & PFN_MASK) reads 0 without CAP_SYS_ADMIN.
 */
static inline int pagemap_entry(int pagemap_fd, const void *addr,
				size_t page_size, uint64_t *entry)
{
	off_t off = (off_t)((uintptr_t)addr / page_size * sizeof(*entry));
	ssize_t n = pread(pagemap_fd, entry, sizeof(*entry), off);

	if (n == (ssize_t)sizeof(*entry))
		return 0;
	if (n >= 0)
		errno = EIO;
	return -1;
}

/* ----------------------------------------------------- command lines */

/*
 * The value of option -@opt of program @prog: @arg as a decimal number in
 * [@min, @max], digits only (no sign, no base prefix, no blanks), as
 * /init writes them.  Anything else is named on stderr, with the range,
 * and returns false, leaving *@value alone; the caller prints its usage.
 */
static inline bool guest_option(const char *prog, int opt, const char *arg,
				uint64_t min, uint64_t max, uint64_t *value)
{
	uint64_t v = 0, digit;
	const char *p;

	for (p = arg; *p; p++) {
		if (*p < '0' || *p > '9')
			break;
		digit = (uint64_t)(*p - '0');
		if (v > (UINT64_MAX - digit) / 10)
			break;
		v = v * 10 + digit;
	}
	if (p == arg || *p || v < min || v > max) {
		fprintf(stderr, "%s: -%c %s: expected a decimal number from %llu to %llu\n",
			prog, opt, arg, (unsigned long long)min,
			(unsigned long long)max);
		return false;
	}
	*value = v;
	return true;
}

/* ------------------------------------------------ accesses that may fault */

static sigjmp_buf probe_env;
static volatile sig_atomic_t probing;

static void probe_fault(int sig)
{
	if (probing)
		siglongjmp(probe_env, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Route SIGBUS and SIGSEGV to probe_word(); outside it they kill as usual. */
static inline void probe_install(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = probe_fault;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
}

/*
 * Load (or store, when @store) one word at @addr.  Returns 0 when the
 * access completed, else the signal it raised (SIGBUS for a page beyond
 * EOF, SIGSEGV for no mapping).  Needs probe_install().
 */
static inline int probe_word(volatile uint64_t *addr, uint64_t *value,
			     bool store)
{
	int sig;

	probing = 1;
	sig = sigsetjmp(probe_env, 1);
	if (sig == 0) {
		if (store)
			*addr = *value;
		else
			*value = *addr;
	}
	probing = 0;
	return sig;
}

/* ------------------------------------------------- time, CPUs and nodes */

static inline double guest_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Run on CPU @cpu modulo the CPUs online; nothing on one CPU.  The
 * racing programs put each side of a race on its own CPU, so the two
 * really run at once under multi-threaded TCG.
 */
static inline void guest_pin(int cpu)
{
	int ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (ncpus < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % ncpus, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* NUMA nodes in sysfs: 2 with numa=fake=2. */
static inline int guest_nnodes(void)
{
	char path[64];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK))
			return n;
		n++;
	}
}

#endif /* PT_GUEST_H */
