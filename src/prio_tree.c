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
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/mmdebug.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

#include "prio_tree_internal.h"

/*
 * index_bits_to_maxindex[b - 1] is the largest heap_index a tree with
 * b radix bits holds.  Built by the compiler: the 2004 code filled it in
 * prio_tree_init(), so any use before that saw zeroes and grew index_bits
 * past BITS_PER_LONG.
 */
#define __PT_MAX(b)	(~0UL >> (BITS_PER_LONG - (b)))

static const unsigned long index_bits_to_maxindex[BITS_PER_LONG] = {
	__PT_MAX(1), __PT_MAX(2), __PT_MAX(3), __PT_MAX(4),
	__PT_MAX(5), __PT_MAX(6), __PT_MAX(7), __PT_MAX(8),
	__PT_MAX(9), __PT_MAX(10), __PT_MAX(11), __PT_MAX(12),
	__PT_MAX(13), __PT_MAX(14), __PT_MAX(15), __PT_MAX(16),
	__PT_MAX(17), __PT_MAX(18), __PT_MAX(19), __PT_MAX(20),
	__PT_MAX(21), __PT_MAX(22), __PT_MAX(23), __PT_MAX(24),
	__PT_MAX(25), __PT_MAX(26), __PT_MAX(27), __PT_MAX(28),
	__PT_MAX(29), __PT_MAX(30), __PT_MAX(31), __PT_MAX(32),
#if BITS_PER_LONG == 64
	__PT_MAX(33), __PT_MAX(34), __PT_MAX(35), __PT_MAX(36),
	__PT_MAX(37), __PT_MAX(38), __PT_MAX(39), __PT_MAX(40),
	__PT_MAX(41), __PT_MAX(42), __PT_MAX(43), __PT_MAX(44),
	__PT_MAX(45), __PT_MAX(46), __PT_MAX(47), __PT_MAX(48),
	__PT_MAX(49), __PT_MAX(50), __PT_MAX(51), __PT_MAX(52),
	__PT_MAX(53), __PT_MAX(54), __PT_MAX(55), __PT_MAX(56),
	__PT_MAX(57), __PT_MAX(58), __PT_MAX(59), __PT_MAX(60),
	__PT_MAX(61), __PT_MAX(62), __PT_MAX(63), __PT_MAX(64),
#endif
};

/*
 * Kept for the 2004 API, which required this call at boot.  The table is
 * constant now; this only re-derives it, so a miscompiled table cannot go
 * unnoticed in a kernel that calls it.  Not __init: a caller may come
 * after boot.
 */
void prio_tree_init(void)
{
	unsigned int bits;

	BUILD_BUG_ON(ARRAY_SIZE(index_bits_to_maxindex) != BITS_PER_LONG);
	for (bits = 1; bits <= BITS_PER_LONG; bits++)
		WARN_ON(index_bits_to_maxindex[bits - 1] !=
			prio_tree_maxindex(bits));
}

