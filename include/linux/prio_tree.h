/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PRIO_TREE_H
#define _LINUX_PRIO_TREE_H

#include <linux/kernel.h>

/*
 * Radix priority search tree (E. M. McCreight, "Priority Search Trees",
 * SIAM J. Computing 14(2), 1985), in the form Linux 2.6 used for
 * address_space->i_mmap.
 *
 * The tree stores closed intervals [radix_index, heap_index] of unsigned
 * longs and answers stabbing queries ("which stored intervals overlap
 * [begin, end]?") in O(log n + m) node visits, where log n is bounded by
 * the number of bits in the largest heap_index and m is the number of
 * intervals reported.
 *
 * The shape is that of a binary radix tree: the path from the root to a
 * node is spelled by bits of the node's key.  The first index_bits levels
 * ("radix levels") branch on radix_index, most significant bit first.
 * Intervals that share a radix_index cannot be told apart there, so below
 * the radix levels come up to BITS_PER_LONG "size levels" that branch on
 * size = heap_index - radix_index, again most significant bit first.
 * Which node sits where is decided by a heap on heap_index: a node is
 * stored as high up its own path as the heap order allows.
 *
 * Invariants (prio_tree_check() verifies each one and names it):
 *
 *  (1) Heap order.  A parent ranks strictly before each child, where
 *      a ranks before b if a.heap > b.heap, or the heaps are equal and
 *      a.radix < b.radix.
 *  (2) Radix placement.  A node at depth d <= index_bits agrees with its
 *      path on radix bits index_bits-1 .. index_bits-d.
 *  (3) Size placement.  A node at depth index_bits + j (j >= 1) has the
 *      radix its path spells in full, and agrees with its path on size
 *      bits BITS_PER_LONG-1 .. BITS_PER_LONG-j.  The size levels always
 *      use BITS_PER_LONG bits, never index_bits: growing index_bits then
 *      moves whole subtrees down without invalidating their size paths.
 *  (4) Bound.  1 <= index_bits <= BITS_PER_LONG, every heap_index is at
 *      most prio_tree_maxindex(index_bits), and index_bits is the fewest
 *      bits for which that holds: an insert grows it only as far as its
 *      heap needs, and a remove of the largest heap shrinks it again.
 *      An empty tree has index_bits == 1.
 *  (5) Links.  The root is its own parent, every child points back at
 *      its parent, and an empty child slot points at the node itself
 *      (never NULL).
 *  (6) Uniqueness.  At most one node per distinct [radix, heap].  The
 *      insert path of a key passes every node that could equal it, which
 *      is why prio_tree_insert() can return the existing node.
 *
 * Two node flavours share the algorithm.  A struct prio_tree_node carries
 * its own [start, last].  A struct raw_prio_tree_node is three pointers
 * embedded in a struct vm_area_struct at shared.prio_tree_node; its
 * interval is read from the vma (RADIX_INDEX/HEAP_INDEX) every time, which
 * keeps the vma small.  A root holds one flavour only, chosen by root->raw.
 *
 * Nothing here allocates or sleeps; the caller owns every node and
 * serialises all access to one tree (i_mmap_lock in the kernel).
 */

struct prio_tree_node;

/* The vma-embedded flavour: indices come from the containing vma. */
struct raw_prio_tree_node {
	struct prio_tree_node	*left;
	struct prio_tree_node	*right;
	struct prio_tree_node	*parent;
};

/* The self-contained flavour: first three fields as above, then the key. */
struct prio_tree_node {
	struct prio_tree_node	*left;
	struct prio_tree_node	*right;
	struct prio_tree_node	*parent;
	unsigned long		start;
	unsigned long		last;
};

struct prio_tree_root {
	struct prio_tree_node	*prio_tree_node;
	unsigned short		index_bits;
	unsigned short		raw;
};

