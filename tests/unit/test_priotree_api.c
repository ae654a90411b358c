// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of <priotree.h>, the plain C interval index, linked against
 * the public shared library exactly as a tool would use it: no kernel
 * headers, errors as negative errno values.
 *
 * Built twice: once against libpriotree.so, once (with
 * -DPRIOTREE_FAILSLAB) against src/priotree.c compiled with the
 * fault-injecting <linux/slab.h> of tests/unit/failslab/, which adds the
 * -ENOMEM tests: the Nth allocation fails, and the index must be exactly
 * as it was.
 */

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <priotree.h>

#include "api_util.h"
#ifdef PRIOTREE_FAILSLAB
#include "failslab/failslab.h"
#endif

struct hits {
	size_t n;
	struct priotree_hit hit[64];
};

static int collect(const struct priotree_hit *hit, void *arg)
{
	struct hits *h = arg;

	if (h->n < 64)
		h->hit[h->n] = *hit;
	h->n++;
	return 0;
}

/* Number of hits of [first, last] that carry @item (any interval). */
static size_t count_item(struct priotree *pt, unsigned long first,
			 unsigned long last, void *item)
{
	struct priotree_iter it;
	struct priotree_hit hit;
	size_t n = 0;

	assert_int_equal(priotree_query(pt, first, last, &it), 0);
	while (priotree_next(&it, &hit) > 0)
		if (hit.item == item)
			n++;
	return n;
}

static size_t count_hits(struct priotree *pt, unsigned long first,
			 unsigned long last)
{
	struct hits h = { 0 };

	assert_int_equal(priotree_foreach(pt, first, last, collect, &h), 0);
	return h.n;
}

static char a, b, c;

static void test_new_free(void **state)
{
	struct priotree *pt = priotree_new();

	(void)state;
	assert_non_null(pt);
	assert_int_equal(priotree_count(pt), 0);
	assert_index_valid(pt);
	assert_int_equal(count_hits(pt, 0, ULONG_MAX), 0);
	priotree_free(pt);
	priotree_free(NULL);
}

static void test_insert_query_remove(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	struct priotree_hit hit;

	(void)state;
	assert_int_equal(priotree_insert(pt, 10, 19, &a), 0);
	assert_int_equal(priotree_insert(pt, 15, 30, &b), 0);
	assert_int_equal(priotree_insert(pt, 0, 0, &c), 0);
	assert_int_equal(priotree_count(pt), 3);
	assert_index_valid(pt);

	assert_int_equal(priotree_query(pt, 18, 18, &it), 0);
	assert_int_equal(priotree_next(&it, &hit), 1);
	assert_true(hit.item == &a || hit.item == &b);
	assert_int_equal(priotree_next(&it, &hit), 1);
	assert_int_equal(priotree_next(&it, &hit), 0);
	/* exhausted stays exhausted */
	assert_int_equal(priotree_next(&it, &hit), 0);

	assert_int_equal(count_hits(pt, 0, 0), 1);
	assert_int_equal(count_hits(pt, 1, 9), 0);
	assert_int_equal(count_hits(pt, 19, 19), 2);
	assert_int_equal(count_hits(pt, 20, 20), 1);
	assert_int_equal(count_hits(pt, 31, ULONG_MAX), 0);
	assert_int_equal(count_hits(pt, 0, ULONG_MAX), 3);

	assert_int_equal(priotree_remove(pt, 10, 19, &a), 0);
	assert_int_equal(priotree_count(pt), 2);
	assert_index_valid(pt);
	assert_int_equal(count_hits(pt, 10, 14), 0);
	assert_int_equal(priotree_remove(pt, 15, 30, &b), 0);
	assert_int_equal(priotree_remove(pt, 0, 0, &c), 0);
	assert_int_equal(priotree_count(pt), 0);
	assert_index_valid(pt);
	priotree_free(pt);
}