static __always_inline unsigned long maxindex(unsigned int bits)
{
	return index_bits_to_maxindex[bits - 1];
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

/* Below the last radix level: size level 1 tests the top bit of a long (3). */
static __always_inline void path_enter_size_levels(struct prio_tree_path *path)
{
	path->mask = 1UL << (BITS_PER_LONG - 1);
	path->size_level = true;
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
	path_enter_size_levels(path);
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
 * Debug-only: is @node linked into @root?  Keys are unique (6), so a node
 * is in the tree exactly when a lookup of its key finds that very node;
 * compared by pointer, because a node that was never inserted may carry
 * the key of one that was.  O(log n), on a tree the debug build checks
 * after every change.
 */
static bool __maybe_unused prio_tree_contains(const struct prio_tree_root *root,
					      const struct prio_tree_node *node)
{
	unsigned long radix, heap;

	get_index(root, node, &radix, &heap);
	return prio_tree_lookup(root, radix, heap) == node;
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
 * Put @node into the place of @old, which hangs from the slot @link (the
 * root's slot, or its parent's left or right), and unlink @old, without
 * any check: the insert walk swaps a node with a different key into a
 * place this way (it then restores the invariants), so only the exported
 * prio_tree_replace() may insist on equal keys.  The walk knows @link;
 * prio_tree_replace() looks it up.  Empty child slots point at their
 * owner (5), the root's parent at itself.  O(1).
 */
static __always_inline void replace_at(struct prio_tree_node **link,
				       struct prio_tree_node *old,
				       struct prio_tree_node *node)
{
	struct prio_tree_node *left = old->left, *right = old->right;
	struct prio_tree_node *parent = old->parent;

	*link = node;
	node->parent = parent == old ? node : parent;
	if (left == old) {
		node->left = node;
	} else {
		node->left = left;
		left->parent = node;
	}
	if (right == old) {
		node->right = node;
	} else {
		node->right = right;
		right->parent = node;
	}
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
	struct prio_tree_node **link, *parent;

	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG)) {
		unsigned long r1, h1, r2, h2;

		get_index(root, old, &r1, &h1);
		get_index(root, node, &r2, &h2);
		BUG_ON(r1 != r2 || h1 != h2);
		BUG_ON(!prio_tree_contains(root, old));
		BUG_ON(prio_tree_contains(root, node));
	}
	if (prio_tree_root(old)) {
		VM_BUG_ON(root->prio_tree_node != old);
		link = &root->prio_tree_node;
	} else {
		parent = old->parent;
		VM_BUG_ON(parent->left != old && parent->right != old);
		link = __prio_tree_child_slot(parent, parent->right == old);
	}
	replace_at(link, old, node);
	return old;
}

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
static void prio_tree_unlink_keep_bits(struct prio_tree_root *root,
				       struct prio_tree_node *node);

static noinline struct prio_tree_node *
prio_tree_expand(struct prio_tree_root *root, struct prio_tree_node *node,
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
		/* the old tree keeps its bits: it is hung k levels down whole */
		prio_tree_unlink_keep_bits(root, max);
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

/*
 * One level of the insert walk: where the carried key [*@radix, *@heap]
 * ranks before *@cur's (1), the carried node takes cur's place (the slot
 * @link), and cur, with its key, is carried on down instead.  cur's key
 * is read once.
 *
 * Return: *@cur if it holds the carried key itself (6), else NULL.
 */
static __always_inline struct prio_tree_node *
insert_level(struct prio_tree_node **link, struct prio_tree_node **cur,
	     struct prio_tree_node **carried, unsigned long *radix,
	     unsigned long *heap, bool raw)
{
	struct prio_tree_node *displaced = *cur;
	unsigned long r, h;

	/* a raw radix is one load, a raw heap four: heap >= radix (4) */
	if (raw && *heap < __prio_tree_radix(displaced, raw))
		return NULL;
	h = __prio_tree_heap(displaced, raw);
	/*
	 * !ranks_before(radix, heap, r, h), the heaps compared once.  Most
	 * levels keep their node: the carried heap is below it.
	 */
	if (likely(*heap < h))
		return NULL;
	r = __prio_tree_radix(displaced, raw);
	if (*heap == h) {
		if (*radix > r)
			return NULL;
		if (unlikely(*radix == r))
			return displaced;
	}
	replace_at(link, displaced, *carried);
	*cur = *carried;
	*carried = displaced;
	*radix = r;
	*heap = h;
	return NULL;
}

/*
 * prio_tree_insert() for one node flavour, @raw a constant where inlined.
 * The radix levels and the size levels are two loops, so that neither
 * tests at each level which kind of bit it branches on.  @link is the
 * slot cur hangs from.
 */
static __always_inline struct prio_tree_node *
__prio_tree_insert(struct prio_tree_root *root, struct prio_tree_node *node,
		   bool raw)
{
	struct prio_tree_node *cur, *carried = node, *next, *twin;
	struct prio_tree_node **link;
	unsigned long radix, heap;
	struct prio_tree_path path;

	node_key(node, raw, &radix, &heap);
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG)) {
		BUG_ON(radix > heap);
		BUG_ON(prio_tree_contains(root, node));
	}

	if (prio_tree_empty(root) || heap > maxindex(root->index_bits)) {
		prio_tree_expand(root, node, heap);
		prio_tree_debug_verify(root);
		return node;
	}

	link = &root->prio_tree_node;
	cur = *link;
	path_start(root, &path);
	for (;;) {
		twin = insert_level(link, &cur, &carried, &radix, &heap, raw);
		if (unlikely(twin))
			goto found_twin;
		link = __prio_tree_child_slot(cur, radix & path.mask);
		next = *link;
		if (next == cur)
			goto leaf;
		cur = next;
		path.mask >>= 1;
		if (!path.mask)
			break;
	}
	path_enter_size_levels(&path);
	for (;;) {
		twin = insert_level(link, &cur, &carried, &radix, &heap, raw);
		if (unlikely(twin))
			goto found_twin;
		/* distinct keys part before the size bits run out (3), (6) */
		VM_BUG_ON(!path.mask);
		link = __prio_tree_child_slot(cur, (heap - radix) & path.mask);
		next = *link;
		if (next == cur)
			goto leaf;
		cur = next;
		path.mask >>= 1;
	}
leaf:
	/* the empty slot @link of cur gets the carried node, a new leaf */
	INIT_PRIO_TREE_NODE(carried);
	*link = carried;
	carried->parent = cur;
	prio_tree_debug_verify(root);
	return node;

found_twin:
	/* only the original key meets its twin (6) */
	VM_BUG_ON(carried != node);
	return twin;
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
	if (root->raw)
		return __prio_tree_insert(root, node, true);
	return __prio_tree_insert(root, node, false);
}