/*
 * Query state (prio_tree.c, "Stabbing queries").  @cur is the node last
 * reported, NULL once the walk has finished.  @subtree is NULL while @cur
 * is on the query's path; else it is the root of the subtree @cur is in,
 * in which no radix is beyond the query's end.  @mask is the radix bit
 * that the next path node's children branch on: on the path, @cur's; in
 * a subtree, that of the path node above @subtree, or 0 when the path
 * ends with @subtree.  @__unused keeps the size of the 2004 iterator.
 */
struct prio_tree_iter {
	struct prio_tree_node	*cur;
	unsigned long		mask;
	struct prio_tree_node	*subtree;
	const struct prio_tree_root *root;
	unsigned long		__unused[3];
};

#define PRIO_TREE_ROOT_INIT		{ NULL, 1, 0 }
#define RAW_PRIO_TREE_ROOT_INIT		{ NULL, 1, 1 }
#define PRIO_TREE_ROOT	((struct prio_tree_root) PRIO_TREE_ROOT_INIT)

#define INIT_PRIO_TREE_ROOT(ptr)		\
do {						\
	(ptr)->prio_tree_node = NULL;		\
	(ptr)->index_bits = 1;			\
	(ptr)->raw = 0;				\
} while (0)

#define INIT_RAW_PRIO_TREE_ROOT(ptr)		\
do {						\
	(ptr)->prio_tree_node = NULL;		\
	(ptr)->index_bits = 1;			\
	(ptr)->raw = 1;				\
} while (0)

#define PRIO_TREE_NODE_INIT(name) \
	{ .left = &(name), .right = &(name), .parent = &(name) }

#define PRIO_TREE_NODE(name) \
	struct prio_tree_node name = PRIO_TREE_NODE_INIT(name)

#define INIT_PRIO_TREE_NODE(ptr)				\
	((ptr)->left = (ptr)->right = (ptr)->parent = (ptr))

#define PRIO_TREE_ITER	((struct prio_tree_iter) { .cur = NULL })

#define prio_tree_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline int prio_tree_empty(const struct prio_tree_root *root)
{
	return root->prio_tree_node == NULL;
}

static inline int prio_tree_root(const struct prio_tree_node *node)
{
	return node->parent == node;
}

static inline int prio_tree_left_empty(const struct prio_tree_node *node)
{
	return node->left == node;
}

static inline int prio_tree_right_empty(const struct prio_tree_node *node)
{
	return node->right == node;
}

/**
 * prio_tree_maxindex - largest heap_index a tree of @bits radix bits holds
 * @bits: 1 .. BITS_PER_LONG
 *
 * Return: 2^@bits - 1.  Needs no prio_tree_init().
 */
static inline unsigned long prio_tree_maxindex(unsigned int bits)
{
	return ~0UL >> (8 * sizeof(unsigned long) - bits);
}

/*
 * Describes the first invariant that prio_tree_check() found broken.
 * @invariant names it, starting with its number from the list above.
 */
struct prio_tree_fault {
	const char			*invariant;
	const struct prio_tree_node	*node;
	unsigned int			depth;
	unsigned long			radix;
	unsigned long			heap;
};

void prio_tree_init(void);

struct prio_tree_node *prio_tree_insert(struct prio_tree_root *root,
					struct prio_tree_node *node);
void prio_tree_remove(struct prio_tree_root *root,
		      struct prio_tree_node *node);
struct prio_tree_node *prio_tree_replace(struct prio_tree_root *root,
					 struct prio_tree_node *old,
					 struct prio_tree_node *node);
struct prio_tree_node *prio_tree_lookup(const struct prio_tree_root *root,
					unsigned long radix_index,
					unsigned long heap_index);
struct prio_tree_node *prio_tree_first(const struct prio_tree_root *root,
				       struct prio_tree_iter *iter,
				       unsigned long begin, unsigned long end);
struct prio_tree_node *prio_tree_next(const struct prio_tree_root *root,
				      struct prio_tree_iter *iter,
				      unsigned long begin, unsigned long end);
int prio_tree_check(const struct prio_tree_root *root,
		    struct prio_tree_fault *fault);

#endif /* _LINUX_PRIO_TREE_H */
