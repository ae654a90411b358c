// SPDX-License-Identifier: GPL-2.0
/*
 * <priotree.h>: the plain C interval index, built on the self-contained
 * node flavour of the prio tree.
 *
 * One struct pt_range per distinct interval is a tree node; its entries
 * hang off it in insertion order.  An entry is one distinct (start, last,
 * item) triple and counts its copies, so inserting the same triple again
 * allocates nothing and removing a copy never scans.  A range holds the
 * storage of one entry, which a new entry takes when it is free, so an
 * interval with one entry costs one allocation.  Ranges, and the entries
 * a range's own storage cannot take, come from kmem_caches of the tree's
 * own: an allocation pops a slab's free list and a free pushes it, where
 * malloc() and free() cost an insert 169 instructions and a remove 109
 * (bench/tree).  The caches are the tree's, so that trees used by
 * different threads share nothing but compat's pool of free slabs, which
 * is locked: distinct trees stay independent, as the API promises.
 * Every entry is also
 * in a hash table keyed by its triple: priotree_remove() finds its entry,
 * and through it the range, in O(1) expected, whatever the number of
 * entries sharing the interval and whatever the order of removal, and
 * descends the tree only when the range empties (prio_tree_remove()).
 * An insert of a new triple descends it once: it offers a range to the
 * tree, which either links it or returns the interval's own range, and a
 * range not needed is kept for the next insert (priotree->spare_range).
 *
 * The tree itself never allocates, so every allocation happens here,
 * before the tree changes (an insert that finds its interval present
 * changes nothing), and an -ENOMEM leaves the index as it was.
 * Growing the hash table is the one allocation whose failure is not an
 * error: the table then stays at its size, slower but correct.
 *
 * Removal during a query (see <priotree.h>): the query never holds the
 * memory of the entry it last returned (list_for_each_safe() style), and
 * a range emptied by removing that entry is not taken out of the tree,
 * which would move the nodes under the query's feet: it stays in the tree,
 * empty, as a "zombie", and is taken out when the query that emptied it
 * ends, or by the next change that ends every query anyway (an insert, a
 * removal of another entry, priotree_free()).  Queries step over zombies.
 */

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/mmdebug.h>
#include <linux/prio_tree.h>
#include <linux/prio_tree_walk.h>
#include <linux/slab.h>

#include <priotree.h>

#define PT_MIN_BUCKETS	16	/* a power of two */

struct pt_range;

/*
 * A query's hit reads an entry's item, copies and next link, in this
 * order at the front, so that with the range's keys and list head they
 * fall in the range's first 80 bytes (below).
 */
struct pt_entry {
	void			*item;
	size_t			copies;		/* >= 1 */
	struct list_head	link;		/* in range->entries */
	struct pt_entry		*hash_next;	/* bucket chain */
	struct pt_range		*range;		/* holds start and last */
	/*
	 * triple_hash() of the entry's triple: a lookup reads the range's
	 * keys only when the whole hash matches, and a rehash computes
	 * nothing.
	 */
	unsigned long		hash;
};

struct pt_range {
	struct prio_tree_node	node;
	struct list_head	entries;	/* empty only for a zombie */
	/*
	 * Storage for one entry, so that an interval with one entry, the
	 * common case, is one allocation: in use exactly while its copies
	 * are not 0, and then on @entries like any other.  With it a range
	 * is 128 bytes, exactly the two cache lines of the cache's stride,
	 * so a zombie is told by its empty list: a flag would not fit.
	 *
	 * It comes right after the list head: a hit on a range of one
	 * entry then reads bytes 0-79 only (the keys, entries.next, and the
	 * entry's item, copies and link.next), two cache lines, since the
	 * cache starts each range on a line (SLAB_HWCACHE_ALIGN).  With the
	 * entry last, a hit read bytes 24-119, three lines at three of the
	 * four offsets of malloc()'s 16-byte grid.
	 */
	struct pt_entry		inline_entry;
	size_t			copies;		/* sum of the entries' copies */
	struct pt_range		*next_zombie;	/* a zombie's, on pt->zombies */
};

