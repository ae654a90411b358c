// SPDX-License-Identifier: GPL-2.0
/*
 * ptbench - the prio tree against other interval indexes on the same
 * intervals, in one process.  Every subject builds the index (insert
 * phase), answers every query (query phase) and takes the index down in
 * one random order (remove phase).  Runs are interleaved and rotated:
 * run r measures subject (k + r) mod S in slot k, so no subject always
 * goes first or follows the same neighbour.  Each phase is reported as
 * the median over the runs of ns per operation.  Every run of every
 * subject must return the same number of hits and the same
 * order-independent hash of the hit ids as the first; if not, ptbench
 * says so and exits 1.
 *
 * Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID).  The two
 * vCPUs of the machines this runs on need not be alike: on one of them
 * the same code has taken 1.7 times as long as on the other, and the
 * ratios between subjects moved with it.  So --cpu N pins the process to
 * CPU N, each run checks that it is still there, and the CSV says which
 * CPU a row was measured on ("any" when unpinned).
 *
 * With --callgrind (run it under valgrind --tool=callgrind
 * --instr-atstart=no), it does one run, searches at most CG_QUERIES
 * queries once each, and instruments only the phases:
 * each is zeroed, started, stopped and dumped with a label
 * "ptbench <workload> <n> <subject> <phase> <ops>", so the dump's total is
 * that phase's instructions.
 *
 * Node visits per query (hits included), where a subject can count them,
 * come from one extra untimed pass over a sample of the queries during
 * the first run, next to log2(n) + m.
 *
 * Workloads:
 *   itest     lib/interval_tree_test.c's defaults: 100 intervals with
 *             random 32-bit endpoints, built and torn down 1000 times,
 *             100 random point queries searched 1000 times (about 31
 *             hits per query)
 *   small     100,000 intervals of 1-32 in [0, 10^6), point queries
 *   rmap      rmap-test's shape: 100 ranges of 600 pages one page apart,
 *             each mapped by 100 processes; a query per page
 *   mmap3     test-mmap3's shape: 18,000 one-page ranges in reverse
 *             order, each mapped 8 times; a query per page
 *   random    1,000,000 intervals of 1-1000 in [0, 10^9), range queries
 *             of 1-10,000
 *   manyhits  100,000 intervals of 1-200,000 in [0, 10^6), point queries
 *             (about 10,000 hits per query)
 *   shrink    small, after one interval of 2^40 values was inserted and
 *             removed again in the insert phase (not for a subject
 *             without remove)
 *   scale     --n intervals of 1-32 in [0, 16n), 100,000 point queries
 *             (about one hit per query)
 */
#define _GNU_SOURCE		/* sched_setaffinity(), sched_getcpu() */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

#include <linux/mmdebug.h>

#include "bench.h"

#define MAX_RUNS	201
#define NR_PHASES	3
#define VISIT_SAMPLE	2000
#define CG_QUERIES	10000
/* the list runs only when n * queries stays below this */
#define LIST_LIMIT	100000000UL

static const struct bench_ops *const subjects[] = {
	&prio_vma_ops, &prio_inline_ops, &prio_node_ops, &priotree_ops,
	&priotree_batch_ops, &priotree_build_ops,
	&itree_ops, &itree_ool_ops, &itree_vma_ops,
	&bsdrb_ops, &iitree_ops, &list_ops,
};
#define NR_SUBJECTS	(sizeof(subjects) / sizeof(subjects[0]))

static const char *const phase_name[NR_PHASES] = {
	"insert", "query", "remove",
};

struct workload {
	const char *name;
	unsigned long nr;		/* intervals */
	/*
	 * Intervals nr .. nr + nr_transient - 1: inserted after the others
	 * and removed again, all in the insert phase, so that the queries
	 * and the remove phase see the index they leave behind.
	 */
	unsigned long nr_transient;
	unsigned long *start, *last;
	unsigned long nr_queries;	/* distinct queries */
	unsigned long repeat;		/* searches of the query set */
	unsigned long *qfirst, *qlast;
	unsigned long *remove_order;
};

static unsigned long long rng_state = 0x2545f4914f6cdd1dULL;

static unsigned long rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned long)rng_state;
}

