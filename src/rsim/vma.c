// SPDX-License-Identifier: GPL-2.0
/*
 * Vmas, unmapping and mms: splitting and merging vmas, zapping ranges,
 * do_munmap(), exit_mmap(), and making and freeing mms.  The schemes'
 * share of each (i_mmap linkage, anon_vma links, anonmm bundles) is
 * reached only through the ops table, by the helpers of rsim_internal.h.
 *
 * Invariants kept here: the vmas of an mm never overlap, and each is in
 * its mm's address index, on its mm's list, and in i_mmap and the
 * anonymous rmap as its scheme wants, from rsim_vma_link() (or fork's
 * rsim_vma_link_mm()) to rsim_vma_free().
 */

#include "rsim_internal.h"

/* ---- vmas ---------------------------------------------------------------- */

/**
 * rsim_vma_set_range - set @v's range and offset everywhere it is indexed
 * @sim: the simulation
 * @v: a linked vma
 * @start: new first page
 * @end: new page after the last
 * @pgoff: new vm_pgoff
 *
 * O(log n): out of the address index, moved in i_mmap by the file
 * scheme, back into the index.  The new range must overlap no other vma.
 */
void rsim_vma_set_range(struct rsim *sim, struct rsim_vma *v,
			unsigned long start, unsigned long end,
			unsigned long pgoff)
{
	prio_tree_remove(&v->mm->addr_index, &v->addr_node);
	rsim_file_modify_vma(sim, v, start, end, pgoff);
	rsim_addr_index_insert(v);
}

/**
 * rsim_vma_link_mm - put @v into its mm
 * @sim: the simulation
 * @v: a new vma whose file and anon rmap are set up
 *
 * O(log n): the address index, and the mm's list at its tail.
 */
void rsim_vma_link_mm(struct rsim *sim, struct rsim_vma *v)
{
	rsim_addr_index_insert(v);
	list_add_tail(&v->mm_list, &v->mm->vmas);
	v->mm->nr_vmas++;
	sim->cost.vmas++;
}

/**
 * rsim_vma_link - put a new vma into i_mmap and into its mm
 * @sim: the simulation
 * @v: a new vma whose anon rmap is set up and whose range is final
 *
 * O(log n).
 */
void rsim_vma_link(struct rsim *sim, struct rsim_vma *v)
{
	rsim_file_link_vma(sim, v);
	rsim_vma_link_mm(sim, v);
}

/**
 * rsim_vma_free - unlink @v from everything and free it
 * @sim: the simulation
 * @v: a linked vma none of whose ptes is present
 *
 * O(log n), plus the anonymous scheme's unlink (O(depth) for
 * anon_vma_chain).
 */
void rsim_vma_free(struct rsim *sim, struct rsim_vma *v)
{
	rsim_file_unlink_vma(sim, v);
	rsim_anon_unlink_vma(sim, v);
	prio_tree_remove(&v->mm->addr_index, &v->addr_node);
	list_del(&v->mm_list);
	v->mm->nr_vmas--;
	sim->cost.vmas--;
	kfree(v);
}

/**
 * rsim_vma_split - split @v at @at
 * @sim: the simulation
 * @v: a linked vma
 * @at: a page inside @v, above its start
 *
 * @v keeps [start, @at); the new vma gets [@at, end) with the linear
 * vm_pgoff and a clone of @v's anonymous rmap.  O(log n) (+ O(depth)).
 *
 * Return: the new upper vma, or NULL on -ENOMEM (nothing changed then).
 */
struct rsim_vma *rsim_vma_split(struct rsim *sim, struct rsim_vma *v,
				unsigned long at)
{
	unsigned long start = rsim_vma_start(v), end = rsim_vma_end(v);
	unsigned long pgoff = v->vma.vm_pgoff;
	struct rsim_vma *upper;

	upper = rsim_vma_alloc(v->mm, at, end, pgoff + (at - start),
			       v->vma.vm_flags, v->file);
	if (!upper)
		return NULL;
	if (rsim_anon_clone_vma(sim, upper, v)) {
		kfree(upper);
		return NULL;
	}
	rsim_vma_set_range(sim, v, start, at, pgoff);
	rsim_vma_link(sim, upper);
	return upper;
}

