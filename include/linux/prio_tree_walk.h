/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PRIO_TREE_WALK_H
#define _LINUX_PRIO_TREE_WALK_H

/*
 * The stabbing query of the radix priority search tree, inline.
 *
 * prio_tree_first/next() and __vma_prio_tree_first/next() are these
 * functions compiled once, out of line.  A caller whose loop over the hits
 * is hot may include this header and call prio_tree_first/next_inline()
 * (a tree of plain nodes) or __vma_prio_tree_first/next_inline() (an
 * i_mmap tree) instead: the walk is then compiled into the loop, and the
 * iterator, a local whose address does not escape, lives in registers.
 * That is where <linux/interval_tree_generic.h> gets its speed when
 * INTERVAL_TREE_DEFINE() is instantiated static in the caller's file.
 * Both forms return the same nodes or vmas in the same order, and the same
 * rules hold for both: the tree must not change during a query, and an
 * iterator belongs to one query of one tree.
 *
 * Everything else here is named __prio_tree_* or __vma_prio_tree_*: the
 * key readers and vm_set views the walk needs, which lib/priotree shares,
 * and which are not an API of their own.
 */

#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

/*
 * The key of @node in a tree of flavour @raw (a constant where inlined).
 * A raw node's key is derived from its vma, its heap at the cost of three
 * loads and three operations: the walks read only the half they test.
 */
static __always_inline const struct vm_area_struct *
__prio_tree_raw_vma(const struct prio_tree_node *node)
{
	return container_of((const struct raw_prio_tree_node *)node,
			    struct vm_area_struct, shared.prio_tree_node);
}

static __always_inline unsigned long
__prio_tree_radix(const struct prio_tree_node *node, bool raw)
{
	return raw ? RADIX_INDEX(__prio_tree_raw_vma(node)) : node->start;
}

static __always_inline unsigned long
__prio_tree_heap(const struct prio_tree_node *node, bool raw)
{
	return raw ? HEAP_INDEX(__prio_tree_raw_vma(node)) : node->last;
}

/*
 * The slot of @node's right child if @right, else of its left one, chosen
 * by arithmetic: a branch on the bits of random keys would mispredict half
 * the time, and the load of the child waits for the choice.  The insert's
 * walk turns this way, and so does the query's path over plain nodes.
 */
static __always_inline struct prio_tree_node **
__prio_tree_child_slot(struct prio_tree_node *node, bool right)
{
	const size_t left = offsetof(struct prio_tree_node, left);
	const size_t step = offsetof(struct prio_tree_node, right) - left;

	return (struct prio_tree_node **)((char *)node + left + right * step);
}

/* The vma a raw tree node is embedded in. */
static __always_inline struct vm_area_struct *
__prio_tree_node_vma(struct prio_tree_node *node)
{
	return container_of((struct raw_prio_tree_node *)node,
			    struct vm_area_struct, shared.prio_tree_node);
}

static __always_inline struct vm_area_struct *
__vma_prio_tree_set_entry(struct list_head *entry)
{
	return list_entry(entry, struct vm_area_struct, shared.vm_set.list);
}

/*
 * The role test reads the parent pointer through shared.both, whichever
 * view wrote it: prio_tree_*() through shared.prio_tree_node, the vm_set
 * code through shared.vm_set.  That holds only while the parent is the
 * third word of every view, and while a raw node is the start of a full
 * one (the walks read raw nodes as struct prio_tree_node):
 *
 *   shared:  word 0        word 1        word 2
 *   vm_set   list.next     list.prev     parent
 *   raw      left          right         parent     (prio_tree_node: then
 *   both     first         second        parent      start, last)
 */
static __always_inline bool
__vma_prio_tree_is_node(const struct vm_area_struct *vma)
{
	BUILD_BUG_ON(offsetof(struct vm_area_struct, shared.both.parent) -
		     offsetof(struct vm_area_struct, shared) !=
		     2 * sizeof(void *));
	BUILD_BUG_ON(offsetof(struct vm_area_struct, shared.vm_set.parent) !=
		     offsetof(struct vm_area_struct, shared.both.parent));
	BUILD_BUG_ON(offsetof(struct vm_area_struct,
			      shared.prio_tree_node.parent) !=
		     offsetof(struct vm_area_struct, shared.both.parent));
	BUILD_BUG_ON(offsetof(struct raw_prio_tree_node, left) !=
		     offsetof(struct prio_tree_node, left));
	BUILD_BUG_ON(offsetof(struct raw_prio_tree_node, right) !=
		     offsetof(struct prio_tree_node, right));
	BUILD_BUG_ON(offsetof(struct raw_prio_tree_node, parent) !=
		     offsetof(struct prio_tree_node, parent));
	BUILD_BUG_ON(sizeof(struct raw_prio_tree_node) !=
		     offsetof(struct prio_tree_node, start));

	return vma->shared.both.parent != NULL;
}