/*
 * Every subject's nodes live in one zeroed array of @n slots of @size
 * bytes.  The array starts on a cache line (64 bytes on x86-64), as
 * slab's objects of a 64-byte cache do, so which nodes straddle two lines
 * depends only on the node size, never on where malloc() put the array.
 * An array of 2 MiB or more is also backed by transparent huge pages
 * where the machine lets madvise() ask for them: the kernel's slab
 * objects sit in its direct map, which is mapped with huge pages, so a
 * walk over them does not miss in the TLB at every node the way a
 * userspace walk over 4 KiB pages does at n = 10^6.  Every subject gets
 * the same kind of memory; --pages small asks for none.
 */
#define BENCH_LINE	64
#define BENCH_HUGE	(2UL << 20)

/* --pages small: 4 KiB pages only, as in every run before 2026-12-07 */
static int small_pages;

void *bench_nodes(unsigned long n, size_t size)
{
	size_t bytes, align;
	void *p;

	if (size && n > (SIZE_MAX - BENCH_HUGE) / size)
		return NULL;
	bytes = (n ? n : 1) * size;
	align = small_pages || bytes < BENCH_HUGE ? BENCH_LINE : BENCH_HUGE;
	bytes = (bytes + align - 1) & ~(align - 1);
	p = aligned_alloc(align, bytes);
	if (!p)
		return NULL;
	/* a hint: where THP is off the array is still correct, just slower */
	if (align == BENCH_HUGE)
		madvise(p, bytes, MADV_HUGEPAGE);
	memset(p, 0, bytes);
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "ptbench: out of memory\n");
		exit(1);
	}
	return p;
}

static void alloc_workload(struct workload *w, unsigned long nr,
			   unsigned long nr_queries)
{
	w->nr = nr;
	w->start = xcalloc(nr + w->nr_transient, sizeof(long));
	w->last = xcalloc(nr + w->nr_transient, sizeof(long));
	w->nr_queries = nr_queries;
	w->repeat = 1;
	w->qfirst = xcalloc(nr_queries, sizeof(long));
	w->qlast = xcalloc(nr_queries, sizeof(long));
	w->remove_order = xcalloc(nr, sizeof(long));
}

/* @maps ranges of @size pages one page apart, each mapped @procs times */
static void gen_rmap_test(struct workload *w, unsigned long maps,
			  unsigned long size, unsigned long procs)
{
	unsigned long p, m, i = 0, pages = maps + size - 1;

	alloc_workload(w, maps * procs, pages);
	for (p = 0; p < procs; p++)
		for (m = 0; m < maps; m++, i++) {
			w->start[i] = m;
			w->last[i] = m + size - 1;
		}
	for (p = 0; p < pages; p++)
		w->qfirst[p] = w->qlast[p] = p;
}

/* @pages one-page ranges in reverse file order, each mapped @procs times */
static void gen_test_mmap(struct workload *w, unsigned long pages,
			  unsigned long procs)
{
	unsigned long p, k, i = 0;

	alloc_workload(w, pages * procs, pages);
	for (p = 0; p < procs; p++)
		for (k = pages; k-- > 0; i++)
			w->start[i] = w->last[i] = k;
	for (k = 0; k < pages; k++)
		w->qfirst[k] = w->qlast[k] = k;
}

/*
 * @nr intervals of 1..@maxlen in [0, @space), @nq queries of
 * 1..@qlen values starting in [0, @space).
 */
static void gen_uniform(struct workload *w, unsigned long nr,
			unsigned long space, unsigned long maxlen,
			unsigned long nq, unsigned long qlen)
{
	unsigned long i, len;

	alloc_workload(w, nr, nq);
	for (i = 0; i < nr; i++) {
		len = 1 + rng() % maxlen;
		w->start[i] = rng() % (space - len + 1);
		w->last[i] = w->start[i] + len - 1;
	}
	for (i = 0; i < nq; i++) {
		w->qfirst[i] = rng() % space;
		w->qlast[i] = w->qfirst[i] + rng() % qlen;
	}
}

