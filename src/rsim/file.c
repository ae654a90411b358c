// SPDX-License-Identifier: GPL-2.0
/*
 * File pages under objrmap: address_space->i_mmap (private vmas) and
 * i_mmap_shared (shared vmas), kept as a linear list (the "list" scheme;
 * the lists themselves are mm.c's, as pte_chain keeps them too) or as
 * radix priority search trees through the seed's vma layer (the "prio"
 * scheme).
 *
 * objrmap finds the ptes of file page @pgoff by asking i_mmap for every
 * vma whose file range [vm_pgoff, vm_pgoff + pages - 1] contains @pgoff,
 * and then looking at one pte per vma:
 *
 *   list  visits every vma of the file: O(vmas) per walk, however few
 *         actually map the page (Ingo's test-mmap3: 20,000 vmas, each
 *         mapping one page, so each walk reads 20,000 vmas for 1 pte);
 *   prio  stabs the tree: O(log n + m) for m vmas that map it.
 *
 * Unmapping a pte changes neither i_mmap structure, so a walk's found
 * callback may clear the ptes it is given.
 */

#include "rsim_internal.h"

/* ---- list ---------------------------------------------------------------- */

static void rsim_list_walk_one(struct rsim_walk *walk, struct list_head *l)
{
	struct rsim_vma *v;

	list_for_each_entry(v, l, i_mmap_node)
		rsim_walk_vma(walk, v);
}

/* The list walk of a page cache page: O(vmas of the file). */
static void rsim_list_walk(struct rsim_walk *walk)
{
	struct rsim_file *file = walk->page->mapping;

	rsim_list_walk_one(walk, &file->i_mmap_list);
	rsim_list_walk_one(walk, &file->i_mmap_shared_list);
}

const struct rsim_file_ops rsim_list_file_ops = {
	.name		= "list",
	.page		= { .walk = rsim_list_walk },
	.link_vma	= rsim_i_mmap_list_link,
	.link_fork	= rsim_i_mmap_list_link_fork,
	.unlink_vma	= rsim_i_mmap_list_unlink,
	.for_each_vma	= rsim_i_mmap_list_for_each,
};

/* ---- prio ---------------------------------------------------------------- */

static struct prio_tree_root *rsim_prio_root(struct rsim_vma *v)
{
	return rsim_vma_is_shared(v) ? &v->file->i_mmap_shared :
				       &v->file->i_mmap;
}

/*
 * What one vma costs in i_mmap linkage.  The prio tree's share is the
 * vm_set view of the "shared" union, the largest of its prio tree views:
 * the list, the parent and the head pointer, four words in both worlds
 * (in the kernel port the union also holds the rb linkage, as large).
 */
#define RSIM_PRIO_BYTES	sizeof(((struct vm_area_struct *)0)->shared.vm_set)

/* __vma_prio_tree_insert(): O(log n). */
static void rsim_prio_link_vma(struct rsim *sim, struct rsim_vma *v)
{
	INIT_VMA_SHARED(&v->vma);
	__vma_prio_tree_insert(rsim_prio_root(v), &v->vma);
	rsim_meta_add(sim, RSIM_PRIO_BYTES);
}

/*
 * O(1): @child, with @parent's range, goes on @parent's vm_set list
 * (__vma_prio_tree_add), as dup_mmap() does.
 */
static void rsim_prio_link_fork(struct rsim *sim, struct rsim_vma *child,
				struct rsim_vma *parent)
{
	INIT_VMA_SHARED(&child->vma);
	__vma_prio_tree_add(&child->vma, &parent->vma);
	rsim_meta_add(sim, RSIM_PRIO_BYTES);
}

/* __vma_prio_tree_remove(): O(log n). */
static void rsim_prio_unlink_vma(struct rsim *sim, struct rsim_vma *v)
{
	__vma_prio_tree_remove(rsim_prio_root(v), &v->vma);
	sim->cost.meta_bytes -= RSIM_PRIO_BYTES;
}

/* The tree is keyed on the file range: __vma_modify() moves @v.  */
static void rsim_prio_modify_vma(struct rsim_vma *v, unsigned long start,
				 unsigned long end, unsigned long pgoff)
{
	__vma_modify(rsim_prio_root(v), &v->vma, start << PAGE_SHIFT,
		     end << PAGE_SHIFT, pgoff);
}

static void rsim_prio_walk_one(struct rsim_walk *walk,
			       struct prio_tree_root *root)
{
	unsigned long pgoff = walk->page->index;
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;

	vma = __vma_prio_tree_first(root, &iter, pgoff, pgoff);
	while (vma) {
		rsim_walk_vma(walk, container_of(vma, struct rsim_vma, vma));
		vma = __vma_prio_tree_next(vma, root, &iter, pgoff, pgoff);
	}
}

/* The prio walk of a page cache page: O(log n + m). */
static void rsim_prio_walk(struct rsim_walk *walk)
{
	struct rsim_file *file = walk->page->mapping;

	rsim_prio_walk_one(walk, &file->i_mmap);
	rsim_prio_walk_one(walk, &file->i_mmap_shared);
}

static int rsim_prio_range(struct rsim *sim, struct prio_tree_root *root,
			   unsigned long first, unsigned long last,
			   rsim_vma_range_fn fn)
{
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;
	int visited = 0;

	vma = __vma_prio_tree_first(root, &iter, first, last);
	while (vma) {
		visited++;
		fn(sim, container_of(vma, struct rsim_vma, vma), first, last);
		vma = __vma_prio_tree_next(vma, root, &iter, first, last);
	}
	return visited;
}

/*
 * The query of invalidate_mmap_range(), O(log n + m) per tree.  (Not
 * named *_for_each_*: checkpatch reads that as a loop macro.)
 */
static int rsim_prio_range_vmas(struct rsim *sim, struct rsim_file *file,
				  unsigned long first, unsigned long last,
				  rsim_vma_range_fn fn)
{
	int visited;

	visited = rsim_prio_range(sim, &file->i_mmap, first, last, fn);
	visited += rsim_prio_range(sim, &file->i_mmap_shared, first, last, fn);
	return visited;
}

/* Both trees must pass vma_prio_tree_check() (invariants (1)..(8)). */
static int rsim_prio_check(struct rsim_file *file, struct rsim_report *report)
{
	struct prio_tree_fault fault;

	if (vma_prio_tree_check(&file->i_mmap, &fault) ||
	    vma_prio_tree_check(&file->i_mmap_shared, &fault)) {
		snprintf(report->msg, sizeof(report->msg),
			 "file %lu: i_mmap tree: %s", file->id,
			 fault.invariant);
		return -EUCLEAN;
	}
	return 0;
}

const struct rsim_file_ops rsim_prio_file_ops = {
	.name		= "prio",
	.page		= { .walk = rsim_prio_walk },
	.link_vma	= rsim_prio_link_vma,
	.link_fork	= rsim_prio_link_fork,
	.unlink_vma	= rsim_prio_unlink_vma,
	.modify_vma	= rsim_prio_modify_vma,
	.for_each_vma	= rsim_prio_range_vmas,
	.check		= rsim_prio_check,
};