/* Hits carry the interval they were inserted with. */
static void test_hit_fields(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	struct priotree_hit hit;

	(void)state;
	assert_int_equal(priotree_insert(pt, ULONG_MAX - 5, ULONG_MAX, &a), 0);
	assert_int_equal(priotree_query(pt, ULONG_MAX, ULONG_MAX, &it), 0);
	assert_int_equal(priotree_next(&it, &hit), 1);
	assert_true(hit.start == ULONG_MAX - 5);
	assert_true(hit.last == ULONG_MAX);
	assert_ptr_equal(hit.item, &a);
	assert_int_equal(priotree_next(&it, &hit), 0);
	assert_int_equal(priotree_insert(pt, 0, ULONG_MAX, NULL), 0);
	assert_int_equal(count_hits(pt, 0, 0), 1);
	assert_int_equal(count_hits(pt, ULONG_MAX, ULONG_MAX), 2);
	priotree_free(pt);
}

/* Identical intervals with different items, and identical triples. */
static void test_identical(void **state)
{
	struct priotree *pt = priotree_new();

	(void)state;
	assert_int_equal(priotree_insert(pt, 5, 9, &a), 0);
	assert_int_equal(priotree_insert(pt, 5, 9, &b), 0);
	assert_int_equal(priotree_insert(pt, 5, 9, &a), 0);
	assert_int_equal(priotree_insert(pt, 5, 9, NULL), 0);
	assert_int_equal(priotree_insert(pt, 5, 9, NULL), 0);
	assert_int_equal(priotree_count(pt), 5);
	assert_index_valid(pt);
	assert_int_equal(count_item(pt, 7, 7, &a), 2);
	assert_int_equal(count_item(pt, 7, 7, &b), 1);
	assert_int_equal(count_item(pt, 7, 7, NULL), 2);

	/* each removal takes one copy away */
	assert_int_equal(priotree_remove(pt, 5, 9, &a), 0);
	assert_int_equal(count_item(pt, 7, 7, &a), 1);
	assert_int_equal(priotree_remove(pt, 5, 9, &a), 0);
	assert_int_equal(priotree_remove(pt, 5, 9, &a), -ENOENT);
	assert_int_equal(priotree_remove(pt, 5, 9, NULL), 0);
	assert_int_equal(priotree_remove(pt, 5, 9, NULL), 0);
	assert_int_equal(priotree_remove(pt, 5, 9, NULL), -ENOENT);
	assert_int_equal(priotree_count(pt), 1);
	assert_index_valid(pt);
	assert_int_equal(priotree_remove(pt, 5, 9, &b), 0);
	assert_int_equal(count_hits(pt, 0, ULONG_MAX), 0);
	priotree_free(pt);
}

static void test_einval(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	struct priotree_hit hit;
	struct hits h = { 0 };

	(void)state;
	assert_int_equal(priotree_insert(pt, 3, 4, &a), 0);
	assert_int_equal(priotree_insert(pt, 5, 4, &a), -EINVAL);
	assert_int_equal(priotree_insert(pt, ULONG_MAX, 0, &a), -EINVAL);
	assert_int_equal(priotree_remove(pt, 4, 3, &a), -EINVAL);
	assert_int_equal(priotree_query(pt, 4, 3, &it), -EINVAL);
	/* a refused query reports no hits */
	assert_int_equal(priotree_next(&it, &hit), 0);
	assert_int_equal(priotree_foreach(pt, 4, 3, collect, &h), -EINVAL);
	assert_int_equal(h.n, 0);
	assert_int_equal(priotree_count(pt), 1);
	assert_index_valid(pt);
	priotree_free(pt);
}

static void test_enoent(void **state)
{
	struct priotree *pt = priotree_new();

	(void)state;
	assert_int_equal(priotree_remove(pt, 1, 2, &a), -ENOENT);
	assert_int_equal(priotree_insert(pt, 1, 2, &a), 0);
	assert_int_equal(priotree_remove(pt, 1, 2, &b), -ENOENT);
	assert_int_equal(priotree_remove(pt, 1, 3, &a), -ENOENT);
	assert_int_equal(priotree_remove(pt, 0, 2, &a), -ENOENT);
	assert_int_equal(priotree_remove(pt, 1, 2, NULL), -ENOENT);
	assert_int_equal(priotree_count(pt), 1);
	assert_index_valid(pt);
	priotree_free(pt);
}

