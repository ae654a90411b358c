// SPDX-License-Identifier: GPL-2.0
/*
 * Radix priority search tree (McCreight, SIAM J. Computing 14(2), 1985)
 * for closed intervals [radix_index, heap_index], after the design Rajesh
 * Venkatasubramanian posted for address_space->i_mmap in March 2004, with
 * the corrections later kernels made to it (see README.md, "Defects").
 *
 * The invariants (1)..(6) are stated in <linux/prio_tree.h>; comments here
 * refer to them by number.  This file compiles unchanged in the kernel and,
 * through compat/, in userspace.
 */

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

/*
 * index_bits_to_maxindex[b - 1] is the largest heap_index a tree with
 * b radix bits holds.  Built by the compiler: the 2004 code filled it in
 * prio_tree_init(), so any use before that saw zeroes and grew index_bits
 * past BITS_PER_LONG.
 */
#define __PT_MAX(b)	(~0UL >> (BITS_PER_LONG - (b)))
#define __PT_MAX4(b)	__PT_MAX(b), __PT_MAX((b) + 1), __PT_MAX((b) + 2), \
			__PT_MAX((b) + 3)
#define __PT_MAX16(b)	__PT_MAX4(b), __PT_MAX4((b) + 4), __PT_MAX4((b) + 8), \
			__PT_MAX4((b) + 12)
#define __PT_MAX32(b)	__PT_MAX16(b), __PT_MAX16((b) + 16)

static const unsigned long index_bits_to_maxindex[BITS_PER_LONG] = {
	__PT_MAX32(1),
#if BITS_PER_LONG == 64
	__PT_MAX32(33),
#endif
};

/*
 * Kept for the 2004 API, which required this call at boot.  The table is
 * constant now; this only re-derives it, so a miscompiled table cannot go
 * unnoticed in a kernel that calls it.  Not __init: it is exported, and
 * an exported symbol in .init.text is a section mismatch once modules
 * can call it after boot.
 */
void prio_tree_init(void)
{
	unsigned int bits;

	BUILD_BUG_ON(ARRAY_SIZE(index_bits_to_maxindex) != BITS_PER_LONG);
	for (bits = 1; bits <= BITS_PER_LONG; bits++)
		WARN_ON(index_bits_to_maxindex[bits - 1] !=
			prio_tree_maxindex(bits));
}
EXPORT_SYMBOL(prio_tree_init);

static __always_inline unsigned long maxindex(unsigned int bits)
{
	return index_bits_to_maxindex[bits - 1];
}

static __always_inline void get_index(const struct prio_tree_root *root,
				      const struct prio_tree_node *node,
				      unsigned long *radix, unsigned long *heap)
{
	if (root->raw) {
		const struct raw_prio_tree_node *raw = (const void *)node;
		const struct vm_area_struct *vma = container_of(raw,
				struct vm_area_struct, shared.prio_tree_node);

		*radix = RADIX_INDEX(vma);
		*heap = HEAP_INDEX(vma);
	} else {
		*radix = node->start;
		*heap = node->last;
	}
}

/* Heap order (1): does [r1, h1] rank strictly before [r2, h2]? */
static __always_inline bool ranks_before(unsigned long r1, unsigned long h1,
					 unsigned long r2, unsigned long h2)
{
	return h1 > h2 || (h1 == h2 && r1 < r2);
}

/*
 * The branch a key takes below one level of its path.  Radix levels test
 * radix bits from index_bits - 1 down to 0, then the size levels test size
 * bits from BITS_PER_LONG - 1 down to 0 (invariants (2) and (3)).
 */
struct prio_tree_path {
	unsigned long	mask;
	bool		size_level;
};

static __always_inline void path_start(const struct prio_tree_root *root,
				       struct prio_tree_path *path)
{
	path->mask = 1UL << (root->index_bits - 1);
	path->size_level = false;
}

static __always_inline bool path_goes_right(const struct prio_tree_path *path,
					    unsigned long radix,
					    unsigned long heap)
{
	return (path->size_level ? heap - radix : radix) & path->mask;
}

