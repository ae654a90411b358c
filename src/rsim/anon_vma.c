// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma (Arcangeli, 2.6.7).  A vma that gets its first anonymous page
 * gets an anon_vma (or shares an adjacent mergeable vma's); fork puts the
 * child's vma on the parent's anon_vma list.  page->mapping is the
 * anon_vma and page->index = vm_pgoff + (address - vm_start) in pages,
 * which stays valid through split and mremap because both keep vm_pgoff
 * linear.  A walk visits every vma on the list: after a long fork chain,
 * every vma of every generation, even for a page only one process maps.
 *
 * The anon_vma objects and the rules on page->index are mm.c's, shared
 * with anon_vma_chain (avc.c); what is this scheme's is the list of vmas
 * on each anon_vma, through rsim_vma.anon_vma_node.
 */

#include "rsim_internal.h"

/* Put @v on @av's list, after @after (a vma on it) or at its head. */
static void rsim_anon_vma_link(struct rsim *sim, struct rsim_vma *v,
			       struct rsim_anon_vma *av,
			       struct list_head *after)
{
	v->anon_vma = av;
	list_add(&v->anon_vma_node, after ? after : &av->head);
	rsim_meta_add(sim, sizeof(struct list_head));
}

/*
 * anon_vma_prepare(): @v gets a mergeable neighbour's anon_vma or a new
 * one.  O(log vmas).  0 or -ENOMEM.
 */
static int rsim_anon_vma_prepare(struct rsim *sim, struct rsim_vma *v)
{
	struct rsim_anon_vma *av;

	if (v->anon_vma)
		return 0;
	av = rsim_anon_vma_neighbour(v);
	if (!av) {
		av = rsim_anon_vma_alloc(sim);
		if (!av)
			return -ENOMEM;
	}
	rsim_anon_vma_link(sim, v, av, NULL);
	return 0;
}

/* dup_mmap(): @child joins @parent's anon_vma, right after it.  O(1). */
static int rsim_anon_vma_fork(struct rsim *sim, struct rsim_vma *child,
			      struct rsim_vma *parent)
{
	child->anon_vma = NULL;
	if (!parent->anon_vma)
		return 0;
	rsim_anon_vma_link(sim, child, parent->anon_vma,
			   &parent->anon_vma_node);
	sim->cost.fork.rmap_updates++;
	return 0;
}

/* Split, mremap: @copy joins @orig's anon_vma, right after it.  O(1). */
static int rsim_anon_vma_clone(struct rsim *sim, struct rsim_vma *copy,
			       struct rsim_vma *orig)
{
	copy->anon_vma = NULL;
	if (!orig->anon_vma)
		return 0;
	rsim_anon_vma_link(sim, copy, orig->anon_vma, &orig->anon_vma_node);
	return 0;
}

/* Off the list; the anon_vma goes with its last vma.  O(1). */
static void rsim_anon_vma_unlink(struct rsim *sim, struct rsim_vma *v)
{
	if (!v->anon_vma)
		return;
	list_del(&v->anon_vma_node);
	sim->cost.meta_bytes -= sizeof(struct list_head);
	rsim_anon_vma_put(sim, v->anon_vma);
	v->anon_vma = NULL;
}

/* The walk: O(vmas on the page's anon_vma). */
static void rsim_anon_vma_walk(struct rsim_walk *walk)
{
	struct rsim_anon_vma *av = walk->page->mapping;
	struct rsim_vma *v;

	walk->cost->anon_vmas++;
	list_for_each_entry(v, &av->head, anon_vma_node)
		rsim_walk_vma(walk, v);
}

const struct rsim_anon_ops rsim_anon_vma_ops = {
	.name		= "anon_vma",
	.page		= { .walk = rsim_anon_vma_walk },
	.set_page	= rsim_anon_vma_set_page,
	.page_ok	= rsim_anon_vma_page_ok,
	.prepare	= rsim_anon_vma_prepare,
	.fork_vma	= rsim_anon_vma_fork,
	.clone_vma	= rsim_anon_vma_clone,
	.unlink_vma	= rsim_anon_vma_unlink,
	.mergeable	= rsim_anon_vma_mergeable,
};
