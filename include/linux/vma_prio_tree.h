/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_VMA_PRIO_TREE_H
#define _LINUX_VMA_PRIO_TREE_H

/*
 * The vma layer over the radix priority search tree: how
 * address_space->i_mmap{,_shared} holds file-backed vmas.
 *
 * A vma maps the file pages [vm_pgoff, vm_pgoff + pages - 1], which is
 * its interval in the tree (RADIX_INDEX, HEAP_INDEX).  Many vmas map the
 * very same range (every fork() copies them), and the tree holds one node
 * per distinct range, so vmas with an identical range hang off that node
 * in a "vm_set" list.  Each vma in an i_mmap tree has exactly one role:
 *
 *   tree node    shared.both.parent != NULL.  vm_set.head points at the
 *                head of its vm_set list, or is NULL when it has none.
 *   list head    shared.both.parent == NULL, vm_set.head != NULL and
 *                points back at the tree node.
 *   list member  shared.both.parent == NULL, vm_set.head == NULL; linked
 *                into the head's ring through shared.vm_set.list.
 *
 *   prio_tree_root
 *         |
 *         A -- vm_set.head --> H <-> M1 <-> M2 <-> ... (ring, via
 *        / \   <- vm_set.head                        shared.vm_set.list)
 *       B   C
 *
 * The role lives in the vma's own linkage, not in vm_flags: when A is
 * removed, H is promoted into the tree without anyone holding H's
 * mmap_lock, so nothing of H outside "shared" may change.
 *
 * A vma that is in no tree has "shared" all NULL (INIT_VMA_SHARED), which
 * vma_shared_empty() tests.  vm_start, vm_end and vm_pgoff of a vma in a
 * tree are read by the tree itself: change them only with __vma_modify().
 *
 * The caller serialises all access to a tree, as i_mmap_lock does.
 *
 * vma_prio_tree_check() verifies, besides (1)..(6) of <linux/prio_tree.h>:
 *
 *  (7) vm_set shape.  The root is raw; each tree node's vm_set.head, if
 *      set, is a vma without a tree parent whose vm_set.head points back;
 *      its ring's links agree both ways; every other vma on the ring has
 *      neither a tree parent nor a vm_set.head; all map the node's range.
 *  (8) vma range.  vm_end > vm_start for every vma in the tree.
 */

#include <linux/mm.h>
#include <linux/prio_tree.h>

#define RADIX_INDEX(vma)	((vma)->vm_pgoff)
#define VMA_SIZE(vma)		(((vma)->vm_end - (vma)->vm_start) >> PAGE_SHIFT)
/* the last page, written so that it cannot overflow before the addition */
#define HEAP_INDEX(vma)		((vma)->vm_pgoff + (VMA_SIZE(vma) - 1))

#define INIT_VMA_SHARED(vma)			\
do {						\
	(vma)->shared.both.first = NULL;	\
	(vma)->shared.both.second = NULL;	\
	(vma)->shared.both.parent = NULL;	\
	(vma)->shared.vm_set.head = NULL;	\
} while (0)

/* True when @vma is in no i_mmap tree (neither node, head nor member). */
static inline int vma_shared_empty(const struct vm_area_struct *vma)
{
	return vma->shared.both.first == NULL;
}

void __vma_prio_tree_insert(struct prio_tree_root *root,
			    struct vm_area_struct *vma);
void __vma_prio_tree_remove(struct prio_tree_root *root,
			    struct vm_area_struct *vma);
void __vma_prio_tree_add(struct vm_area_struct *vma,
			 struct vm_area_struct *old);
void __vma_modify(struct prio_tree_root *root, struct vm_area_struct *vma,
		  unsigned long start, unsigned long end, unsigned long pgoff);
struct vm_area_struct *__vma_prio_tree_first(const struct prio_tree_root *root,
					     struct prio_tree_iter *iter,
					     unsigned long begin,
					     unsigned long end);
struct vm_area_struct *__vma_prio_tree_next(struct vm_area_struct *vma,
					    const struct prio_tree_root *root,
					    struct prio_tree_iter *iter,
					    unsigned long begin,
					    unsigned long end);
int vma_prio_tree_check(const struct prio_tree_root *root,
			struct prio_tree_fault *fault);

#endif /* _LINUX_VMA_PRIO_TREE_H */