/*
 * Step one level down.  Once all size bits are used up, mask stays 0: the
 * node just reached sits at the last size level, where every bit of its
 * key is spelled by its path, so it is a leaf that only its twin can reach.
 */
static __always_inline void path_descend(struct prio_tree_path *path)
{
	path->mask >>= 1;
	if (path->mask || path->size_level)
		return;
	path->mask = 1UL << (BITS_PER_LONG - 1);
	path->size_level = true;
}

static inline void set_child(struct prio_tree_node *parent, bool right,
			     struct prio_tree_node *child)
{
	if (right)
		parent->right = child;
	else
		parent->left = child;
	child->parent = parent;
}

/*
 * Debug-only: is @node linked into @root?  Walks the whole tree, because
 * a node that was never inserted may hold anything, and only pointer
 * identity with a node reached from the root is trustworthy.
 */
static bool __maybe_unused prio_tree_contains(const struct prio_tree_root *root,
					      const struct prio_tree_node *node)
{
	const struct prio_tree_node *cur = root->prio_tree_node, *from;

	if (!cur)
		return false;
	for (;;) {
		if (cur == node)
			return true;
		if (!prio_tree_left_empty(cur)) {
			cur = cur->left;
			continue;
		}
		if (!prio_tree_right_empty(cur)) {
			cur = cur->right;
			continue;
		}
		/* climb until we leave a left child that has a right sibling */
		for (;;) {
			if (prio_tree_root(cur))
				return false;
			from = cur;
			cur = cur->parent;
			if (cur->left == from && !prio_tree_right_empty(cur)) {
				cur = cur->right;
				break;
			}
		}
	}
}

static void prio_tree_debug_verify(const struct prio_tree_root *root)
{
	struct prio_tree_fault fault;

	if (!IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		return;
	if (prio_tree_check(root, &fault)) {
		pr_err("prio_tree: invariant %s broken at depth %u by [%lu, %lu]\n",
		       fault.invariant, fault.depth, fault.radix, fault.heap);
		BUG();
	}
}

/*
 * Put @node into @old's place and unlink @old, without any check: the
 * insert walk swaps a node with a different key into a place this way
 * (its caller then restores the invariants), so only the exported
 * prio_tree_replace() may insist on equal keys.  O(1).
 */
static void __prio_tree_replace(struct prio_tree_root *root,
				struct prio_tree_node *old,
				struct prio_tree_node *node)
{
	INIT_PRIO_TREE_NODE(node);
	if (prio_tree_root(old)) {
		BUG_ON(root->prio_tree_node != old);
		root->prio_tree_node = node;
	} else {
		BUG_ON(old->parent->left != old && old->parent->right != old);
		set_child(old->parent, old->parent->right == old, node);
	}
	if (!prio_tree_left_empty(old))
		set_child(node, false, old->left);
	if (!prio_tree_right_empty(old))
		set_child(node, true, old->right);
}

/**
 * prio_tree_replace - put @node where @old is, and unlink @old
 * @root: the tree
 * @old: a node in the tree
 * @node: a node in no tree, with the same [radix, heap] as @old
 *
 * The shape does not change, so every invariant holds afterwards exactly
 * when @node's key equals @old's.  O(1).
 *
 * Return: @old.
 */
struct prio_tree_node *prio_tree_replace(struct prio_tree_root *root,
					 struct prio_tree_node *old,
					 struct prio_tree_node *node)
{
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG)) {
		unsigned long r1, h1, r2, h2;

		get_index(root, old, &r1, &h1);
		get_index(root, node, &r2, &h2);
		BUG_ON(r1 != r2 || h1 != h2);
		BUG_ON(!prio_tree_contains(root, old));
		BUG_ON(prio_tree_contains(root, node));
	}
	__prio_tree_replace(root, old, node);
	return old;
}
EXPORT_SYMBOL(prio_tree_replace);