static int stop_at_second(const struct priotree_hit *hit, void *arg)
{
	int *calls = arg;

	(void)hit;
	return ++*calls == 2 ? 42 : 0;
}

static void test_foreach_stops(void **state)
{
	struct priotree *pt = priotree_new();
	int calls = 0;

	(void)state;
	assert_int_equal(priotree_insert(pt, 1, 10, &a), 0);
	assert_int_equal(priotree_insert(pt, 2, 10, &b), 0);
	assert_int_equal(priotree_insert(pt, 3, 10, &c), 0);
	assert_int_equal(priotree_foreach(pt, 5, 5, stop_at_second, &calls),
			 42);
	assert_int_equal(calls, 2);
	priotree_free(pt);
}

/* Many entries, so that priotree_free() has a real tree to take apart. */
static void test_free_full(void **state)
{
	struct priotree *pt = priotree_new();
	unsigned long i;

	(void)state;
	for (i = 0; i < 1000; i++)
		assert_int_equal(priotree_insert(pt, i % 37, i % 37 + i % 11,
						 (void *)(uintptr_t)(i % 3)),
				 0);
	assert_int_equal(priotree_count(pt), 1000);
	assert_index_valid(pt);
	assert_int_equal(count_hits(pt, 36, 36) > 0, 1);
	priotree_free(pt);
}

/*
 * 2 * BITS_PER_LONG + 1 intervals starting at 0 whose ends fall one under
 * the other fill a chain down to the deepest size level of the tree,
 * where [0, 0] ends up (see test_deep_chain in test_prio_tree.c).  An
 * entry there must be found like any other: a second item on [0, 0]
 * joins it, removal finds it.
 */
static void test_deepest_size_level(void **state)
{
	struct priotree *pt = priotree_new();
	unsigned int bits = 8 * sizeof(unsigned long), j;

	(void)state;
	for (j = 0; j <= bits; j++)
		assert_int_equal(priotree_insert(pt, 0, ULONG_MAX - j, &a), 0);
	for (j = 1; j <= bits; j++)
		assert_int_equal(priotree_insert(pt, 0,
						 (1UL << (bits - j)) - 1, &a),
				 0);
	assert_index_valid(pt);
	assert_int_equal(priotree_insert(pt, 0, 0, &b), 0);
	assert_index_valid(pt);
	assert_int_equal(priotree_count(pt), 2 * bits + 2);
	assert_int_equal(count_item(pt, 0, 0, &b), 1);
	assert_int_equal(priotree_remove(pt, 0, 0, &a), 0);
	assert_int_equal(priotree_remove(pt, 0, 0, &b), 0);
	assert_int_equal(priotree_remove(pt, 0, 0, &b), -ENOENT);
	assert_index_valid(pt);
	priotree_free(pt);
}


/*
 * A NULL index: free is a no-op, count is 0, everything returning int
 * says -EINVAL, and a query on it reports no hits.
 */
