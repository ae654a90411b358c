// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma_chain (van Riel, 2.6.34).  Each process generation gets its
 * own anon_vma; a vma is linked to its own and every ancestor's anon_vma
 * through small anon_vma_chain structs.  A page points at the anon_vma of
 * the vma that created it, whose list holds only that vma and its
 * descendants: walks stay short, at the price of O(depth) structs per vma.
 *
 * page->mapping and ->index follow anon_vma's rules (mm.c), and so do
 * merges: v->anon_vma is the vma's own anon_vma, the one new pages get.
 */

#include "rsim_internal.h"

/* Link @v to @av with one new chain struct.  0 or -ENOMEM. */
static int rsim_avc_link(struct rsim *sim, struct rsim_vma *v,
			 struct rsim_anon_vma *av)
{
	struct rsim_avc *avc = kzalloc(sizeof(*avc), GFP_KERNEL);

	if (!avc)
		return -ENOMEM;
	avc->vma = v;
	avc->anon_vma = av;
	list_add_tail(&avc->same_vma, &v->avc_list);
	list_add_tail(&avc->same_anon_vma, &av->head);
	rsim_meta_add(sim, sizeof(*avc));
	return 0;
}

/* Free every chain struct of @v, and anon_vmas left with no vma. */
static void rsim_avc_unlink_all(struct rsim *sim, struct rsim_vma *v)
{
	struct rsim_avc *avc, *tmp;

	list_for_each_entry_safe(avc, tmp, &v->avc_list, same_vma) {
		list_del(&avc->same_vma);
		list_del(&avc->same_anon_vma);
		rsim_anon_vma_put(sim, avc->anon_vma);
		kfree(avc);
		sim->cost.meta_bytes -= sizeof(*avc);
	}
}

/* Give @dst a link to every anon_vma @src links to.  0 or -ENOMEM. */
static int rsim_avc_clone_links(struct rsim *sim, struct rsim_vma *dst,
				struct rsim_vma *src)
{
	struct rsim_avc *avc;
	int err;

	list_for_each_entry(avc, &src->avc_list, same_vma) {
		err = rsim_avc_link(sim, dst, avc->anon_vma);
		if (err) {
			rsim_avc_unlink_all(sim, dst);
			return err;
		}
	}
	return 0;
}

/*
 * anon_vma_prepare(): @v gets a mergeable neighbour's anon_vma or a new
 * one, through one chain struct.  O(log vmas).  0 or -ENOMEM.
 */
static int rsim_avc_prepare(struct rsim *sim, struct rsim_vma *v)
{
	struct rsim_anon_vma *av;
	bool fresh = false;

	if (v->anon_vma)
		return 0;
	av = rsim_anon_vma_neighbour(v);
	if (!av) {
		av = rsim_anon_vma_alloc(sim);
		if (!av)
			return -ENOMEM;
		fresh = true;
	}
	if (rsim_avc_link(sim, v, av)) {
		if (fresh)
			rsim_anon_vma_put(sim, av);
		return -ENOMEM;
	}
	v->anon_vma = av;
	return 0;
}

/*
 * anon_vma_fork(): @child links to every anon_vma @parent links to, and
 * to a new anon_vma of its own.  O(depth).  0, or -ENOMEM with nothing
 * linked.
 */
static int rsim_avc_fork(struct rsim *sim, struct rsim_vma *child,
			 struct rsim_vma *parent)
{
	struct rsim_anon_vma *av;
	struct rsim_avc *avc;
	int err;

	child->anon_vma = NULL;
	if (!parent->anon_vma)
		return 0;
	err = rsim_avc_clone_links(sim, child, parent);
	if (err)
		return err;
	av = rsim_anon_vma_alloc(sim);
	if (!av || rsim_avc_link(sim, child, av)) {
		if (av)
			rsim_anon_vma_put(sim, av);
		rsim_avc_unlink_all(sim, child);
		return -ENOMEM;
	}
	child->anon_vma = av;
	list_for_each_entry(avc, &child->avc_list, same_vma)
		sim->cost.fork.rmap_updates++;
	return 0;
}

/*
 * anon_vma_clone() for split and mremap: @copy links where @orig does
 * and shares its own anon_vma.  O(depth).  0, or -ENOMEM with nothing
 * linked.
 */
static int rsim_avc_clone(struct rsim *sim, struct rsim_vma *copy,
			  struct rsim_vma *orig)
{
	int err;

	copy->anon_vma = NULL;
	if (!orig->anon_vma)
		return 0;
	err = rsim_avc_clone_links(sim, copy, orig);
	if (err)
		return err;
	copy->anon_vma = orig->anon_vma;
	return 0;
}

/* unlink_anon_vmas(): O(depth). */
static void rsim_avc_unlink(struct rsim *sim, struct rsim_vma *v)
{
	if (!v->anon_vma)
		return;
	rsim_avc_unlink_all(sim, v);
	v->anon_vma = NULL;
}

/* The walk: O(vmas linked to the page's anon_vma). */
static void rsim_avc_walk(struct rsim_walk *walk)
{
	struct rsim_anon_vma *av = walk->page->mapping;
	struct rsim_avc *avc;

	walk->cost->anon_vmas++;
	list_for_each_entry(avc, &av->head, same_anon_vma)
		rsim_walk_vma(walk, avc->vma);
}

const struct rsim_anon_ops rsim_avc_ops = {
	.name		= "anon_vma_chain",
	.page		= { .walk = rsim_avc_walk },
	.set_page	= rsim_anon_vma_set_page,
	.page_ok	= rsim_anon_vma_page_ok,
	.prepare	= rsim_avc_prepare,
	.fork_vma	= rsim_avc_fork,
	.clone_vma	= rsim_avc_clone,
	.unlink_vma	= rsim_avc_unlink,
	.mergeable	= rsim_anon_vma_mergeable,
};
