// SPDX-License-Identifier: GPL-2.0
/*
 * The 2.6.5 mainline reverse map: every page keeps the list of ptes that
 * map it.  A page mapped once keeps that pte in page->pte.direct
 * (RSIM_PG_DIRECT) and costs nothing; from the second mapping on it has a
 * chain of cache-line sized blocks of pte pointers.
 *
 * Chain shape (what rsim_verify() relies on):
 *
 *   page->pte.chain -> [ - - x x x x x ] -> [ x x x x x x x ] -> NULL
 *                        free  used           full
 *
 * Only the first block may have free slots, and they are at its front,
 * so adding is O(1) and removing is a search plus one move: the first
 * used entry of the first block fills the hole.  As in 2.6.5 a chain
 * that shrinks to one entry is not turned back into a direct pte.
 *
 * The cost is memory proportional to the number of mapped ptes and a
 * chain update on every map, unmap, fork and exit: what objrmap removed.
 */

#include "rsim_internal.h"

static void rsim_chain_block_free(struct rsim *sim, struct rsim_pte_chain *pc)
{
	kfree(pc);
	sim->cost.meta_bytes -= sizeof(*pc);
	sim->cost.pte_chain_blocks--;
}

static struct rsim_pte_chain *rsim_chain_block_alloc(struct rsim *sim)
{
	struct rsim_pte_chain *pc = kzalloc(sizeof(*pc), GFP_KERNEL);

	if (!pc)
		return NULL;
	rsim_meta_add(sim, sizeof(*pc));
	sim->cost.pte_chain_blocks++;
	return pc;
}

/**
 * rsim_pte_chain_add - record that @pte maps @page (page_add_rmap)
 * @sim: the simulation
 * @page: a page whose scheme is pte_chain
 * @pte: the pte, already pointing at @page
 *
 * O(1).  The caller has already counted @pte in page->mapcount.
 *
 * Return: 0, or -ENOMEM when a new chain block cannot be allocated (the
 * chain is then unchanged).
 */
static int rsim_pte_chain_add(struct rsim *sim, struct rsim_page *page,
			      struct rsim_pte *pte)
{
	struct rsim_pte_chain *pc;
	int i;

	if (page->mapcount == 1) {
		/* the first mapping: direct, no memory */
		page->pte.direct = pte;
		page->flags |= RSIM_PG_DIRECT;
		return 0;
	}
	if (page->flags & RSIM_PG_DIRECT) {
		pc = rsim_chain_block_alloc(sim);
		if (!pc)
			return -ENOMEM;
		pc->ptes[RSIM_NRPTE - 1] = page->pte.direct;
		pc->ptes[RSIM_NRPTE - 2] = pte;
		page->flags &= ~RSIM_PG_DIRECT;
		page->pte.chain = pc;
		return 0;
	}
	pc = page->pte.chain;
	if (pc && !pc->ptes[0]) {
		/* free slots are at the front of the first block */
		for (i = RSIM_NRPTE - 1; pc->ptes[i]; i--)
			;
		pc->ptes[i] = pte;
		return 0;
	}
	pc = rsim_chain_block_alloc(sim);
	if (!pc)
		return -ENOMEM;
	pc->ptes[RSIM_NRPTE - 1] = pte;
	pc->next = page->pte.chain;
	page->pte.chain = pc;
	return 0;
}

/**
 * rsim_pte_chain_remove - forget that @pte maps @page (page_remove_rmap)
 * @sim: the simulation
 * @page: a page whose scheme is pte_chain
 * @pte: a pte recorded for @page
 *
 * O(chain length): the entry must be searched for.  BUG()s if @pte is not
 * on the chain, which would mean the rmap lost track of a mapping.
 */
static void rsim_pte_chain_remove(struct rsim *sim, struct rsim_page *page,
				  struct rsim_pte *pte)
{
	struct rsim_pte_chain *head, *pc;
	int i, victim;