/*
 * Grow index_bits until @heap fits, then make @node (whose heap is larger
 * than every heap in the tree) the root.
 *
 * A tree of b bits becomes one of b + k bits.  An old node keeps its
 * meaning only if it sinks exactly k levels: the radix bit tested at a
 * depth is index_bits - 1 - depth, so old depth d must become d + k, and
 * the k new top levels test bits that are zero in every old key, i.e. go
 * left.  Those k levels are filled with @node and the k - 1 largest old
 * nodes, taken off the old tree's root one after another:
 *
 *   before (b bits)          after (b + 2 bits)
 *
 *        M1                        node
 *       /  \                       /
 *     ..    ..                   M1
 *                               /
 *                          old tree minus M1 (rooted at M2 here,
 *                          every node exactly 2 levels deeper)
 *
 * Size levels start below depth index_bits and test BITS_PER_LONG size
 * bits whatever index_bits is (3), so sunk size subtrees stay valid.
 * O(k log n); only the first insert of a larger heap pays it.
 */
static struct prio_tree_node *prio_tree_expand(struct prio_tree_root *root,
					       struct prio_tree_node *node,
					       unsigned long heap)
{
	struct prio_tree_node *bottom = node, *max;
	unsigned int bits = root->index_bits, grown = 0, level;

	while (heap > maxindex(bits + grown))
		grown++;

	INIT_PRIO_TREE_NODE(node);
	/* levels 1 .. grown - 1 hold the successive maxima, if there are any */
	for (level = 1; level < grown && !prio_tree_empty(root); level++) {
		max = root->prio_tree_node;
		prio_tree_remove(root, max);
		INIT_PRIO_TREE_NODE(max);
		set_child(bottom, false, max);
		bottom = max;
	}
	/* level grown: what is left of the old tree, unchanged inside */
	if (!prio_tree_empty(root))
		set_child(bottom, false, root->prio_tree_node);

	root->prio_tree_node = node;
	root->index_bits = bits + grown;
	return node;
}

/**
 * prio_tree_insert - add @node to @root, unless its interval is there
 * @root: the tree
 * @node: a node in no tree; for a raw root, embedded in a vma whose
 *        vm_start/vm_end/vm_pgoff are final
 *
 * Walks @node's path from the root.  Where @node ranks before the node in
 * its way (1), the two swap: @node takes the place and the displaced node
 * continues down its own path:
 *
 *        P                 P
 *        |                 |
 *       cur     ==>       node            (node ranks before cur)
 *       / \               /  \
 *      a   b             a    b    ...cur continues into a or b,
 *                                   by cur's own bit at this level
 *
 * O(log n) node visits, where log n <= index_bits + BITS_PER_LONG;
 * O(log^2 n) when index_bits must grow (prio_tree_expand()).
 *
 * Return: @node if it was added, else the node already holding the same
 * [radix, heap] (uniqueness (6)); the tree is then unchanged.
 */
struct prio_tree_node *prio_tree_insert(struct prio_tree_root *root,
					struct prio_tree_node *node)
{
	struct prio_tree_node *cur, *carried = node, *tmp;
	unsigned long radix, heap, r, h;
	struct prio_tree_path path;
	bool right;

	get_index(root, node, &radix, &heap);
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG)) {
		BUG_ON(radix > heap);
		BUG_ON(prio_tree_contains(root, node));
	}

	if (prio_tree_empty(root) || heap > maxindex(root->index_bits)) {
		prio_tree_expand(root, node, heap);
		prio_tree_debug_verify(root);
		return node;
	}

	cur = root->prio_tree_node;
	path_start(root, &path);
	for (;;) {
		get_index(root, cur, &r, &h);
		if (r == radix && h == heap) {
			/* only the original key can meet its twin (6) */
			BUG_ON(carried != node);
			return cur;
		}
		if (ranks_before(radix, heap, r, h)) {
			__prio_tree_replace(root, cur, carried);
			tmp = carried;
			carried = cur;
			cur = tmp;
			radix = r;
			heap = h;
		}
		/* distinct keys part before the size bits run out (3), (6) */
		BUG_ON(!path.mask);
		right = path_goes_right(&path, radix, heap);
		tmp = right ? cur->right : cur->left;
		if (tmp == cur) {
			INIT_PRIO_TREE_NODE(carried);
			set_child(cur, right, carried);
			break;
		}
		cur = tmp;
		path_descend(&path);
	}
	prio_tree_debug_verify(root);
	return node;
}
EXPORT_SYMBOL(prio_tree_insert);