/* lib/interval_tree_test.c: nnodes 100, nsearches 100, perf_loops 1000 */
static void gen_itest(struct workload *w)
{
	unsigned long i, a, b;

	alloc_workload(w, 100, 100);
	w->repeat = 1000;
	for (i = 0; i < w->nr; i++) {
		a = rng() & 0xffffffffUL;
		b = rng() & 0xffffffffUL;
		w->start[i] = a < b ? a : b;
		w->last[i] = a < b ? b : a;
	}
	for (i = 0; i < w->nr_queries; i++)
		w->qfirst[i] = w->qlast[i] = rng() & 0xffffffffUL;
}

/*
 * small's intervals and queries, in an index that one interval of 2^40
 * values came through: inserted after small's and removed again before
 * the queries.  While it is in, a prio tree needs 40 index bits, where
 * small's intervals need 20.  A tree that kept them once it left, as
 * the seed's did until the tree emptied, would start every query with a
 * chain of 20 left children; an index without such a memory answers the
 * queries of this workload as it answers small's.
 */
static void gen_shrink(struct workload *w)
{
	w->nr_transient = 1;
	gen_uniform(w, 100000, 1000000, 32, 100000, 1);
	w->start[w->nr] = 0;
	w->last[w->nr] = (1UL << 40) - 1;
}

static int gen_workload(struct workload *w, const char *name, unsigned long n)
{
	w->name = name;
	w->nr_transient = 0;
	if (!strcmp(name, "itest"))
		gen_itest(w);
	else if (!strcmp(name, "small"))
		gen_uniform(w, 100000, 1000000, 32, 100000, 1);
	else if (!strcmp(name, "rmap"))
		gen_rmap_test(w, 100, 600, 100);
	else if (!strcmp(name, "mmap3"))
		gen_test_mmap(w, 18000, 8);
	else if (!strcmp(name, "random"))
		gen_uniform(w, 1000000, 1000000000, 1000, 100000, 10000);
	else if (!strcmp(name, "manyhits"))
		gen_uniform(w, 100000, 1000000, 200000, 200, 1);
	else if (!strcmp(name, "shrink"))
		gen_shrink(w);
	else if (!strcmp(name, "scale") && n)
		gen_uniform(w, n, 16 * n, 32, 100000, 1);
	else
		return -EINVAL;
	return 0;
}

/*
 * The thread's CPU time: on shared cores, the time the run spends
 * preempted is not the subject's.  (Cache and memory-bandwidth sharing
 * with the other jobs is still in it.)
 */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct subject {
	const struct bench_ops *ops;
	int runs;			/* runs done */
	int capped;			/* a run took longer than --cap */
	double t[NR_PHASES][MAX_RUNS];	/* seconds per phase and run */
	unsigned long hits, sum;
	double visits, vhits;		/* per query sampled; < 0: n/a */
};

static int callgrind;
static const char *fault;	/* --fault NAME: that subject miscounts */
static int pinned_cpu = -1;	/* --cpu N, or -1 */

static void phase_begin(void)
{
#ifdef HAVE_CALLGRIND
	if (callgrind) {
		CALLGRIND_ZERO_STATS;
		CALLGRIND_START_INSTRUMENTATION;
	}
#endif
}

static void phase_end(const struct workload *w, const struct subject *s,
		      int phase, unsigned long ops)
{
#ifdef HAVE_CALLGRIND
	char label[160];

	if (!callgrind)
		return;
	CALLGRIND_STOP_INSTRUMENTATION;
	snprintf(label, sizeof(label), "ptbench %s %lu %s %s %lu", w->name,
		 w->nr, s->ops->name, phase_name[phase], ops);
	CALLGRIND_DUMP_STATS_AT(label);
#endif
}

/* Untimed: nodes visited and hits per query, over a sample of queries. */
static void count_visits(struct subject *s, void *ix,
			 const struct workload *w)
{
	unsigned long i, step, nq = 0, v = 0, hits = 0, sum = 0;

	step = w->nr_queries / VISIT_SAMPLE + 1;
	for (i = 0; i < w->nr_queries; i += step, nq++) {
		v += s->ops->visits(ix, w->qfirst[i], w->qlast[i]);
		s->ops->query(ix, w->qfirst[i], w->qlast[i], &hits, &sum);
	}
	s->visits = (double)v / nq;
	s->vhits = (double)hits / nq;
}

