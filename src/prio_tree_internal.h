/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of this directory share and nobody else may use: how a
 * node's key is read in each flavour of tree, the heap order, and the vma
 * layer's per-hit step.  <linux/prio_tree.h> and <linux/vma_prio_tree.h>
 * are the API.
 */
#ifndef _PRIO_TREE_INTERNAL_H
#define _PRIO_TREE_INTERNAL_H

#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

/*
 * The key of @node in a tree of flavour @raw (a constant where inlined).
 * A raw node's key is derived from its vma, its heap at the cost of three
 * loads and three operations: the walks read only the half they test.
 */
static __always_inline const struct vm_area_struct *
raw_node_vma_const(const struct prio_tree_node *node)
{
	return container_of((const struct raw_prio_tree_node *)node,
			    struct vm_area_struct, shared.prio_tree_node);
}

static __always_inline unsigned long
node_radix(const struct prio_tree_node *node, bool raw)
{
	return raw ? RADIX_INDEX(raw_node_vma_const(node)) : node->start;
}

static __always_inline unsigned long
node_heap(const struct prio_tree_node *node, bool raw)
{
	return raw ? HEAP_INDEX(raw_node_vma_const(node)) : node->last;
}

static __always_inline void node_key(const struct prio_tree_node *node,
				     bool raw, unsigned long *radix,
				     unsigned long *heap)
{
	*radix = node_radix(node, raw);
	*heap = node_heap(node, raw);
}

static __always_inline void get_index(const struct prio_tree_root *root,
				      const struct prio_tree_node *node,
				      unsigned long *radix, unsigned long *heap)
{
	node_key(node, root->raw, radix, heap);
}

/* Heap order (1): does [r1, h1] rank strictly before [r2, h2]? */
static __always_inline bool ranks_before(unsigned long r1, unsigned long h1,
					 unsigned long r2, unsigned long h2)
{
	return h1 > h2 || (h1 == h2 && r1 < r2);
}

/*
 * The vma layer's per-hit step (prio_tree.c): prio_tree_next() for a raw
 * root whose query has not ended, without the checks, answering with the
 * vma.  For __vma_prio_tree_next() only.
 */
struct vm_area_struct *__vma_prio_tree_walk(struct prio_tree_iter *iter,
					    unsigned long begin,
					    unsigned long end);

#endif /* _PRIO_TREE_INTERNAL_H */
