// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for the plain C API, <priotree.h>: arbitrary bytes become
 * calls with arbitrary arguments (reversed intervals, absent entries,
 * duplicates, NULL items, failing allocations), and every call must
 * return what the documentation promises, leave the index consistent,
 * and never crash, leak (LeakSanitizer, valgrind) or hang.
 *
 * A brute-force model holds the multiset of (start, last, item) entries.
 * Queries (read hit by hit or in batches), foreach, count and the count of
 * a range are compared with it, and a renewed index is built back from it
 * by priotree_build(); priotree_check() runs
 * after every mutation.  Allocation failures are injected by compiling
 * src/priotree.c into this file with malloc(), calloc() and
 * aligned_alloc() routed through fuzz_malloc(), fuzz_calloc() and
 * fuzz_aligned_alloc(), and kmem_cache_alloc() failing as failslab fails
 * it; an -ENOMEM must leave the index as it was.  Corruption ops break
 * the index on purpose and demand that priotree_check() notices, then
 * repair it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

/*
 * Allocation fault injection.  fail_countdown == n > 0 makes the n-th
 * allocation from now fail; alloc_failed records that one did.
 */
static unsigned int fail_countdown;
static bool alloc_failed;
/*
 * The failed allocation was a calloc(): inside priotree_insert() only the
 * hash table's growth asks calloc(), and its failure is no error (the
 * table keeps its size), so the insert must succeed.
 */
static bool calloc_failed;

static bool fuzz_alloc_should_fail(void)
{
	if (!fail_countdown || --fail_countdown)
		return false;
	alloc_failed = true;
	return true;
}

static void *fuzz_malloc(size_t size)
{
	return fuzz_alloc_should_fail() ? NULL : malloc(size);
}

static void *fuzz_calloc(size_t n, size_t size)
{
	if (!fuzz_alloc_should_fail())
		return calloc(n, size);
	calloc_failed = true;
	return NULL;
}

static void *fuzz_aligned_alloc(size_t align, size_t size)
{
	return fuzz_alloc_should_fail() ? NULL : aligned_alloc(align, size);
}

/*
 * <stdlib.h> is in already, so only the library's calls are rerouted:
 * compat's <linux/slab.h> (its kmalloc() and its slabs) and priotree.c.
 * A cache takes a slab from its pool before it asks aligned_alloc(), so
 * the cache's allocations fail here too, as failslab fails them.
 */
#define malloc(size)		fuzz_malloc(size)
#define calloc(n, size)		fuzz_calloc(n, size)
#define aligned_alloc(a, size)	fuzz_aligned_alloc(a, size)
#include <linux/slab.h>
#define kmem_cache_alloc(s, flags) \
	(fuzz_alloc_should_fail() ? NULL : kmem_cache_alloc(s, flags))
#include "../../src/priotree.c"
#undef kmem_cache_alloc
#undef malloc
#undef calloc
#undef aligned_alloc

#define MODEL_ENTRIES	192
#define ITEMS		6
#define MAX_OPS		2000

enum fuzz_op {
	OP_INSERT,		/* interval (either order), item */
	OP_INSERT_TWIN,		/* entry, item: an interval present */
	OP_REMOVE,		/* interval (either order), item */
	OP_REMOVE_ENTRY,	/* entry: one that is present */
	OP_QUERY,		/* index, index (either order) */
	OP_FOREACH,		/* index, index, stop-after */
	OP_FAIL_ALLOC,		/* which allocation from now fails */
	OP_RENEW,		/* a new index, built from the model's entries */
	OP_CORRUPT,		/* kind: break, check, repair */
	OP_QUERY_REMOVE,	/* index, index, then per hit: remove it? */
	OP_COUNT
};

struct model_entry {
	unsigned long	start;
	unsigned long	last;
	void		*item;
	bool		matched;	/* scratch, for comparing hits */
};

struct fuzz_state {
	struct fuzz_input	in;
	struct priotree		*pt;
	struct model_entry	model[MODEL_ENTRIES];
	unsigned int		entries;
	/* intervals a query has finished with, to check grouping */
	unsigned long		done_start[MODEL_ENTRIES];
	unsigned long		done_last[MODEL_ENTRIES];
};

/* Items are addresses the harness owns; NULL is a valid item too. */
static char item_tokens[ITEMS - 1];

static void *decode_item(struct fuzz_input *in)
{
	unsigned int k = fuzz_below(in, ITEMS);

	return k ? &item_tokens[k - 1] : NULL;
}