struct priotree {
	struct prio_tree_root	root;
	struct kmem_cache	*ranges;	/* every pt_range of this tree */
	struct kmem_cache	*entries;	/* its entries not in a range */
	size_t			count;		/* copies of all entries */
	size_t			nr_entries;	/* distinct triples */
	struct pt_entry		**buckets;
	size_t			nr_buckets;	/* a power of two */
	struct pt_range		*zombies;
	/*
	 * The entry priotree_next() last returned, and the query that did:
	 * removing exactly that entry is the one change allowed during a
	 * query.  Only ever compared, never dereferenced.
	 */
	const struct pt_entry	*cursor;
	unsigned long		cursor_query;
	unsigned long		zombie_query;	/* whose removal left zombies */
	/*
	 * A range in no tree, with no entries, that the last insert of an
	 * interval already present did not need: the next insert of a new
	 * triple tries it in the tree instead of allocating one.
	 */
	struct pt_range		*spare_range;
	unsigned long		queries;	/* query ids handed out */
};

/*
 * What struct priotree_iter really holds.  iter.cur is the current range's
 * node (prio_tree_first() and prio_tree_next() return it), NULL once the
 * query is exhausted; iter.root leads back to the struct priotree.
 */
struct pt_query {
	struct prio_tree_iter	iter;
	unsigned long		first;
	unsigned long		last;
	/*
	 * With @left > 0: the entry being returned, which still owes @left
	 * copies; it is alive, since only a copy already returned may have
	 * been removed.  With @left == 0: the next entry to start, or the
	 * range's list head.  Never the entry just handed out for the last
	 * time, which the caller may free.
	 */
	struct list_head	*pos;
	size_t			left;
	unsigned long		id;
};

static_assert(offsetof(struct pt_range, inline_entry.link.next) +
	      sizeof(struct list_head *) <= 80,
	      "a hit on a range of one entry reads past byte 80");
static_assert(sizeof(struct pt_entry) <= L1_CACHE_BYTES,
	      "an entry no longer fits the cache line of its stride");
static_assert(sizeof(struct pt_range) <= 2 * L1_CACHE_BYTES,
	      "a range no longer fits the two cache lines of its stride");
static_assert(sizeof(struct pt_query) <= sizeof(struct priotree_iter),
	      "struct priotree_iter is too small for the query state");

static inline struct pt_range *to_range(struct prio_tree_node *node)
{
	return node ? container_of(node, struct pt_range, node) : NULL;
}

/*
 * Storage for a new entry of @range, @item with one copy: the range's own
 * if it is free, else allocated; NULL when out of memory.
 */
static struct pt_entry *entry_new(struct priotree *pt,
				  struct pt_range *range, void *item)
{
	struct pt_entry *entry = &range->inline_entry;

	if (entry->copies)
		entry = kmem_cache_alloc(pt->entries, GFP_KERNEL);
	if (!entry)
		return NULL;
	entry->item = item;
	entry->copies = 1;
	return entry;
}

/* Give back an entry's storage: its copies are 0, it is on no list. */
static void entry_free(struct priotree *pt, struct pt_entry *entry)
{
	if (entry != &entry->range->inline_entry)
		kmem_cache_free(pt->entries, entry);
}

/*
 * The query's ranges: prio_tree_first/next_inline(), since the root is
 * never raw.  The walk is compiled into the query functions that call
 * these, with no flavour test and no call per range.  That saves 13-14%
 * of a query's instructions where ranges have one entry each (bench/tree).
 */
static __always_inline struct pt_range *
range_first(const struct priotree *pt, struct prio_tree_iter *iter,
	    unsigned long first, unsigned long last)
{
	VM_BUG_ON(pt->root.raw);
	return to_range(prio_tree_first_inline(&pt->root, iter, first, last));
}

/* The range after the last one returned, or NULL on every call after it. */
static __always_inline struct pt_range *
range_next(struct prio_tree_iter *iter, unsigned long first,
	   unsigned long last)
{
	return to_range(prio_tree_next_inline(iter->root, iter, first, last));
}

static inline uint64_t hash_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static unsigned long triple_hash(unsigned long start, unsigned long last,
				 const void *item)
{
	uint64_t h = hash_mix((uintptr_t)item);

	h = hash_mix(h ^ last);
	return (unsigned long)hash_mix(h ^ start);
}

/*
 * The link that points at the entry of the triple, or at the NULL ending
 * its bucket's chain when there is no such entry; *@hash is the triple's.
 */
static __always_inline struct pt_entry **
find_entry(struct priotree *pt, unsigned long start, unsigned long last,
	   const void *item, unsigned long *hash)
{
	unsigned long h = triple_hash(start, last, item);
	struct pt_entry **link = &pt->buckets[h & (pt->nr_buckets - 1)];
	struct pt_entry *entry;

	*hash = h;
	for (; (entry = *link); link = &entry->hash_next)
		if (entry->hash == h && entry->item == item &&
		    entry->range->node.start == start &&
		    entry->range->node.last == last)
			break;
	return link;
}

