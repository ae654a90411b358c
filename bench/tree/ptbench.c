// SPDX-License-Identifier: GPL-2.0
/*
 * ptbench - the prio tree against its peers on the same intervals:
 * the Linux interval tree that replaced it in 3.7, and the linear list it
 * replaced in 2004.  Each structure builds the index, answers a stabbing
 * query for every file page, and tears the index down in random order;
 * every run of every structure must report the same hits, or ptbench
 * fails.  Times are medians of --runs runs, all in one process, on one
 * generated data set.
 *
 * Workloads (the shapes of the seed's benchmarks, as i_mmap sees them):
 *   rmap-test1  ./rmap-test -n 100 -s 600 -t 100: 100 mappings of 600
 *               pages, one page apart, in 101 processes (10,100 vmas)
 *   rmap-test3  ./rmap-test -n 10000 -s 7 -t 1: 10,000 mappings of 7 pages
 *               in 2 processes (20,000 vmas)
 *   test-mmap3  20,000 one-page mappings in reverse file order, then five
 *               forks (120,000 vmas)
 *   random      N random intervals of 1-1000 pages in a 1M-page file
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define MAX_RUNS	100

struct workload {
	unsigned long nr;		/* intervals */
	unsigned long *start, *last;
	unsigned long nr_queries;
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

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

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
	w->start = xcalloc(nr, sizeof(long));
	w->last = xcalloc(nr, sizeof(long));
	w->nr_queries = nr_queries;
	w->qfirst = xcalloc(nr_queries, sizeof(long));
	w->qlast = xcalloc(nr_queries, sizeof(long));
	w->remove_order = xcalloc(nr, sizeof(long));
}

/* @maps mappings of @size pages one page apart, in @procs processes */
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

/* @pages one-page mappings in reverse file order, in @procs processes */
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

static void gen_random(struct workload *w, unsigned long nr)
{
	unsigned long i, len;

	alloc_workload(w, nr, 20000);
	for (i = 0; i < nr; i++) {
		len = 1 + rng() % 1000;
		w->start[i] = rng() % (1000000 - len);
		w->last[i] = w->start[i] + len - 1;
	}
	for (i = 0; i < w->nr_queries; i++) {
		w->qfirst[i] = rng() % 1000000;
		w->qlast[i] = w->qfirst[i] + (i & 1 ? 0 : rng() % 64);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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

struct result {
	double build, query, remove;
	unsigned long hits, sum;
};

static int run(const struct bench_ops *ops, const struct workload *w,
	       int runs, struct result *res)
{
	double build[MAX_RUNS], query[MAX_RUNS], remove[MAX_RUNS], t;
	unsigned long i, hits, sum;
	void *ix;
	int r;

	for (r = 0; r < runs; r++) {
		ix = ops->create(w->nr);
		if (!ix) {
			fprintf(stderr, "ptbench: %s: out of memory\n", ops->name);
			return -ENOMEM;
		}
		t = now();
		for (i = 0; i < w->nr; i++)
			ops->insert(ix, i, w->start[i], w->last[i]);
		build[r] = now() - t;

		hits = sum = 0;
		t = now();
		for (i = 0; i < w->nr_queries; i++)
			ops->query(ix, w->qfirst[i], w->qlast[i], &hits, &sum);
		query[r] = now() - t;

		t = now();
		for (i = 0; i < w->nr; i++)
			ops->remove(ix, w->remove_order[i]);
		remove[r] = now() - t;
		ops->destroy(ix);

		if (r && (hits != res->hits || sum != res->sum)) {
			fprintf(stderr, "ptbench: %s: run %d disagrees with run 0\n",
				ops->name, r);
			return -EINVAL;
		}
		res->hits = hits;
		res->sum = sum;
	}
	res->build = median(build, runs);
	res->query = median(query, runs);
	res->remove = median(remove, runs);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ptbench [--workload rmap-test1|rmap-test3|test-mmap3|random]\n"
		"               [--runs N] [--only prio|itree|list] [--random-n N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const struct bench_ops *all[] = { &prio_vma_ops, &itree_ops, &list_ops };
	const char *workload = "rmap-test1", *only = NULL;
	unsigned long random_n = 20000, i, j, tmp;
	struct result res[3], *base = NULL;
	struct workload w;
	int runs = 5, k, a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--workload") && a + 1 < argc)
			workload = argv[++a];
		else if (!strcmp(argv[a], "--runs") && a + 1 < argc)
			runs = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--only") && a + 1 < argc)
			only = argv[++a];
		else if (!strcmp(argv[a], "--random-n") && a + 1 < argc)
			random_n = strtoul(argv[++a], NULL, 0);
		else
			usage();
	}
	if (runs < 1 || runs > MAX_RUNS)
		usage();

	if (!strcmp(workload, "rmap-test1"))
		gen_rmap_test(&w, 100, 600, 101);
	else if (!strcmp(workload, "rmap-test3"))
		gen_rmap_test(&w, 10000, 7, 2);
	else if (!strcmp(workload, "test-mmap3"))
		gen_test_mmap(&w, 20000, 6);
	else if (!strcmp(workload, "random"))
		gen_random(&w, random_n);
	else
		usage();
	/* teardown in a random order, the same for every structure */
	for (i = 0; i < w.nr; i++)
		w.remove_order[i] = i;
	for (i = w.nr; i > 1; i--) {
		j = rng() % i;
		tmp = w.remove_order[i - 1];
		w.remove_order[i - 1] = w.remove_order[j];
		w.remove_order[j] = tmp;
	}

	printf("workload %s: %lu intervals, %lu queries, median of %d runs\n",
	       workload, w.nr, w.nr_queries, runs);
	printf("%-6s %10s %10s %10s %12s %9s  %s\n", "index", "build ms",
	       "query ms", "remove ms", "hits", "query/prio", "what");
	for (k = 0; k < 3; k++) {
		if (only && strcmp(only, all[k]->name))
			continue;
		if (run(all[k], &w, runs, &res[k]))
			return 1;
		if (base && (res[k].hits != base->hits || res[k].sum != base->sum)) {
			fprintf(stderr, "ptbench: %s disagrees with %s: %lu hits vs %lu\n",
				all[k]->name, all[0]->name, res[k].hits, base->hits);
			return 1;
		}
		if (!base && !only)
			base = &res[k];
		printf("%-6s %10.2f %10.2f %10.2f %12lu %9.2fx  %s\n",
		       all[k]->name, res[k].build * 1e3, res[k].query * 1e3,
		       res[k].remove * 1e3, res[k].hits,
		       base ? res[k].query / base->query : 1.0, all[k]->what);
	}
	return 0;
}
