// SPDX-License-Identifier: GPL-2.0
/*
 * The vma layer over the prio tree: vm_set lists of vmas that map the
 * same file pages, as posted for address_space->i_mmap in March 2004.
 * The roles (tree node, list head, list member) and the rules that tell
 * them apart are described in <linux/vma_prio_tree.h>.  Its insert and
 * its query (__vma_prio_tree_insert(), __vma_prio_tree_first() and
 * __vma_prio_tree_next()) are in prio_tree.c, so that the tree's walks
 * inline into them and each costs one call.  The views of a vma that the
 * query shares with this file (its role, the next vma of its vm_set) are
 * in <linux/prio_tree_walk.h>, with the query's inline form.
 */

#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmdebug.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

#include "prio_tree_internal.h"

/**
 * __vma_prio_tree_add - put @vma on the vm_set of @old
 * @vma: a vma in no tree
 * @old: a vma in a tree (any role) that maps exactly @vma's file pages
 *
 * fork() uses this to place the child's vma beside the parent's without
 * a tree walk.  O(1).
 */
void __vma_prio_tree_add(struct vm_area_struct *vma, struct vm_area_struct *old)
{
	vma_debug_range(vma);
	VM_BUG_ON_VMA(RADIX_INDEX(vma) != RADIX_INDEX(old), vma);
	VM_BUG_ON_VMA(HEAP_INDEX(vma) != HEAP_INDEX(old), vma);
	VM_BUG_ON_VMA(vma_shared_empty(old), old);

	INIT_LIST_HEAD(&vma->shared.vm_set.list);
	vma->shared.vm_set.parent = NULL;
	vma->shared.vm_set.head = NULL;

	if (!__vma_prio_tree_is_node(old)) {
		/* old is a head or a member: join its ring right after it */
		list_add(&vma->shared.vm_set.list, &old->shared.vm_set.list);
	} else if (old->shared.vm_set.head) {
		list_add_tail(&vma->shared.vm_set.list,
			      &old->shared.vm_set.head->shared.vm_set.list);
	} else {
		/* the first vma beside a tree node becomes the list head */
		old->shared.vm_set.head = vma;
		vma->shared.vm_set.head = old;
	}
}

/**
 * __vma_prio_tree_remove - take @vma out of the i_mmap tree @root
 * @root: the tree @vma is in
 * @vma: a vma in @root, in any role
 *
 * A member leaves its ring; a head hands the head role to the next
 * member; a tree node with a vm_set is replaced in the tree by its head
 * (same range, so the tree's shape is untouched).  Only a tree node
 * without a vm_set changes the tree's shape.  O(1), or O(log n) in that
 * last case.  @vma ends with INIT_VMA_SHARED().
 */
void __vma_prio_tree_remove(struct prio_tree_root *root,
			    struct vm_area_struct *vma)
{
	struct vm_area_struct *node, *head, *new_head = NULL;

	/* a vma in no tree: its unlinking would write through stale links */
	VM_BUG_ON_VMA(vma_shared_empty(vma), vma);

	if (!__vma_prio_tree_is_node(vma)) {
		node = vma->shared.vm_set.head;
		if (node) {
			/* a list head: its first member, if any, succeeds it */
			VM_BUG_ON_VMA(node->shared.vm_set.head != vma, vma);
			if (!list_empty(&vma->shared.vm_set.list))
				new_head = __vma_prio_tree_set_entry(vma->shared.vm_set.list.next);
			node->shared.vm_set.head = new_head;
			if (new_head)
				new_head->shared.vm_set.head = node;
		}
		list_del_init(&vma->shared.vm_set.list);
		INIT_VMA_SHARED(vma);
		return;
	}

	head = vma->shared.vm_set.head;
	if (!head) {
		prio_tree_remove(root, vma_node(vma));
		INIT_VMA_SHARED(vma);
		return;
	}

	/* the head becomes the tree node, its first member the new head */
	VM_BUG_ON_VMA(head->shared.vm_set.head != vma, vma);
	if (!list_empty(&head->shared.vm_set.list)) {
		new_head = __vma_prio_tree_set_entry(head->shared.vm_set.list.next);
		list_del_init(&head->shared.vm_set.list);
	}
	prio_tree_replace(root, vma_node(vma), vma_node(head));
	head->shared.vm_set.head = new_head;
	if (new_head)
		new_head->shared.vm_set.head = head;
	INIT_VMA_SHARED(vma);
}