/*
 * The vma after @vma in its vm_set, in query order: a tree node's head,
 * then the members around the ring; NULL once the ring is back at the
 * head (or when a tree node has no vm_set).
 */
static __always_inline struct vm_area_struct *
__vma_prio_tree_set_next(struct vm_area_struct *vma)
{
	struct vm_area_struct *next;

	if (__vma_prio_tree_is_node(vma))
		return vma->shared.vm_set.head;
	/* around the ring; the head, back again, closes it */
	next = __vma_prio_tree_set_entry(vma->shared.vm_set.list.next);
	return next->shared.vm_set.head ? NULL : next;
}

/*
 * Stabbing queries.  Every subtree the walk enters lies in one of two
 * kinds of place, told apart by the query's @end alone:
 *
 *  - On @end's path: the nodes whose path, read as radix bits (2), is a
 *    prefix of @end's bits.  Below such a node with children branching
 *    on bit m, the right subtree holds radices of at least its path
 *    value with bit m set, so it is beyond @end unless @end has bit m;
 *    the left subtree holds radices below that bound, so when @end has
 *    bit m, none of them is beyond @end.  The path goes right where @end
 *    has a 1 and left where it has a 0, and that is all it has to know
 *    about radices: no path value is kept, and a node on the path only
 *    has its own radix compared with @end, to tell whether it is a hit.
 *  - Within @end: the left child of a path node whose bit of @end is
 *    set, and everything below it; the node at depth index_bits on the
 *    path, whose radix is @end itself (2) and whose size subtree has that
 *    radix too (3); and the whole tree when @end is at least the largest
 *    heap_index the tree may hold (4).  No radix there is beyond @end, so
 *    a node overlaps exactly when its heap reaches @begin, and by (1) a
 *    child whose heap does not closes its whole subtree: the walk there
 *    is a pre-order walk of a heap, pruned by heap alone, in which every
 *    node it enters is a hit.  No depth, mask or radix is needed in it,
 *    in the radix levels or the size levels.
 *
 * Pre-order puts a path node first, then its left subtree, then its
 * right one:
 *
 *           P            @end has P's bit m set: the subtree within @end
 *          / \           (W, every node of which the heaps let in is a
 *         W   Q          hit) comes first, then the path goes on at Q.
 *        / \             Nothing is ever pending above the path node the
 *      ..   ..           walk stands on or left: that node's other child
 *                        was either pruned by @end's bit or already done.
 *
 * So the state of a query is the current node, the root of the subtree
 * within @end it is in (iter->subtree, NULL on the path), and the bit the
 * path's next children branch on (iter->mask): in the subtree, the bit of
 * the path node above it, or 0 where the path goes no further.  Within a
 * subtree the walk climbs back by parent links to the next right child
 * the heaps let in; every node it climbs through was a hit, so the climbs
 * cost O(m) in all.  A left turn can only be refused by heap, the path is
 * at most index_bits nodes long, and the query stops as soon as the path
 * cannot go on: O(log n + m) node visits, with no climb back to the root.
 */

/*
 * The walk proper, for one node flavour, from iter->cur (already reported
 * or refused) to the next node that overlaps [@begin, @end], or NULL.
 * Only what changes is written back: cur always, subtree and mask where
 * the walk moves between the path and a subtree within @end.
 */