/**
 * prio_tree_lookup - find the node holding exactly [@radix_index, @heap_index]
 * @root: the tree
 * @radix_index: first index of the interval
 * @heap_index: last index of the interval
 *
 * Follows the key's insert path and stops where the key would have been
 * swapped in: by (1) it cannot be further down.  O(log n).
 *
 * Return: the node, or NULL.
 */
struct prio_tree_node *prio_tree_lookup(struct prio_tree_root *root,
					unsigned long radix_index,
					unsigned long heap_index)
{
	struct prio_tree_node *cur = root->prio_tree_node, *next;
	struct prio_tree_path path;
	unsigned long r, h;

	if (!cur || radix_index > heap_index ||
	    heap_index > maxindex(root->index_bits))
		return NULL;

	path_start(root, &path);
	for (;;) {
		get_index(root, cur, &r, &h);
		if (r == radix_index && h == heap_index)
			return cur;
		/* nothing below cur can hold it: (1), or no bits left (3) */
		if (ranks_before(radix_index, heap_index, r, h) || !path.mask)
			return NULL;
		next = path_goes_right(&path, radix_index, heap_index) ?
			cur->right : cur->left;
		if (next == cur)
			return NULL;
		cur = next;
		path_descend(&path);
	}
}
EXPORT_SYMBOL(prio_tree_lookup);

/* Of two subtree roots (either may be NULL), the one that ranks first (1). */
static struct prio_tree_node *first_ranking(const struct prio_tree_root *root,
					    struct prio_tree_node *left,
					    struct prio_tree_node *right)
{
	unsigned long rl, hl, rr, hr;

	if (!left || !right)
		return left ? left : right;
	get_index(root, left, &rl, &hl);
	get_index(root, right, &rr, &hr);
	return ranks_before(rr, hr, rl, hl) ? right : left;
}

static inline struct prio_tree_node *left_child(struct prio_tree_node *node)
{
	return prio_tree_left_empty(node) ? NULL : node->left;
}

static inline struct prio_tree_node *right_child(struct prio_tree_node *node)
{
	return prio_tree_right_empty(node) ? NULL : node->right;
}

/**
 * prio_tree_remove - unlink @node from @root
 * @root: the tree
 * @node: a node in @root
 *
 * The hole @node leaves is filled by its first-ranking child, whose own
 * place becomes the hole, down to a leaf.  Every node on that path moves
 * up one level, which keeps (2) and (3) (a prefix of a node's path is
 * still its path) and (1) (the promoted child outranks its sibling):
 *
 *          P                 P
 *          |                 |
 *        node               c1          c1 ranks before s1,
 *        /  \              /  \         c2 before s2, ...
 *      c1    s1    ==>   c2    s1
 *     /  \              /  \
 *   c2    s2          ..    s2
 *
 * O(log n).  @node's own pointers are left stale.
 */