	if (page->flags & RSIM_PG_DIRECT) {
		BUG_ON(page->pte.direct != pte);
		page->pte.direct = NULL;
		page->flags &= ~RSIM_PG_DIRECT;
		return;
	}
	head = page->pte.chain;
	BUG_ON(!head);
	for (victim = 0; !head->ptes[victim]; victim++)
		;
	for (pc = head; pc; pc = pc->next) {
		for (i = RSIM_NRPTE - 1; i >= 0 && pc->ptes[i]; i--) {
			if (pc->ptes[i] != pte)
				continue;
			pc->ptes[i] = head->ptes[victim];
			head->ptes[victim] = NULL;
			if (victim == RSIM_NRPTE - 1) {
				/* emptied the first block */
				page->pte.chain = head->next;
				rsim_chain_block_free(sim, head);
			}
			return;
		}
	}
	BUG();
}

/* The first pte on @page's chain, or NULL. */
static struct rsim_pte *rsim_pte_chain_first(struct rsim_page *page)
{
	struct rsim_pte_chain *pc = page->pte.chain;
	int i;

	if (page->flags & RSIM_PG_DIRECT)
		return page->pte.direct;
	if (!pc)
		return NULL;
	for (i = 0; !pc->ptes[i]; i++)
		;
	return pc->ptes[i];
}

/**
 * rsim_pte_chain_walk - visit every pte on @walk->page's chain
 * @walk: the walk; when walk->found unmaps, the chain shrinks under us
 *
 * O(chain length).  Each entry counts as one chain entry and one pte.
 * An unmapping walk always takes the first entry, which the unmap then
 * removes, so it never steps on a block that was freed.
 */
static void rsim_pte_chain_walk(struct rsim_walk *walk)
{
	struct rsim_page *page = walk->page;
	struct rsim_pte_chain *pc;
	struct rsim_pte *pte;
	int i;

	if (walk->unmaps) {
		while ((pte = rsim_pte_chain_first(page))) {
			walk->cost->chain_entries++;
			rsim_walk_visit(walk, rsim_pte_table_of(pte)->mm,
					rsim_pte_vpn(pte));
			/* an entry that does not map the page never goes */
			BUG_ON(rsim_pte_chain_first(page) == pte);
		}
		return;
	}
	if (page->flags & RSIM_PG_DIRECT) {
		walk->cost->chain_entries++;
		pte = page->pte.direct;
		rsim_walk_visit(walk, rsim_pte_table_of(pte)->mm,
				rsim_pte_vpn(pte));
		return;
	}
	for (pc = page->pte.chain; pc; pc = pc->next) {
		for (i = RSIM_NRPTE - 1; i >= 0 && pc->ptes[i]; i--) {
			pte = pc->ptes[i];
			walk->cost->chain_entries++;
			rsim_walk_visit(walk, rsim_pte_table_of(pte)->mm,
					rsim_pte_vpn(pte));
		}
	}
}

/*
 * 2.6.5's file pages: the walk reads the page's chain, and i_mmap is
 * kept as a list only for truncate's query (mm.c's lists).
 */
const struct rsim_file_ops rsim_pte_chain_file_ops = {
	.name		= "pte_chain",
	.page		= {
		.add_pte	= rsim_pte_chain_add,
		.remove_pte	= rsim_pte_chain_remove,
		.walk		= rsim_pte_chain_walk,
	},
	.link_vma	= rsim_i_mmap_list_link,
	.link_fork	= rsim_i_mmap_list_link_fork,
	.unlink_vma	= rsim_i_mmap_list_unlink,
	.for_each_vma	= rsim_i_mmap_list_for_each,
};

/*
 * 2.6.5's anonymous pages: no object per vma or mm, and no mapping or
 * index: the chains are the whole reverse map.
 */
const struct rsim_anon_ops rsim_pte_chain_anon_ops = {
	.name		= "pte_chain",
	.page		= {
		.add_pte	= rsim_pte_chain_add,
		.remove_pte	= rsim_pte_chain_remove,
		.walk		= rsim_pte_chain_walk,
	},
};