static void test_null_index(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	struct priotree_hit hit;
	struct hits h = { 0 };
	char msg[64];

	(void)state;
	priotree_free(NULL);
	assert_int_equal(priotree_count(NULL), 0);
	assert_int_equal(priotree_insert(NULL, 1, 2, &a), -EINVAL);
	assert_int_equal(priotree_remove(NULL, 1, 2, &a), -EINVAL);
	assert_int_equal(priotree_check(NULL, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(priotree_foreach(NULL, 0, 9, collect, &h), -EINVAL);
	assert_int_equal(h.n, 0);
	assert_int_equal(priotree_query(NULL, 0, 9, &it), -EINVAL);
	assert_int_equal(priotree_next(&it, &hit), 0);
	/* the iterator and callback arguments too */
	assert_int_equal(priotree_insert(pt, 1, 2, &a), 0);
	assert_int_equal(priotree_query(pt, 0, 9, NULL), -EINVAL);
	assert_int_equal(priotree_foreach(pt, 0, 9, NULL, NULL), -EINVAL);
	assert_int_equal(priotree_query(pt, 0, 9, &it), 0);
	assert_int_equal(priotree_next(&it, NULL), -EINVAL);
	assert_int_equal(priotree_next(NULL, &hit), -EINVAL);
	assert_int_equal(priotree_count(pt), 1);
	priotree_free(pt);
}

/* One inserted copy, for the brute-force model of the removal tests. */
struct triple {
	unsigned long start, last;
	void *item;
	int seen;		/* times a query returned it */
	bool gone;		/* removed */
};

#define NR_TRIPLES 600

/*
 * Intervals in a few sizes, many sharing an interval, some identical
 * triples: every shape of range list that removal during a query meets.
 */
static void fill(struct priotree *pt, struct triple *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		t[i].start = (i * 7919) % 97;
		t[i].last = t[i].start + (i % 5 == 0 ? 0 : (i * 31) % 53);
		/* every third triple repeats an earlier one exactly */
		if (i >= 3 && i % 3 == 0)
			t[i] = t[i - 3];
		else
			t[i].item = (void *)(uintptr_t)(i % 4);
		t[i].seen = 0;
		t[i].gone = false;
		assert_int_equal(priotree_insert(pt, t[i].start, t[i].last,
						 t[i].item), 0);
	}
	assert_int_equal(priotree_count(pt), n);
	assert_index_valid(pt);
}

/* Mark one unseen copy of @hit as seen; fails if there is none. */
static struct triple *see(struct triple *t, size_t n,
			  const struct priotree_hit *hit)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!t[i].gone && !t[i].seen && t[i].start == hit->start &&
		    t[i].last == hit->last && t[i].item == hit->item) {
			t[i].seen++;
			return &t[i];
		}
	fail_msg("hit [%lu, %lu] %p returned more often than inserted",
		 hit->start, hit->last, hit->item);
	return NULL;
}

static bool overlaps(const struct triple *t, unsigned long first,
		     unsigned long last)
{
	return t->start <= last && first <= t->last;
}

/*
 * The next hit of a query read in batches of @batch (0: one at a time with
 * priotree_next()), through @buf; @nr and @at keep the place in the batch
 * last read.  Sets *@last_of_batch when the hit is the last of its batch,
 * the one that may be removed.
 */
static int next_hit(struct priotree_iter *it, unsigned int batch,
		    struct priotree_hit *buf, int *nr, int *at,
		    struct priotree_hit *hit, bool *last_of_batch)
{
	int ret;

	if (!batch) {
		*last_of_batch = true;
		return priotree_next(it, hit);
	}
	if (*at == *nr) {
		ret = priotree_next_batch(it, buf, batch);
		assert_true(ret >= 0 && ret <= (int)batch);
		*nr = ret;
		*at = 0;
		if (!ret)
			return 0;
	}
	*hit = buf[(*at)++];
	*last_of_batch = *at == *nr;
	return 1;
}

/*
 * Remove hits while the query runs (each one, or every @stride-th one;
 * in batches of @batch, only the last hit of a batch, the one the rule
 * allows): the query must still return every entry that overlaps exactly
 * once, the removed ones must be gone, the others still there.  Under
 * valgrind a query that read the freed entry or range shows as an invalid
 * read.
 */