/**
 * __vma_modify - change the range of a vma that may be in an i_mmap tree
 * @root: the tree @vma is in, or NULL if it is in none
 * @vma: the vma
 * @start: new vm_start
 * @end: new vm_end
 * @pgoff: new vm_pgoff
 *
 * The tree reads these three fields, so they may only change while @vma
 * is out of it: remove, update, insert.  O(log n).
 */
void __vma_modify(struct prio_tree_root *root, struct vm_area_struct *vma,
		  unsigned long start, unsigned long end, unsigned long pgoff)
{
	if (root)
		__vma_prio_tree_remove(root, vma);
	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_pgoff = pgoff;
	if (root)
		__vma_prio_tree_insert(root, vma);
}

static int vm_set_fail(struct prio_tree_fault *fault, const char *invariant,
		       const struct vm_area_struct *tree_vma,
		       const struct vm_area_struct *vma)
{
	if (fault) {
		fault->invariant = invariant;
		fault->node = (const struct prio_tree_node *)
			&tree_vma->shared.prio_tree_node;
		fault->depth = 0;
		fault->radix = RADIX_INDEX(vma);
		fault->heap = HEAP_INDEX(vma);
	}
	return -EUCLEAN;
}

/* Invariants (7) and (8) of <linux/vma_prio_tree.h> for one tree node. */
static int check_vm_set(struct vm_area_struct *vma,
			struct prio_tree_fault *fault)
{
	struct vm_area_struct *head = vma->shared.vm_set.head, *member;
	struct list_head *pos;

	if (vma->vm_end <= vma->vm_start)
		return vm_set_fail(fault, "8 vma: vm_end <= vm_start", vma, vma);
	if (!head)
		return 0;
	if (__vma_prio_tree_is_node(head))
		return vm_set_fail(fault, "7 vm_set: list head has a tree parent",
				   vma, head);
	if (head->shared.vm_set.head != vma)
		return vm_set_fail(fault, "7 vm_set: head does not point back at its tree node",
				   vma, head);
	pos = &head->shared.vm_set.list;
	do {
		member = __vma_prio_tree_set_entry(pos);
		if (pos->next->prev != pos)
			return vm_set_fail(fault, "7 vm_set: ring links disagree",
					   vma, member);
		if (RADIX_INDEX(member) != RADIX_INDEX(vma) ||
		    HEAP_INDEX(member) != HEAP_INDEX(vma))
			return vm_set_fail(fault, "7 vm_set: member maps another range",
					   vma, member);
		if (member->vm_end <= member->vm_start)
			return vm_set_fail(fault, "8 vma: vm_end <= vm_start",
					   vma, member);
		if (member != head &&
		    (__vma_prio_tree_is_node(member) || member->shared.vm_set.head))
			return vm_set_fail(fault, "7 vm_set: member has a tree or head role",
					   vma, member);
		pos = pos->next;
	} while (pos != &head->shared.vm_set.list);
	return 0;
}

/**
 * vma_prio_tree_check - verify an i_mmap tree and all its vm_set lists
 * @root: the tree
 * @fault: where to describe the first broken invariant, or NULL
 *
 * prio_tree_check(), then for each tree node (found by a query over the
 * whole index space, which also exercises the query walk) the shape of
 * its vm_set ring.  O(n log n).
 *
 * Return: 0, or -EUCLEAN with *@fault filled in.
 */
int vma_prio_tree_check(const struct prio_tree_root *root,
			struct prio_tree_fault *fault)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;
	int ret;

	/* first: read as plain nodes, a raw tree's keys mean nothing */
	if (!prio_tree_empty(root) && !root->raw) {
		if (fault) {
			fault->invariant = "7 vm_set: vma tree without a raw root";
			fault->node = root->prio_tree_node;
			fault->depth = 0;
			fault->radix = fault->heap = 0;
		}
		return -EUCLEAN;
	}
	ret = prio_tree_check(root, fault);
	if (ret || prio_tree_empty(root))
		return ret;
	for (node = prio_tree_first(root, &iter, 0, ULONG_MAX); node;
	     node = prio_tree_next(root, &iter, 0, ULONG_MAX)) {
		ret = check_vm_set(__prio_tree_node_vma(node), fault);
		if (ret)
			return ret;
	}
	return 0;
}
