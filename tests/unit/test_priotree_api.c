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

#include <cmocka.h>

#include <priotree.h>

#ifdef PRIOTREE_FAILSLAB
#include "failslab/failslab.h"
#endif

#define assert_index_valid(pt)						\
do {									\
	char __msg[256];						\
									\
	if (priotree_check((pt), __msg, sizeof(__msg)))			\
		fail_msg("%s:%d: expected a valid index: %s",		\
			 __FILE__, __LINE__, __msg);			\
} while (0)

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
 * Fail each allocation an insert makes in turn (the entry, then the
 * interval node when the interval is new): -ENOMEM, nothing changed, and
 * the same insert succeeds once memory is back.
 */
static void test_enomem(void **state)
{
	struct priotree *pt = priotree_new();
	struct hits before;
	unsigned long nth;
	size_t count;

	(void)state;
	assert_int_equal(priotree_insert(pt, 1, 4, &a), 0);
	assert_int_equal(priotree_insert(pt, 2, 9, &b), 0);
	count = priotree_count(pt);
	snapshot(pt, &before);

	/* a new interval: two allocations */
	for (nth = 0; nth < 2; nth++) {
		failslab_fail_nth(nth);
		assert_int_equal(priotree_insert(pt, 3, 3, &c), -ENOMEM);
		assert_int_equal(failslab_pending(), 0);
		assert_same(pt, &before, count);
	}
	/* an interval already present: only the entry is allocated */
	failslab_fail_nth(0);
	assert_int_equal(priotree_insert(pt, 2, 9, &c), -ENOMEM);
	assert_same(pt, &before, count);
	failslab_fail_nth(1);
	assert_int_equal(priotree_insert(pt, 2, 9, &c), 0);
	/* the second allocation was never asked for */
	assert_int_equal(failslab_pending(), 1);
	failslab_off();
	assert_int_equal(priotree_count(pt), count + 1);
	assert_int_equal(priotree_insert(pt, 3, 3, &c), 0);
	assert_index_valid(pt);

	/* priotree_new() itself */
	failslab_fail_nth(0);
	assert_null(priotree_new());
	failslab_off();
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
#ifdef PRIOTREE_FAILSLAB
		cmocka_unit_test(test_enomem),
#endif
	};

	return cmocka_run_group_tests_name("priotree_api", tests, NULL, NULL);
}