static void verify(struct fuzz_state *s)
{
	char msg[160];

	FUZZ_EXPECT(priotree_check(s->pt, msg, sizeof(msg)) == 0, "%s", msg);
	FUZZ_EXPECT(priotree_count(s->pt) == s->entries,
		    "count %zu, model %u", priotree_count(s->pt), s->entries);
}

static int model_find(struct fuzz_state *s, unsigned long start,
		      unsigned long last, void *item)
{
	unsigned int i;

	for (i = 0; i < s->entries; i++)
		if (s->model[i].start == start && s->model[i].last == last &&
		    s->model[i].item == item)
			return i;
	return -1;
}

static void model_remove(struct fuzz_state *s, int i)
{
	s->model[i] = s->model[--s->entries];
}

static void op_insert(struct fuzz_state *s, bool twin)
{
	unsigned long start, last;
	void *item;
	int ret;

	if (twin) {
		if (!s->entries)
			return;
		start = s->model[fuzz_below(&s->in, s->entries)].start;
		last = s->model[fuzz_below(&s->in, s->entries)].last;
		/* two entries' bounds may cross; keep the pair valid */
		if (start > last)
			last = start;
	} else {
		start = fuzz_index(&s->in);
		last = fuzz_index(&s->in);
	}
	item = decode_item(&s->in);
	if (s->entries == MODEL_ENTRIES)
		return;

	alloc_failed = false;
	calloc_failed = false;
	ret = priotree_insert(s->pt, start, last, item);
	if (start > last) {
		FUZZ_EXPECT(ret == -EINVAL, "insert [%lu, %lu]: %d", start,
			    last, ret);
	} else if (alloc_failed && !calloc_failed) {
		FUZZ_EXPECT(ret == -ENOMEM,
			    "insert [%lu, %lu] with a failed allocation: %d",
			    start, last, ret);
	} else {
		FUZZ_EXPECT(ret == 0, "insert [%lu, %lu]: %d", start, last,
			    ret);
		s->model[s->entries++] = (struct model_entry) {
			.start = start, .last = last, .item = item,
		};
	}
	verify(s);
}

static void op_remove(struct fuzz_state *s, bool present)
{
	unsigned long start, last;
	struct model_entry *e;
	void *item;
	int ret, i;

	if (present) {
		if (!s->entries)
			return;
		e = &s->model[fuzz_below(&s->in, s->entries)];
		start = e->start;
		last = e->last;
		item = e->item;
	} else {
		start = fuzz_index(&s->in);
		last = fuzz_index(&s->in);
		item = decode_item(&s->in);
	}
	i = model_find(s, start, last, item);
	ret = priotree_remove(s->pt, start, last, item);
	if (start > last)
		FUZZ_EXPECT(ret == -EINVAL, "remove [%lu, %lu]: %d", start,
			    last, ret);
	else if (i < 0)
		FUZZ_EXPECT(ret == -ENOENT, "remove of absent [%lu, %lu]: %d",
			    start, last, ret);
	else
		FUZZ_EXPECT(ret == 0, "remove [%lu, %lu]: %d", start, last,
			    ret);
	if (i >= 0)
		model_remove(s, i);
	verify(s);
}

/*
 * One hit of a query: it must match an entry of the model not matched yet
 * that overlaps [first, last], and the hits of one interval must come
 * together.  *@done counts the intervals finished so far.
 */
static void match_hit(struct fuzz_state *s, const struct priotree_hit *hit,
		      const struct priotree_hit *prev, unsigned int *done,
		      unsigned long first, unsigned long last)
{
	unsigned int i;

	FUZZ_EXPECT(hit->start <= last && hit->last >= first,
		    "query [%lu, %lu] hit [%lu, %lu]", first, last,
		    hit->start, hit->last);
	if (prev && (prev->start != hit->start || prev->last != hit->last)) {
		FUZZ_EXPECT(*done < MODEL_ENTRIES,
			    "more intervals than entries");
		s->done_start[*done] = prev->start;
		s->done_last[*done] = prev->last;
		++*done;
		for (i = 0; i < *done; i++)
			FUZZ_EXPECT(s->done_start[i] != hit->start ||
				    s->done_last[i] != hit->last,
				    "query [%lu, %lu]: entries of [%lu, %lu] not together",
				    first, last, hit->start, hit->last);
	}
	for (i = 0; i < s->entries; i++) {
		struct model_entry *e = &s->model[i];

		if (!e->matched && e->start == hit->start &&
		    e->last == hit->last && e->item == hit->item) {
			e->matched = true;
			return;
		}
	}
	FUZZ_EXPECT(0, "query [%lu, %lu] hit ([%lu, %lu], %p) once too often",
		    first, last, hit->start, hit->last, hit->item);
}