static __always_inline struct prio_tree_node *
__prio_tree_walk(struct prio_tree_iter *iter, unsigned long begin,
		 unsigned long end, bool raw)
{
	struct prio_tree_node *cur = iter->cur, *sub = iter->subtree;
	struct prio_tree_node *child, *parent;
	unsigned long mask;

	if (!sub)
		goto path;

	/* within @end: cur's first child that the heaps let in is next ... */
	child = cur->left;
	if (child != cur && __prio_tree_heap(child, raw) >= begin)
		goto hit;
	child = cur->right;
	if (child != cur && __prio_tree_heap(child, raw) >= begin)
		goto hit;
	/* ... else the right child of the nearest ancestor left from left */
	while (cur != sub) {
		parent = cur->parent;
		child = parent->right;
		/* cur is parent's left child unless it is the right one */
		if (child != cur && child != parent &&
		    __prio_tree_heap(child, raw) >= begin)
			goto hit;
		cur = parent;
	}
	/* the subtree is done: back to the path, if it goes on */
	mask = iter->mask;
	if (!mask)
		goto done;
	iter->subtree = NULL;
	cur = sub->parent;
	child = cur->right;
	/*
	 * Joined below the loop's test of the child, where @cur is dead: a
	 * join that @cur had to reach too cost the path two register moves
	 * a level (gcc 12).
	 */
	if (child == cur)
		goto done;
	goto path_down;

path:
	mask = iter->mask;
	for (;;) {
		/* cur is on the path, and its children branch on @mask */
		if (raw) {
			/*
			 * A raw heap is three loads and three operations.  Made
			 * on every level (as below), it cost more time in
			 * bench/tree than the mispredicted turns it saved, so a
			 * raw path branches on the turn and reads the left
			 * child's heap on right turns only.
			 */
			if (end & mask) {
				child = cur->left;
				if (child != cur &&
				    __prio_tree_heap(child, raw) >= begin)
					goto left_subtree;
				child = cur->right;
			} else {
				child = cur->left;
			}
		} else {
			/*
			 * The turn is @end's bit: for a random query, a coin
			 * toss at every level, which a branch mispredicts half
			 * the time.  So it is arithmetic (the slot the bit
			 * picks), and so is the one test that differs between
			 * the turns, a right turn's offer of the left subtree
			 * by its root's heap: a plain heap is one load, made
			 * on every level, and compared with a bound that only
			 * a right turn brings down to @begin.  On a left turn
			 * the bound is ULONG_MAX, which only a heap of
			 * ULONG_MAX meets, and the rarely taken branch then
			 * turns that away by the child the slot gave: the left
			 * one itself.  On a right turn that child differs from
			 * an existing left one (a missing child is @cur), so
			 * no flag for the turn is kept past the slot.
			 */
			struct prio_tree_node *left = cur->left;
			bool right = end & mask;
			unsigned long bound = begin | ((unsigned long)right - 1);

			child = *__prio_tree_child_slot(cur, right);
			if (unlikely(__prio_tree_heap(left, raw) >= bound) &&
			    left != child && left != cur) {
				child = left;
				goto left_subtree;
			}
		}
		if (child == cur)
			goto done;
path_down:
		cur = child;
		mask >>= 1;
		/*
		 * A path node's heap needs no test while its radix is beyond
		 * @end: heap >= radix > end >= @begin.  Nor does the depth:
		 * at depth index_bits (mask 0) the radix is @end itself (2),
		 * so only a node that passes this test can be that deep.
		 */
		if (__prio_tree_radix(cur, raw) <= end) {
			/* by (1), a path node the heaps refuse ends the query */
			if (__prio_tree_heap(cur, raw) < begin)
				goto done;
			/* the last path node roots the last subtree within @end */
			if (!mask)
				iter->subtree = cur;
			iter->mask = mask;
			goto hit;
		}
	}

left_subtree:
	/* the subtree within @end comes first; the path goes on after it */
	iter->subtree = child;
	iter->mask = mask;
hit:
	iter->cur = child;
	return child;
done:
	iter->cur = NULL;
	return NULL;
}

/*
 * prio_tree_first() for one node flavour, up to the walk: the root is the
 * query's first node on the path, or, when no radix is beyond @end (4),
 * the root of its one subtree within @end.  Return: the root if it is
 * the first hit; else NULL, with iter->cur NULL if the query is over, or
 * the root if the walk goes on below it.
 */
static __always_inline struct prio_tree_node *
__prio_tree_start(const struct prio_tree_root *root,
		  struct prio_tree_iter *iter, unsigned long begin,
		  unsigned long end, bool raw)
{
	struct prio_tree_node *node = root->prio_tree_node;

	iter->root = root;
	/* by (1) the root's heap is the largest */
	if (!node || __prio_tree_heap(node, raw) < begin) {
		/* all of it set: a caller's compiler sees the walk's reads */
		iter->cur = NULL;
		iter->subtree = NULL;
		iter->mask = 0;
		return NULL;
	}
	iter->cur = node;
	if (end >= prio_tree_maxindex(root->index_bits)) {
		iter->subtree = node;
		iter->mask = 0;
		return node;
	}
	iter->subtree = NULL;
	iter->mask = 1UL << (root->index_bits - 1);
	return __prio_tree_radix(node, raw) <= end ? node : NULL;
}

