// SPDX-License-Identifier: GPL-2.0
/*
 * rsim_verify(): the simulation against ground truth.  Invariants it
 * checks after any op:
 *  - every present pte lies inside a vma of its mm;
 *  - page->mapcount is the number of present ptes that map the page;
 *  - a writable pte in a private vma maps an anonymous page mapped once
 *    (copy-on-write never lets two mms write one page);
 *  - a file page maps at vm_start + (index - vm_pgoff) of a vma of its
 *    file, below EOF; an anonymous page satisfies its scheme's
 *    mapping/index rule (@page_ok, @mapping_ok of its ops table);
 *  - the scheme's rmap walk of every page finds exactly the ptes that a
 *    brute-force scan of every page table finds;
 *  - every prio tree (i_mmap, each mm's address index) passes its check.
 *
 * The schemes are asked through their ops tables; the messages are made
 * here, so a scheme only answers yes or no.
 */

#include "rsim_internal.h"

static int rsim_fail(struct rsim_report *report, const char *what,
		     unsigned long pid, unsigned long vpn)
{
	snprintf(report->msg, sizeof(report->msg), "pid %lu page %lu: %s",
		 pid, vpn, what);
	return -EUCLEAN;
}

/* Per-pte rules and the ground truth tally of one mm. */
static int rsim_verify_mm(struct rsim *sim, struct rsim_mm *mm,
			  struct rsim_report *report)
{
	struct prio_tree_fault fault;
	struct rsim_page *page;
	struct rsim_pte *pte;
	struct rsim_vma *v;
	unsigned long vpn = 0, nr_vmas = 0, want;

	if (prio_tree_check(&mm->addr_index, &fault))
		return rsim_fail(report, fault.invariant, mm->pid, 0);
	list_for_each_entry(v, &mm->vmas, mm_list) {
		nr_vmas++;
		if (rsim_find_vma(mm, rsim_vma_start(v)) != v ||
		    rsim_find_vma(mm, rsim_vma_end(v) - 1) != v)
			return rsim_fail(report, "vma not in address index",
					 mm->pid, rsim_vma_start(v));
	}
	if (nr_vmas != mm->nr_vmas)
		return rsim_fail(report, "vma count", mm->pid, 0);

	for (pte = rsim_next_pte(mm, &vpn, RSIM_TASK_PAGES); pte;
	     vpn++, pte = rsim_next_pte(mm, &vpn, RSIM_TASK_PAGES)) {
		page = pte->page;
		v = rsim_find_vma(mm, vpn);
		if (!v)
			return rsim_fail(report, "pte outside any vma",
					 mm->pid, vpn);
		if ((pte->bits & RSIM_PTE_WRITE) && !rsim_vma_is_shared(v) &&
		    (!(page->flags & RSIM_PG_ANON) || page->mapcount != 1))
			return rsim_fail(report, "writable pte of a COW page",
					 mm->pid, vpn);
		if ((pte->bits & RSIM_PTE_WRITE) &&
		    !(v->vma.vm_flags & VM_WRITE))
			return rsim_fail(report, "writable pte, no VM_WRITE",
					 mm->pid, vpn);
		if (page->flags & RSIM_PG_ANON) {
			if (rsim_vma_is_shared(v))
				return rsim_fail(report,
						 "anon page in a shared vma",
						 mm->pid, vpn);
			if (sim->anon_ops->page_ok &&
			    !sim->anon_ops->page_ok(page, v, vpn, &want)) {
				snprintf(report->msg, sizeof(report->msg),
					 "pid %lu page %lu: anon index %lu, expected %lu (or wrong mapping)",
					 mm->pid, vpn, page->index, want);
				return -EUCLEAN;
			}
		} else if (page->mapping != v->file ||
			   page->index != v->vma.vm_pgoff +
					  (vpn - rsim_vma_start(v)) ||
			   page->index >= v->file->size ||
			   rsim_cache_find(sim, v->file, page->index) != page) {
			return rsim_fail(report, "file page at wrong place",
					 mm->pid, vpn);
		}
		page->gt_count++;
		page->gt_hash += rsim_mapping_hash(mm->pid, vpn);
	}
	return 0;
}

