// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of priotree_build() and priotree_count_range() of
 * <priotree.h>, linked as a tool links them.
 *
 * The property: building from an array gives the index that inserting the
 * array's entries one by one gives, down to the order in which a query
 * returns its hits, and both agree with a brute-force scan of the array.
 *
 * Built twice, like test_priotree_api.c: the second build
 * (-DPRIOTREE_FAILSLAB) links src/priotree.c with the fault-injecting
 * <linux/slab.h> of tests/unit/failslab/ and adds the -ENOMEM test.
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

#include <cmocka.h>

#include <priotree.h>

#include "api_util.h"
#ifdef PRIOTREE_FAILSLAB
#include "failslab/failslab.h"
#endif

/* items are small integers stored as pointers; 0 is a valid item (NULL) */
#define ITEM(i)		((void *)(uintptr_t)(i))

static unsigned long long rng_state;

static unsigned long rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned long)rng_state;
}

/* Every hit of [first, last], in the order the query returns them. */
static size_t query_all(struct priotree *pt, unsigned long first,
			unsigned long last, struct priotree_hit *out,
			size_t room)
{
	struct priotree_iter it;
	struct priotree_hit hit;
	size_t n = 0;

	assert_int_equal(priotree_query(pt, first, last, &it), 0);
	while (priotree_next(&it, &hit) > 0) {
		assert_true(n < room);
		out[n++] = hit;
	}
	return n;
}

/* Entries of @v[0, nr) overlapping [first, last], by brute force. */
static size_t brute_count(const struct priotree_hit *v, size_t nr,
			  unsigned long first, unsigned long last)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++)
		n += v[i].start <= last && v[i].last >= first;
	return n;
}

/*
 * @built and @inserted answer [first, last] with the same hits in the
 * same order, as many as brute force finds in @v, and count_range agrees.
 */
static void assert_same_query(struct priotree *built,
			      struct priotree *inserted,
			      const struct priotree_hit *v, size_t nr,
			      unsigned long first, unsigned long last)
{
	struct priotree_hit *a = calloc(nr + 1, sizeof(*a));
	struct priotree_hit *b = calloc(nr + 1, sizeof(*b));
	size_t na, nb, i, count;

	assert_non_null(a);
	assert_non_null(b);
	na = query_all(built, first, last, a, nr + 1);
	nb = query_all(inserted, first, last, b, nr + 1);
	assert_int_equal(na, nb);
	assert_int_equal(na, brute_count(v, nr, first, last));
	for (i = 0; i < na; i++) {
		assert_true(a[i].start == b[i].start);
		assert_true(a[i].last == b[i].last);
		assert_ptr_equal(a[i].item, b[i].item);
	}
	assert_int_equal(priotree_count_range(built, first, last, &count), 0);
	assert_int_equal(count, na);
	free(a);
	free(b);
}

enum shape { RANDOM, SORTED, REVERSED, DUPLICATES, EXTREMES, NR_SHAPES };

static int by_interval(const void *x, const void *y)
{
	const struct priotree_hit *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->last != b->last)
		return a->last < b->last ? -1 : 1;
	return 0;
}

/* @nr entries of @shape, with values below @space (0: any value). */
static void make_entries(struct priotree_hit *v, size_t nr, enum shape shape,
			 unsigned long space)
{
	unsigned long a, b;
	size_t i, j;

	for (i = 0; i < nr; i++) {
		a = space ? rng() % space : rng();
		b = space ? rng() % space : rng();
		if (shape == EXTREMES) {
			/* ends at 0 and ULONG_MAX, and whole-range intervals */
			switch (rng() % 4) {
			case 0:
				b = ULONG_MAX;
				break;
			case 1:
				a = 0;
				break;
			case 2:
				a = b = ULONG_MAX;
				break;
			default:
				a = 0;
				b = ULONG_MAX;
			}
		}
		v[i].start = a < b ? a : b;
		v[i].last = a < b ? b : a;
		v[i].item = ITEM(rng() % 8);
		if (shape == DUPLICATES && i && rng() % 2) {
			/* an earlier interval again, often the same triple */
			j = rng() % i;
			v[i].start = v[j].start;
			v[i].last = v[j].last;
			if (rng() % 2)
				v[i].item = v[j].item;
		}
	}
	if (shape == SORTED || shape == REVERSED)
		qsort(v, nr, sizeof(*v), by_interval);
	if (shape == REVERSED)
		for (i = 0; i < nr / 2; i++) {
			struct priotree_hit t = v[i];

			v[i] = v[nr - 1 - i];
			v[nr - 1 - i] = t;
		}
}

static void insert_all(struct priotree *pt, const struct priotree_hit *v,
		       size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		assert_int_equal(priotree_insert(pt, v[i].start, v[i].last,
						 v[i].item), 0);
}