/*
 * One run of one subject: insert, query, remove; 0 or -errno.  A
 * workload with repeat > 1 (itest) builds and tears down the index that
 * many times, as interval_tree_test's perf loops do, and answers the
 * query set that many times on the last build; under callgrind, once.
 */
static int run_one(struct subject *s, const struct workload *w, int r,
		   int first_run)
{
	const struct bench_ops *ops = s->ops;
	unsigned long i, q, c, hits = 0, sum = 0;
	unsigned long cycles = callgrind ? 1 : w->repeat;
	double t;
	void *ix;

	s->t[0][r] = s->t[1][r] = s->t[2][r] = 0;
	for (c = 0; c < cycles; c++) {
		ix = ops->create(w->nr + w->nr_transient);
		if (!ix) {
			fprintf(stderr, "ptbench: %s: out of memory\n",
				ops->name);
			return -ENOMEM;
		}
		phase_begin();
		t = now();
		for (i = 0; i < w->nr + w->nr_transient; i++)
			ops->insert(ix, i, w->start[i], w->last[i]);
		if (ops->build)
			ops->build(ix);
		for (i = w->nr; i < w->nr + w->nr_transient; i++)
			ops->remove(ix, i);
		s->t[0][r] += now() - t;
		phase_end(w, s, 0, w->nr);

		if (c == cycles - 1) {
			phase_begin();
			t = now();
			for (q = 0; q < w->repeat; q++)
				for (i = 0; i < w->nr_queries; i++)
					ops->query(ix, w->qfirst[i],
						   w->qlast[i], &hits, &sum);
			s->t[1][r] = now() - t;
			phase_end(w, s, 1, w->repeat * w->nr_queries);
			if (fault && !strcmp(fault, ops->name))
				hits++;

			if (first_run && ops->visits)
				count_visits(s, ix, w);
		}

		if (ops->remove) {
			phase_begin();
			t = now();
			for (i = 0; i < w->nr; i++)
				ops->remove(ix, w->remove_order[i]);
			s->t[2][r] += now() - t;
			phase_end(w, s, 2, w->nr);
		}
		ops->destroy(ix);
	}

	if (first_run) {
		s->hits = hits;
		s->sum = sum;
	} else if (hits != s->hits || sum != s->sum) {
		fprintf(stderr,
			"ptbench: %s: %s run %d: %lu hits (hash %lx), run 0 had %lu (%lx)\n",
			w->name, ops->name, r, hits, sum, s->hits, s->sum);
		return -EINVAL;
	}
	return 0;
}

/*
 * What the measured library checks, from the flags ptbench and the
 * library were compiled with (the same: bench/tree/meson.build), for
 * run.sh's record of a run.
 */
static void print_build_info(void)
{
#ifdef CONFIG_PRIO_TREE_DEBUG
	const char *tree_debug = "on";
#else
	const char *tree_debug = "off";
#endif

	printf("VM_BUG_ON %s (CONFIG_DEBUG_VM=%d), CONFIG_PRIO_TREE_DEBUG %s\n",
	       CONFIG_DEBUG_VM ? "compiled in" : "compiled out",
	       CONFIG_DEBUG_VM, tree_debug);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ptbench [--workload itest|small|rmap|mmap3|random|manyhits|shrink|scale]\n"
		"               [--n N (scale)] [--runs N] [--only NAME,...]\n"
		"               [--cap SECONDS] [--csv FILE] [--callgrind] [--cpu N]\n"
		"               [--pages huge|small]\n"
		"               [--fault NAME (test: NAME reports one hit too many)]\n"
		"       ptbench --build-info\n"
		"subjects:");
	for (unsigned int k = 0; k < NR_SUBJECTS; k++)
		fprintf(stderr, " %s", subjects[k]->name);
	fprintf(stderr, "\n");
	exit(2);
}