static void remove_during_query(unsigned long first, unsigned long last,
				unsigned int stride, unsigned int batch)
{
	static struct triple t[NR_TRIPLES];
	struct priotree_hit hit, buf[NR_TRIPLES];
	struct priotree *pt = priotree_new();
	size_t i, hits = 0, removed = 0, expected = 0;
	int nr = 0, at = 0;
	struct priotree_iter it;
	struct triple *seen;
	bool may_remove;

	fill(pt, t, NR_TRIPLES);
	for (i = 0; i < NR_TRIPLES; i++)
		expected += overlaps(&t[i], first, last);
	assert_true(expected > 0);

	assert_int_equal(priotree_query(pt, first, last, &it), 0);
	while (next_hit(&it, batch, buf, &nr, &at, &hit, &may_remove) > 0) {
		seen = see(t, NR_TRIPLES, &hit);
		if (!may_remove || hits++ % stride)
			continue;
		assert_int_equal(priotree_remove(pt, hit.start, hit.last,
						 hit.item), 0);
		seen->gone = true;
		removed++;
	}
	assert_int_equal(priotree_next(&it, &hit), 0);
	assert_int_equal(priotree_next_batch(&it, buf, 4), 0);
	assert_true(removed > 0);
	for (i = 0; i < NR_TRIPLES; i++)
		assert_int_equal(t[i].seen, overlaps(&t[i], first, last));
	assert_int_equal(priotree_count(pt), NR_TRIPLES - removed);
	assert_index_valid(pt);

	/* what is left is what the model says is left */
	for (i = 0; i < NR_TRIPLES; i++)
		t[i].seen = 0;
	assert_int_equal(priotree_query(pt, 0, ULONG_MAX, &it), 0);
	while (priotree_next(&it, &hit) > 0)
		see(t, NR_TRIPLES, &hit);
	for (i = 0; i < NR_TRIPLES; i++)
		assert_int_equal(t[i].seen, !t[i].gone);
	for (i = 0; i < NR_TRIPLES; i++)
		if (!t[i].gone)
			assert_int_equal(priotree_remove(pt, t[i].start,
							 t[i].last, t[i].item),
					 0);
	assert_int_equal(priotree_count(pt), 0);
	assert_index_valid(pt);
	priotree_free(pt);
}

static void test_remove_every_hit(void **state)
{
	(void)state;
	remove_during_query(0, ULONG_MAX, 1, 0);
	remove_during_query(40, 60, 1, 0);
	remove_during_query(13, 13, 1, 0);
}

static void test_remove_some_hits(void **state)
{
	(void)state;
	remove_during_query(0, ULONG_MAX, 2, 0);
	remove_during_query(20, 90, 3, 0);
}

/*
 * Batches of every size from 1 up past the number of hits, so that some
 * query runs out in the call that returns the hit then removed: its range
 * may stay in the tree, empty, and must not show in anything after.
 */
static void test_remove_last_of_batch(void **state)
{
	unsigned int batch;

	(void)state;
	for (batch = 1; batch <= 9; batch++) {
		remove_during_query(0, ULONG_MAX, 1, batch);
		remove_during_query(40, 60, 1, batch);
		remove_during_query(13, 13, 2, batch);
	}
	remove_during_query(0, ULONG_MAX, 1, 64);
	remove_during_query(13, 13, 1, NR_TRIPLES);
}

/*
 * priotree_next_batch() returns what priotree_next() does, in the same
 * order, a full batch every time but the last, and may be mixed with it
 * on one query.
 */