/**
 * prio_tree_first_inline - prio_tree_first() on a tree of plain nodes, inline
 * @root: a tree of struct prio_tree_node, keyed by their start and last
 *        (not raw; an empty root of either flavour will do)
 * @iter: iterator for the query; needs no initialisation
 * @begin: first index of the query
 * @end: last index of the query, @begin <= @end
 *
 * A plain node holds its key, so the walk reads one word for a node's
 * radix or heap, where a raw one derives its heap from three of the vma's.
 *
 * Return: the first node overlapping [@begin, @end], or NULL.
 */
static __always_inline struct prio_tree_node *
prio_tree_first_inline(const struct prio_tree_root *root,
		       struct prio_tree_iter *iter, unsigned long begin,
		       unsigned long end)
{
	struct prio_tree_node *node;

	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(begin > end || (root->prio_tree_node && root->raw));
	node = __prio_tree_start(root, iter, begin, end, false);
	if (!node && iter->cur)
		node = __prio_tree_walk(iter, begin, end, false);
	return node;
}

/**
 * prio_tree_next_inline - prio_tree_next() on a tree of plain nodes, inline
 * @root: the tree given to prio_tree_first_inline()
 * @iter: the query's iterator
 * @begin: as given to prio_tree_first_inline()
 * @end: as given to prio_tree_first_inline()
 *
 * Return: the next node overlapping [@begin, @end], or NULL when the query
 * is done (and on every later call).
 */
static __always_inline struct prio_tree_node *
prio_tree_next_inline(const struct prio_tree_root *root,
		      struct prio_tree_iter *iter, unsigned long begin,
		      unsigned long end)
{
	if (!iter->cur)
		return NULL;
	/* misuse of the API, not a broken tree: per hit, so debug only */
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(iter->root != root || root->raw);
	return __prio_tree_walk(iter, begin, end, false);
}

/**
 * __vma_prio_tree_first_inline - __vma_prio_tree_first(), inline
 * @root: an i_mmap tree (raw; an empty root of either flavour will do)
 * @iter: iterator for the query; needs no initialisation
 * @begin: first file page (pgoff) of the query
 * @end: last file page of the query, @begin <= @end
 *
 * Return: the first vma mapping a page in [@begin, @end], or NULL.
 */
static __always_inline struct vm_area_struct *
__vma_prio_tree_first_inline(const struct prio_tree_root *root,
			     struct prio_tree_iter *iter, unsigned long begin,
			     unsigned long end)
{
	struct prio_tree_node *node;

	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(begin > end || (root->prio_tree_node && !root->raw));
	node = __prio_tree_start(root, iter, begin, end, true);
	if (!node && iter->cur)
		node = __prio_tree_walk(iter, begin, end, true);
	return node ? __prio_tree_node_vma(node) : NULL;
}

/**
 * __vma_prio_tree_next_inline - __vma_prio_tree_next(), inline
 * @vma: the vma the previous call returned
 * @root: the tree
 * @iter: the query's iterator
 * @begin: as given to __vma_prio_tree_first_inline()
 * @end: as given to __vma_prio_tree_first_inline()
 *
 * After a tree node come its head and members, then the next tree node.
 *
 * Return: the next vma, or NULL when the query is done.
 */
static __always_inline struct vm_area_struct *
__vma_prio_tree_next_inline(struct vm_area_struct *vma,
			    const struct prio_tree_root *root,
			    struct prio_tree_iter *iter, unsigned long begin,
			    unsigned long end)
{
	struct vm_area_struct *next = __vma_prio_tree_set_next(vma);
	struct prio_tree_node *node;

	if (next)
		return next;
	if (!iter->cur)
		return NULL;
	/* misuse of the API, not a broken tree: per hit, so debug only */
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(iter->root != root || !root->raw);
	node = __prio_tree_walk(iter, begin, end, true);
	return node ? __prio_tree_node_vma(node) : NULL;
}

#endif /* _LINUX_PRIO_TREE_WALK_H */