/**
 * rsim_vma_compatible - could @prev and @next be one vma, any scheme?
 * @prev: the lower vma
 * @next: another vma of the same mm
 *
 * Adjacent, same file and flags, and for a file a linear offset across
 * the two.  The anonymous scheme may refuse more (@mergeable).  O(1).
 */
bool rsim_vma_compatible(struct rsim_vma *prev, struct rsim_vma *next)
{
	if (rsim_vma_end(prev) != rsim_vma_start(next) ||
	    prev->file != next->file ||
	    prev->vma.vm_flags != next->vma.vm_flags)
		return false;
	return !prev->file ||
	       prev->vma.vm_pgoff + rsim_vma_pages(prev) == next->vma.vm_pgoff;
}

/* Does the anonymous scheme let @prev and @next (compatible) merge? */
static bool rsim_anon_mergeable(struct rsim *sim, struct rsim_vma *prev,
				struct rsim_vma *next)
{
	return !sim->anon_ops->mergeable ||
	       sim->anon_ops->mergeable(prev, next);
}

/*
 * @survivor absorbs @dead's range: if only @dead had an anon_vma,
 * @survivor takes it over, and @dead leaves the anonymous rmap.  A
 * scheme without per-vma objects has nothing to do.  0, or -ENOMEM
 * with nothing changed.
 */
static int rsim_anon_merge(struct rsim *sim, struct rsim_vma *survivor,
			   struct rsim_vma *dead)
{
	int err;

	if (!sim->anon_ops->unlink_vma)
		return 0;
	if (!survivor->anon_vma && dead->anon_vma) {
		err = rsim_anon_clone_vma(sim, survivor, dead);
		if (err)
			return err;
	}
	rsim_anon_unlink_vma(sim, dead);
	return 0;
}

/**
 * rsim_vma_try_merge - vma_merge(): join @v with its neighbours
 * @sim: the simulation
 * @v: a linked vma
 *
 * Merges where flags, file, offset and the anonymous scheme allow; a
 * merge that runs out of memory is simply not done.  O(log n).
 *
 * Return: the vma that now covers @v's pages.
 */
struct rsim_vma *rsim_vma_try_merge(struct rsim *sim, struct rsim_vma *v)
{
	struct rsim_vma *prev = NULL, *next;
	unsigned long end;

	if (rsim_vma_start(v))
		prev = rsim_find_vma(v->mm, rsim_vma_start(v) - 1);
	if (prev && rsim_vma_compatible(prev, v) &&
	    rsim_anon_mergeable(sim, prev, v) &&
	    !rsim_anon_merge(sim, prev, v)) {
		end = rsim_vma_end(v);
		rsim_vma_free(sim, v);
		rsim_vma_set_range(sim, prev, rsim_vma_start(prev), end,
				   prev->vma.vm_pgoff);
		v = prev;
	}
	next = rsim_find_vma(v->mm, rsim_vma_end(v));
	if (next && rsim_vma_compatible(v, next) &&
	    rsim_anon_mergeable(sim, v, next) &&
	    !rsim_anon_merge(sim, v, next)) {
		end = rsim_vma_end(next);
		rsim_vma_free(sim, next);
		rsim_vma_set_range(sim, v, rsim_vma_start(v), end,
				   v->vma.vm_pgoff);
	}
	return v;
}

/* ---- unmapping ----------------------------------------------------------- */

/**
 * rsim_zap_range - zap_page_range(): clear every pte of @mm in a range
 * @sim: the simulation
 * @mm: the mm
 * @start: first page
 * @end: page after the last
 *
 * Anonymous pages left unmapped are freed.  O(tables + ptes of the
 * range), plus the schemes' unmap work; each pte counts in the running
 * op's cost.
 */