static void test_batch_matches_next(void **state)
{
	static const unsigned long q[][2] = {
		{ 0, ULONG_MAX }, { 40, 60 }, { 13, 13 }, { 200, 300 },
	};
	static struct triple t[NR_TRIPLES];
	struct priotree_hit one[NR_TRIPLES], many[NR_TRIPLES + 1];
	struct priotree *pt = priotree_new();
	unsigned int k, batch, n, got;
	struct priotree_iter it;
	int ret;

	(void)state;
	fill(pt, t, NR_TRIPLES);
	for (k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
		n = 0;
		assert_int_equal(priotree_query(pt, q[k][0], q[k][1], &it), 0);
		while (priotree_next(&it, &one[n]) > 0)
			n++;
		for (batch = 1; batch <= NR_TRIPLES + 1; batch += batch < 9 ? 1 : 97) {
			got = 0;
			assert_int_equal(priotree_query(pt, q[k][0], q[k][1],
							&it), 0);
			while ((ret = priotree_next_batch(&it, many + got,
							  batch)) > 0) {
				/* short only when the query has run out */
				assert_true(ret == (int)batch ||
					    got + ret == n);
				got += ret;
				assert_true(got <= n);
			}
			assert_int_equal(ret, 0);
			assert_int_equal(priotree_next_batch(&it, many, batch),
					 0);
			assert_int_equal(got, n);
			assert_memory_equal(many, one, n * sizeof(one[0]));
		}
		/* mixed: one hit, then a batch of two, and so on */
		got = 0;
		assert_int_equal(priotree_query(pt, q[k][0], q[k][1], &it), 0);
		for (;;) {
			ret = got % 3 ? priotree_next_batch(&it, many + got, 2)
				      : priotree_next(&it, many + got);
			if (ret <= 0)
				break;
			got += ret;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(got, n);
		assert_memory_equal(many, one, n * sizeof(one[0]));
	}
	assert_index_valid(pt);
	priotree_free(pt);
}

static void test_batch_einval(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_hit hits[2];
	struct priotree_iter it;

	(void)state;
	assert_int_equal(priotree_insert(pt, 3, 4, &a), 0);
	assert_int_equal(priotree_query(pt, 0, 9, &it), 0);
	assert_int_equal(priotree_next_batch(NULL, hits, 2), -EINVAL);
	assert_int_equal(priotree_next_batch(&it, NULL, 2), -EINVAL);
	assert_int_equal(priotree_next_batch(&it, hits, 0), -EINVAL);
	assert_int_equal(priotree_next_batch(&it, hits, (unsigned int)INT_MAX + 1),
			 -EINVAL);
	/* the refused calls left the query where it was */
	assert_int_equal(priotree_next_batch(&it, hits, 2), 1);
	assert_ptr_equal(hits[0].item, &a);
	assert_int_equal(priotree_next_batch(&it, hits, 2), 0);
	/* a refused query, and one of a NULL index, report no hits */
	assert_int_equal(priotree_query(pt, 4, 3, &it), -EINVAL);
	assert_int_equal(priotree_next_batch(&it, hits, 2), 0);
	assert_int_equal(priotree_query(NULL, 0, 9, &it), -EINVAL);
	assert_int_equal(priotree_next_batch(&it, hits, 2), 0);
	assert_int_equal(priotree_count(pt), 1);
	priotree_free(pt);
}

/* A query abandoned after removing hits leaves nothing behind that the
 * next insert, removal or query would trip over. */
static void test_abandon_after_remove(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	struct priotree_hit hit;
	int i;

	(void)state;
	for (i = 0; i < 50; i++)
		assert_int_equal(priotree_insert(pt, i, i + 3, &a), 0);
	assert_int_equal(priotree_query(pt, 10, 30, &it), 0);
	for (i = 0; i < 5; i++) {
		assert_int_equal(priotree_next(&it, &hit), 1);
		assert_int_equal(priotree_remove(pt, hit.start, hit.last,
						 hit.item), 0);
	}
	assert_index_valid(pt);
	assert_int_equal(count_hits(pt, 0, ULONG_MAX), 45);
	/* a removal that is not of the hit just returned */
	assert_int_equal(priotree_remove(pt, 0, 3, &a), 0);
	assert_index_valid(pt);
	assert_int_equal(priotree_insert(pt, 10, 13, &b), 0);
	assert_int_equal(count_hits(pt, 0, ULONG_MAX), 45);
	assert_index_valid(pt);
	priotree_free(pt);
}

/* priotree_foreach()'s callback may remove the hit it is given. */
static int remove_hit(const struct priotree_hit *hit, void *arg)
{
	return priotree_remove(arg, hit->start, hit->last, hit->item);
}

static void test_foreach_removes(void **state)
{
	struct priotree *pt = priotree_new();
	size_t hits;
	int i;

	(void)state;
	for (i = 0; i < 200; i++)
		assert_int_equal(priotree_insert(pt, i % 20, i % 20 + i % 7,
						 (void *)(uintptr_t)(i % 3)),
				 0);
	hits = count_hits(pt, 5, 9);
	assert_true(hits > 0 && hits < 200);
	assert_int_equal(priotree_foreach(pt, 5, 9, remove_hit, pt), 0);
	assert_int_equal(count_hits(pt, 5, 9), 0);
	assert_int_equal(priotree_count(pt), 200 - hits);
	assert_index_valid(pt);
	priotree_free(pt);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define NR_COPIES 200000UL

/*
 * k entries on one interval, removed newest first, oldest first and
 * identical triples: O(1) expected per removal, so 200,000 of each take
 * milliseconds.  A removal that scanned the interval's entries would be
 * O(k^2), minutes here; the bound is generous enough for a loaded
 * machine and valgrind.
 */
static void test_many_copies(void **state)
{
	struct priotree *pt = priotree_new();
	double bound = getenv("PRIOTREE_UNDER_VALGRIND") ? 120.0 : 10.0;
	double t0 = seconds();
	unsigned long i;

	(void)state;
	for (i = 0; i < NR_COPIES; i++)
		assert_int_equal(priotree_insert(pt, 5, 9,
						 (void *)(uintptr_t)i), 0);
	for (i = NR_COPIES; i-- > 0;)
		assert_int_equal(priotree_remove(pt, 5, 9,
						 (void *)(uintptr_t)i), 0);
	for (i = 0; i < NR_COPIES; i++)
		assert_int_equal(priotree_insert(pt, 5, 9,
						 (void *)(uintptr_t)i), 0);
	for (i = 0; i < NR_COPIES; i++)
		assert_int_equal(priotree_remove(pt, 5, 9,
						 (void *)(uintptr_t)i), 0);
	for (i = 0; i < NR_COPIES; i++)
		assert_int_equal(priotree_insert(pt, 5, 9, &a), 0);
	assert_index_valid(pt);
	for (i = 0; i < NR_COPIES; i++)
		assert_int_equal(priotree_remove(pt, 5, 9, &a), 0);
	assert_int_equal(priotree_remove(pt, 5, 9, &a), -ENOENT);
	assert_int_equal(priotree_count(pt), 0);
	assert_index_valid(pt);
	priotree_free(pt);
	if (seconds() - t0 > bound)
		fail_msg("%lu copies took %.1f s (bound %.0f s)", NR_COPIES,
			 seconds() - t0, bound);
}

#ifdef PRIOTREE_FAILSLAB
/* Everything that a hit list shows about the index, to compare. */
static void snapshot(struct priotree *pt, struct hits *h)
{
	memset(h, 0, sizeof(*h));
	assert_int_equal(priotree_foreach(pt, 0, ULONG_MAX, collect, h), 0);
	assert_true(h->n <= 64);
}

static void assert_same(struct priotree *pt, const struct hits *before,
			size_t count)
{
	struct hits after;
	size_t i;

	snapshot(pt, &after);
	assert_int_equal(priotree_count(pt), count);
	assert_int_equal(after.n, before->n);
	for (i = 0; i < after.n; i++) {
		assert_true(after.hit[i].start == before->hit[i].start);
		assert_true(after.hit[i].last == before->hit[i].last);
		assert_ptr_equal(after.hit[i].item, before->hit[i].item);
	}
	assert_index_valid(pt);
}

/*
 * Insert ([@start, @last], @item), which must make exactly @nr_allocs
 * allocations: failing each of them in turn gives -ENOMEM and leaves the
 * index as it was; then, with the allocation after them set to fail, the
 * insert succeeds without asking for it.
 */
static void insert_with_allocs(struct priotree *pt, unsigned long start,
			       unsigned long last, void *item,
			       unsigned long nr_allocs)
{
	size_t count = priotree_count(pt);
	struct hits before;
	unsigned long nth;

	snapshot(pt, &before);
	for (nth = 0; nth < nr_allocs; nth++) {
		failslab_fail_nth(nth);
		assert_int_equal(priotree_insert(pt, start, last, item),
				 -ENOMEM);
		assert_int_equal(failslab_pending(), 0);
		assert_same(pt, &before, count);
	}
	failslab_fail_nth(nr_allocs);
	assert_int_equal(priotree_insert(pt, start, last, item), 0);
	assert_int_equal(failslab_pending(), 1);
	failslab_off();
	assert_int_equal(priotree_count(pt), count + 1);
	assert_index_valid(pt);
}

/*
 * Each allocation an insert makes, failed in turn: a range to offer the
 * tree unless one is kept spare from an insert whose interval was there,
 * then an entry unless the interval's range has its own one free.
 */
static void test_enomem(void **state)
{
	struct priotree *pt = priotree_new();
	unsigned long nth;

	(void)state;
	assert_int_equal(priotree_insert(pt, 1, 4, &a), 0);
	assert_int_equal(priotree_insert(pt, 2, 9, &b), 0);

	/* a new interval: its range, which holds its entry */
	insert_with_allocs(pt, 3, 3, &c, 1);
	/* a triple already present gains a copy */
	insert_with_allocs(pt, 3, 3, &c, 0);
	/*
	 * A new triple of a present interval, with no spare: the range
	 * offered, which the tree refuses for the interval's own and which
	 * is kept as the spare, then an entry, the range's own being taken.
	 */
	insert_with_allocs(pt, 2, 9, &c, 2);
	/* with a spare, only the entry: the spare stays ... */
	insert_with_allocs(pt, 2, 9, &a, 1);
	/* ... until a new interval takes it, and needs nothing more */
	insert_with_allocs(pt, 5, 7, &a, 0);
	insert_with_allocs(pt, 6, 7, &a, 1);
	/* the range's own entry, given back, serves the next new triple */
	assert_int_equal(priotree_remove(pt, 2, 9, &b), 0);
	insert_with_allocs(pt, 2, 9, &b, 1);
	insert_with_allocs(pt, 2, 9, &b, 0);

	/* priotree_new() itself: the index, then its hash table */
	for (nth = 0; nth < 2; nth++) {
		failslab_fail_nth(nth);
		assert_null(priotree_new());
		assert_int_equal(failslab_pending(), 0);
	}
	failslab_off();
	priotree_free(pt);
}

/*
 * Growing the hash table is the one allocation allowed to fail: the insert
 * that would grow it succeeds anyway, and later inserts grow it.
 */
static void test_grow_fails(void **state)
{
	struct priotree *pt = priotree_new();
	unsigned long i;

	(void)state;
	for (i = 0; i < 16; i++)
		assert_int_equal(priotree_insert(pt, i, i, &a), 0);
	/* the 17th triple: its range, then the doubled table */
	failslab_fail_nth(1);
	assert_int_equal(priotree_insert(pt, 16, 16, &a), 0);
	assert_int_equal(failslab_pending(), 0);
	failslab_off();
	assert_index_valid(pt);
	for (i = 17; i < 1000; i++)
		assert_int_equal(priotree_insert(pt, i, i, &a), 0);
	assert_index_valid(pt);
	for (i = 0; i < 1000; i++)
		assert_int_equal(priotree_remove(pt, i, i, &a), 0);
	assert_int_equal(priotree_count(pt), 0);
	priotree_free(pt);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_free),
		cmocka_unit_test(test_insert_query_remove),
		cmocka_unit_test(test_hit_fields),
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_einval),
		cmocka_unit_test(test_enoent),
		cmocka_unit_test(test_foreach_stops),
		cmocka_unit_test(test_free_full),
		cmocka_unit_test(test_deepest_size_level),
		cmocka_unit_test(test_null_index),
		cmocka_unit_test(test_remove_every_hit),
		cmocka_unit_test(test_remove_some_hits),
		cmocka_unit_test(test_remove_last_of_batch),
		cmocka_unit_test(test_batch_matches_next),
		cmocka_unit_test(test_batch_einval),
		cmocka_unit_test(test_abandon_after_remove),
		cmocka_unit_test(test_foreach_removes),
		cmocka_unit_test(test_many_copies),
#ifdef PRIOTREE_FAILSLAB
		cmocka_unit_test(test_enomem),
		cmocka_unit_test(test_grow_fails),
#endif
	};

	return cmocka_run_group_tests_name("priotree_api", tests, NULL, NULL);
}