/* Queries: points and ranges at and around stored ends, and random. */
static void compare_queries(struct priotree *built, struct priotree *inserted,
			    const struct priotree_hit *v, size_t nr,
			    unsigned long space)
{
	unsigned long first, last;
	int q;

	assert_same_query(built, inserted, v, nr, 0, ULONG_MAX);
	assert_same_query(built, inserted, v, nr, ULONG_MAX, ULONG_MAX);
	assert_same_query(built, inserted, v, nr, 0, 0);
	for (q = 0; q < 40; q++) {
		if (nr && q % 2) {
			first = v[rng() % nr].start;
			last = first + rng() % 3;
			if (last < first)
				last = ULONG_MAX;
		} else {
			first = space ? rng() % space : rng();
			last = first + (space ? rng() % (space / 8 + 1) : 0);
			if (last < first)
				last = ULONG_MAX;
		}
		assert_same_query(built, inserted, v, nr, first, last);
	}
}

/*
 * The property, on many seeds and every shape: build (into an empty
 * index, and into one that already holds entries) against inserts.
 */
static void test_build_property(void **state)
{
	static const unsigned long spaces[] = { 16, 1000, 1UL << 40, 0 };
	struct priotree_hit *v;
	struct priotree *built, *inserted;
	unsigned int seed, s, k;
	size_t nr, half;

	(void)state;
	v = calloc(600, sizeof(*v));
	assert_non_null(v);
	for (seed = 1; seed <= 60; seed++) {
		for (s = 0; s < NR_SHAPES; s++) {
			k = seed % 4;
			rng_state = 0x9e3779b97f4a7c15ULL * (seed * 8 + s + 1);
			nr = rng() % 600;
			make_entries(v, nr, s, spaces[k]);

			/* into an empty index */
			built = priotree_new();
			inserted = priotree_new();
			assert_int_equal(priotree_build(built, v, nr), 0);
			insert_all(inserted, v, nr);
			assert_index_valid(built);
			assert_int_equal(priotree_count(built), nr);
			compare_queries(built, inserted, v, nr, spaces[k]);
			priotree_free(built);
			priotree_free(inserted);

			/* the second half into an index holding the first */
			half = nr / 2;
			built = priotree_new();
			inserted = priotree_new();
			insert_all(built, v, half);
			assert_int_equal(priotree_build(built, v + half,
							nr - half), 0);
			insert_all(inserted, v, nr);
			assert_index_valid(built);
			compare_queries(built, inserted, v, nr, spaces[k]);
			priotree_free(built);
			priotree_free(inserted);
		}
	}
	free(v);
}

/* A built index is an ordinary one: entries come and go as usual. */
static void test_build_then_change(void **state)
{
	struct priotree_hit v[300];
	struct priotree *pt = priotree_new();
	size_t i;

	(void)state;
	rng_state = 42;
	make_entries(v, 300, DUPLICATES, 5000);
	assert_int_equal(priotree_build(pt, v, 300), 0);
	/* a triple of the array gains a copy; a new one comes in */
	assert_int_equal(priotree_insert(pt, v[7].start, v[7].last,
					 v[7].item), 0);
	assert_int_equal(priotree_insert(pt, 6000, 7000, NULL), 0);
	assert_int_equal(priotree_count(pt), 302);
	assert_index_valid(pt);
	for (i = 0; i < 300; i++)
		assert_int_equal(priotree_remove(pt, v[i].start, v[i].last,
						 v[i].item), 0);
	assert_int_equal(priotree_remove(pt, v[7].start, v[7].last,
					 v[7].item), 0);
	assert_int_equal(priotree_remove(pt, 6000, 7000, NULL), 0);
	assert_int_equal(priotree_count(pt), 0);
	assert_index_valid(pt);
	/* and the emptied index builds again */
	assert_int_equal(priotree_build(pt, v, 300), 0);
	assert_int_equal(priotree_count(pt), 300);
	assert_index_valid(pt);
	priotree_free(pt);
}

static void test_build_einval(void **state)
{
	struct priotree_hit v[3] = {
		{ .start = 1, .last = 5, .item = ITEM(1) },
		{ .start = 7, .last = 6, .item = ITEM(2) },	/* reversed */
		{ .start = 2, .last = 2, .item = ITEM(3) },
	};
	struct priotree *pt = priotree_new();
	size_t count;

	(void)state;
	assert_int_equal(priotree_build(NULL, v, 1), -EINVAL);
	assert_int_equal(priotree_build(NULL, NULL, 0), -EINVAL);
	assert_int_equal(priotree_build(pt, NULL, 1), -EINVAL);
	/* one bad entry: none of the others goes in */
	assert_int_equal(priotree_build(pt, v, 3), -EINVAL);
	assert_int_equal(priotree_count(pt), 0);
	assert_int_equal(priotree_count_range(pt, 0, ULONG_MAX, &count), 0);
	assert_int_equal(count, 0);
	/* nothing to add is not an error, with or without an array */
	assert_int_equal(priotree_build(pt, NULL, 0), 0);
	assert_int_equal(priotree_build(pt, v, 0), 0);
	assert_int_equal(priotree_build(pt, v, 1), 0);
	assert_int_equal(priotree_count(pt), 1);
	assert_index_valid(pt);
	priotree_free(pt);
}

