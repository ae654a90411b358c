// SPDX-License-Identifier: GPL-2.0
/*
 * A static index in the style of cgranges/IITree (H. Li), written here
 * from the idea, as a bound for what a read-only layout can do: the
 * intervals sorted by start in one array, and an implicit binary tree
 * over the array indices.  Index i is a node at level k = the number of
 * trailing one bits of i; its children are i -/+ 2^(k-1), the root is
 * 2^K - 1 for K = floor(log2 n).  Indices from n up to 2^(K+1) - 2 are
 * empty nodes, present only so every real node has its place.  Each node
 * keeps the largest last in its subtree, plus one (0: no interval).
 *
 * "insert" appends, build() sorts and computes the bounds (timed with the
 * inserts), and there is no remove: a change means a rebuild.
 */
#include <stdlib.h>

#include "bench.h"

struct ii_ent {
	unsigned long start, last, id;
};

struct ii_ix {
	struct ii_ent *a;
	unsigned long n;
	unsigned long *mx;	/* subtree max last + 1, per node */
	unsigned int levels;	/* K: the root is at level K */
};

static void *ii_create(unsigned long n)
{
	struct ii_ix *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	ix->a = malloc((n ? n : 1) * sizeof(*ix->a));
	if (!ix->a) {
		free(ix);
		return NULL;
	}
	return ix;
}

static void ii_insert(void *p, unsigned long id, unsigned long start,
		      unsigned long last)
{
	struct ii_ix *ix = p;

	ix->a[ix->n].start = start;
	ix->a[ix->n].last = last;
	ix->a[ix->n].id = id;
	ix->n++;
}

static int ii_cmp(const void *x, const void *y)
{
	const struct ii_ent *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static void ii_build(void *p)
{
	struct ii_ix *ix = p;
	unsigned long i, k, half, size, m, n = ix->n;

	if (!n)
		return;
	qsort(ix->a, n, sizeof(*ix->a), ii_cmp);
	for (k = 0; (2UL << k) <= n; k++)
		;
	ix->levels = k;
	size = (2UL << k) - 1;
	ix->mx = malloc(size * sizeof(long));
	if (!ix->mx)
		abort();
	for (i = 0; i < size; i += 2)
		ix->mx[i] = i < n ? ix->a[i].last + 1 : 0;
	for (k = 1; k <= ix->levels; k++) {
		half = 1UL << (k - 1);
		for (i = (1UL << k) - 1; i < size; i += 2UL << k) {
			m = ix->mx[i - half];
			if (ix->mx[i + half] > m)
				m = ix->mx[i + half];
			if (i < n && ix->a[i].last + 1 > m)
				m = ix->a[i].last + 1;
			ix->mx[i] = m;
		}
	}
}

struct ii_q {
	const struct ii_ix *ix;
	unsigned long first, last;
	unsigned long hits, sum, visits;
};

static void ii_search(struct ii_q *q, unsigned long i, unsigned long k)
{
	const struct ii_ix *ix = q->ix;
	const struct ii_ent *e;

	for (;;) {
		q->visits++;
		if (ix->mx[i] <= q->first)	/* max last < first */
			return;
		if (!k) {
			e = &ix->a[i];
			if (i < ix->n && e->start <= q->last &&
			    e->last >= q->first) {
				q->hits++;
				q->sum += bench_mix(e->id);
			}
			return;
		}
		ii_search(q, i - (1UL << (k - 1)), k - 1);
		/* the right subtree is all empty nodes */
		if (i >= ix->n)
			return;
		e = &ix->a[i];
		if (e->start > q->last)
			return;
		if (e->last >= q->first) {
			q->hits++;
			q->sum += bench_mix(e->id);
		}
		i += 1UL << (k - 1);
		k--;
	}
}

static void ii_run(struct ii_q *q)
{
	if (q->ix->n)
		ii_search(q, (1UL << q->ix->levels) - 1, q->ix->levels);
}

static void ii_query(void *p, unsigned long first, unsigned long last,
		     unsigned long *hits, unsigned long *sum)
{
	struct ii_q q = { .ix = p, .first = first, .last = last };

	ii_run(&q);
	*hits += q.hits;
	*sum += q.sum;
}

static unsigned long ii_visits(void *p, unsigned long first,
			       unsigned long last)
{
	struct ii_q q = { .ix = p, .first = first, .last = last };

	ii_run(&q);
	return q.visits;
}

static void ii_destroy(void *p)
{
	struct ii_ix *ix = p;

	free(ix->mx);
	free(ix->a);
	free(ix);
}

const struct bench_ops iitree_ops = {
	.name = "iitree",
	.what = "static sorted array + implicit augmented tree (cgranges idea)",
	.create = ii_create,
	.insert = ii_insert,
	.build = ii_build,
	.query = ii_query,
	.visits = ii_visits,
	.destroy = ii_destroy,
};
