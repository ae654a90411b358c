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
 * Queries and changes: while a query is open (from priotree_query() until
 * priotree_next() returns 0, or until the caller drops the iterator), the
 * index must not change, with one exception: the entry that priotree_next()
 * has just returned may be removed, with priotree_remove() and the hit's
 * own start, last and item (the list_for_each_safe() idea: the iterator
 * never depends on the entry it returned); after priotree_next_batch(),
 * the entry of the batch's last hit.  The query then goes on, and
 * returns every remaining hit exactly once.  Any other change (an insert,
 * the removal of another entry) ends every open query on the index, and
 * so does removing through one query for any other query open at the same
 * time; using an ended query is undefined.
 *
 * A NULL index: priotree_free() does nothing, priotree_count() returns 0,
 * and every other function returning int returns -EINVAL (a query on it
 * reports no hits).
 *
 * One struct priotree must not be used from two threads at once; distinct
 * trees are independent.
 *
 * Memory: an index takes its entries from slabs of 32 KiB that it owns
 * (128 bytes an interval, and 64 for each further entry of one), so a
 * non-empty index holds 32 KiB at least, and 64 once an interval has two
 * entries: many small indexes cost more than their entries.  A slab
 * is given back once none of its entries is left and another slab has
 * room, so an index that shrinks keeps the slabs its remaining entries
 * are spread over, and at most one empty slab; priotree_free() gives
 * back all of them.  Slabs given back wait, up to 32 MiB of them, for
 * the next index of the process that needs one (so that an index
 * emptied and filled again does not fault its memory in again), and
 * beyond that go back to the C library.
 *
 * Example:
 *	struct priotree *pt = priotree_new();
 *	struct priotree_iter it;
 *	struct priotree_hit hit;
 *
 *	priotree_insert(pt, 10, 19, "a");
 *	priotree_insert(pt, 15, 30, "b");
 *	priotree_query(pt, 18, 18, &it);
 *	while (priotree_next(&it, &hit) > 0) {
 *		printf("[%lu, %lu] %s\n", hit.start, hit.last,
 *		       (char *)hit.item);
 *		priotree_remove(pt, hit.start, hit.last, hit.item);
 *	}
 *	priotree_free(pt);
 */

#include <stddef.h>

/*
 * The version of these declarations.  meson.build's project version is
 * the one source: configuring fails when these disagree with it, and the
 * unit test "version" checks them and priotree_version() against it.
 */
#define PRIOTREE_VERSION_MAJOR	0
#define PRIOTREE_VERSION_MINOR	2
#define PRIOTREE_VERSION_PATCH	0

/* For "#if PRIOTREE_VERSION >= PRIOTREE_VERSION_OF(0, 2, 0)". */
#define PRIOTREE_VERSION_OF(major, minor, patch) \
	(((major) << 16) | ((minor) << 8) | (patch))
