// SPDX-License-Identifier: GPL-2.0
/*
 * Where pages meet their scheme: mapping and unmapping one pte
 * (page_add_rmap, page_remove_rmap), the rmap walk of one page, and
 * what reclaim and the explicit walks do with it.  The scheme is reached
 * only through sim->file_ops and sim->anon_ops, chosen by the page's
 * kind: file pages and anonymous pages may use different schemes.
 *
 * Invariant kept here: page->mapcount is the number of present ptes
 * that map the page, and a scheme with @add_pte has recorded each.
 */

#include "rsim_internal.h"

/* The half of the schemes that @page's kind uses. */
static const struct rsim_page_ops *
rsim_page_ops_of(const struct rsim *sim, const struct rsim_page *page)
{
	if (page->flags & RSIM_PG_ANON)
		return &sim->anon_ops->page;
	return &sim->file_ops->page;
}

/**
 * rsim_pte_map - map @page at @pte with @bits (page_add_rmap)
 * @sim: the simulation
 * @pte: a pte that is not present
 * @page: the page
 * @bits: RSIM_PTE_WRITE, RSIM_PTE_YOUNG
 *
 * O(1), or the scheme's @add_pte (counted as an rmap update of the
 * running op).
 *
 * Return: 0, or -ENOMEM with @pte left not present.
 */
int rsim_pte_map(struct rsim *sim, struct rsim_pte *pte,
		 struct rsim_page *page, unsigned long bits)
{
	const struct rsim_page_ops *ops = rsim_page_ops_of(sim, page);

	BUG_ON(pte->page);
	pte->page = page;
	pte->bits = (pte->bits & ~((1UL << RSIM_PTE_SLOT_SHIFT) - 1)) | bits;
	page->mapcount++;
	if (ops->add_pte) {
		if (ops->add_pte(sim, page, pte)) {
			page->mapcount--;
			pte->page = NULL;
			return -ENOMEM;
		}
		sim->op_cost->rmap_updates++;
	}
	sim->cost.ptes_mapped++;
	return 0;
}

/**
 * rsim_pte_unmap - clear @pte (page_remove_rmap)
 * @sim: the simulation
 * @pte: a present pte
 * @mm: the mm of @pte
 * @hand_on: tell the anonymous scheme that @mm no longer maps the page
 *	(anonmm re-points page->mapping when it named @mm); false when the
 *	page moves within @mm
 *
 * The page is not freed here, so walks may unmap as they go; see
 * rsim_page_release().  O(1), or the scheme's @remove_pte and @hand_on.
 *
 * Return: the page @pte mapped.
 */
struct rsim_page *rsim_pte_unmap(struct rsim *sim, struct rsim_pte *pte,
				 struct rsim_mm *mm, bool hand_on)
{
	struct rsim_page *page = pte->page;
	const struct rsim_page_ops *ops = rsim_page_ops_of(sim, page);

	if (ops->remove_pte) {
		ops->remove_pte(sim, page, pte);
		sim->op_cost->rmap_updates++;
	}
	page->mapcount--;
	pte->page = NULL;
	pte->bits &= ~((1UL << RSIM_PTE_SLOT_SHIFT) - 1);
	sim->cost.ptes_mapped--;
	if (hand_on && page->mapcount && (page->flags & RSIM_PG_ANON) &&
	    sim->anon_ops->hand_on)
		sim->anon_ops->hand_on(sim, page, mm);
	return page;
}

/**
 * rsim_page_release - free an anonymous page that nothing maps
 * @sim: the simulation
 * @page: a page just unmapped
 *
 * An anonymous page nobody maps is gone (and swap forgets); a file
 * page stays in the page cache.  O(1).
 */
void rsim_page_release(struct rsim *sim, struct rsim_page *page)
{
	if ((page->flags & RSIM_PG_ANON) && !page->mapcount)
		rsim_page_free(sim, page);
}

/**
 * rsim_page_written - a write gave @page new data
 * @page: the page
 *
 * It is nobody's twin any more (anonmm's early COW copies).  O(1).
 */
void rsim_page_written(struct rsim_page *page)
{
	list_del_init(&page->twins);
}

