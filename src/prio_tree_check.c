// SPDX-License-Identifier: GPL-2.0
/*
 * The checker of the radix priority search tree, prio_tree_check(), and
 * the full pre-order walk it runs on.  Nothing here is on the insert,
 * remove or query paths: it judges the trees those paths build, so it
 * reads the bound (4) from prio_tree_maxindex(), not from prio_tree.c's
 * table.  Compiles unchanged in the kernel and, through compat/, in
 * userspace.
 */

#include <linux/kernel.h>
#include <linux/errno.h>

#include "prio_tree_internal.h"

/*
 * The full pre-order walk of the checker.  It carries the path spelled
 * from the root to @cur: @depth, the radix bits fixed in the radix levels
 * (@path_radix) and the size bits fixed in the size levels (@path_size),
 * as (2) and (3) define them.
 */
struct preorder {
	const struct prio_tree_root	*root;
	const struct prio_tree_node	*cur;
	unsigned int			depth;
	unsigned long			path_radix;
	unsigned long			path_size;
};

static void preorder_start(struct preorder *w,
			   const struct prio_tree_root *root)
{
	w->root = root;
	w->cur = root->prio_tree_node;
	w->depth = 0;
	w->path_radix = 0;
	w->path_size = 0;
}

static void preorder_down(struct preorder *w, bool right)
{
	unsigned int bits = w->root->index_bits, d = w->depth;

	if (right && d < bits)
		w->path_radix |= 1UL << (bits - 1 - d);
	else if (right && d - bits < BITS_PER_LONG)
		w->path_size |= 1UL << (BITS_PER_LONG - 1 - (d - bits));
	w->depth++;
	w->cur = right ? w->cur->right : w->cur->left;
}

static void preorder_up(struct preorder *w)
{
	unsigned int bits = w->root->index_bits, d = --w->depth;

	if (d < bits)
		w->path_radix &= ~(1UL << (bits - 1 - d));
	else if (d - bits < BITS_PER_LONG)
		w->path_size &= ~(1UL << (BITS_PER_LONG - 1 - (d - bits)));
	w->cur = w->cur->parent;
}

/*
 * Step to the node after w->cur in pre-order.  Return: false at the end
 * of the walk (w->cur is then the root again).  Follows only links whose
 * back pointer agrees, which the checker tests (5) before it steps on.
 */
static bool preorder_next(struct preorder *w)
{
	const struct prio_tree_node *from;

	if (!prio_tree_left_empty(w->cur)) {
		preorder_down(w, false);
		return true;
	}
	if (!prio_tree_right_empty(w->cur)) {
		preorder_down(w, true);
		return true;
	}
	/* climb until we leave a left child that has a right sibling */
	while (!prio_tree_root(w->cur)) {
		from = w->cur;
		preorder_up(w);
		if (w->cur->left == from && !prio_tree_right_empty(w->cur)) {
			preorder_down(w, true);
			return true;
		}
	}
	return false;
}

/*
 * The checker: one pre-order pass (struct preorder carries the path) that
 * tests each invariant at each node.
 */
struct check_walk {
	struct preorder			walk;
	struct prio_tree_fault		*fault;
};

static int check_fail(struct check_walk *w, const char *invariant,
		      const struct prio_tree_node *node, unsigned long radix,
		      unsigned long heap)
{
	if (w->fault) {
		w->fault->invariant = invariant;
		w->fault->node = node;
		w->fault->depth = w->walk.depth;
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
	const struct prio_tree_root *root = w->walk.root;
	unsigned int bits = root->index_bits, d = w->walk.depth, j;
	unsigned long r, h, cr, ch;
	const struct prio_tree_node *child;
	int side;

	get_index(root, node, &r, &h);
	if (r > h)
		return check_fail(w, "0 interval: radix_index > heap_index",
				  node, r, h);
	if (h > prio_tree_maxindex(bits))
		return check_fail(w, "4 bound: heap_index above maxindex(index_bits)",
				  node, r, h);
	if (d <= bits) {
		/* the top d of the index_bits radix bits must match the path */
		unsigned long mine = d ? r >> (bits - d) : 0;
		unsigned long path = d ? w->walk.path_radix >> (bits - d) : 0;

		if (mine != path)
			return check_fail(w,
					  "2 radix placement: path disagrees with radix_index",
					  node, r, h);
	} else {
		j = d - bits;
		if (j > BITS_PER_LONG)
			return check_fail(w,
					  "3 size placement: deeper than the size levels",
					  node, r, h);
		if (r != w->walk.path_radix)
			return check_fail(w,
					  "3 size placement: radix differs from its size subtree",
					  node, r, h);
		if (high_bits(h - r, j) != high_bits(w->walk.path_size, j))
			return check_fail(w,
					  "3 size placement: path disagrees with size",
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
	if (prio_tree_lookup(root, r, h) != node)
		return check_fail(w, "6 uniqueness: another node holds the same interval",
				  node, r, h);
	return 0;
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
	struct check_walk w = { .fault = fault };
	const struct prio_tree_node *cur = root->prio_tree_node;
	unsigned long radix, heap;
	int ret;

	preorder_start(&w.walk, root);
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

	do {
		ret = check_node(&w, w.walk.cur);
		if (ret)
			return ret;
	} while (preorder_next(&w.walk));

	/* the largest heap is the root's (1): no fewer bits may hold it */
	w.walk.depth = 0;
	get_index(root, cur, &radix, &heap);
	if (root->index_bits > 1 &&
	    heap <= prio_tree_maxindex(root->index_bits - 1))
		return check_fail(&w, "4 bound: index_bits above what the largest heap needs",
				  cur, radix, heap);
	return 0;
}
