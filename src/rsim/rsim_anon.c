// SPDX-License-Identifier: GPL-2.0
/*
 * Anonymous pages: the object-based reverse maps of 2004 and their 2010
 * successor.  (pte_chain anon pages use rsim_pte_chain.c.)
 *
 * anon_vma (Arcangeli, 2.6.7).  A vma that gets its first anonymous page
 * gets an anon_vma (or shares an adjacent mergeable vma's); fork puts the
 * child's vma on the parent's anon_vma list.  page->mapping is the
 * anon_vma and page->index = vm_pgoff + (address - vm_start) in pages,
 * which stays valid through split and mremap because both keep vm_pgoff
 * linear.  A walk visits every vma on the list: after a long fork chain,
 * every vma of every generation, even for a page only one process maps.
 *
 * anon_vma_chain (van Riel, 2.6.34).  Each process generation gets its
 * own anon_vma; a vma is linked to its own and every ancestor's anon_vma
 * through small anon_vma_chain structs.  A page points at the anon_vma of
 * the vma that created it, whose list holds only that vma and its
 * descendants: walks stay short, at the price of O(depth) structs per vma.
 *
 * anonmm (Dickins).  One anonmm per mm; the mms of one exec and all their
 * forks share a bundle.  page->index is the virtual page, and a walk
 * looks at that address in every mm of the bundle.  That holds only while
 * a shared page has the same address everywhere, so mremap moves a page
 * only if it is exclusive and otherwise copies it first (rsim_core.c).
 * page->mapping is the anonmm of an mm that maps the page; when that mm
 * stops mapping it (munmap, exit, COW) the page is handed on to another
 * mm of the bundle that does, so an anonmm can go away with its mm, the
 * bundle's leader included.
 */

#include "rsim_internal.h"

static bool rsim_anon_uses_anon_vma(const struct rsim *sim)
{
	return sim->anon_scheme == RSIM_ANON_VMA ||
	       sim->anon_scheme == RSIM_ANON_VMA_CHAIN;
}

static struct rsim_anon_vma *rsim_anon_vma_alloc(struct rsim *sim)
{
	struct rsim_anon_vma *av = kzalloc(sizeof(*av), GFP_KERNEL);

	if (!av)
		return NULL;
	INIT_LIST_HEAD(&av->head);
	av->serial = ++sim->anon_vma_serial;
	rsim_meta_add(sim, sizeof(*av));
	return av;
}

static void rsim_anon_vma_put(struct rsim *sim, struct rsim_anon_vma *av)
{
	if (!list_empty(&av->head))
		return;
	kfree(av);
	sim->cost.meta_bytes -= sizeof(*av);
}

/* anon_vma_chain: link @v to @av with one new chain struct. */
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