static int selected(const char *only, const char *name)
{
	size_t len = strlen(name);
	const char *p = only;

	if (!only)
		return 1;
	while ((p = strstr(p, name))) {
		if ((p == only || p[-1] == ',') &&
		    (p[len] == ',' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/*
 * A numeric option's argument: all of it a number in [@min, @max], or
 * exit 2 naming the option and what it expects.
 */
static unsigned long parse_number(const char *opt, const char *arg,
				  unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min ||
	    v > max) {
		fprintf(stderr,
			"ptbench: %s %s: expected a whole number from %lu to %lu\n",
			opt, arg, min, max);
		exit(2);
	}
	return v;
}

static double parse_seconds(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0) || v > 86400) {
		fprintf(stderr,
			"ptbench: --cap %s: expected seconds from 0 to 86400\n",
			arg);
		exit(2);
	}
	return v;
}

/* Run on @cpu only, from here on; a CPU this process may not use fails. */
static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "ptbench: --cpu %d: cannot run there: %s\n",
			cpu, strerror(errno));
		exit(2);
	}
}

/*
 * After each run: a pinned process must still be on its CPU (the
 * affinity could have been changed from outside, by taskset -p).
 */
static int check_cpu(void)
{
	int cpu;

	if (pinned_cpu < 0)
		return 0;
	cpu = sched_getcpu();
	if (cpu == pinned_cpu)
		return 0;
	fprintf(stderr, "ptbench: pinned to CPU %d, but a run ended on %d\n",
		pinned_cpu, cpu);
	return -1;
}

static double per_op(double secs, unsigned long ops)
{
	return ops ? secs * 1e9 / ops : 0;
}

int main(int argc, char **argv)
{
	struct subject subj[NR_SUBJECTS], *s, *ref = NULL;
	const char *workload = "rmap", *only = NULL, *csv = NULL;
	unsigned long n = 0, i, j, tmp, ops[NR_PHASES];
	unsigned int nr = 0, k;
	double cap = 0, t, ns[NR_PHASES], m;
	struct workload w;
	int runs = 5, a, r, p, failed = 0;
	char cpu_name[16] = "any";
	FILE *out = NULL;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--workload") && a + 1 < argc)
			workload = argv[++a];
		else if (!strcmp(argv[a], "--n") && a + 1 < argc)
			n = parse_number("--n", argv[++a], 1, 1000000000);
		else if (!strcmp(argv[a], "--runs") && a + 1 < argc)
			runs = parse_number("--runs", argv[++a], 1, MAX_RUNS);
		else if (!strcmp(argv[a], "--only") && a + 1 < argc)
			only = argv[++a];
		else if (!strcmp(argv[a], "--cap") && a + 1 < argc)
			cap = parse_seconds(argv[++a]);
		else if (!strcmp(argv[a], "--csv") && a + 1 < argc)
			csv = argv[++a];
		else if (!strcmp(argv[a], "--callgrind"))
			callgrind = 1;
		else if (!strcmp(argv[a], "--cpu") && a + 1 < argc)
			pinned_cpu = parse_number("--cpu", argv[++a], 0,
						  CPU_SETSIZE - 1);
		else if (!strcmp(argv[a], "--pages") && a + 1 < argc) {
			a++;
			if (!strcmp(argv[a], "small"))
				small_pages = 1;
			else if (strcmp(argv[a], "huge")) {
				fprintf(stderr, "ptbench: --pages: expected huge or small, got '%s'\n",
					argv[a]);
				return 2;
			}
		} else if (!strcmp(argv[a], "--fault") && a + 1 < argc)
			fault = argv[++a];
		else if (!strcmp(argv[a], "--build-info")) {
			print_build_info();
			return 0;
		} else
			usage();
	}
#ifndef HAVE_CALLGRIND
	if (callgrind) {
		fprintf(stderr, "ptbench: built without <valgrind/callgrind.h>\n");
		return 2;
	}
