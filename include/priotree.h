/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRIOTREE_H
#define PRIOTREE_H

/*
 * libpriotree: an index of closed intervals [start, last] of unsigned long,
 * answering stabbing queries ("which intervals overlap [first, last]?") in
 * O(log n + m) steps.  It is the radix priority search tree that Linux used
 * for address_space->i_mmap from 2.6.7 to 3.6, behind a plain C interface:
 * no kernel types, errors returned as negative errno values, memory managed
 * by the library.
 *
 * Each entry is an interval plus an opaque item pointer.  Any number of
 * entries may share one interval (the library groups them, like vm_set
 * lists group vmas); even identical (start, last, item) triples may be
 * inserted more than once, and each removal takes one of them away.
 *
 * One struct priotree must not be used from two threads at once; distinct
 * trees are independent.
 *
 * Example:
 *	struct priotree *pt = priotree_new();
 *	struct priotree_iter it;
 *	struct priotree_hit hit;
 *
 *	priotree_insert(pt, 10, 19, "a");
 *	priotree_insert(pt, 15, 30, "b");
 *	priotree_query(pt, 18, 18, &it);
 *	while (priotree_next(&it, &hit) > 0)
 *		printf("[%lu, %lu] %s\n", hit.start, hit.last,
 *		       (char *)hit.item);
 *	priotree_free(pt);
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct priotree;

/* One result of a query. */
struct priotree_hit {
	unsigned long start;
	unsigned long last;
	void *item;
};

/*
 * Query state, on the caller's stack.  Its contents are private; it stays
 * valid until the tree is next modified.
 */
struct priotree_iter {
	void *__private[12];
};

/**
 * priotree_new() - create an empty interval index
 *
 * Cost: O(1).
 *
 * Return: the index, or NULL if memory ran out.
 */
struct priotree *priotree_new(void);

/**
 * priotree_free() - destroy an index and every entry in it
 * @pt: the index, or NULL
 *
 * The items themselves belong to the caller and are not touched.
 * Cost: O(n).
 */
void priotree_free(struct priotree *pt);

/**
 * priotree_insert() - add the entry ([@start, @last], @item)
 * @pt: the index
 * @start: first value of the interval
 * @last: last value of the interval (inclusive), @start <= @last
 * @item: caller's pointer, returned by queries; may be NULL
 *
 * Cost: O(log n) (O(log^2 n) the first time a larger @last than any
 * before needs a taller tree).
 *
 * Example:
 *	if (priotree_insert(pt, vma_start, vma_last, vma) < 0)
 *		goto fail;
 *
 * Return: 0; -EINVAL if @start > @last; -ENOMEM.  On error @pt is
 * unchanged.
 */
int priotree_insert(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item);

/**
 * priotree_remove() - remove one entry ([@start, @last], @item)
 * @pt: the index
 * @start: first value of the interval
 * @last: last value of the interval
 * @item: the item it was inserted with
 *
 * Cost: O(log n + k), k the number of entries sharing the interval.
 *
 * Example:
 *	priotree_remove(pt, vma_start, vma_last, vma);
 *
 * Return: 0; -EINVAL if @start > @last; -ENOENT if there is no such entry.
 */
int priotree_remove(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item);

/**
 * priotree_count() - number of entries
 * @pt: the index
 *
 * Cost: O(1).
 *
 * Return: entries inserted and not yet removed.
 */
size_t priotree_count(const struct priotree *pt);

/**
 * priotree_query() - start a stabbing query for [@first, @last]
 * @pt: the index
 * @first: first value of the query
 * @last: last value of the query, @first <= @last; a point query has
 *        @first == @last
 * @it: iterator to set up
 *
 * Every entry whose interval overlaps [@first, @last] is then returned once
 * by priotree_next(), entries of one interval together, in no particular
 * order of intervals.  The index must not change until the query is done.
 * Cost of the whole query: O(log n + m), m the number of hits.
 *
 * Example:
 *	priotree_query(pt, page, page, &it);
 *	while (priotree_next(&it, &hit) > 0)
 *		unmap(hit.item, page);
 *
 * Return: 0; -EINVAL if @first > @last (priotree_next() then reports no
 * hits).
 */
int priotree_query(struct priotree *pt, unsigned long first,
		   unsigned long last, struct priotree_iter *it);

/**
 * priotree_next() - the next hit of a query
 * @it: iterator set up by priotree_query()
 * @hit: filled in with the hit
 *
 * Return: 1 and *@hit filled in, or 0 when the query is exhausted.
 */
int priotree_next(struct priotree_iter *it, struct priotree_hit *hit);

/**
 * priotree_foreach() - call @fn for every entry overlapping [@first, @last]
 * @pt: the index
 * @first: first value of the query
 * @last: last value of the query
 * @fn: callback; a non-zero return stops the walk
 * @arg: passed to @fn
 *
 * @fn must not modify @pt.  Cost: O(log n + m).
 *
 * Example:
 *	static int count(const struct priotree_hit *hit, void *arg)
 *	{
 *		++*(size_t *)arg;
 *		return 0;
 *	}
 *	size_t n = 0;
 *	priotree_foreach(pt, 100, 200, count, &n);
 *
 * Return: 0 after a complete walk, @fn's non-zero value if it stopped the
 * walk, or -EINVAL if @first > @last.
 */
int priotree_foreach(struct priotree *pt, unsigned long first,
		     unsigned long last,
		     int (*fn)(const struct priotree_hit *hit, void *arg),
		     void *arg);

/**
 * priotree_check() - verify the index's internal invariants
 * @pt: the index
 * @msg: buffer for a description of the first broken invariant, or NULL
 * @len: size of @msg
 *
 * For tests and debugging.  Cost: O(n log n).
 *
 * Return: 0 if every invariant holds, else -EUCLEAN.
 */
int priotree_check(const struct priotree *pt, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PRIOTREE_H */