/* anon_vma_chain: give @dst a link to every anon_vma @src links to. */
static int rsim_avc_clone(struct rsim *sim, struct rsim_vma *dst,
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

static void rsim_anon_vma_link(struct rsim *sim, struct rsim_vma *v,
			       struct rsim_anon_vma *av,
			       struct list_head *after)
{
	v->anon_vma = av;
	list_add(&v->anon_vma_node, after ? after : &av->head);
	rsim_meta_add(sim, sizeof(struct list_head));
}

/*
 * find_mergeable_anon_vma(): a neighbour that could merge with @v lends
 * its anon_vma, so that the two can still merge later.
 */
static struct rsim_anon_vma *rsim_neighbour_anon_vma(struct rsim_vma *v)
{
	struct rsim_vma *n;

	if (rsim_vma_start(v)) {
		n = rsim_find_vma(v->mm, rsim_vma_start(v) - 1);
		if (n && n->anon_vma && n->file == v->file &&
		    n->vma.vm_flags == v->vma.vm_flags &&
		    n->vma.vm_pgoff + rsim_vma_pages(n) == v->vma.vm_pgoff)
			return n->anon_vma;
	}
	n = rsim_find_vma(v->mm, rsim_vma_end(v));
	if (n && n->anon_vma && n->file == v->file &&
	    n->vma.vm_flags == v->vma.vm_flags &&
	    v->vma.vm_pgoff + rsim_vma_pages(v) == n->vma.vm_pgoff)
		return n->anon_vma;
	return NULL;
}

/**
 * rsim_anon_prepare - make sure @v can hold anonymous pages
 * @sim: the simulation
 * @v: the vma about to get an anonymous page
 *
 * anon_vma_prepare(): under the anon_vma schemes @v gets an anon_vma
 * (a mergeable neighbour's, or a new one).  Other schemes need nothing.
 * O(log vmas).
 *
 * Return: 0 or -ENOMEM.
 */
int rsim_anon_prepare(struct rsim *sim, struct rsim_vma *v)
{
	struct rsim_anon_vma *av;
	bool fresh = false;

	if (!rsim_anon_uses_anon_vma(sim) || v->anon_vma)
		return 0;
	av = rsim_neighbour_anon_vma(v);
	if (!av) {
		av = rsim_anon_vma_alloc(sim);
		if (!av)
			return -ENOMEM;
		fresh = true;
	}
	if (sim->anon_scheme == RSIM_ANON_VMA) {
		rsim_anon_vma_link(sim, v, av, NULL);
		return 0;
	}
	if (rsim_avc_link(sim, v, av)) {
		if (fresh)
			rsim_anon_vma_put(sim, av);
		return -ENOMEM;
	}
	v->anon_vma = av;
	return 0;
}

/**
 * rsim_anon_fork_vma - the anonymous rmap side of dup_mmap() for one vma
 * @sim: the simulation
 * @child: the child's copy of @parent, not yet linked anywhere
 * @parent: the parent's vma
 *
 * anon_vma: @child joins @parent's anon_vma, right after @parent.  O(1).
 * anon_vma_chain: @child links to every anon_vma @parent links to, and
 * to a new anon_vma of its own (anon_vma_fork()).  O(depth).
 *
 * Return: 0 or -ENOMEM (nothing linked then).
 */
int rsim_anon_fork_vma(struct rsim *sim, struct rsim_vma *child,
		       struct rsim_vma *parent)
{
	struct rsim_anon_vma *av;
	struct rsim_avc *avc;
	int err;

	child->anon_vma = NULL;
	if (!parent->anon_vma)
		return 0;
	if (sim->anon_scheme == RSIM_ANON_VMA) {
		rsim_anon_vma_link(sim, child, parent->anon_vma,
				   &parent->anon_vma_node);
		sim->cost.fork.rmap_updates++;
		return 0;
	}
	err = rsim_avc_clone(sim, child, parent);
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

/**
 * rsim_anon_clone_vma - give @copy the anonymous rmap of @orig
 * @sim: the simulation
 * @copy: a new vma for part of @orig's pages (split, mremap move)
 * @orig: the vma it comes from, in the same mm
 *
 * Both keep vm_pgoff linear, so pages' indexes stay valid.  O(1) for
 * anon_vma, O(depth) for anon_vma_chain (anon_vma_clone()).
 *
 * Return: 0 or -ENOMEM (nothing linked then).
 */
int rsim_anon_clone_vma(struct rsim *sim, struct rsim_vma *copy,
			struct rsim_vma *orig)
{
	int err;

	copy->anon_vma = NULL;
	if (!orig->anon_vma)
		return 0;
	if (sim->anon_scheme == RSIM_ANON_VMA) {
		rsim_anon_vma_link(sim, copy, orig->anon_vma,
				   &orig->anon_vma_node);
		return 0;
	}
	err = rsim_avc_clone(sim, copy, orig);
	if (err)
		return err;
	copy->anon_vma = orig->anon_vma;
	return 0;
}

/**
 * rsim_anon_unlink_vma - drop @v from the anonymous rmap
 * @sim: the simulation
 * @v: a vma that maps no anonymous page any more, or whose pages other
 *	vmas of the same anon_vma now cover (merge)
 *
 * Frees anon_vmas left with no vma.  O(1) or O(depth).
 */
void rsim_anon_unlink_vma(struct rsim *sim, struct rsim_vma *v)
{
	if (!v->anon_vma)
		return;
	if (sim->anon_scheme == RSIM_ANON_VMA) {
		list_del(&v->anon_vma_node);
		sim->cost.meta_bytes -= sizeof(struct list_head);
		rsim_anon_vma_put(sim, v->anon_vma);
	} else {
		rsim_avc_unlink_all(sim, v);
	}
	v->anon_vma = NULL;
}

/**
 * rsim_anon_mergeable - may @prev and @next (adjacent) become one vma?
 * @sim: the simulation
 * @prev: the lower vma
 * @next: the vma that starts where @prev ends, same file and flags
 *
 * The anon_vma schemes refuse two different anon_vmas (which pages would
 * the merged vma's index belong to?) and a vm_pgoff that is not linear
 * across the two.  The others always agree.  O(1).
 */
bool rsim_anon_mergeable(struct rsim *sim, struct rsim_vma *prev,
			 struct rsim_vma *next)
{
	if (!rsim_anon_uses_anon_vma(sim))
		return true;
	if (prev->vma.vm_pgoff + rsim_vma_pages(prev) != next->vma.vm_pgoff)
		return false;
	return !prev->anon_vma || !next->anon_vma ||
	       prev->anon_vma == next->anon_vma;
}

/**
 * rsim_anon_merge - @survivor absorbs @dead's range: fix the anon rmap
 * @sim: the simulation
 * @survivor: the vma that stays
 * @dead: the vma about to be freed; rsim_anon_mergeable() agreed
 *
 * If only @dead had an anon_vma, @survivor takes it over.  O(depth).
 *
 * Return: 0 or -ENOMEM (nothing changed then).
 */
int rsim_anon_merge(struct rsim *sim, struct rsim_vma *survivor,
		    struct rsim_vma *dead)
{
	int err;

	if (!rsim_anon_uses_anon_vma(sim))
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
 * rsim_anon_set_page - page_add_new_anon_rmap(): set mapping and index
 * @sim: the simulation
 * @page: a new anonymous page
 * @v: the vma it is mapped into (prepared by rsim_anon_prepare())
 * @vpn: the virtual page it is mapped at
 *
 * O(1).
 */
void rsim_anon_set_page(struct rsim *sim, struct rsim_page *page,
			struct rsim_vma *v, unsigned long vpn)
{
	page->flags |= RSIM_PG_ANON;
	switch (sim->anon_scheme) {
	case RSIM_ANON_PTE_CHAIN:
		page->mapping = NULL;
		page->index = 0;
		break;
	case RSIM_ANON_MM:
		page->mapping = v->mm->anonmm;
		page->index = vpn;
		break;
	default:
		page->mapping = v->anon_vma;
		page->index = v->vma.vm_pgoff + (vpn - rsim_vma_start(v));
		break;
	}
}

static void rsim_anon_walk_vma(struct rsim_walk *walk, struct rsim_vma *v)
{
	unsigned long index = walk->page->index;

	walk->cost->vmas++;
	if (index < v->vma.vm_pgoff ||
	    index - v->vma.vm_pgoff >= rsim_vma_pages(v))
		return;
	rsim_walk_visit(walk, v->mm,
			rsim_vma_start(v) + (index - v->vma.vm_pgoff));
}

/**
 * rsim_anon_walk - the rmap walk of an anonymous page
 * @walk: the walk; walk->page is anonymous
 *
 * pte_chain O(chain); anon_vma O(vmas on the anon_vma); anon_vma_chain
 * O(vmas linked to the page's anon_vma); anonmm O(mms in the bundle).
 * Unmapping does not change the lists walked here (anonmm's hand-on
 * changes page->mapping only within the same bundle).
 */
void rsim_anon_walk(struct rsim_walk *walk)
{
	struct rsim_page *page = walk->page;
	struct rsim_anonmm_bundle *bundle;
	struct rsim_anon_vma *av;
	struct rsim_anonmm *amm;
	struct rsim_vma *v;
	struct rsim_avc *avc;

	switch (walk->sim->anon_scheme) {
	case RSIM_ANON_PTE_CHAIN:
		rsim_pte_chain_walk(walk);
		break;
	case RSIM_ANON_VMA:
		av = page->mapping;
		walk->cost->anon_vmas++;
		list_for_each_entry(v, &av->head, anon_vma_node)
			rsim_anon_walk_vma(walk, v);
		break;
	case RSIM_ANON_VMA_CHAIN:
		av = page->mapping;
		walk->cost->anon_vmas++;
		list_for_each_entry(avc, &av->head, same_anon_vma)
			rsim_anon_walk_vma(walk, avc->vma);
		break;
	default:
		bundle = ((struct rsim_anonmm *)page->mapping)->bundle;
		list_for_each_entry(amm, &bundle->anonmms, list) {
			walk->cost->mms++;
			rsim_walk_visit(walk, amm->mm, page->index);
		}
		break;
	}
}

/**
 * rsim_anonmm_new - give @mm its anonmm
 * @sim: the simulation
 * @mm: a new mm
 * @parent: the mm it was forked from (joins its bundle), or NULL for an
 *	exec (a new bundle with @mm as its leader)
 *
 * O(1).  Only under the anonmm scheme.
 *
 * Return: 0 or -ENOMEM.
 */
int rsim_anonmm_new(struct rsim *sim, struct rsim_mm *mm,
		    struct rsim_mm *parent)
{
	struct rsim_anonmm_bundle *bundle;
	struct rsim_anonmm *amm;

	if (sim->anon_scheme != RSIM_ANON_MM)
		return 0;
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
void rsim_anonmm_exit(struct rsim *sim, struct rsim_mm *mm)
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
 * Under anonmm, page->mapping must be the anonmm of an mm that maps the
 * page, or it would dangle once that mm exits.  If it was @mm's, look
 * through the bundle for another mm that maps the page at page->index.
 * O(mms in the bundle), counted as rmap updates of the current op.
 */
void rsim_anonmm_hand_on(struct rsim *sim, struct rsim_page *page,
			 struct rsim_mm *mm)
{
	struct rsim_anonmm *amm = page->mapping;
	struct rsim_anonmm *other;
	struct rsim_pte *pte;

	if (sim->anon_scheme != RSIM_ANON_MM || amm != mm->anonmm)
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

/**
 * rsim_anon_check_page - verify an anon page's mapping/index for one pte
 * @sim: the simulation
 * @page: an anonymous page
 * @v: a vma that maps it
 * @vpn: where
 * @report: filled in on failure
 *
 * O(1): the index must lead a walk of @v (or of @v's mm) to @vpn.
 *
 * Return: 0 or -EUCLEAN.
 */
int rsim_anon_check_page(struct rsim *sim, struct rsim_page *page,
			 struct rsim_vma *v, unsigned long vpn,
			 struct rsim_report *report)
{
	unsigned long want;

	switch (sim->anon_scheme) {
	case RSIM_ANON_PTE_CHAIN:
		return 0;
	case RSIM_ANON_MM:
		if (page->index == vpn &&
		    ((struct rsim_anonmm *)page->mapping)->bundle ==
		    v->mm->anonmm->bundle)
			return 0;
		want = vpn;
		break;
	default:
		want = v->vma.vm_pgoff + (vpn - rsim_vma_start(v));
		if (page->index == want && v->anon_vma)
			return 0;
		break;
	}
	snprintf(report->msg, sizeof(report->msg),
		 "pid %lu page %lu: anon index %lu, expected %lu (or wrong mapping)",
		 v->mm->pid, vpn, page->index, want);
	return -EUCLEAN;
}
