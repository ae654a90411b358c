/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of this directory share and nobody else may use: how a
 * node's key is read in each flavour of tree, the heap order, and the vma
 * layer's views of a vma, which its query in prio_tree.c uses too.
 * <linux/prio_tree.h> and <linux/vma_prio_tree.h> are the API.
 */
#ifndef _PRIO_TREE_INTERNAL_H
#define _PRIO_TREE_INTERNAL_H

#include <linux/list.h>
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
 * The vma layer's views of a vma (<linux/vma_prio_tree.h>): for
 * vma_prio_tree.c, and for the vma query, which prio_tree.c runs so that
 * a hit costs one call.
 */
static inline struct prio_tree_node *vma_node(struct vm_area_struct *vma)
{
	return (struct prio_tree_node *)&vma->shared.prio_tree_node;
}

static inline struct vm_area_struct *node_vma(struct prio_tree_node *node)
{
	return container_of((struct raw_prio_tree_node *)node,
			    struct vm_area_struct, shared.prio_tree_node);
}

static inline struct vm_area_struct *vm_set_entry(struct list_head *entry)
{
	return list_entry(entry, struct vm_area_struct, shared.vm_set.list);
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

/*
 * The role test reads the parent pointer through shared.both, whichever
 * view wrote it: prio_tree_*() through shared.prio_tree_node, the vm_set
 * code through shared.vm_set.  That holds only while the parent is the
 * third word of every view, and while a raw node is the start of a full
 * one (prio_tree.c reads raw nodes as struct prio_tree_node):
 *
 *   shared:  word 0        word 1        word 2
 *   vm_set   list.next     list.prev     parent
 *   raw      left          right         parent     (prio_tree_node: then
 *   both     first         second        parent      start, last)
 */
static inline bool vma_is_tree_node(const struct vm_area_struct *vma)
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
static inline struct vm_area_struct *vm_set_next(struct vm_area_struct *vma)
{
	struct vm_area_struct *next;

	if (vma_is_tree_node(vma))
		return vma->shared.vm_set.head;
	/* around the ring; the head, back again, closes it */
	next = vm_set_entry(vma->shared.vm_set.list.next);
	return next->shared.vm_set.head ? NULL : next;
}

#endif /* _PRIO_TREE_INTERNAL_H */
