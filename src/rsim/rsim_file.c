// SPDX-License-Identifier: GPL-2.0
/*
 * File pages: address_space->i_mmap (private vmas) and i_mmap_shared
 * (shared vmas), kept as a linear list (the "list" scheme, and 2.6.5's
 * truncate path under "pte_chain") or as radix priority search trees
 * through the seed's vma layer (the "prio" scheme).
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
 * Under pte_chain the walk reads the page's own chain instead, and the
 * list is kept only for truncate, as in 2.6.5.
 */

#include "rsim_internal.h"

static bool rsim_file_uses_tree(const struct rsim *sim)
{
	return sim->file_scheme == RSIM_FILE_PRIO;
}

static struct prio_tree_root *rsim_i_mmap_root(struct rsim_vma *v)
{
	return rsim_vma_is_shared(v) ? &v->file->i_mmap_shared :
				       &v->file->i_mmap;
}

static struct list_head *rsim_i_mmap_list(struct rsim_vma *v)
{
	return rsim_vma_is_shared(v) ? &v->file->i_mmap_shared_list :
				       &v->file->i_mmap_list;
}

/*
 * What one vma costs in i_mmap linkage under the current scheme.  The
 * prio tree's share is the seed's: three pointers (the "shared" union
 * holds nothing larger) and vm_set_head.  Not sizeof(vma->shared): in
 * the kernel port that union also holds the interval tree's rb linkage
 * (32 bytes), and the cost must be the same number in both worlds.
 */
static long rsim_i_mmap_bytes(const struct rsim *sim)
{
	if (rsim_file_uses_tree(sim))
		return sizeof(struct raw_prio_tree_node) +
		       sizeof(((struct vm_area_struct *)0)->vm_set_head);
	return sizeof(struct list_head);
}

/**
 * rsim_file_link_vma - add a new file vma to its file's i_mmap
 * @sim: the simulation
 * @v: a vma with v->file set and its range final
 *
 * O(log n) for prio (__vma_prio_tree_insert), O(1) for the list.
 */
void rsim_file_link_vma(struct rsim *sim, struct rsim_vma *v)
{
	if (!v->file)
		return;
	if (rsim_file_uses_tree(sim)) {
		INIT_VMA_SHARED(&v->vma);
		__vma_prio_tree_insert(rsim_i_mmap_root(v), &v->vma);
	} else {
		list_add_tail(&v->i_mmap_node, rsim_i_mmap_list(v));
	}
	rsim_meta_add(sim, rsim_i_mmap_bytes(sim));
}

/**
 * rsim_file_link_fork - add @child, a fork's copy of @parent, to i_mmap
 * @sim: the simulation
 * @child: the new vma, same range and file as @parent
 * @parent: a vma already in i_mmap
 *
 * O(1): prio puts @child on @parent's vm_set list (__vma_prio_tree_add),
 * the list scheme right after @parent, as dup_mmap() does.
 */
void rsim_file_link_fork(struct rsim *sim, struct rsim_vma *child,
			 struct rsim_vma *parent)
{
	if (!child->file)
		return;
	if (rsim_file_uses_tree(sim)) {
		INIT_VMA_SHARED(&child->vma);
		__vma_prio_tree_add(&child->vma, &parent->vma);
	} else {
		list_add(&child->i_mmap_node, &parent->i_mmap_node);
	}
	rsim_meta_add(sim, rsim_i_mmap_bytes(sim));
}

/**
 * rsim_file_unlink_vma - take a file vma out of i_mmap
 * @sim: the simulation
 * @v: a vma linked by rsim_file_link_vma() or rsim_file_link_fork()
 *
 * O(log n) for prio, O(1) for the list.
 */
void rsim_file_unlink_vma(struct rsim *sim, struct rsim_vma *v)
{
	if (!v->file)
		return;
	if (rsim_file_uses_tree(sim))
		__vma_prio_tree_remove(rsim_i_mmap_root(v), &v->vma);
	else
		list_del(&v->i_mmap_node);
	sim->cost.meta_bytes -= rsim_i_mmap_bytes(sim);
}

/**
 * rsim_file_modify_vma - change a vma's range (pages) and offset
 * @sim: the simulation
 * @v: any vma; a file vma under prio moves in its tree (__vma_modify)
 * @start: new first page
 * @end: new page after the last
 * @pgoff: new vm_pgoff
 *
 * O(log n) for prio, O(1) otherwise.
 */
void rsim_file_modify_vma(struct rsim *sim, struct rsim_vma *v,
			  unsigned long start, unsigned long end,
			  unsigned long pgoff)
{
	if (v->file && rsim_file_uses_tree(sim)) {
		__vma_modify(rsim_i_mmap_root(v), &v->vma, start << PAGE_SHIFT,
			     end << PAGE_SHIFT, pgoff);
		return;
	}
	v->vma.vm_start = start << PAGE_SHIFT;
	v->vma.vm_end = end << PAGE_SHIFT;
	v->vma.vm_pgoff = pgoff;
}