void prio_tree_remove(struct prio_tree_root *root, struct prio_tree_node *node)
{
	struct prio_tree_node *parent, *up, *sibling, *left, *right;
	bool hole_right, up_was_right;

	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(!prio_tree_contains(root, node));

	/*
	 * The hole is where @node was: below @parent (NULL: the root slot) on
	 * side @hole_right, with the subtrees @left and @right hanging below.
	 */
	parent = prio_tree_root(node) ? NULL : node->parent;
	BUG_ON(!parent && root->prio_tree_node != node);
	hole_right = parent && parent->right == node;
	left = left_child(node);
	right = right_child(node);

	while ((up = first_ranking(root, left, right))) {
		up_was_right = up == right;
		sibling = up_was_right ? left : right;
		left = left_child(up);
		right = right_child(up);

		/* @up fills the hole; its sibling stays where it was */
		if (parent) {
			set_child(parent, hole_right, up);
		} else {
			root->prio_tree_node = up;
			up->parent = up;
		}
		up->left = up->right = up;
		if (sibling)
			set_child(up, !up_was_right, sibling);

		/* and the hole moves to where @up was */
		parent = up;
		hole_right = up_was_right;
	}

	if (!parent) {
		root->prio_tree_node = NULL;
		root->index_bits = 1;
	} else if (hole_right) {
		parent->right = parent;
	} else {
		parent->left = parent;
	}
	prio_tree_debug_verify(root);
}
EXPORT_SYMBOL(prio_tree_remove);

/*
 * Stabbing queries: a pre-order walk that enters a subtree only if it can
 * hold an interval overlapping [begin, end]:
 *  - by (1) no node below a child ranks before it, so a child whose heap
 *    is below @begin closes its whole subtree;
 *  - by (2) every radix in a right subtree is at least the path value
 *    with the branch bit set (in the size levels, exactly the path value),
 *    so a right subtree starting beyond @end is closed too.
 * A left turn can only be refused by heap, so the walk visits O(log n)
 * nodes that do not overlap plus the m that do.
 */

/* Move the walk down into one child of iter->cur if that subtree may hold
 * a hit.  Maintains the meaning of mask/value/size_level (prio_tree.h). */
static bool iter_descend(struct prio_tree_iter *iter, bool right,
			 unsigned long begin, unsigned long end)
{
	struct prio_tree_node *child = right ? iter->cur->right :
					       iter->cur->left;
	unsigned long value = iter->value, r, h;

	if (child == iter->cur)
		return false;
	if (right) {
		if (!iter->size_level)
			value |= iter->mask;
		if (end < value)
			return false;
	}
	get_index(iter->root, child, &r, &h);
	if (h < begin)
		return false;

	iter->cur = child;
	iter->value = value;
	iter->r_index = r;
	iter->h_index = h;
	if (iter->size_level) {
		iter->size_level++;
		iter->mask >>= 1;
	} else if (iter->mask > 1) {
		iter->mask >>= 1;
	} else {
		iter->size_level = 1;
		iter->mask = 1UL << (BITS_PER_LONG - 1);
	}
	return true;
}

/* Move the walk up to iter->cur's parent, undoing iter_descend(). */
static void iter_ascend(struct prio_tree_iter *iter)
{
	iter->cur = iter->cur->parent;
	if (iter->size_level > 1) {
		iter->size_level--;
		iter->mask = 1UL << (BITS_PER_LONG - iter->size_level);
		return;
	}
	if (iter->size_level == 1) {
		iter->size_level = 0;
		iter->mask = 1UL;
	} else {
		iter->mask <<= 1;
	}
	/*
	 * Forget the branch bit of the level we left, also when leaving the
	 * size levels: the posted 2004 walk kept bit 0 set there, and then
	 * closed right subtrees that did overlap.
	 */
	iter->value &= ~iter->mask;
}

/* The next node of the pruned pre-order walk, or NULL at its end. */
static struct prio_tree_node *iter_step(struct prio_tree_iter *iter,
					unsigned long begin, unsigned long end)
{
	struct prio_tree_node *from;

	if (iter_descend(iter, false, begin, end) ||
	    iter_descend(iter, true, begin, end))
		return iter->cur;
	while (!prio_tree_root(iter->cur)) {
		from = iter->cur;
		iter_ascend(iter);
		if (iter->cur->left == from &&
		    iter_descend(iter, true, begin, end))
			return iter->cur;
	}
	return NULL;
}