/* After a complete query: every overlapping entry was hit. */
static void match_all(struct fuzz_state *s, unsigned long first,
		      unsigned long last)
{
	unsigned int i;

	for (i = 0; i < s->entries; i++) {
		struct model_entry *e = &s->model[i];

		FUZZ_EXPECT(e->matched || e->start > last || e->last < first,
			    "query [%lu, %lu] missed ([%lu, %lu], %p)",
			    first, last, e->start, e->last, e->item);
		e->matched = false;
	}
}

/*
 * A query's reader: priotree_next(), or priotree_next_batch() in batches
 * of 1-4, chosen from the query's bounds so that the input format does not
 * change.  A batch must be full unless the query has run out, and a
 * finished query stays finished for either call.
 */
struct reader {
	struct priotree_iter	it;
	unsigned int		batch;		/* 0: priotree_next() */
	int			nr, at;		/* the batch being read */
	bool			ran_out;	/* a short batch was seen */
	struct priotree_hit	buf[4];
};

static void reader_init(struct reader *r, unsigned long first,
			unsigned long last)
{
	r->batch = (first ^ last ^ (first >> 7)) % (ARRAY_SIZE(r->buf) + 1);
	r->nr = r->at = 0;
	r->ran_out = false;
}

/* 1 and *@hit, or 0 at the end; *@removable: the entry may go now. */
static int reader_next(struct reader *r, struct priotree_hit *hit,
		       bool *removable)
{
	int ret;

	if (!r->batch) {
		*removable = true;
		ret = priotree_next(&r->it, hit);
		FUZZ_EXPECT(ret == 0 || ret == 1, "priotree_next(): %d", ret);
		return ret;
	}
	if (r->at == r->nr) {
		ret = priotree_next_batch(&r->it, r->buf, r->batch);
		FUZZ_EXPECT(ret >= 0 && ret <= (int)r->batch,
			    "priotree_next_batch(%u): %d", r->batch, ret);
		FUZZ_EXPECT(!r->ran_out || !ret,
			    "priotree_next_batch(): %d hits after a short batch",
			    ret);
		r->ran_out = ret < (int)r->batch;
		r->nr = ret;
		r->at = 0;
		if (!ret)
			return 0;
	}
	*hit = r->buf[r->at++];
	*removable = r->at == r->nr;
	return 1;
}

/* After the end: no more hits, whichever way it is asked. */
static void reader_done(struct reader *r, unsigned long first,
			unsigned long last)
{
	struct priotree_hit hit;

	FUZZ_EXPECT(priotree_next(&r->it, &hit) == 0,
		    "finished query [%lu, %lu] has another hit", first, last);
	FUZZ_EXPECT(!priotree_next_batch(&r->it, r->buf, ARRAY_SIZE(r->buf)),
		    "finished query [%lu, %lu] has another batch", first, last);
}

static void op_query(struct fuzz_state *s)
{
	unsigned long first = fuzz_index(&s->in), last = fuzz_index(&s->in);
	struct priotree_hit hit, prev;
	unsigned int hits = 0, done = 0;
	struct reader r;
	bool removable;
	size_t count;
	int ret;

	reader_init(&r, first, last);
	ret = priotree_query(s->pt, first, last, &r.it);
	if (first > last) {
		FUZZ_EXPECT(ret == -EINVAL, "query [%lu, %lu]: %d", first,
			    last, ret);
		FUZZ_EXPECT(reader_next(&r, &hit, &removable) == 0,
			    "rejected query [%lu, %lu] has a hit", first, last);
		count = 1;
		FUZZ_EXPECT(priotree_count_range(s->pt, first, last,
						 &count) == -EINVAL && !count,
			    "count of reversed [%lu, %lu]: %zu", first, last,
			    count);
		return;
	}
	FUZZ_EXPECT(ret == 0, "query [%lu, %lu]: %d", first, last, ret);
	while (reader_next(&r, &hit, &removable) > 0) {
		match_hit(s, &hit, hits ? &prev : NULL, &done, first, last);
		prev = hit;
		hits++;
	}
	reader_done(&r, first, last);
	match_all(s, first, last);
	/* the count, from the ranges' sums, of what the query returned */
	ret = priotree_count_range(s->pt, first, last, &count);
	FUZZ_EXPECT(ret == 0 && count == hits,
		    "count of [%lu, %lu]: %d, %zu, the query had %u hits",
		    first, last, ret, count, hits);
}

