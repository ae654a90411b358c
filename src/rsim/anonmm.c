// SPDX-License-Identifier: GPL-2.0
/*
 * anonmm (Dickins).  One anonmm per mm; the mms of one exec and all their
 * forks share a bundle.  page->index is the virtual page, and a walk
 * looks at that address in every mm of the bundle.  That holds only while
 * a shared page has the same address everywhere, so mremap moves a page
 * only if it is exclusive and otherwise copies it first (ops.c, told by
 * the table's addr_indexed).  page->mapping is the anonmm of an mm that
 * maps the page; when that mm stops mapping it (munmap, exit, COW) the
 * page is handed on to another mm of the bundle that does, so an anonmm
 * can go away with its mm, the bundle's leader included.
 *
 * Nothing is kept per vma: the vma hooks of the table stay NULL.
 */

#include "rsim_internal.h"

/**
 * rsim_anonmm_new - give @mm its anonmm
 * @sim: the simulation
 * @mm: a new mm
 * @parent: the mm it was forked from (joins its bundle), or NULL for an
 *	exec (a new bundle with @mm as its leader)
 *
 * O(1).
 *
 * Return: 0 or -ENOMEM.
 */
static int rsim_anonmm_new(struct rsim *sim, struct rsim_mm *mm,
			   struct rsim_mm *parent)
{
	struct rsim_anonmm_bundle *bundle;
	struct rsim_anonmm *amm;

	amm = kzalloc(sizeof(*amm), GFP_KERNEL);
	if (!amm)
		return -ENOMEM;
	if (parent) {
		bundle = parent->anonmm->bundle;
	} else {
		bundle = kzalloc(sizeof(*bundle), GFP_KERNEL);
		if (!bundle) {
			kfree(amm);
			return -ENOMEM;
		}
		INIT_LIST_HEAD(&bundle->anonmms);
		rsim_meta_add(sim, sizeof(*bundle));
	}
	amm->mm = mm;
	amm->bundle = bundle;
	list_add_tail(&amm->list, &bundle->anonmms);
	bundle->nr++;
	rsim_meta_add(sim, sizeof(*amm));
	mm->anonmm = amm;
	return 0;
}

/**
 * rsim_anonmm_exit - free @mm's anonmm, and its bundle if it was the last
 * @sim: the simulation
 * @mm: an mm whose ptes are all gone, so no page points at its anonmm
 *
 * O(1).  The bundle outlives its leader: it goes with its last mm.
 */
static void rsim_anonmm_exit(struct rsim *sim, struct rsim_mm *mm)
{
	struct rsim_anonmm *amm = mm->anonmm;
	struct rsim_anonmm_bundle *bundle;

	if (!amm)
		return;
	bundle = amm->bundle;
	list_del(&amm->list);
	kfree(amm);
	sim->cost.meta_bytes -= sizeof(*amm);
	mm->anonmm = NULL;
	if (--bundle->nr == 0) {
		kfree(bundle);
		sim->cost.meta_bytes -= sizeof(*bundle);
	}
}

/**
 * rsim_anonmm_hand_on - @mm no longer maps @page: re-point page->mapping
 * @sim: the simulation
 * @page: an anonymous page still mapped somewhere
 * @mm: the mm that just stopped mapping it
 *
 * page->mapping must be the anonmm of an mm that maps the page, or it
 * would dangle once that mm exits.  If it was @mm's, look through the
 * bundle for another mm that maps the page at page->index.
 * O(mms in the bundle), counted as rmap updates of the current op.
 */
static void rsim_anonmm_hand_on(struct rsim *sim, struct rsim_page *page,
				struct rsim_mm *mm)
{
	struct rsim_anonmm *amm = page->mapping;
	struct rsim_anonmm *other;
	struct rsim_pte *pte;

	if (amm != mm->anonmm)
		return;
	list_for_each_entry(other, &amm->bundle->anonmms, list) {
		if (other == amm)
			continue;
		sim->op_cost->rmap_updates++;
		pte = rsim_pte_lookup(other->mm, page->index);
		if (pte && pte->page == page) {
			page->mapping = other;
			return;
		}
	}
	BUG();
}

/* page_add_new_anon_rmap(): the anonmm of @v's mm, and the address. */
static void rsim_anonmm_set_page(struct rsim_page *page, struct rsim_vma *v,
				 unsigned long vpn)
{
	page->mapping = v->mm->anonmm;
	page->index = vpn;
}

/* The index is the address, and the mapping in the bundle of @v's mm. */
static bool rsim_anonmm_page_ok(const struct rsim_page *page,
				const struct rsim_vma *v, unsigned long vpn,
				unsigned long *want)
{
	*want = vpn;
	return page->index == vpn &&
	       ((struct rsim_anonmm *)page->mapping)->bundle ==
	       v->mm->anonmm->bundle;
}

/* The mm page->mapping names must map the page (see hand-on above). */
static bool rsim_anonmm_mapping_ok(const struct rsim_page *page)
{
	struct rsim_anonmm *amm = page->mapping;
	struct rsim_pte *pte = rsim_pte_lookup(amm->mm, page->index);

	return pte && pte->page == page;
}

/* The walk: the page's address in every mm of the bundle. */
static void rsim_anonmm_walk(struct rsim_walk *walk)
{
	struct rsim_page *page = walk->page;
	struct rsim_anonmm_bundle *bundle;
	struct rsim_anonmm *amm;

	bundle = ((struct rsim_anonmm *)page->mapping)->bundle;
	list_for_each_entry(amm, &bundle->anonmms, list) {
		walk->cost->mms++;
		rsim_walk_visit(walk, amm->mm, page->index);
	}
}

const struct rsim_anon_ops rsim_anonmm_ops = {
	.name		= "anonmm",
	.page		= { .walk = rsim_anonmm_walk },
	.addr_indexed	= true,
	.set_page	= rsim_anonmm_set_page,
	.page_ok	= rsim_anonmm_page_ok,
	.mapping_ok	= rsim_anonmm_mapping_ok,
	.mm_new		= rsim_anonmm_new,
	.mm_exit	= rsim_anonmm_exit,
	.hand_on	= rsim_anonmm_hand_on,
};