#define PRIOTREE_VERSION \
	PRIOTREE_VERSION_OF(PRIOTREE_VERSION_MAJOR, PRIOTREE_VERSION_MINOR, \
			    PRIOTREE_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/**
 * priotree_version() - version of the library running the program
 *
 * Unlike the PRIOTREE_VERSION_* macros, which give the version of the
 * header the program was compiled with, this is the version of the shared
 * library it is linked with at run time.  Since 0.2.0.  Cost: O(1).
 *
 * Example:
 *	printf("libpriotree %s\n", priotree_version());
 *
 * Return: "MAJOR.MINOR.PATCH", a static string.
 */
const char *priotree_version(void);

struct priotree;

/* One result of a query. */
struct priotree_hit {
	unsigned long start;
	unsigned long last;
	void *item;
};

/*
 * Query state, on the caller's stack.  Its contents are private; it stays
 * valid until the index changes in any way but the removal of the hit it
 * just returned (see above).  Nothing needs releasing: a query may be
 * abandoned at any point.
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
 * @pt: the index (NULL: -EINVAL)
 * @start: first value of the interval
 * @last: last value of the interval (inclusive), @start <= @last
 * @item: caller's pointer, returned by queries; may be NULL
 *
 * Cost: O(log n) (O(log^2 n) the first time a larger @last than any
 * before needs a taller tree); O(1) expected for a triple already present,
 * which gains a copy.  Ends every open query.
 *
 * Example:
 *	if (priotree_insert(pt, vma_start, vma_last, vma) < 0)
 *		goto fail;
 *
 * Return: 0; -EINVAL if @pt is NULL or @start > @last; -ENOMEM.  On
 * error @pt is unchanged.
 */
int priotree_insert(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item);

/**
 * priotree_build() - add an array of entries at once
 * @pt: the index (NULL: -EINVAL)
 * @entries: the entries, each ([start, last], item) with start <= last, in
 *           any order; struct priotree_hit serves as the entry.  May be
 *           NULL when @nr is 0.  Only read, and not kept.
 * @nr: the number of entries
 *
 * Adds every entry as priotree_insert() of each one in array order would:
 * the same entries, copies counted alike, and queries then return the
 * same hits in the same order.  The array is checked first, and all
 * memory is allocated before the index changes, so on any error nothing
 * is added.  Ends every open query (unless @nr is 0: then nothing
 * happens).
 *
 * Cost: O(n log n) to sort the array (O(n) if it is sorted already by
 * start, then last), then, into an empty index, O(n h) to link the
 * tree, h its mean depth (about log n, at most 2 * BITS_PER_LONG), which
 * is cheaper than n inserts; into an index holding N entries already,
 * an O(log N) lookup and insert per new interval.  Temporary memory: two
 * pointers per entry.
 *
 * Example:
 *	struct priotree_hit maps[] = {
 *		{ .start = 0x400, .last = 0x4ff, .item = text },
 *		{ .start = 0x100, .last = 0x1ff, .item = data },
 *	};
 *
 *	if (priotree_build(pt, maps, 2) < 0)
 *		goto fail;
 *
 * Return: 0; -EINVAL if @pt is NULL, if @entries is NULL while @nr > 0, or
 * if some entry has start > last; -ENOMEM.  On error @pt is unchanged.
 */
int priotree_build(struct priotree *pt, const struct priotree_hit *entries,
		   size_t nr);

/**
 * priotree_remove() - remove one entry ([@start, @last], @item)
 * @pt: the index (NULL: -EINVAL)
 * @start: first value of the interval
 * @last: last value of the interval
 * @item: the item it was inserted with
 *
 * Copies of one triple are interchangeable; one of them goes.  Removing
 * the hit that priotree_next() has just returned keeps that query going;
 * any other removal ends every open query.
 *
 * Cost: O(1) expected, plus O(log n) when the last entry of the interval
 * goes, however many entries share the interval and in whatever order they
 * are removed.
 *
 * Example:
 *	priotree_remove(pt, vma_start, vma_last, vma);
 *
 * Return: 0; -EINVAL if @pt is NULL or @start > @last; -ENOENT if there is
 * no such entry.
 */
int priotree_remove(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item);

/**
 * priotree_count() - number of entries
 * @pt: the index, or NULL
 *
 * Cost: O(1).
 *
 * Return: entries inserted and not yet removed (copies counted); 0 for a
 * NULL @pt.
 */
size_t priotree_count(const struct priotree *pt);

/**
 * priotree_count_range() - number of entries overlapping [@first, @last]
 * @pt: the index (NULL: -EINVAL)
 * @first: first value of the query
 * @last: last value of the query, @first <= @last
 * @count: where to store the number (0 on error)
 *
 * Counts what a query of [@first, @last] would return, copies included,
 * without returning it: the walk visits each overlapping interval once and
 * adds up its entries without looking at them.  Changes nothing, and ends
 * no open query.
 *
 * Cost: O(log n + k), k the number of distinct intervals among the hits
 * (not the number of entries, as for a query).
 *
 * Example:
 *	size_t mapped;
 *
 *	if (priotree_count_range(pt, page, page, &mapped) == 0 && !mapped)
 *		reclaim(page);
 *
 * Return: 0; -EINVAL if @pt or @count is NULL or @first > @last.
 */
int priotree_count_range(const struct priotree *pt, unsigned long first,
			 unsigned long last, size_t *count);

/**
 * priotree_query() - start a stabbing query for [@first, @last]
 * @pt: the index (NULL: -EINVAL)
 * @first: first value of the query
 * @last: last value of the query, @first <= @last; a point query has
 *        @first == @last
 * @it: iterator to set up
 *
 * Every entry whose interval overlaps [@first, @last] is then returned once
 * by priotree_next() (each copy of a triple once), entries of one interval
 * together, in no particular order of intervals.  Until the query is done
 * the index must not change, except by removing the hit just returned.
 * Cost of the whole query: O(log n + m), m the number of hits.
 *
 * Example:
 *	priotree_query(pt, page, page, &it);
 *	while (priotree_next(&it, &hit) > 0)
 *		unmap(hit.item, page);
 *
 * Return: 0; -EINVAL if @pt or @it is NULL or @first > @last (with @it
 * given, priotree_next() then reports no hits).
 */
int priotree_query(struct priotree *pt, unsigned long first,
		   unsigned long last, struct priotree_iter *it);

/**
 * priotree_next() - the next hit of a query
 * @it: iterator set up by priotree_query()
 * @hit: filled in with the hit
 *
 * After a return of 1, priotree_remove(pt, hit->start, hit->last,
 * hit->item) may be called, and the query goes on with the other hits.
 *
 * Example:
 *	priotree_query(pt, 0, ULONG_MAX, &it);
 *	while (priotree_next(&it, &hit) > 0)
 *		if (stale(hit.item))
 *			priotree_remove(pt, hit.start, hit.last, hit.item);
 *
 * Return: 1 and *@hit filled in, 0 when the query is exhausted (and on
 * every later call), or -EINVAL if @it or @hit is NULL.
 */
int priotree_next(struct priotree_iter *it, struct priotree_hit *hit);

/**
 * priotree_next_batch() - the next hits of a query, up to @max at once
 * @it: iterator set up by priotree_query()
 * @hits: array to fill in
 * @max: its size, 1 to INT_MAX
 *
 * Stores the hits that the next @max calls of priotree_next() would
 * return, in the same order, and may be mixed with it on one query.  One
 * call per batch instead of one per hit is what makes it faster where
 * queries have many hits.  The change allowed during the query is the
 * same: after a batch, the entry of its last hit, and only that one, may
 * be removed with priotree_remove(), and the query goes on.  Since 0.2.0.
 * Cost: O(log n + m) over the whole query, as for priotree_next().
 *
 * Example:
 *	struct priotree_hit hits[64];
 *	int nr, i;
 *
 *	priotree_query(pt, page, page, &it);
 *	while ((nr = priotree_next_batch(&it, hits, 64)) > 0)
 *		for (i = 0; i < nr; i++)
 *			unmap(hits[i].item, page);
 *
 * Return: the number of hits stored, @max at most, and fewer only when the
 * query is exhausted; 0 when it already was (and on every later call); or
 * -EINVAL if @it or @hits is NULL, or @max is 0 or above INT_MAX.
 */
int priotree_next_batch(struct priotree_iter *it, struct priotree_hit *hits,
			unsigned int max);

/**
 * priotree_foreach() - call @fn for every entry overlapping [@first, @last]
 * @pt: the index (NULL: -EINVAL)
 * @first: first value of the query
 * @last: last value of the query
 * @fn: callback; a non-zero return stops the walk
 * @arg: passed to @fn
 *
 * @fn may remove the entry of the hit it is given, and must not modify @pt
 * otherwise.  Cost: O(log n + m).
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
 * walk, or -EINVAL if @pt or @fn is NULL or @first > @last.
 */
int priotree_foreach(struct priotree *pt, unsigned long first,
		     unsigned long last,
		     int (*fn)(const struct priotree_hit *hit, void *arg),
		     void *arg);

/**
 * priotree_check() - verify the index's internal invariants
 * @pt: the index (NULL: -EINVAL)
 * @msg: buffer for a description of the first broken invariant, or NULL
 * @len: size of @msg
 *
 * For tests and debugging.  Cost: O(n log n).
 *
 * Return: 0 if every invariant holds, -EUCLEAN if one does not, -EINVAL
 * if @pt is NULL.
 */
int priotree_check(const struct priotree *pt, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PRIOTREE_H */