#endif
	if (pinned_cpu >= 0)
		pin_to_cpu(pinned_cpu);
	if (callgrind)
		runs = 1;
	if (gen_workload(&w, workload, n))
		usage();
	if (callgrind) {
		w.repeat = 1;
		if (w.nr_queries > CG_QUERIES)
			w.nr_queries = CG_QUERIES;
	}
	/* teardown in a random order, the same for every subject */
	for (i = 0; i < w.nr; i++)
		w.remove_order[i] = i;
	for (i = w.nr; i > 1; i--) {
		j = rng() % i;
		tmp = w.remove_order[i - 1];
		w.remove_order[i - 1] = w.remove_order[j];
		w.remove_order[j] = tmp;
	}

	for (k = 0; k < NR_SUBJECTS; k++) {
		if (!selected(only, subjects[k]->name))
			continue;
		if (subjects[k] == &list_ops && !only &&
		    w.nr * w.nr_queries > LIST_LIMIT)
			continue;
		/* a static index cannot take the transient intervals out */
		if (w.nr_transient && !subjects[k]->remove) {
			fprintf(stderr, "ptbench: %s: %s has no remove: left out\n",
				w.name, subjects[k]->name);
			continue;
		}
		memset(&subj[nr], 0, sizeof(subj[nr]));
		subj[nr].ops = subjects[k];
		subj[nr].visits = -1;
		nr++;
	}
	if (!nr)
		usage();

	for (r = 0; r < runs; r++) {
		for (k = 0; k < nr; k++) {
			s = &subj[(k + r) % nr];
			if (s->capped)
				continue;
			t = now();
			if (run_one(s, &w, s->runs, !s->runs) || check_cpu())
				return 1;
			s->runs++;
			if (cap && now() - t > cap && s->runs < runs) {
				s->capped = 1;
				fprintf(stderr,
					"ptbench: %s %lu: %s took %.1f s > --cap %.1f: %d runs only\n",
					w.name, w.nr, s->ops->name, now() - t,
					cap, s->runs);
			}
		}
	}

	/* all subjects against the first one */
	ref = &subj[0];
	for (k = 1; k < nr; k++) {
		if (subj[k].hits == ref->hits && subj[k].sum == ref->sum)
			continue;
		fprintf(stderr,
			"ptbench: %s: %s disagrees with %s: %lu hits (hash %lx) vs %lu (%lx)\n",
			w.name, subj[k].ops->name, ref->ops->name, subj[k].hits,
			subj[k].sum, ref->hits, ref->sum);
		failed = 1;
	}

	ops[0] = ops[2] = w.nr * (callgrind ? 1 : w.repeat);
	ops[1] = w.repeat * w.nr_queries;
	if (pinned_cpu >= 0)
		snprintf(cpu_name, sizeof(cpu_name), "%d", pinned_cpu);
	printf("workload %s: %lu intervals", w.name, w.nr);
	if (w.nr_transient)
		printf(" (and %lu that came and went)", w.nr_transient);
	printf(", %lu queries (%lu x %lu), %lu hits (%.1f per query)%s, cpu %s, %s pages\n",
	       ops[1], w.repeat, w.nr_queries, ref->hits,
	       (double)ref->hits / ops[1], callgrind ? ", callgrind" : "",
	       cpu_name, small_pages ? "small" : "huge");
	printf("%-11s %4s %10s %10s %10s %10s %10s %12s  %s\n", "subject",
	       "runs", "insert ns", "query ns", "remove ns", "visits/q",
	       "hits/q", "log2(n)+m", "what");
	if (csv) {
		out = fopen(csv, "a");
		if (!out) {
			perror(csv);
			return 1;
		}
	}
	for (k = 0; k < nr; k++) {
		s = &subj[k];
		for (p = 0; p < NR_PHASES; p++)
			ns[p] = (p == 2 && !s->ops->remove) ? NAN :
				per_op(median(s->t[p], s->runs), ops[p]);
		m = s->visits < 0 ? NAN :
			log2(w.nr > 1 ? (double)w.nr : 1) + s->vhits;
		printf("%-11s %4d %10.1f %10.1f %10.1f %10.1f %10.1f %12.1f  %s\n",
		       s->ops->name, s->runs, ns[0], ns[1], ns[2],
		       s->visits < 0 ? NAN : s->visits,
		       s->visits < 0 ? NAN : s->vhits, m, s->ops->what);
		if (out && !callgrind)
			fprintf(out, "%s,%lu,%lu,%s,%d,%.2f,%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%s\n",
				w.name, w.nr, ops[1], s->ops->name, s->runs,
				ns[0], ns[1], ns[2],
				(double)ref->hits / ops[1],
				s->visits < 0 ? NAN : s->visits,
				s->visits < 0 ? NAN : s->vhits, m, cpu_name);
	}
	if (out)
		fclose(out);
	return failed;
}