/**
 * __vma_prio_tree_insert - add @vma to the i_mmap tree @root
 * @root: the tree; an empty root of either kind is made a raw (vma) root
 * @vma: a vma in no tree, with its final vm_start, vm_end and vm_pgoff
 *
 * O(log n) for a new range; a vma whose range is already present joins
 * that range's vm_set instead, O(log n) to find it.
 */
void __vma_prio_tree_insert(struct prio_tree_root *root,
			    struct vm_area_struct *vma)
{
	struct prio_tree_node *node;

	vma_debug_range(vma);
	if (prio_tree_empty(root))
		root->raw = 1;
	VM_BUG_ON(!root->raw);

	/* prio_tree_insert() without its flavour test, and inline */
	node = __prio_tree_insert(root, vma_node(vma), true);
	if (node == vma_node(vma)) {
		vma->shared.vm_set.head = NULL;
		return;
	}
	__vma_prio_tree_add(vma, __prio_tree_node_vma(node));
}

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
struct prio_tree_node *prio_tree_lookup(const struct prio_tree_root *root,
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

/*
 * Shrink index_bits to the fewest that hold @heap, the root's and so the
 * largest, after a remove took the root that needed more: the inverse of
 * prio_tree_expand().  With every heap, and so every radix, below
 * maxindex(b - k) + 1, the top k levels of a b-bit tree test bits that
 * are zero in every key: they are a chain of left children, holding the
 * k largest nodes (1).  Below it hangs a tree of b - k bits as it stands,
 * since depth d + k tested the bit that depth d of b - k bits tests, and
 * the size levels start below the last radix level either way (3).  So
 * the chain is taken off, its subtree becomes the tree, and the chain's
 * nodes go back in by insert, the largest first.
 *
 *    before (b bits)          after (b - 2 bits)
 *
 *          M1                       M1
 *         /                        /  \
 *       M2              ==>      ..    ..    (T with M1 and M2 inserted)
 *       /
 *      T  (b - 2 bits)
 *
 * Left stale, index_bits would cost every later query a visit to each
 * chain node, as every query's path starts down the chain: at 10^5
 * intervals, one interval of 2^40 pages inserted and removed again
 * doubled a point query's instructions (286 to 571).  O(k log n), and
 * only a remove of the root, the largest heap, can call for it.
 */
static noinline void prio_tree_shrink(struct prio_tree_root *root,
				      unsigned long heap)
{
	struct prio_tree_node *top = root->prio_tree_node, *node = top, *next;
	unsigned int bits = root->index_bits, k = 0, level;

	while (bits - k > 1 && heap <= maxindex(bits - k - 1))
		k++;
	/* walk the chain down to its last node, cut what hangs below it */
	for (level = 1; level < k && node->left != node; level++) {
		VM_BUG_ON(node->right != node);
		node = node->left;
	}
	VM_BUG_ON(node->right != node);
	next = node->left == node ? NULL : node->left;
	node->left = node;
	if (next)
		next->parent = next;
	root->prio_tree_node = next;
	root->index_bits = next ? bits - k : 1;
	/* the chain, still linked by its left children, goes back in */
	for (node = top; node; node = next) {
		next = node->left == node ? NULL : node->left;
		INIT_PRIO_TREE_NODE(node);
		prio_tree_insert(root, node);
	}
	VM_BUG_ON(root->index_bits != bits - k);
}

/*
 * The unlink of prio_tree_remove() for one node flavour, @raw a constant
 * where inlined, without the shrink of index_bits.
 */
static __always_inline void __prio_tree_unlink(struct prio_tree_root *root,
					       struct prio_tree_node *node,
					       bool raw)
{
	struct prio_tree_node *parent, *up, *old, *sibling, *left, *right;
	struct prio_tree_node **hole;
	unsigned long rl, hl, rr, hr;
	bool up_was_right;

	/*
	 * The hole is where @node was: the link @hole below @parent (NULL:
	 * the root slot), with the subtrees @left and @right of @up hanging
	 * below it.  A child link that points back at its owner is empty (5).
	 */
	if (prio_tree_root(node)) {
		VM_BUG_ON(root->prio_tree_node != node);
		parent = NULL;
		hole = &root->prio_tree_node;
	} else {
		parent = node->parent;
		hole = parent->right == node ? &parent->right : &parent->left;
	}
	up = node;
	left = node->left;
	right = node->right;

	for (;;) {
		/* of the two subtrees, the root that ranks first (1) moves up */
		if (left == up) {
			if (right == up)
				break;
			up_was_right = true;
		} else if (right == up) {
			up_was_right = false;
		} else {
			node_key(left, raw, &rl, &hl);
			node_key(right, raw, &rr, &hr);
			up_was_right = ranks_before(rr, hr, rl, hl);
		}
		old = up;
		up = up_was_right ? right : left;
		sibling = up_was_right ? left : right;
		left = up->left;
		right = up->right;

		/* @up fills the hole; its sibling stays where it was */
		*hole = up;
		up->parent = parent ? parent : up;
		if (sibling == old)
			sibling = up;
		else
			sibling->parent = up;
		if (up_was_right) {
			up->left = sibling;
			hole = &up->right;
		} else {
			up->right = sibling;
			hole = &up->left;
		}
		/* and the hole moves to where @up was */
		parent = up;
	}

	/* an empty child slot points at its owner; the root slot is NULL */
	*hole = parent;
	if (!parent)
		root->index_bits = 1;
}

/*
 * Unlink @node and leave index_bits as it is, unless the tree is now
 * empty (then 1, as after every remove): prio_tree_expand() hangs what
 * is left whole under a new top, and prio_tree_remove_root() sees to (4)
 * itself.
 */
static void prio_tree_unlink_keep_bits(struct prio_tree_root *root,
				       struct prio_tree_node *node)
{
	if (root->raw)
		__prio_tree_unlink(root, node, true);
	else
		__prio_tree_unlink(root, node, false);
}

/*
 * The remove of the root, the largest heap, which alone can leave
 * index_bits larger than the tree needs (4).  Out of line, so that the
 * other removes carry nothing of it.
 */
static noinline void prio_tree_remove_root(struct prio_tree_root *root,
					   struct prio_tree_node *node)
{
	unsigned long radix, heap;

	prio_tree_unlink_keep_bits(root, node);
	if (prio_tree_empty(root) || root->index_bits == 1)
		return;
	/* the new root's heap is the largest now (1) */
	node_key(root->prio_tree_node, root->raw, &radix, &heap);
	if (heap <= maxindex(root->index_bits - 1))
		prio_tree_shrink(root, heap);
}

/* prio_tree_remove() for one node flavour, @raw a constant where inlined */
static __always_inline void __prio_tree_remove(struct prio_tree_root *root,
					       struct prio_tree_node *node,
					       bool raw)
{
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(!prio_tree_contains(root, node));
	if (prio_tree_root(node))
		prio_tree_remove_root(root, node);
	else
		__prio_tree_unlink(root, node, raw);
	prio_tree_debug_verify(root);
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
 * A remove of the root, the largest heap, then shrinks index_bits to the
 * fewest that hold the new root's heap, as an insert grows it (4).
 *
 * O(log n); O(k log n) when index_bits shrinks by k (prio_tree_shrink()).
 * @node's own pointers are left stale.
 */
void prio_tree_remove(struct prio_tree_root *root, struct prio_tree_node *node)
{
	if (root->raw)
		__prio_tree_remove(root, node, true);
	else
		__prio_tree_remove(root, node, false);
}

/*
 * Stabbing queries: the walk, its invariants and its cost are described
 * with it in <linux/prio_tree_walk.h>, which callers may also inline.
 */

/* The walk for each flavour, out of line, for prio_tree_first/next(). */
static noinline struct prio_tree_node *
prio_tree_walk_raw(struct prio_tree_iter *iter, unsigned long begin,
		   unsigned long end)
{
	return __prio_tree_walk(iter, begin, end, true);
}

static noinline struct prio_tree_node *
prio_tree_walk_plain(struct prio_tree_iter *iter, unsigned long begin,
		     unsigned long end)
{
	return __prio_tree_walk(iter, begin, end, false);
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
struct prio_tree_node *prio_tree_next(const struct prio_tree_root *root,
				      struct prio_tree_iter *iter,
				      unsigned long begin, unsigned long end)
{
	if (!iter->cur)
		return NULL;
	/* misuse of the API, not a broken tree: per hit, so debug only */
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(iter->root != root);
	if (root->raw)
		return prio_tree_walk_raw(iter, begin, end);
	return prio_tree_walk_plain(iter, begin, end);
}

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
struct prio_tree_node *prio_tree_first(const struct prio_tree_root *root,
				       struct prio_tree_iter *iter,
				       unsigned long begin, unsigned long end)
{
	struct prio_tree_node *node;

	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		BUG_ON(begin > end);
	if (root->raw) {
		node = __prio_tree_start(root, iter, begin, end, true);
		if (node || !iter->cur)
			return node;
		return prio_tree_walk_raw(iter, begin, end);
	}
	node = __prio_tree_start(root, iter, begin, end, false);
	if (node || !iter->cur)
		return node;
	return prio_tree_walk_plain(iter, begin, end);
}

/**
 * __vma_prio_tree_first - first vma mapping a file page in [@begin, @end]
 * @root: an i_mmap tree
 * @iter: iterator for the query
 * @begin: first file page (pgoff) of the query
 * @end: last file page of the query
 *
 * Example:
 *	vma = __vma_prio_tree_first(root, &iter, pgoff, pgoff);
 *	while (vma) {
 *		unmap(vma, pgoff);
 *		vma = __vma_prio_tree_next(vma, root, &iter, pgoff, pgoff);
 *	}
 *
 * The same as __vma_prio_tree_first_inline() (<linux/prio_tree_walk.h>),
 * compiled once here.
 *
 * Return: a vma, or NULL.  A whole query costs O(log n + m).
 */
struct vm_area_struct *__vma_prio_tree_first(const struct prio_tree_root *root,
					     struct prio_tree_iter *iter,
					     unsigned long begin,
					     unsigned long end)
{
	/* an empty root may still be of the other flavour */
	VM_BUG_ON(root->prio_tree_node && !root->raw);
	/* the walk inline here too: a query of one hit is one call */
	return __vma_prio_tree_first_inline(root, iter, begin, end);
}

/**
 * __vma_prio_tree_next - the vma after @vma in a query
 * @vma: the vma the previous call returned
 * @root: the tree
 * @iter: the query's iterator
 * @begin: as given to __vma_prio_tree_first()
 * @end: as given to __vma_prio_tree_first()
 *
 * After a tree node come its head and members, then the next tree node.
 * The tree must not change during the query.
 *
 * Return: the next vma, or NULL when the query is done.
 */
struct vm_area_struct *__vma_prio_tree_next(struct vm_area_struct *vma,
					    const struct prio_tree_root *root,
					    struct prio_tree_iter *iter,
					    unsigned long begin,
					    unsigned long end)
{
	/* prio_tree_next() without its flavour test, and inline: one call */
	return __vma_prio_tree_next_inline(vma, root, iter, begin, end);
}