/**
 * prio_tree_next - continue a stabbing query
 * @root: the tree given to prio_tree_first()
 * @iter: the iterator prio_tree_first() set up
 * @begin: first index of the query, as given to prio_tree_first()
 * @end: last index of the query, as given to prio_tree_first()
 *
 * The tree must not change between the calls of one query.  Amortised over
 * a whole query, O(log n + m) node visits.
 *
 * Return: the next node whose interval overlaps [@begin, @end], or NULL
 * when there is none (and on every later call).
 */
struct prio_tree_node *prio_tree_next(struct prio_tree_root *root,
				      struct prio_tree_iter *iter,
				      unsigned long begin, unsigned long end)
{
	struct prio_tree_node *node;

	if (!iter->cur)
		return NULL;
	BUG_ON(iter->root != root);
	while ((node = iter_step(iter, begin, end)))
		if (iter->r_index <= end)
			return node;
	iter->cur = NULL;
	return NULL;
}
EXPORT_SYMBOL(prio_tree_next);

/**
 * prio_tree_first - start a stabbing query for [@begin, @end]
 * @root: the tree
 * @iter: iterator to set up; needs no initialisation
 * @begin: first index of the query
 * @end: last index of the query, @begin <= @end
 *
 * Nodes come in pre-order of the tree, which is no particular order of
 * their intervals.
 *
 * Example:
 *	for (n = prio_tree_first(root, &iter, 5, 9); n;
 *	     n = prio_tree_next(root, &iter, 5, 9))
 *		visit(n);
 *
 * Return: the first node overlapping [@begin, @end], or NULL.
 */
struct prio_tree_node *prio_tree_first(struct prio_tree_root *root,
				       struct prio_tree_iter *iter,
				       unsigned long begin, unsigned long end)
{
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(begin > end);

	*iter = PRIO_TREE_ITER;
	iter->root = root;
	if (prio_tree_empty(root))
		return NULL;

	iter->cur = root->prio_tree_node;
	iter->mask = 1UL << (root->index_bits - 1);
	get_index(root, iter->cur, &iter->r_index, &iter->h_index);
	if (iter->h_index < begin) {
		iter->cur = NULL;
		return NULL;
	}
	if (iter->r_index <= end)
		return iter->cur;
	return prio_tree_next(root, iter, begin, end);
}
EXPORT_SYMBOL(prio_tree_first);

/*
 * The checker: one pre-order pass that carries the path (radix bits and
 * size bits spelled so far) and tests each invariant at each node.
 */
struct check_walk {
	const struct prio_tree_root	*root;
	struct prio_tree_fault		*fault;
	unsigned int			depth;
	unsigned long			path_radix;
	unsigned long			path_size;
};

static int check_fail(struct check_walk *w, const char *invariant,
		      const struct prio_tree_node *node, unsigned long radix,
		      unsigned long heap)
{
	if (w->fault) {
		w->fault->invariant = invariant;
		w->fault->node = node;
		w->fault->depth = w->depth;
		w->fault->radix = radix;
		w->fault->heap = heap;
	}
	return -EUCLEAN;
}

/* The top @count bits of @x, as a number. */
static inline unsigned long high_bits(unsigned long x, unsigned int count)
{
	return count ? x >> (BITS_PER_LONG - count) : 0;
}