/*
 * A query that removes some of its hits as it goes, the one change allowed
 * during a query (read in batches, only the last hit of a batch): every
 * overlapping entry must still come exactly once, the removed ones must be
 * gone after it.
 */
static void op_query_remove(struct fuzz_state *s)
{
	unsigned long first = fuzz_index(&s->in), last = fuzz_index(&s->in);
	struct model_entry gone[MODEL_ENTRIES];
	struct priotree_hit hit, prev;
	unsigned int hits = 0, done = 0, nr_gone = 0, i;
	unsigned long tmp;
	struct reader r;
	bool removable;
	size_t count;
	int ret;

	if (first > last) {
		tmp = first;
		first = last;
		last = tmp;
	}
	reader_init(&r, first, last);
	FUZZ_EXPECT(priotree_query(s->pt, first, last, &r.it) == 0,
		    "query [%lu, %lu]", first, last);
	while (reader_next(&r, &hit, &removable) > 0) {
		match_hit(s, &hit, hits ? &prev : NULL, &done, first, last);
		prev = hit;
		hits++;
		/* of a batch, only the last hit may go */
		if (!removable || !fuzz_below(&s->in, 2))
			continue;
		ret = priotree_remove(s->pt, hit.start, hit.last, hit.item);
		FUZZ_EXPECT(ret == 0, "remove of hit [%lu, %lu] in a query: %d",
			    hit.start, hit.last, ret);
		gone[nr_gone++] = (struct model_entry) {
			.start = hit.start, .last = hit.last, .item = hit.item,
		};
	}
	reader_done(&r, first, last);
	match_all(s, first, last);
	for (i = 0; i < nr_gone; i++)
		model_remove(s, model_find(s, gone[i].start, gone[i].last,
					   gone[i].item));
	verify(s);
	/* ranges emptied during the query may still be in the tree */
	FUZZ_EXPECT(priotree_count_range(s->pt, first, last, &count) == 0 &&
		    count == hits - nr_gone,
		    "count of [%lu, %lu] after %u of %u hits went: %zu",
		    first, last, nr_gone, hits, count);
}

struct foreach_state {
	struct fuzz_state	*s;
	unsigned long		first, last;
	unsigned int		hits, stop_after, done;
	struct priotree_hit	prev;
};

/* Stops the walk with a distinctive value after stop_after hits. */
#define FOREACH_STOPPED	4242

static int foreach_visit(const struct priotree_hit *hit, void *arg)
{
	struct foreach_state *f = arg;

	match_hit(f->s, hit, f->hits ? &f->prev : NULL, &f->done, f->first,
		  f->last);
	f->prev = *hit;
	return ++f->hits == f->stop_after ? FOREACH_STOPPED : 0;
}

static void op_foreach(struct fuzz_state *s)
{
	struct foreach_state f = {
		.s = s,
		.first = fuzz_index(&s->in),
		.last = fuzz_index(&s->in),
		.stop_after = fuzz_below(&s->in, 8),
	};
	unsigned int i;
	int ret;

	ret = priotree_foreach(s->pt, f.first, f.last, foreach_visit, &f);
	if (f.first > f.last) {
		FUZZ_EXPECT(ret == -EINVAL && !f.hits, "foreach [%lu, %lu]: %d",
			    f.first, f.last, ret);
		return;
	}
	if (ret == FOREACH_STOPPED) {
		FUZZ_EXPECT(f.hits == f.stop_after,
			    "foreach stopped after %u hits, asked %u",
			    f.hits, f.stop_after);
		for (i = 0; i < s->entries; i++)
			s->model[i].matched = false;
		return;
	}
	FUZZ_EXPECT(ret == 0, "foreach [%lu, %lu]: %d", f.first, f.last, ret);
	match_all(s, f.first, f.last);
}

static void op_fail_alloc(struct fuzz_state *s)
{
	fail_countdown = 1 + fuzz_below(&s->in, 3);
}