/**
 * rsim_verify - check every page's rmap walk against the page tables
 * @sim: the simulation
 * @report: says what differs on failure
 *
 * Walks every page through the configured schemes and compares the set
 * of (pid, address) it finds with a brute-force scan of every page
 * table; checks mapcounts, page->mapping and index, the invariants in
 * the comment at the top of this file and every prio tree.  The walks
 * are not counted in rsim_cost().  O(pages * walk + ptes + vmas log n).
 *
 * Return: 0, or -EUCLEAN with @report filled in.
 */
int rsim_verify(struct rsim *sim, struct rsim_report *report)
{
	struct rsim_walk walk;
	struct rsim_file *file;
	struct rsim_page *page;
	struct rsim_mm *mm;
	unsigned long cached = 0;
	int err = 0;

	report->msg[0] = '\0';
	list_for_each_entry(page, &sim->pages, lru) {
		page->gt_count = 0;
		page->gt_hash = 0;
	}
	list_for_each_entry(mm, &sim->mms, all) {
		err = rsim_verify_mm(sim, mm, report);
		if (err)
			return err;
	}
	list_for_each_entry(file, &sim->files, all) {
		if (sim->file_ops->check) {
			err = sim->file_ops->check(file, report);
			if (err)
				return err;
		}
		list_for_each_entry(page, &file->pages, cache_list) {
			if (page->index >= file->size ||
			    page->mapping != file ||
			    (page->flags & RSIM_PG_ANON) ||
			    rsim_cache_find(sim, file, page->index) != page)
				return rsim_fail(report, "page cache entry",
						 file->id, page->index);
			cached++;
		}
	}
	/* no page is hashed that no file lists */
	if (cached != sim->nr_cached) {
		snprintf(report->msg, sizeof(report->msg),
			 "page cache: %lu pages hashed, files list %lu",
			 sim->nr_cached, cached);
		return -EUCLEAN;
	}
	sim->quiet = true;
	list_for_each_entry(page, &sim->pages, lru) {
		if ((unsigned long)page->mapcount != page->gt_count) {
			snprintf(report->msg, sizeof(report->msg),
				 "page %llu: mapcount %ld, page tables %lu",
				 (unsigned long long)page->serial,
				 page->mapcount, page->gt_count);
			err = -EUCLEAN;
			break;
		}
		if ((page->flags & RSIM_PG_ANON) && !page->mapcount) {
			snprintf(report->msg, sizeof(report->msg),
				 "page %llu: unmapped anonymous page kept",
				 (unsigned long long)page->serial);
			err = -EUCLEAN;
			break;
		}
		if (!page->mapcount)
			continue;
		if ((page->flags & RSIM_PG_ANON) && sim->anon_ops->mapping_ok &&
		    !sim->anon_ops->mapping_ok(page)) {
			snprintf(report->msg, sizeof(report->msg),
				 "page %llu: %s's mm does not map it",
				 (unsigned long long)page->serial,
				 sim->anon_ops->name);
			err = -EUCLEAN;
			break;
		}
		walk = (struct rsim_walk){ };
		rsim_walk_page(sim, &walk, page, NULL, false);
		if (walk.nr != page->gt_count || walk.hash != page->gt_hash) {
			snprintf(report->msg, sizeof(report->msg),
				 "page %llu (%s index %lu): rmap walk found %lu mappings, page tables have %lu%s",
				 (unsigned long long)page->serial,
				 (page->flags & RSIM_PG_ANON) ? "anon" : "file",
				 page->index, walk.nr, page->gt_count,
				 walk.nr == page->gt_count ?
				 " (different ones)" : "");
			err = -EUCLEAN;
			break;
		}
	}
	sim->quiet = false;
	return err;
}