static int check_node(struct check_walk *w, const struct prio_tree_node *node)
{
	const struct prio_tree_root *root = w->root;
	unsigned int bits = root->index_bits, d = w->depth, j;
	unsigned long r, h, cr, ch;
	const struct prio_tree_node *child;
	int side;

	get_index(root, node, &r, &h);
	if (r > h)
		return check_fail(w, "0 interval: radix_index > heap_index",
				  node, r, h);
	if (h > maxindex(bits))
		return check_fail(w, "4 bound: heap_index above maxindex(index_bits)",
				  node, r, h);
	if (d <= bits) {
		/* the top d of the index_bits radix bits must match the path */
		unsigned long mine = d ? r >> (bits - d) : 0;
		unsigned long path = d ? w->path_radix >> (bits - d) : 0;

		if (mine != path)
			return check_fail(w, "2 radix placement: path disagrees with radix_index",
					  node, r, h);
	} else {
		j = d - bits;
		if (j > BITS_PER_LONG)
			return check_fail(w, "3 size placement: deeper than the size levels",
					  node, r, h);
		if (r != w->path_radix)
			return check_fail(w, "3 size placement: radix differs from its size subtree",
					  node, r, h);
		if (high_bits(h - r, j) != high_bits(w->path_size, j))
			return check_fail(w, "3 size placement: path disagrees with size",
					  node, r, h);
	}
	for (side = 0; side < 2; side++) {
		child = side ? node->right : node->left;
		if (!child)
			return check_fail(w, "5 links: NULL child pointer",
					  node, r, h);
		if (child == node)
			continue;
		if (child->parent != node)
			return check_fail(w, "5 links: child's parent is not its parent",
					  child, r, h);
		get_index(root, child, &cr, &ch);
		if (!ranks_before(r, h, cr, ch))
			return check_fail(w, "1 heap order: child ranks before its parent",
					  child, cr, ch);
	}
	if (prio_tree_lookup((struct prio_tree_root *)root, r, h) != node)
		return check_fail(w, "6 uniqueness: another node holds the same interval",
				  node, r, h);
	return 0;
}

/* Record the branch taken into a child, as iter_descend() does. */
static void check_down(struct check_walk *w, bool right)
{
	unsigned int bits = w->root->index_bits, d = w->depth;

	if (right && d < bits)
		w->path_radix |= 1UL << (bits - 1 - d);
	else if (right && d - bits < BITS_PER_LONG)
		w->path_size |= 1UL << (BITS_PER_LONG - 1 - (d - bits));
	w->depth++;
}

static void check_up(struct check_walk *w)
{
	unsigned int bits = w->root->index_bits, d = --w->depth;

	if (d < bits)
		w->path_radix &= ~(1UL << (bits - 1 - d));
	else if (d - bits < BITS_PER_LONG)
		w->path_size &= ~(1UL << (BITS_PER_LONG - 1 - (d - bits)));
}

/**
 * prio_tree_check - verify every structural invariant of @root
 * @root: the tree
 * @fault: where to describe the first broken invariant, or NULL
 *
 * Checks (1)..(6) of <linux/prio_tree.h> at every node.  For debugging and
 * tests: O(n log n).  Safe on a corrupt tree as long as the pointers it
 * follows point at readable nodes: a child that does not point back at its
 * parent is reported, not followed.
 *
 * Return: 0, or -EUCLEAN with *@fault filled in.
 */
int prio_tree_check(const struct prio_tree_root *root,
		    struct prio_tree_fault *fault)
{
	struct check_walk w = { .root = root, .fault = fault };
	const struct prio_tree_node *cur = root->prio_tree_node, *from;
	int ret;

	if (root->index_bits < 1 || root->index_bits > BITS_PER_LONG)
		return check_fail(&w, "4 bound: index_bits out of range",
				  cur, root->index_bits, 0);
	if (!cur) {
		if (root->index_bits != 1)
			return check_fail(&w, "4 bound: empty tree with index_bits != 1",
					  NULL, root->index_bits, 0);
		return 0;
	}
	if (!prio_tree_root(cur))
		return check_fail(&w, "5 links: root is not its own parent",
				  cur, 0, 0);

	for (;;) {
		ret = check_node(&w, cur);
		if (ret)
			return ret;
		if (!prio_tree_left_empty(cur)) {
			check_down(&w, false);
			cur = cur->left;
			continue;
		}
		if (!prio_tree_right_empty(cur)) {
			check_down(&w, true);
			cur = cur->right;
			continue;
		}
		for (;;) {
			if (prio_tree_root(cur))
				return 0;
			from = cur;
			cur = cur->parent;
			check_up(&w);
			if (cur->left == from && !prio_tree_right_empty(cur)) {
				check_down(&w, true);
				cur = cur->right;
				break;
			}
		}
	}
}
EXPORT_SYMBOL(prio_tree_check);