static void test_count_range(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	struct priotree_hit hit;
	size_t count = 99;
	int i;

	(void)state;
	assert_int_equal(priotree_count_range(NULL, 0, 1, &count), -EINVAL);
	assert_int_equal(count, 0);
	assert_int_equal(priotree_count_range(pt, 0, 1, NULL), -EINVAL);
	count = 99;
	assert_int_equal(priotree_count_range(pt, 2, 1, &count), -EINVAL);
	assert_int_equal(count, 0);
	assert_int_equal(priotree_count_range(pt, 0, ULONG_MAX, &count), 0);
	assert_int_equal(count, 0);

	/* copies count, each one */
	for (i = 0; i < 5; i++)
		assert_int_equal(priotree_insert(pt, 10, 20, ITEM(1)), 0);
	assert_int_equal(priotree_insert(pt, 10, 20, ITEM(2)), 0);
	assert_int_equal(priotree_insert(pt, 15, 15, ITEM(1)), 0);
	assert_int_equal(priotree_count_range(pt, 15, 15, &count), 0);
	assert_int_equal(count, 7);
	assert_int_equal(priotree_count_range(pt, 16, 100, &count), 0);
	assert_int_equal(count, 6);
	assert_int_equal(priotree_count_range(pt, 21, ULONG_MAX, &count), 0);
	assert_int_equal(count, 0);

	/*
	 * Counting ends no query; a range emptied during a query stays in
	 * the tree until the query ends, and counts nothing.
	 */
	assert_int_equal(priotree_query(pt, 15, 15, &it), 0);
	while (priotree_next(&it, &hit) > 0) {
		if (hit.start != 15)
			continue;
		assert_int_equal(priotree_remove(pt, 15, 15, ITEM(1)), 0);
		assert_int_equal(priotree_count_range(pt, 15, 15, &count), 0);
		assert_int_equal(count, 6);
	}
	assert_int_equal(priotree_count_range(pt, 0, ULONG_MAX, &count), 0);
	assert_int_equal(count, 6);
	assert_int_equal(priotree_remove(pt, 10, 20, ITEM(1)), 0);
	assert_int_equal(priotree_count_range(pt, 0, ULONG_MAX, &count), 0);
	assert_int_equal(count, 5);
	assert_index_valid(pt);
	priotree_free(pt);
}

#ifdef PRIOTREE_FAILSLAB
/*
 * Fail each allocation a build makes in turn, into an empty index and
 * into a full one: -ENOMEM with the index as it was (valgrind's run of
 * the unit suite finds anything left allocated), then the same build
 * succeeds.
 */
static void build_enomem(struct priotree *pt, const struct priotree_hit *v,
			 size_t nr, const struct priotree_hit *before,
			 size_t nr_before)
{
	unsigned long nth;
	size_t count = priotree_count(pt);
	size_t n;
	struct priotree_hit *now = calloc(nr + nr_before + 1, sizeof(*now));

	assert_non_null(now);
	for (nth = 0;; nth++) {
		failslab_fail_nth(nth);
		if (priotree_build(pt, v, nr) == 0)
			break;
		assert_int_equal(failslab_pending(), 0);
		assert_int_equal(priotree_count(pt), count);
		n = query_all(pt, 0, ULONG_MAX, now, nr + nr_before + 1);
		assert_int_equal(n, nr_before);
		if (n)
			assert_memory_equal(now, before, n * sizeof(*now));
		assert_index_valid(pt);
	}
	/* sort array, one range per new interval, one entry per slot */
	assert_true(nth >= 2);
	failslab_off();
	assert_int_equal(priotree_count(pt), count + nr);
	assert_index_valid(pt);
	free(now);
}

static void test_build_enomem(void **state)
{
	struct priotree_hit v[40], before[40];
	struct priotree *pt = priotree_new();
	size_t n;

	(void)state;
	rng_state = 7;
	make_entries(v, 40, DUPLICATES, 100);
	build_enomem(pt, v, 20, NULL, 0);
	n = query_all(pt, 0, ULONG_MAX, before, 40);
	assert_int_equal(n, 20);
	build_enomem(pt, v + 20, 20, before, n);
	priotree_free(pt);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_property),
		cmocka_unit_test(test_build_then_change),
		cmocka_unit_test(test_build_einval),
		cmocka_unit_test(test_count_range),
#ifdef PRIOTREE_FAILSLAB
		cmocka_unit_test(test_build_enomem),
#endif
	};

	return cmocka_run_group_tests_name("priotree_build", tests, NULL, NULL);
}