/*
 * priotree_build() of model entries [@from, @to) into the index, which
 * holds the model's [0, @from): all or nothing.  On -ENOMEM (a failure
 * armed by OP_FAIL_ALLOC) the model drops [@from, @to) again.
 */
static void build_part(struct fuzz_state *s, unsigned int from,
		       unsigned int to)
{
	struct priotree_hit hits[MODEL_ENTRIES];
	unsigned int i;
	int ret;

	for (i = from; i < to; i++)
		hits[i - from] = (struct priotree_hit) {
			.start = s->model[i].start, .last = s->model[i].last,
			.item = s->model[i].item,
		};
	alloc_failed = false;
	ret = priotree_build(s->pt, hits, to - from);
	if (alloc_failed) {
		FUZZ_EXPECT(ret == -ENOMEM,
			    "build of %u entries with a failed allocation: %d",
			    to - from, ret);
		s->entries = from;
	} else {
		FUZZ_EXPECT(ret == 0, "build of %u entries onto %u: %d",
			    to - from, from, ret);
		s->entries = to;
	}
	verify(s);
}

/*
 * A new index, which gets the model's entries back by priotree_build(),
 * so that the input format needs no op of its own for it: an odd number
 * of entries in one build into the empty index (sorted and linked in one
 * pass), an even number in two halves, the second into a non-empty one
 * (a lookup and insert per interval).  A reversed entry and a NULL array
 * must be refused first, with nothing added.
 */
static void op_renew(struct fuzz_state *s)
{
	const struct priotree_hit reversed = { .start = 2, .last = 1 };
	unsigned int total = s->entries;
	unsigned int half = total & 1 ? total : total / 2;

	priotree_free(s->pt);
	s->pt = NULL;
	/* the entries stay in the model's array, to be built from */
	s->entries = 0;
	alloc_failed = false;
	s->pt = priotree_new();
	if (alloc_failed) {
		FUZZ_EXPECT(!s->pt, "priotree_new() with a failed allocation");
		/* the next attempt cannot fail: the countdown has fired */
		s->pt = priotree_new();
	}
	FUZZ_EXPECT(s->pt, "priotree_new() failed without a failed allocation");
	FUZZ_EXPECT(priotree_build(s->pt, &reversed, 1) == -EINVAL &&
		    priotree_build(s->pt, NULL, 1) == -EINVAL &&
		    priotree_build(s->pt, NULL, 0) == 0 &&
		    priotree_count(s->pt) == 0,
		    "priotree_build() of bad arrays changed the new index");
	build_part(s, 0, half);
	/* unless the first part failed, and the model is empty now */
	if (s->entries == half && half < total)
		build_part(s, half, total);
}

static void expect_corrupt(struct fuzz_state *s, const char *what,
			   const char *needle)
{
	char msg[160] = "";

	FUZZ_EXPECT(priotree_check(s->pt, msg, sizeof(msg)) == -EUCLEAN,
		    "priotree_check() missed %s", what);
	FUZZ_EXPECT(strstr(msg, needle), "%s: message '%s' lacks '%s'",
		    what, msg, needle);
	FUZZ_EXPECT(priotree_check(s->pt, NULL, 0) == -EUCLEAN,
		    "priotree_check(NULL) missed %s", what);
}

/* The first range, in query order, whose own entry storage is free. */
static struct pt_range *free_inline_entry(struct prio_tree_root *root)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;

	for (node = prio_tree_first(root, &iter, 0, ULONG_MAX); node;
	     node = prio_tree_next(root, &iter, 0, ULONG_MAX))
		if (!to_range(node)->inline_entry.copies)
			return to_range(node);
	return NULL;
}

/*
 * Break one thing inside the index, demand that priotree_check() reports
 * it, and put it back.  The index is reached through the private types
 * of src/priotree.c, which this file includes.
 */