/* One vma of an objrmap walk: at most one pte can map the page. */
static void rsim_file_walk_vma(struct rsim_walk *walk, struct rsim_vma *v)
{
	unsigned long pgoff = walk->page->index;

	walk->cost->vmas++;
	if (pgoff < v->vma.vm_pgoff ||
	    pgoff - v->vma.vm_pgoff >= rsim_vma_pages(v))
		return;
	rsim_walk_visit(walk, v->mm,
			rsim_vma_start(v) + (pgoff - v->vma.vm_pgoff));
}

static void rsim_file_walk_tree(struct rsim_walk *walk,
				struct prio_tree_root *root)
{
	unsigned long pgoff = walk->page->index;
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;

	vma = __vma_prio_tree_first(root, &iter, pgoff, pgoff);
	while (vma) {
		rsim_file_walk_vma(walk, container_of(vma, struct rsim_vma,
						      vma));
		vma = __vma_prio_tree_next(vma, root, &iter, pgoff, pgoff);
	}
}

static void rsim_file_walk_list(struct rsim_walk *walk, struct list_head *l)
{
	struct rsim_vma *v;

	list_for_each_entry(v, l, i_mmap_node)
		rsim_file_walk_vma(walk, v);
}

/**
 * rsim_file_walk - the rmap walk of a page cache page
 * @walk: the walk; walk->page is a file page
 *
 * pte_chain: O(chain); list: O(vmas of the file); prio: O(log n + m).
 * Unmapping a pte changes neither i_mmap structure, so @walk->found may
 * clear ptes.
 */
void rsim_file_walk(struct rsim_walk *walk)
{
	struct rsim_file *file = walk->page->mapping;

	switch (walk->sim->file_scheme) {
	case RSIM_FILE_PTE_CHAIN:
		rsim_pte_chain_walk(walk);
		break;
	case RSIM_FILE_LIST:
		rsim_file_walk_list(walk, &file->i_mmap_list);
		rsim_file_walk_list(walk, &file->i_mmap_shared_list);
		break;
	default:
		rsim_file_walk_tree(walk, &file->i_mmap);
		rsim_file_walk_tree(walk, &file->i_mmap_shared);
		break;
	}
}

static int rsim_file_range_list(struct rsim *sim, struct list_head *l,
				unsigned long first, unsigned long last,
				rsim_vma_range_fn fn)
{
	struct rsim_vma *v;
	int visited = 0;

	list_for_each_entry(v, l, i_mmap_node) {
		visited++;
		if (v->vma.vm_pgoff > last ||
		    v->vma.vm_pgoff + rsim_vma_pages(v) - 1 < first)
			continue;
		fn(sim, v, first, last);
	}
	return visited;
}

static int rsim_file_range_tree(struct rsim *sim, struct prio_tree_root *root,
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

/**
 * rsim_file_for_each_vma - call @fn on each vma mapping part of a range
 * @sim: the simulation
 * @file: the file
 * @first: first file page of the range
 * @last: last file page of the range (inclusive)
 * @fn: called with each vma whose file range meets [@first, @last]; it
 *	may unmap ptes but must not change i_mmap
 *
 * The i_mmap query of invalidate_mmap_range(): O(vmas) over the list
 * (pte_chain and list schemes), O(log n + m) over the prio tree.
 *
 * Return: the number of vmas visited.
 */
int rsim_file_for_each_vma(struct rsim *sim, struct rsim_file *file,
			   unsigned long first, unsigned long last,
			   rsim_vma_range_fn fn)
{
	int visited;

	if (rsim_file_uses_tree(sim)) {
		visited = rsim_file_range_tree(sim, &file->i_mmap, first, last,
					       fn);
		visited += rsim_file_range_tree(sim, &file->i_mmap_shared,
						first, last, fn);
	} else {
		visited = rsim_file_range_list(sim, &file->i_mmap_list, first,
					       last, fn);
		visited += rsim_file_range_list(sim, &file->i_mmap_shared_list,
						first, last, fn);
	}
	return visited;
}

/**
 * rsim_file_check - verify @file's i_mmap structures
 * @sim: the simulation
 * @file: the file
 * @report: filled in on failure
 *
 * O(vmas of the file).  Under prio both trees must pass
 * vma_prio_tree_check() (invariants (1)..(8)).
 *
 * Return: 0 or -EUCLEAN.
 */
int rsim_file_check(struct rsim *sim, struct rsim_file *file,
		    struct rsim_report *report)
{
	struct prio_tree_fault fault;

	if (!rsim_file_uses_tree(sim))
		return 0;
	if (vma_prio_tree_check(&file->i_mmap, &fault) ||
	    vma_prio_tree_check(&file->i_mmap_shared, &fault)) {
		snprintf(report->msg, sizeof(report->msg),
			 "file %lu: i_mmap tree: %s", file->id,
			 fault.invariant);
		return -EUCLEAN;
	}
	return 0;
}