/**
 * rsim_walk_page - one rmap walk of @page through its scheme
 * @sim: the simulation
 * @walk: zeroed; collects the result
 * @page: the page
 * @found: called for each pte that maps @page, or NULL
 * @unmaps: @found clears the pte it is given
 *
 * Counted in the page kind's walk costs unless sim->quiet (verify).  An
 * unmapped page is not walked (page_mapped() comes first), nor counted.
 * Cost: the scheme's walk.
 */
void rsim_walk_page(struct rsim *sim, struct rsim_walk *walk,
		    struct rsim_page *page,
		    void (*found)(struct rsim_walk *walk, struct rsim_pte *pte),
		    bool unmaps)
{
	static struct rsim_walk_cost rsim_quiet_cost;
	bool anon = page->flags & RSIM_PG_ANON;

	walk->sim = sim;
	walk->page = page;
	walk->found = found;
	walk->unmaps = unmaps;
	walk->cost = anon ? &sim->cost.anon_walk : &sim->cost.file_walk;
	if (sim->quiet)
		walk->cost = &rsim_quiet_cost;
	/* page_mapped() is checked before any walk */
	if (!page->mapcount)
		return;
	walk->cost->walks++;
	rsim_page_ops_of(sim, page)->walk(walk);
}

static void rsim_referenced_one(struct rsim_walk *walk, struct rsim_pte *pte)
{
	if (pte->bits & RSIM_PTE_YOUNG) {
		pte->bits &= ~RSIM_PTE_YOUNG;
		walk->referenced++;
	}
}

static void rsim_unmap_one(struct rsim_walk *walk, struct rsim_pte *pte)
{
	rsim_pte_unmap(walk->sim, pte, rsim_pte_table_of(pte)->mm, true);
}

/**
 * rsim_reclaim_page - reclaim @page and its twins
 * @sim: the simulation
 * @page: a page, mapped or not
 * @result: the unmapped (pid, address) set is added here
 *
 * page_referenced() then try_to_unmap() on each, twins first: anonymous
 * pages are freed, file pages leave the page cache.  Cost: two walks
 * per page.
 */
void rsim_reclaim_page(struct rsim *sim, struct rsim_page *page,
		       struct rsim_walk_result *result)
{
	struct rsim_page *twin;
	struct rsim_walk walk = { };

	for (;;) {
		twin = list_first_entry_or_null(&page->twins,
						struct rsim_page, twins);
		if (!twin)
			twin = page;
		walk = (struct rsim_walk){ };
		rsim_walk_page(sim, &walk, twin, rsim_referenced_one, false);
		sim->cost.referenced += walk.referenced;
		walk = (struct rsim_walk){ };
		rsim_walk_page(sim, &walk, twin, rsim_unmap_one, true);
		BUG_ON(twin->mapcount);
		result->nr += walk.nr;
		result->hash += walk.hash;
		if (twin->flags & RSIM_PG_ANON) {
			list_del_init(&twin->twins);
			rsim_page_free(sim, twin);
		} else {
			rsim_cache_remove(sim, twin);
			rsim_page_free(sim, twin);
		}
		sim->cost.pages_reclaimed++;
		if (twin == page)
			break;
	}
}

/**
 * rsim_walk_twins - an explicit walk of @page and its twins
 * @sim: the simulation
 * @page: a page, mapped or not
 * @result: the (pid, address) set found is added here
 *
 * No side effect on the mappings.  Cost: one walk per page.
 */
void rsim_walk_twins(struct rsim *sim, struct rsim_page *page,
		     struct rsim_walk_result *result)
{
	struct rsim_walk walk;
	struct rsim_page *twin;

	walk = (struct rsim_walk){ };
	rsim_walk_page(sim, &walk, page, NULL, false);
	result->nr += walk.nr;
	result->hash += walk.hash;
	list_for_each_entry(twin, &page->twins, twins) {
		walk = (struct rsim_walk){ };
		rsim_walk_page(sim, &walk, twin, NULL, false);
		result->nr += walk.nr;
		result->hash += walk.hash;
	}
}