static void op_corrupt(struct fuzz_state *s)
{
	struct prio_tree_root *root = &s->pt->root;
	struct pt_range *range, *next_zombie, ghost;
	struct pt_entry *entry;
	struct list_head saved;
	unsigned short bits;
	size_t copies;

	switch (fuzz_below(&s->in, 9)) {
	case 0:
		s->pt->count++;
		expect_corrupt(s, "a wrong count", "count says");
		s->pt->count--;
		break;
	case 1:
		bits = root->index_bits;
		root->index_bits = prio_tree_empty(root) ? 2 : 0;
		expect_corrupt(s, "a wrong index_bits", "4 bound");
		root->index_bits = bits;
		break;
	case 2:
		/* a zombie (an interval emptied during a query, still in the
		 * tree until reaped) has no entries by right */
		if (prio_tree_empty(root) ||
		    list_empty(&to_range(root->prio_tree_node)->entries))
			return;
		range = to_range(root->prio_tree_node);
		saved = range->entries;
		INIT_LIST_HEAD(&range->entries);
		expect_corrupt(s, "an interval without entries", "no entries");
		range->entries = saved;
		break;
	case 3:
		/*
		 * A range's own entry storage: free where some range has it
		 * free (its first entry removed, later ones left), else the
		 * root range's, in use.
		 */
		if (prio_tree_empty(root))
			return;
		range = free_inline_entry(root);
		if (!range)
			range = to_range(root->prio_tree_node);
		copies = range->inline_entry.copies;
		if (copies) {
			range->inline_entry.copies = 0;
			expect_corrupt(s, "a listed entry without copies",
				       "not hashed as itself");
		} else {
			range->inline_entry.copies = 1;
			expect_corrupt(s, "an own entry in use, not listed",
				       "own entry in use");
		}
		range->inline_entry.copies = copies;
		break;
	case 4:
		if (prio_tree_empty(root))
			return;
		range = to_range(root->prio_tree_node);
		range->copies++;
		expect_corrupt(s, "a range's wrong sum of copies",
			       "copies, holds");
		range->copies--;
		break;
	case 5:
		/* a range with entries on the zombie list */
		if (prio_tree_empty(root) ||
		    list_empty(&to_range(root->prio_tree_node)->entries))
			return;
		range = to_range(root->prio_tree_node);
		next_zombie = range->next_zombie;
		range->next_zombie = s->pt->zombies;
		s->pt->zombies = range;
		expect_corrupt(s, "a zombie with entries", "zombie with entries");
		s->pt->zombies = range->next_zombie;
		range->next_zombie = next_zombie;
		break;
	case 6:
		/* an empty range on the zombie list that is in no tree */
		range_init(&ghost, 0, 0);
		ghost.next_zombie = s->pt->zombies;
		s->pt->zombies = &ghost;
		expect_corrupt(s, "a zombie outside the tree",
			       "zombie list disagrees with the tree");
		s->pt->zombies = ghost.next_zombie;
		break;
	case 7:
		s->pt->nr_entries++;
		expect_corrupt(s, "a wrong count of entries", "entries counted");
		s->pt->nr_entries--;
		break;
	case 8:
		/*
		 * An entry's stored hash, in a bit that leaves it in its
		 * bucket: only the lookup's comparison can miss it then.
		 */
		if (prio_tree_empty(root) ||
		    list_empty(&to_range(root->prio_tree_node)->entries))
			return;
		range = to_range(root->prio_tree_node);
		entry = list_first_entry(&range->entries, struct pt_entry, link);
		entry->hash ^= 1UL << (BITS_PER_LONG - 1);
		expect_corrupt(s, "an entry's wrong hash",
			       "not hashed as itself");
		entry->hash ^= 1UL << (BITS_PER_LONG - 1);
		break;
	}
	verify(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_state state;
	struct fuzz_state *s = &state;
	unsigned int ops;

	memset(s, 0, sizeof(*s));
	fuzz_input_init(&s->in, data, size);
	fail_countdown = 0;
	s->pt = priotree_new();
	FUZZ_EXPECT(s->pt, "priotree_new() failed");
	priotree_free(NULL);

	for (ops = 0; ops < MAX_OPS && fuzz_more(&s->in); ops++) {
		switch (fuzz_u8(&s->in) % OP_COUNT) {
		case OP_INSERT:
			op_insert(s, false);
			break;
		case OP_INSERT_TWIN:
			op_insert(s, true);
			break;
		case OP_REMOVE:
			op_remove(s, false);
			break;
		case OP_REMOVE_ENTRY:
			op_remove(s, true);
			break;
		case OP_QUERY:
			op_query(s);
			break;
		case OP_FOREACH:
			op_foreach(s);
			break;
		case OP_FAIL_ALLOC:
			op_fail_alloc(s);
			break;
		case OP_RENEW:
			op_renew(s);
			break;
		case OP_CORRUPT:
			op_corrupt(s);
			break;
		case OP_QUERY_REMOVE:
			op_query_remove(s);
			break;
		}
	}
	fail_countdown = 0;
	priotree_free(s->pt);
	return 0;
}
