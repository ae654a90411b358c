/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of this directory share and nobody else may use: both
 * halves of a node's key at once, the heap order, and the vma layer's view
 * of a vma as a tree node.  The key readers and the vm_set views that the
 * query needs are in <linux/prio_tree_walk.h>, with the query itself.
 * <linux/prio_tree.h> and <linux/vma_prio_tree.h> are the API.
 */
#ifndef _PRIO_TREE_INTERNAL_H
#define _PRIO_TREE_INTERNAL_H

#include <linux/list.h>
#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/prio_tree_walk.h>
#include <linux/vma_prio_tree.h>

static __always_inline void node_key(const struct prio_tree_node *node,
				     bool raw, unsigned long *radix,
				     unsigned long *heap)
{
	*radix = __prio_tree_radix(node, raw);
	*heap = __prio_tree_heap(node, raw);
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

/* A vma as the tree node it embeds (<linux/vma_prio_tree.h>). */
static inline struct prio_tree_node *vma_node(struct vm_area_struct *vma)
{
	return (struct prio_tree_node *)&vma->shared.prio_tree_node;
}

/*
 * Debug builds: a vma must map at least one page to be keyed at all.  A
 * macro, so that the report names the API function that was misused.
 */
#define vma_debug_range(vma)						\
do {									\
	const struct vm_area_struct *__vma = (vma);			\
									\
	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG) &&			\
	    __vma->vm_end <= __vma->vm_start) {				\
		pr_err("prio_tree: vma [%#lx, %#lx) is empty or reversed\n", \
		       __vma->vm_start, __vma->vm_end);			\
		BUG();							\
	}								\
} while (0)

#endif /* _PRIO_TREE_INTERNAL_H */