void rsim_zap_range(struct rsim *sim, struct rsim_mm *mm,
		    unsigned long start, unsigned long end)
{
	struct rsim_page *page;
	struct rsim_pte *pte;
	unsigned long vpn = start;

	for (pte = rsim_next_pte(mm, &vpn, end); pte;
	     vpn++, pte = rsim_next_pte(mm, &vpn, end)) {
		page = rsim_pte_unmap(sim, pte, mm, true);
		rsim_page_release(sim, page);
		sim->op_cost->ptes++;
	}
}

/**
 * rsim_do_munmap - do_munmap(): remove [@start, @end) of @mm
 * @sim: the simulation
 * @mm: the mm
 * @start: first page
 * @end: page after the last, above @start
 *
 * Splits the vmas at the ends, zaps and frees what lies inside.
 * O(vmas in the range * log n + ptes).
 *
 * Return: 0, or -ENOMEM (a split failed; part may be unmapped).
 */
int rsim_do_munmap(struct rsim *sim, struct rsim_mm *mm,
		   unsigned long start, unsigned long end)
{
	struct rsim_vma *v;

	while ((v = rsim_find_overlap(mm, start, end))) {
		if (rsim_vma_start(v) < start) {
			v = rsim_vma_split(sim, v, start);
			if (!v)
				return -ENOMEM;
		}
		if (rsim_vma_end(v) > end && !rsim_vma_split(sim, v, end))
			return -ENOMEM;
		rsim_zap_range(sim, mm, rsim_vma_start(v), rsim_vma_end(v));
		rsim_vma_free(sim, v);
	}
	return 0;
}

/* Tear down every vma of @mm (exit_mmap()). */
static void rsim_mm_teardown(struct rsim *sim, struct rsim_mm *mm)
{
	struct rsim_vma *v;

	while (!list_empty(&mm->vmas)) {
		v = list_first_entry(&mm->vmas, struct rsim_vma, mm_list);
		rsim_zap_range(sim, mm, rsim_vma_start(v), rsim_vma_end(v));
		rsim_vma_free(sim, v);
		sim->op_cost->rmap_updates++;
	}
	if (sim->anon_ops->mm_exit)
		sim->anon_ops->mm_exit(sim, mm);
	rsim_free_page_tables(mm);
}

/* ---- mms ----------------------------------------------------------------- */

/**
 * rsim_mm_new - a new empty mm for @pid
 * @sim: the simulation
 * @pid: its process id, not in use
 * @parent: the mm it is forked from, or NULL for an exec
 *
 * The anonymous scheme's @mm_new sees @parent (anonmm: join its bundle,
 * or start one).  O(1).
 *
 * Return: the mm, or NULL when out of memory.
 */
struct rsim_mm *rsim_mm_new(struct rsim *sim, unsigned long pid,
			    struct rsim_mm *parent)
{
	struct rsim_mm *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->pid = pid;
	INIT_LIST_HEAD(&mm->vmas);
	INIT_PRIO_TREE_ROOT(&mm->addr_index);
	if (sim->anon_ops->mm_new && sim->anon_ops->mm_new(sim, mm, parent)) {
		kfree(mm);
		return NULL;
	}
	mm->serial = ++sim->mm_serial;
	list_add_tail(&mm->hash, &sim->mm_hash[rsim_bucket(pid)]);
	list_add_tail(&mm->all, &sim->mms);
	sim->cost.mms++;
	return mm;
}

/**
 * rsim_mm_free - exit: unmap everything of @mm and free it
 * @sim: the simulation
 * @mm: the mm
 *
 * O(vmas * log n + ptes), plus the schemes' unmap work, counted in the
 * running op's cost.
 */
void rsim_mm_free(struct rsim *sim, struct rsim_mm *mm)
{
	rsim_mm_teardown(sim, mm);
	list_del(&mm->hash);
	list_del(&mm->all);
	sim->cost.mms--;
	kfree(mm);
}