/*
 * Rehash into @nr buckets (a power of two).  Failure leaves the table as
 * it was: only slower, never wrong.
 */
static void resize_table(struct priotree *pt, size_t nr)
{
	struct pt_entry **buckets, **old, *entry, *next;
	size_t old_nr, i;

	buckets = kcalloc(nr, sizeof(*buckets), GFP_KERNEL);
	if (!buckets)
		return;
	old = pt->buckets;
	old_nr = pt->nr_buckets;
	pt->buckets = buckets;
	pt->nr_buckets = nr;
	for (i = 0; i < old_nr; i++) {
		for (entry = old[i]; entry; entry = next) {
			size_t b;

			next = entry->hash_next;
			b = entry->hash & (nr - 1);
			entry->hash_next = pt->buckets[b];
			pt->buckets[b] = entry;
		}
	}
	kfree(old);
}

/*
 * Double the table when it is fuller than one entry a bucket; O(n), and
 * so O(1) amortised per insert.
 */
static void grow_table(struct priotree *pt)
{
	size_t nr = pt->nr_buckets * 2;

	if (pt->nr_entries <= pt->nr_buckets || nr < pt->nr_buckets)
		return;
	resize_table(pt, nr);
}

/*
 * Take the emptied ranges out of the tree: every open query ends.  Out of
 * line, behind the test for none: zombies are rare, and with the cache's
 * free inlined, the query's end (end_query()) paid for the registers this
 * needs on every query.
 */
static noinline void __reap_zombies(struct priotree *pt)
{
	struct pt_range *range;

	while ((range = pt->zombies)) {
		pt->zombies = range->next_zombie;
		prio_tree_remove(&pt->root, &range->node);
		kmem_cache_free(pt->ranges, range);
	}
}

static inline void reap_zombies(struct priotree *pt)
{
	if (unlikely(pt->zombies))
		__reap_zombies(pt);
}

#define PT_STRINGIFY(x)	#x
#define PT_VERSION_STRING(major, minor, patch) \
	PT_STRINGIFY(major) "." PT_STRINGIFY(minor) "." PT_STRINGIFY(patch)

const char *priotree_version(void)
{
	/* the header this file was built with: the library's version */
	return PT_VERSION_STRING(PRIOTREE_VERSION_MAJOR,
				 PRIOTREE_VERSION_MINOR,
				 PRIOTREE_VERSION_PATCH);
}

struct priotree *priotree_new(void)
{
	struct priotree *pt = kzalloc(sizeof(*pt), GFP_KERNEL);

	if (!pt)
		return NULL;
	pt->buckets = kcalloc(PT_MIN_BUCKETS, sizeof(*pt->buckets),
			      GFP_KERNEL);
	pt->ranges = kmem_cache_create("priotree_range",
				       sizeof(struct pt_range), 0,
				       SLAB_HWCACHE_ALIGN, NULL);
	/*
	 * An entry on a cache line of its own, so that a hit reads one
	 * line: on malloc()'s 16-byte grid that was 3 offsets in 4, and at
	 * a 64-byte stride from a slab's 48-byte header, none.
	 */
	pt->entries = kmem_cache_create("priotree_entry",
					sizeof(struct pt_entry), 0,
					SLAB_HWCACHE_ALIGN, NULL);
	if (!pt->buckets || !pt->ranges || !pt->entries) {
		kmem_cache_destroy(pt->entries);
		kmem_cache_destroy(pt->ranges);
		kfree(pt->buckets);
		kfree(pt);
		return NULL;
	}
	pt->nr_buckets = PT_MIN_BUCKETS;
	INIT_PRIO_TREE_ROOT(&pt->root);
	return pt;
}

void priotree_free(struct priotree *pt)
{
	struct pt_entry *entry, *tmp;
	struct pt_range *range;

	if (!pt)
		return;
	/*
	 * always take the root: removing it is O(log n) and needs no walk;
	 * zombies are in the tree too
	 */
	while (!prio_tree_empty(&pt->root)) {
		range = to_range(pt->root.prio_tree_node);
		prio_tree_remove(&pt->root, &range->node);
		list_for_each_entry_safe(entry, tmp, &range->entries, link)
			entry_free(pt, entry);
		kmem_cache_free(pt->ranges, range);
	}
	kmem_cache_free(pt->ranges, pt->spare_range);
	kmem_cache_destroy(pt->entries);
	kmem_cache_destroy(pt->ranges);
	kfree(pt->buckets);
	kfree(pt);
}

/*
 * @range, made a range for [@start, @last] with no entries, in no tree (a
 * NULL parent, which priotree_build() reads as "still to be linked").
 */
static struct pt_range *range_init(struct pt_range *range,
				   unsigned long start, unsigned long last)
{
	range->node.start = start;
	range->node.last = last;
	range->node.parent = NULL;
	INIT_LIST_HEAD(&range->entries);
	range->copies = 0;
	range->next_zombie = NULL;
	range->inline_entry.copies = 0;
	return range;
}

/* range_init() of a new allocation; NULL when out of memory. */
static struct pt_range *range_new(struct priotree *pt, unsigned long start,
				  unsigned long last)
{
	struct pt_range *range = kmem_cache_alloc(pt->ranges, GFP_KERNEL);

	if (!range)
		return NULL;
	return range_init(range, start, last);
}

/*
 * Make @entry (item and copies set) the entry of its triple, whose hash is
 * @hash: last in @range's list and at *@link, the NULL that ends its
 * bucket's chain.
 */
static void entry_link(struct priotree *pt, struct pt_entry **link,
		       struct pt_entry *entry, struct pt_range *range,
		       unsigned long hash)
{
	entry->range = range;
	entry->hash = hash;
	list_add_tail(&entry->link, &range->entries);
	entry->hash_next = NULL;
	*link = entry;
	pt->nr_entries++;
}

int priotree_insert(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item)
{
	struct pt_range *range, *fresh;
	struct pt_entry **link, *entry;
	unsigned long hash;

	if (!pt || start > last)
		return -EINVAL;
	reap_zombies(pt);

	link = find_entry(pt, start, last, item, &hash);
	if (*link) {
		(*link)->copies++;
		(*link)->range->copies++;
		pt->count++;
		return 0;
	}

	/*
	 * One descent, not a lookup and then an insert: a range is offered
	 * to the tree whether or not the interval is there.  The insert
	 * cannot fail, and when it finds the interval's range it leaves the
	 * tree as it was, and the offered range is kept for the next insert.
	 * A new interval's entry is then its range's own; an entry of a
	 * present one may need an allocation, still before any change.
	 */
	if (pt->spare_range)
		fresh = range_init(pt->spare_range, start, last);
	else
		fresh = range_new(pt, start, last);
	if (!fresh)
		return -ENOMEM;
	range = to_range(prio_tree_insert(&pt->root, &fresh->node));
	pt->spare_range = range == fresh ? NULL : fresh;
	entry = entry_new(pt, range, item);
	if (!entry)
		return -ENOMEM;
	/* *link still ends the chain: nothing moved since find_entry() */
	entry_link(pt, link, entry, range, hash);
	range->copies++;
	pt->count++;
	grow_table(pt);
	return 0;
}

/*
 * priotree_build(): sort, allocate, commit.  Every allocation comes
 * before the first change to the index, as in priotree_insert(), so an
 * -ENOMEM frees what was allocated and leaves the index as it was.
 *
 * The array is sorted by interval, and by position in the array within one
 * interval, so each interval's entries are linked in array order, as n
 * inserts would link them.  Into an empty tree the ranges are then linked
 * directly: the tree holding a given set of intervals with a given
 * index_bits is unique (the root of every subtree is the first-ranking
 * interval whose path passes through it (1), and the ones left over
 * spread to the left and right by their own bits (2), (3)), so linking
 * that tree top-down gives exactly the tree the inserts would have built,
 * and queries return the same hits in the same order.
 */

/* A slot of the build's work array: an entry to sort, then a range. */
union pt_build_slot {
	const struct priotree_hit	*hit;
	struct pt_range			*range;
};

/* Sort order: by interval, then by place in the caller's array. */
static inline bool build_before(const struct priotree_hit *a,
				const struct priotree_hit *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	if (a->last != b->last)
		return a->last < b->last;
	return a < b;
}

static inline bool same_interval(const struct priotree_hit *a,
				 const struct priotree_hit *b)
{
	return a->start == b->start && a->last == b->last;
}

/*
 * Bottom-up merge sort of @v[0, nr) by build_before(), with @tmp[0, nr)
 * as scratch; an array already in order costs one pass.  O(nr log nr).
 */
static void build_sort(union pt_build_slot *v, union pt_build_slot *tmp,
		       size_t nr)
{
	union pt_build_slot *from = v, *to = tmp, *swap;
	size_t width, lo, mid, hi, i, j, k;

	for (i = 1; i < nr && !build_before(v[i].hit, v[i - 1].hit); i++)
		;
	if (i >= nr)
		return;
	for (width = 1; width < nr; width *= 2) {
		for (lo = 0; lo < nr; lo = hi) {
			mid = min(lo + width, nr);
			hi = min(mid + width, nr);
			i = lo;
			j = mid;
			k = lo;
			/* on a tie the left run goes first: stable */
			while (i < mid && j < hi) {
				if (build_before(from[j].hit, from[i].hit))
					to[k++] = from[j++];
				else
					to[k++] = from[i++];
			}
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
		}
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		for (k = 0; k < nr; k++)
			v[k] = from[k];
}

/*
 * Link the unplaced nodes among @nodes[lo, hi) as the subtree whose
 * children branch on @mask: radix bits while !@size_level, then size
 * bits.  All of them agree with the subtree's path (2), (3), and sorted
 * by (start, last) they put the ones whose bit is clear first.  A placed
 * node (an ancestor's) has a parent already and is skipped.  Recursion
 * depth at most index_bits + BITS_PER_LONG + 1.
 *
 * Return: the subtree's root, NULL when no node is left.
 */
static struct prio_tree_node *build_subtree(struct prio_tree_node **nodes,
					    size_t lo, size_t hi,
					    unsigned long mask,
					    bool size_level)
{
	struct prio_tree_node *top = NULL, *child, *n;
	unsigned long bit;
	size_t i, mid, end;

	/* the first-ranking node left is the subtree's root (1) */
	for (i = lo; i < hi; i++) {
		n = nodes[i];
		if (n->parent)
			continue;
		if (!top || n->last > top->last ||
		    (n->last == top->last && n->start < top->start))
			top = n;
	}
	if (!top)
		return NULL;
	INIT_PRIO_TREE_NODE(top);
	/* at the last size level every bit is spelled: a leaf (3), (6) */
	if (!mask)
		return top;

	/* the first node whose bit is set, by bisection */
	mid = lo;
	end = hi;
	while (mid < end) {
		i = mid + (end - mid) / 2;
		n = nodes[i];
		bit = (size_level ? n->last - n->start : n->start) & mask;
		if (bit)
			end = i;
		else
			mid = i + 1;
	}
	if (mask == 1 && !size_level) {
		mask = 1UL << (BITS_PER_LONG - 1);
		size_level = true;
	} else {
		mask >>= 1;
	}
	child = build_subtree(nodes, lo, mid, mask, size_level);
	if (child) {
		top->left = child;
		child->parent = top;
	}
	child = build_subtree(nodes, mid, hi, mask, size_level);
	if (child) {
		top->right = child;
		child->parent = top;
	}
	return top;
}

/* Link the distinct, sorted @ranges[0, nr) as the whole of @pt's tree. */
static void build_tree(struct priotree *pt, union pt_build_slot *ranges,
		       size_t nr)
{
	struct prio_tree_node **nodes = (struct prio_tree_node **)ranges;
	unsigned long heap = 0;
	unsigned int bits;
	size_t i;

	/* turn the slots into node pointers in place, unplaced (parent NULL) */
	BUILD_BUG_ON(sizeof(*nodes) != sizeof(*ranges));
	for (i = 0; i < nr; i++) {
		nodes[i] = &ranges[i].range->node;
		nodes[i]->parent = NULL;
		heap = max(heap, nodes[i]->last);
	}
	/* the fewest radix bits that hold every heap, as inserts grow it (4) */
	bits = heap ? __fls(heap) + 1 : 1;
	pt->root.index_bits = bits;
	pt->root.prio_tree_node = build_subtree(nodes, 0, nr,
						1UL << (bits - 1), false);
}

int priotree_build(struct priotree *pt, const struct priotree_hit *entries,
		   size_t nr)
{
	struct pt_entry *spare = NULL, *entry, **link;
	union pt_build_slot *order, *ranges;
	struct pt_range *range;
	size_t i, g, nr_ranges, buckets;
	unsigned long hash;
	bool was_empty, own_entry;

	if (!pt || (!entries && nr))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (entries[i].start > entries[i].last)
			return -EINVAL;
	if (!nr)
		return 0;
	reap_zombies(pt);
	was_empty = prio_tree_empty(&pt->root);

	/* order[0, nr) to sort, then ranges[0, nr_ranges) over the scratch */
	order = kmalloc_array(nr, 2 * sizeof(*order), GFP_KERNEL);
	if (!order)
		return -ENOMEM;
	ranges = order + nr;
	for (i = 0; i < nr; i++)
		order[i].hit = &entries[i];
	build_sort(order, ranges, nr);

	/*
	 * Allocate: a range for each interval the tree lacks, whose own
	 * entry serves its first slot, and an entry for every other array
	 * slot (the ones not needed go back).
	 */
	nr_ranges = 0;
	for (i = 0; i < nr; i++) {
		const struct priotree_hit *hit = order[i].hit;

		if (!i || !same_interval(hit, order[i - 1].hit)) {
			range = NULL;
			if (!was_empty)
				range = to_range(prio_tree_lookup(&pt->root,
						hit->start, hit->last));
			own_entry = !range;
			if (!range) {
				/* not in the tree yet: no parent */
				range = range_new(pt, hit->start,
						  hit->last);
				if (!range)
					goto nomem;
			}
			ranges[nr_ranges++].range = range;
			/* a new range's own entry serves its first slot */
			if (own_entry)
				continue;
		}
		entry = kmem_cache_alloc(pt->entries, GFP_KERNEL);
		if (!entry)
			goto nomem;
		entry->hash_next = spare;
		spare = entry;
	}

	/* nothing can fail from here on; a table that cannot grow is slow */
	for (buckets = pt->nr_buckets; buckets < pt->nr_entries + nr &&
	     buckets * 2 > buckets; buckets *= 2)
		;
	if (buckets != pt->nr_buckets)
		resize_table(pt, buckets);

	for (i = 0, g = 0; i < nr; i++) {
		const struct priotree_hit *hit = order[i].hit;

		if (i && !same_interval(hit, order[i - 1].hit))
			g++;
		range = ranges[g].range;
		link = find_entry(pt, hit->start, hit->last, hit->item,
				  &hash);
		entry = *link;
		if (!entry) {
			/* a range's own entry first: a new range's is free */
			entry = &range->inline_entry;
			if (entry->copies) {
				entry = spare;
				spare = entry->hash_next;
			}
			entry->item = hit->item;
			entry->copies = 0;
			entry_link(pt, link, entry, range, hash);
		}
		entry->copies++;
		range->copies++;
		pt->count++;
	}
	while ((entry = spare)) {
		spare = entry->hash_next;
		kmem_cache_free(pt->entries, entry);
	}

	/* the ranges the tree lacked are those that had no entry before */
	if (was_empty) {
		build_tree(pt, ranges, nr_ranges);
	} else {
		for (g = 0; g < nr_ranges; g++)
			if (ranges[g].range->node.parent == NULL)
				prio_tree_insert(&pt->root,
						 &ranges[g].range->node);
	}
	kfree(order);
	return 0;

nomem:
	while ((entry = spare)) {
		spare = entry->hash_next;
		kmem_cache_free(pt->entries, entry);
	}
	/* a range of the tree has entries; a fresh one has none yet */
	for (g = 0; g < nr_ranges; g++)
		if (list_empty(&ranges[g].range->entries))
			kmem_cache_free(pt->ranges, ranges[g].range);
	kfree(order);
	return -ENOMEM;
}

int priotree_count_range(const struct priotree *pt, unsigned long first,
			 unsigned long last, size_t *count)
{
	struct prio_tree_iter iter;
	struct pt_range *range;
	size_t sum = 0;

	if (count)
		*count = 0;
	if (!pt || !count || first > last)
		return -EINVAL;
	/* a range counts its entries' copies: no entry is looked at */
	for (range = range_first(pt, &iter, first, last); range;
	     range = range_next(&iter, first, last))
		sum += range->copies;
	*count = sum;
	return 0;
}

int priotree_remove(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item)
{
	struct pt_entry **link, *entry;
	struct pt_range *range;
	unsigned long hash;
	bool in_query;

	if (!pt || start > last)
		return -EINVAL;
	link = find_entry(pt, start, last, item, &hash);
	entry = *link;
	if (!entry)
		return -ENOENT;

	/* anything but the hit just returned ends every query: reap */
	in_query = entry == pt->cursor;
	if (!in_query)
		reap_zombies(pt);

	pt->count--;
	entry->range->copies--;
	if (--entry->copies)
		return 0;

	*link = entry->hash_next;
	pt->nr_entries--;
	range = entry->range;
	list_del(&entry->link);
	entry_free(pt, entry);
	if (in_query)
		pt->cursor = NULL;
	if (!list_empty(&range->entries))
		return 0;
	if (in_query) {
		/* the query stands on this range: leave it in the tree */
		range->next_zombie = pt->zombies;
		pt->zombies = range;
		pt->zombie_query = pt->cursor_query;
	} else {
		prio_tree_remove(&pt->root, &range->node);
		kmem_cache_free(pt->ranges, range);
	}
	return 0;
}

size_t priotree_count(const struct priotree *pt)
{
	return pt ? pt->count : 0;
}

int priotree_query(struct priotree *pt, unsigned long first,
		   unsigned long last, struct priotree_iter *it)
{
	struct pt_query *q = (struct pt_query *)it;
	struct pt_range *range;

	if (!it)
		return -EINVAL;
	*it = (struct priotree_iter){ { NULL } };
	q->first = first;
	q->last = last;
	if (!pt || first > last)
		return -EINVAL;
	q->id = ++pt->queries;
	range = range_first(pt, &q->iter, first, last);
	if (range)
		q->pos = range->entries.next;
	return 0;
}

/* @q is done with the tree: the zombies it left can go now. */
static void end_query(struct priotree *pt, const struct pt_query *q)
{
	if (pt->zombies && pt->zombie_query == q->id)
		reap_zombies(pt);
	if (pt->cursor_query == q->id)
		pt->cursor = NULL;
}

/*
 * Store the query's next hits in @hits, at most @max (>= 1) of them, as
 * that many priotree_next() calls would, and return how many: fewer than
 * @max only when the query ran out.  @iter is the walk's state: @q's own,
 * or a copy in the caller's locals that the caller writes back, which in
 * a batch's loop the compiler keeps in registers instead of storing it at
 * every range (for one hit, the copy costs more than it saves).
 *
 * The cursor is the last hit stored, unless the walk ran out in this call:
 * then the query has ended, and removing that hit is an ordinary removal,
 * which may take its range out of the tree at once.
 */
static __always_inline unsigned int query_fill(struct pt_query *q,
					       struct prio_tree_iter *iter,
					       struct priotree_hit *hits,
					       unsigned int max)
{
	/*
	 * Locals, not @q's fields: the stores to @hits might alias those,
	 * and would make the compiler read them again at every hit.
	 */
	unsigned long first = q->first, last = q->last;
	struct pt_range *range = to_range(iter->cur);
	struct priotree_hit *hit = hits, *end = hits + max;
	struct list_head *pos = q->pos;
	size_t left = q->left;
	const struct pt_entry *entry = NULL;
	struct priotree *pt;

	/* exhausted: the index may be gone, so nothing but @q is read */
	if (!range)
		return 0;
	pt = container_of(iter->root, struct priotree, root);
	do {
		unsigned long start, end_key;
		void *item;

		/* on to the next range with an entry left, over zombies */
		while (pos == &range->entries) {
			range = range_next(iter, first, last);
			if (!range)
				goto exhausted;
			pos = range->entries.next;
		}
		entry = list_entry(pos, struct pt_entry, link);
		if (!left)
			left = entry->copies;
		/* all loads before the stores, which might alias them */
		start = range->node.start;
		end_key = range->node.last;
		item = entry->item;
		/* step past the entry before the caller may free it */
		if (!--left)
			pos = pos->next;
		hit->start = start;
		hit->last = end_key;
		hit->item = item;
	} while (++hit != end);
	q->pos = pos;
	q->left = left;
	pt->cursor = entry;
	pt->cursor_query = q->id;
	return max;

exhausted:
	/* iter->cur is NULL now: @pos and @left are never read again */
	end_query(pt, q);
	return hit - hits;
}

int priotree_next(struct priotree_iter *it, struct priotree_hit *hit)
{
	struct pt_query *q = (struct pt_query *)it;

	if (!it || !hit)
		return -EINVAL;
	return query_fill(q, &q->iter, hit, 1);
}

int priotree_next_batch(struct priotree_iter *it, struct priotree_hit *hits,
			unsigned int max)
{
	struct pt_query *q = (struct pt_query *)it;
	struct prio_tree_iter iter;
	unsigned int nr;

	if (!it || !hits || !max || max > INT_MAX)
		return -EINVAL;
	if (!q->iter.cur)
		return 0;
	iter = q->iter;
	nr = query_fill(q, &iter, hits, max);
	q->iter = iter;
	return nr;
}

int priotree_foreach(struct priotree *pt, unsigned long first,
		     unsigned long last,
		     int (*fn)(const struct priotree_hit *hit, void *arg),
		     void *arg)
{
	struct priotree_iter it;
	struct pt_query *q = (struct pt_query *)&it;
	struct priotree_hit hit;
	int ret;

	if (!fn)
		return -EINVAL;
	ret = priotree_query(pt, first, last, &it);
	if (ret)
		return ret;
	/* a hit at a time: @fn may remove the one it is given */
	while (query_fill(q, &q->iter, &hit, 1)) {
		ret = fn(&hit, arg);
		if (ret) {
			/* the walk stops here, and so does its query */
			end_query(pt, q);
			return ret;
		}
	}
	return 0;
}

/* O(zombies): only the checker asks, and only of an empty range. */
static bool on_zombie_list(const struct priotree *pt,
			   const struct pt_range *range)
{
	const struct pt_range *zombie;

	for (zombie = pt->zombies; zombie; zombie = zombie->next_zombie)
		if (zombie == range)
			return true;
	return false;
}

#define fail_check(msg, len, ...)					\
({									\
	if ((msg) && (len))						\
		snprintf((msg), (len), __VA_ARGS__);			\
	-EUCLEAN;							\
})

int priotree_check(const struct priotree *pt, char *msg, size_t len)
{
	struct prio_tree_root *root;
	struct prio_tree_fault fault;
	struct prio_tree_iter iter;
	struct prio_tree_node *node;
	struct pt_entry *entry, **link;
	unsigned long hash;
	struct pt_range *range;
	size_t copies = 0, entries = 0, zombies = 0, range_copies;
	bool inline_listed;
	int ret;

	if (!pt)
		return -EINVAL;
	root = (struct prio_tree_root *)&pt->root;
	ret = prio_tree_check(root, &fault);
	if (ret) {
		if (msg && len)
			snprintf(msg, len, "invariant %s: node [%lu, %lu] at depth %u",
				 fault.invariant, fault.radix, fault.heap,
				 fault.depth);
		return ret;
	}
	for (node = prio_tree_first(root, &iter, 0, ULONG_MAX); node;
	     node = prio_tree_next(root, &iter, 0, ULONG_MAX)) {
		range = to_range(node);
		/* empty exactly while a zombie: then on the zombie list */
		if (list_empty(&range->entries)) {
			if (!on_zombie_list(pt, range))
				return fail_check(msg, len,
						  "interval [%lu, %lu] has no entries",
						  node->start, node->last);
			zombies++;
		}
		range_copies = 0;
		inline_listed = false;
		list_for_each_entry(entry, &range->entries, link) {
			inline_listed |= entry == &range->inline_entry;
			link = find_entry((struct priotree *)pt, node->start,
					  node->last, entry->item, &hash);
			if (*link != entry || entry->range != range ||
			    !entry->copies)
				return fail_check(msg, len,
					"entry of [%lu, %lu] not hashed as itself",
					node->start, node->last);
			entries++;
			copies += entry->copies;
			range_copies += entry->copies;
		}
		/* a listed one has copies (above); one with copies is listed */
		if (!inline_listed && range->inline_entry.copies)
			return fail_check(msg, len,
					  "interval [%lu, %lu] has its own entry in use but not listed",
					  node->start, node->last);
		if (range_copies != range->copies)
			return fail_check(msg, len,
					  "interval [%lu, %lu] counts %zu copies, holds %zu",
					  node->start, node->last,
					  range->copies, range_copies);
	}
	/* every zombie listed is empty, and in the tree (the count) */
	for (range = pt->zombies; range; range = range->next_zombie) {
		if (!list_empty(&range->entries))
			return fail_check(msg, len,
					  "interval [%lu, %lu] is a zombie with entries",
					  range->node.start, range->node.last);
		zombies--;
	}
	if (zombies)
		return fail_check(msg, len,
				  "zombie list disagrees with the tree");
	if (entries != pt->nr_entries)
		return fail_check(msg, len,
				  "%zu entries counted, tree holds %zu",
				  pt->nr_entries, entries);
	if (copies != pt->count)
		return fail_check(msg, len,
				  "count says %zu entries, tree holds %zu",
				  pt->count, copies);
	return 0;
}
