// SPDX-License-Identifier: GPL-2.0
/*
 * The ops of <rsim.h>: rsim_apply() and one function per op kind, and
 * the simulation's lifecycle (rsim_create() picks the schemes' ops
 * tables, once) and accessors.
 *
 * An op first checks everything that can make it invalid and only then
 * changes anything, so a refused op leaves the simulation as it was; an
 * allocation failure after that point marks the simulation broken.
 * The schemes are reached only through sim->file_ops and sim->anon_ops
 * (the helpers at the end of rsim_internal.h), the rest through vma.c,
 * rmap.c and mm.c; nothing below calls back into this file.
 */

#include "rsim_internal.h"

static void rsim_fold(struct rsim *sim, u64 value)
{
	sim->digest = rsim_mix64(sim->digest ^ value) + 0x2545f4914f6cdd1dULL;
}

/* ---- the ops ------------------------------------------------------------- */

static bool rsim_range_ok(unsigned long addr, unsigned long npages)
{
	return npages && addr < RSIM_TASK_PAGES &&
	       npages <= RSIM_TASK_PAGES - addr;
}

/*
 * mprotect() over a hole and mremap() with no room to grow refuse the op
 * with -ENOMEM, as the kernel's do.  Mark it a refusal, so that
 * rsim_apply() does not take it for an allocation failure.
 */
static int rsim_refuse_enomem(struct rsim *sim)
{
	sim->refused = true;
	return -ENOMEM;
}

static int rsim_op_file_create(struct rsim *sim, unsigned long id,
			       unsigned long npages)
{
	struct rsim_file *file;

	if (npages > RSIM_FILE_MAX_PAGES)
		return -EINVAL;
	if (rsim_file_find(sim, id))
		return -EEXIST;
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return -ENOMEM;
	file->id = id;
	file->size = npages;
	INIT_RAW_PRIO_TREE_ROOT(&file->i_mmap);
	INIT_RAW_PRIO_TREE_ROOT(&file->i_mmap_shared);
	INIT_LIST_HEAD(&file->i_mmap_list);
	INIT_LIST_HEAD(&file->i_mmap_shared_list);
	INIT_LIST_HEAD(&file->pages);
	list_add_tail(&file->hash, &sim->file_hash[rsim_bucket(id)]);
	list_add_tail(&file->all, &sim->files);
	return 0;
}

static int rsim_op_exec(struct rsim *sim, unsigned long pid)
{
	struct rsim_mm *mm = rsim_mm_find(sim, pid);

	if (mm) {
		sim->op_cost = &sim->cost.exit;
		sim->cost.exit.calls++;
		rsim_mm_free(sim, mm);
	}
	return rsim_mm_new(sim, pid, NULL) ? 0 : -ENOMEM;
}

static int rsim_fork_vma(struct rsim *sim, struct rsim_mm *child,
			 struct rsim_vma *pv)
{
	struct rsim_vma *cv;
	struct rsim_pte *ppte, *cpte;
	unsigned long vpn = rsim_vma_start(pv);
	unsigned long bits;
	bool cow = !rsim_vma_is_shared(pv);

	cv = rsim_vma_alloc(child, rsim_vma_start(pv), rsim_vma_end(pv),
			    pv->vma.vm_pgoff, pv->vma.vm_flags, pv->file);
	if (!cv)
		return -ENOMEM;
	if (rsim_anon_fork_vma(sim, cv, pv)) {
		kfree(cv);
		return -ENOMEM;
	}
	rsim_file_link_fork(sim, cv, pv);
	if (cv->file)
		sim->cost.fork.rmap_updates++;
	rsim_vma_link_mm(sim, cv);

	/* copy_page_range(): COW ptes are write-protected in both */
	for (ppte = rsim_next_pte(pv->mm, &vpn, rsim_vma_end(pv)); ppte;
	     vpn++, ppte = rsim_next_pte(pv->mm, &vpn, rsim_vma_end(pv))) {
		if (cow)
			ppte->bits &= ~RSIM_PTE_WRITE;
		bits = ppte->bits & RSIM_PTE_WRITE;	/* the child's is old */
		cpte = rsim_pte_alloc(child, vpn);
		if (!cpte || rsim_pte_map(sim, cpte, ppte->page, bits))
			return -ENOMEM;
		sim->cost.fork.ptes++;
	}
	return 0;
}

static int rsim_op_fork(struct rsim *sim, unsigned long ppid,
			unsigned long cpid)
{
	struct rsim_mm *parent = rsim_mm_find(sim, ppid), *child;
	struct rsim_vma *pv;
	int err;

	if (!parent)
		return -ESRCH;
	if (rsim_mm_find(sim, cpid))
		return -EEXIST;
	sim->op_cost = &sim->cost.fork;
	sim->cost.fork.calls++;
	child = rsim_mm_new(sim, cpid, parent);
	if (!child)
		return -ENOMEM;
	list_for_each_entry(pv, &parent->vmas, mm_list) {
		err = rsim_fork_vma(sim, child, pv);
		if (err) {
			sim->broken = true;
			return err;
		}
	}
	return 0;
}

static int rsim_op_exit(struct rsim *sim, unsigned long pid)
{
	struct rsim_mm *mm = rsim_mm_find(sim, pid);

	if (!mm)
		return -ESRCH;
	sim->op_cost = &sim->cost.exit;
	sim->cost.exit.calls++;
	rsim_mm_free(sim, mm);
	return 0;
}

static unsigned long rsim_prot_flags(unsigned long prot)
{
	return ((prot & RSIM_PROT_READ) ? VM_READ : 0) |
	       ((prot & RSIM_PROT_WRITE) ? VM_WRITE : 0);
}

static int rsim_op_mmap(struct rsim *sim, const struct rsim_op *op)
{
	unsigned long addr = op->args[1], npages = op->args[2];
	unsigned long prot = op->args[3], vm_flags, pgoff;
	struct rsim_mm *mm = rsim_mm_find(sim, op->args[0]);
	struct rsim_file *file = NULL;
	struct rsim_vma *v;
	int err;

	if (!mm)
		return -ESRCH;
	if (!rsim_range_ok(addr, npages) ||
	    (prot & ~(RSIM_PROT_READ | RSIM_PROT_WRITE)))
		return -EINVAL;
	vm_flags = rsim_prot_flags(prot);
	pgoff = addr;
	if (op->kind != RSIM_OP_MMAP_ANON) {
		file = rsim_file_find(sim, op->args[4]);
		if (!file)
			return -EBADF;
		pgoff = op->args[5];
		if (pgoff > RSIM_FILE_MAX_PAGES ||
		    npages > RSIM_FILE_MAX_PAGES - pgoff)
			return -EINVAL;
		if (op->kind == RSIM_OP_MMAP_SHARED)
			vm_flags |= VM_SHARED | VM_MAYSHARE;
	}
	sim->op_cost = &sim->cost.munmap;
	err = rsim_do_munmap(sim, mm, addr, addr + npages);
	if (err)
		goto broken;
	sim->op_cost = &sim->misc;
	v = rsim_vma_alloc(mm, addr, addr + npages, pgoff, vm_flags, file);
	if (!v) {
		err = -ENOMEM;
		goto broken;
	}
	rsim_vma_link(sim, v);
	rsim_vma_try_merge(sim, v);
	return 0;
broken:
	sim->broken = true;
	return err;
}

static int rsim_op_munmap(struct rsim *sim, const struct rsim_op *op)
{
	struct rsim_mm *mm = rsim_mm_find(sim, op->args[0]);
	unsigned long addr = op->args[1], npages = op->args[2];
	int err;

	if (!mm)
		return -ESRCH;
	if (!rsim_range_ok(addr, npages))
		return -EINVAL;
	sim->op_cost = &sim->cost.munmap;
	sim->cost.munmap.calls++;
	err = rsim_do_munmap(sim, mm, addr, addr + npages);
	if (err)
		sim->broken = true;
	return err;
}

/* Pages of [start, end) that vmas of @mm cover. */
static unsigned long rsim_mapped_pages(struct rsim_mm *mm,
				       unsigned long start, unsigned long end)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;
	unsigned long covered = 0;

	node = prio_tree_first(&mm->addr_index, &iter, start, end - 1);
	while (node) {
		covered += min(node->last + 1, end) - max(node->start, start);
		node = prio_tree_next(&mm->addr_index, &iter, start, end - 1);
	}
	return covered;
}

/* Make vmas start at @start and end at @end (splitting). 0 or -ENOMEM. */
static int rsim_split_at(struct rsim *sim, struct rsim_mm *mm,
			 unsigned long start, unsigned long end)
{
	struct rsim_vma *v;

	v = rsim_find_vma(mm, start);
	if (v && rsim_vma_start(v) < start && !rsim_vma_split(sim, v, start))
		return -ENOMEM;
	v = rsim_find_vma(mm, end - 1);
	if (v && rsim_vma_end(v) > end && !rsim_vma_split(sim, v, end))
		return -ENOMEM;
	return 0;
}

static int rsim_op_mprotect(struct rsim *sim, const struct rsim_op *op)
{
	struct rsim_mm *mm = rsim_mm_find(sim, op->args[0]);
	unsigned long addr = op->args[1], npages = op->args[2];
	unsigned long prot = op->args[3], end = addr + npages, vpn, at;
	unsigned long vm_flags;
	struct rsim_pte *pte;
	struct rsim_vma *v;

	if (!mm)
		return -ESRCH;
	if (!rsim_range_ok(addr, npages) ||
	    (prot & ~(RSIM_PROT_READ | RSIM_PROT_WRITE)))
		return -EINVAL;
	if (rsim_mapped_pages(mm, addr, end) != npages)
		return rsim_refuse_enomem(sim);
	sim->op_cost = &sim->misc;
	if (rsim_split_at(sim, mm, addr, end)) {
		sim->broken = true;
		return -ENOMEM;
	}
	for (vpn = addr; vpn < end; vpn = rsim_vma_end(v)) {
		v = rsim_find_vma(mm, vpn);
		vm_flags = (v->vma.vm_flags & ~(VM_READ | VM_WRITE)) |
			   rsim_prot_flags(prot);
		v->vma.vm_flags = vm_flags;
		if (vm_flags & VM_WRITE)
			continue;
		/* revoking write: write-protect what is mapped */
		at = rsim_vma_start(v);
		for (pte = rsim_next_pte(mm, &at, rsim_vma_end(v)); pte;
		     at++, pte = rsim_next_pte(mm, &at, rsim_vma_end(v)))
			pte->bits &= ~RSIM_PTE_WRITE;
	}
	for (vpn = addr; vpn < end; vpn = rsim_vma_end(v))
		v = rsim_vma_try_merge(sim, rsim_find_vma(mm, vpn));
	return 0;
}

/*
 * The vmas covering [addr, addr + npages) must form one run that the
 * kernel would hold as one vma: adjacent, same file and flags, linear
 * file offset.  (Only the anon_vma schemes keep such runs apart, when
 * their anon_vmas or anonymous vm_pgoffs differ; letting mremap span
 * the run keeps which ops are valid the same under every scheme.)
 * Returns the last vma of the run, or NULL.
 */
static struct rsim_vma *rsim_mremap_run(struct rsim_mm *mm,
					unsigned long addr,
					unsigned long npages)
{
	struct rsim_vma *v, *prev = NULL;
	unsigned long vpn = addr, end = addr + npages;

	while (vpn < end) {
		v = rsim_find_vma(mm, vpn);
		if (!v || (prev && !rsim_vma_compatible(prev, v)))
			return NULL;
		prev = v;
		vpn = rsim_vma_end(v);
	}
	return prev;
}

static int rsim_op_mremap_resize(struct rsim *sim, const struct rsim_op *op)
{
	struct rsim_mm *mm = rsim_mm_find(sim, op->args[0]);
	unsigned long addr = op->args[1], old = op->args[2];
	unsigned long new = op->args[3];
	struct rsim_vma *last;

	if (!mm)
		return -ESRCH;
	if (!rsim_range_ok(addr, old) || !rsim_range_ok(addr, new))
		return -EINVAL;
	last = rsim_mremap_run(mm, addr, old);
	if (!last)
		return -EFAULT;
	if (new > old) {
		if (rsim_vma_end(last) != addr + old ||
		    rsim_find_overlap(mm, addr + old, addr + new))
			return rsim_refuse_enomem(sim);
		if (last->file &&
		    new - old > RSIM_FILE_MAX_PAGES - last->vma.vm_pgoff -
				rsim_vma_pages(last))
			return -EINVAL;
	}
	sim->op_cost = &sim->cost.mremap;
	sim->cost.mremap.calls++;
	if (new < old) {
		if (rsim_do_munmap(sim, mm, addr + new, addr + old)) {
			sim->broken = true;
			return -ENOMEM;
		}
		return 0;
	}
	if (new > old) {
		rsim_vma_set_range(sim, last, rsim_vma_start(last), addr + new,
				   last->vma.vm_pgoff);
		rsim_vma_try_merge(sim, last);
	}
	return 0;
}

/*
 * move_page_tables() for one page: the pte at @from moves to @to.  When
 * the anonymous scheme indexes pages by address (anonmm), a shared
 * anonymous page cannot change address, so it is copied first (the early
 * COW break): the copy, a twin of the page, moves.
 */
static int rsim_move_pte(struct rsim *sim, struct rsim_mm *mm,
			 struct rsim_vma *nv, struct rsim_pte *from,
			 struct rsim_pte *to, unsigned long to_vpn)
{
	struct rsim_page *page = from->page, *copy;
	unsigned long bits = from->bits & (RSIM_PTE_WRITE | RSIM_PTE_YOUNG);
	int err;

	sim->cost.mremap.ptes++;
	if (sim->anon_ops->addr_indexed && (page->flags & RSIM_PG_ANON)) {
		if (page->mapcount == 1) {
			page->index = to_vpn;
			sim->cost.mremap.rmap_updates++;
		} else {
			copy = rsim_page_alloc(sim);
			if (!copy)
				return -ENOMEM;
			rsim_anon_set_page(sim, copy, nv, to_vpn);
			list_add_tail(&copy->twins, &page->twins);
			err = rsim_pte_map(sim, to, copy,
					   bits & ~RSIM_PTE_WRITE);
			if (err)
				return err;
			rsim_pte_unmap(sim, from, mm, true);
			sim->cost.cow_early++;
			sim->cost.mremap.rmap_updates++;
			return 0;
		}
	}
	err = rsim_pte_map(sim, to, page, bits);
	if (err)
		return err;
	rsim_pte_unmap(sim, from, mm, false);
	return 0;
}

/* Move vma @v (wholly inside the source) to start at @to. */
static struct rsim_vma *rsim_move_vma(struct rsim *sim, struct rsim_vma *v,
				      unsigned long to)
{
	struct rsim_mm *mm = v->mm;
	unsigned long start = rsim_vma_start(v), end = rsim_vma_end(v);
	unsigned long vpn = start;
	struct rsim_pte *from, *pte;
	struct rsim_vma *nv;

	nv = rsim_vma_alloc(mm, to, to + (end - start), v->vma.vm_pgoff,
			    v->vma.vm_flags, v->file);
	if (!nv)
		return NULL;
	if (rsim_anon_clone_vma(sim, nv, v)) {
		kfree(nv);
		return NULL;
	}
	rsim_vma_link(sim, nv);
	sim->cost.mremap.rmap_updates++;
	for (from = rsim_next_pte(mm, &vpn, end); from;
	     vpn++, from = rsim_next_pte(mm, &vpn, end)) {
		pte = rsim_pte_alloc(mm, to + (vpn - start));
		if (!pte || rsim_move_pte(sim, mm, nv, from, pte,
					  to + (vpn - start)))
			return NULL;
	}
	rsim_vma_free(sim, v);
	return nv;
}

static int rsim_op_mremap_move(struct rsim *sim, const struct rsim_op *op)
{
	struct rsim_mm *mm = rsim_mm_find(sim, op->args[0]);
	unsigned long addr = op->args[1], old = op->args[2];
	unsigned long new = op->args[3], to = op->args[4];
	unsigned long moved = min(old, new), vpn;
	struct rsim_vma *v, *nv = NULL;

	if (!mm)
		return -ESRCH;
	if (!rsim_range_ok(addr, old) || !rsim_range_ok(to, new))
		return -EINVAL;
	if (to < addr + old && addr < to + new)
		return -EINVAL;
	v = rsim_mremap_run(mm, addr, old);
	if (!v)
		return -EFAULT;
	if (new > old && v->file &&
	    new - old > RSIM_FILE_MAX_PAGES - v->vma.vm_pgoff -
			rsim_vma_pages(v))
		return -EINVAL;
	sim->cost.mremap.calls++;
	sim->op_cost = &sim->cost.munmap;
	if (rsim_do_munmap(sim, mm, to, to + new))
		goto broken;
	sim->op_cost = &sim->cost.mremap;
	if (new < old && rsim_do_munmap(sim, mm, addr + new, addr + old))
		goto broken;
	if (rsim_split_at(sim, mm, addr, addr + moved))
		goto broken;
	for (vpn = addr; vpn < addr + moved; vpn += rsim_vma_pages(nv)) {
		v = rsim_find_vma(mm, vpn);
		nv = rsim_move_vma(sim, v, to + (vpn - addr));
		if (!nv)
			goto broken;
	}
	if (new > old)
		rsim_vma_set_range(sim, nv, rsim_vma_start(nv), to + new,
				   nv->vma.vm_pgoff);
	for (vpn = to; vpn < to + new; vpn = rsim_vma_end(v))
		v = rsim_vma_try_merge(sim, rsim_find_vma(mm, vpn));
	return 0;
broken:
	sim->broken = true;
	return -ENOMEM;
}

/* A new anonymous page for @v at @vpn (do_anonymous_page, COW copy). */
static struct rsim_page *rsim_new_anon_page(struct rsim *sim,
					    struct rsim_vma *v,
					    unsigned long vpn)
{
	struct rsim_page *page;

	if (rsim_anon_prepare(sim, v))
		return NULL;
	page = rsim_page_alloc(sim);
	if (page)
		rsim_anon_set_page(sim, page, v, vpn);
	return page;
}

static struct rsim_page *rsim_file_get_page(struct rsim *sim,
					    struct rsim_file *file,
					    unsigned long pgoff)
{
	struct rsim_page *page = rsim_cache_find(sim, file, pgoff);

	if (page)
		return page;
	page = rsim_page_alloc(sim);
	if (!page)
		return NULL;
	if (rsim_cache_add(sim, file, page, pgoff)) {
		rsim_page_free(sim, page);
		return NULL;
	}
	return page;
}

static int rsim_op_fault(struct rsim *sim, const struct rsim_op *op)
{
	struct rsim_mm *mm = rsim_mm_find(sim, op->args[0]);
	unsigned long vpn = op->args[1], pgoff = 0;
	bool write = op->kind == RSIM_OP_FAULT_WRITE;
	struct rsim_page *page, *old;
	struct rsim_pte *pte;
	struct rsim_vma *v;

	if (!mm)
		return -ESRCH;
	v = rsim_find_vma(mm, vpn);
	if (!v || !(v->vma.vm_flags & (write ? VM_WRITE : VM_READ)))
		return -EFAULT;
	if (v->file) {
		pgoff = v->vma.vm_pgoff + (vpn - rsim_vma_start(v));
		if (pgoff >= v->file->size)
			return -EFAULT;
	}
	pte = rsim_pte_alloc(mm, vpn);
	if (!pte)
		return -ENOMEM;
	sim->op_cost = &sim->misc;
	sim->cost.faults++;
	old = pte->page;
	if (old) {
		pte->bits |= RSIM_PTE_YOUNG;
		if (!write || (pte->bits & RSIM_PTE_WRITE))
			return 0;
		if (rsim_vma_is_shared(v) ||
		    ((old->flags & RSIM_PG_ANON) && old->mapcount == 1)) {
			/* do_wp_page(): reuse, the data is ours alone */
			pte->bits |= RSIM_PTE_WRITE;
			rsim_page_written(old);
			return 0;
		}
		page = rsim_new_anon_page(sim, v, vpn);
		if (!page)
			goto broken;
		rsim_pte_unmap(sim, pte, mm, true);
		rsim_page_release(sim, old);
		sim->cost.cow_copies++;
		if (rsim_pte_map(sim, pte, page,
				 RSIM_PTE_WRITE | RSIM_PTE_YOUNG))
			goto broken;
		return 0;
	}
	if (v->file && (rsim_vma_is_shared(v) || !write)) {
		page = rsim_file_get_page(sim, v->file, pgoff);
		if (!page)
			goto broken;
	} else {
		if (v->file && !rsim_file_get_page(sim, v->file, pgoff))
			goto broken;
		page = rsim_new_anon_page(sim, v, vpn);
		if (!page)
			goto broken;
		if (v->file)
			sim->cost.cow_copies++;
	}
	if (rsim_pte_map(sim, pte, page,
			 RSIM_PTE_YOUNG | (write ? RSIM_PTE_WRITE : 0)))
		goto broken;
	return 0;
broken:
	sim->broken = true;
	return -ENOMEM;
}

/* invalidate_mmap_range() for one vma: zap file pages [first, last]. */
static void rsim_truncate_vma(struct rsim *sim, struct rsim_vma *v,
			      unsigned long first, unsigned long last)
{
	unsigned long pgoff = v->vma.vm_pgoff;
	unsigned long lo = max(first, pgoff);
	unsigned long hi = min(last, pgoff + rsim_vma_pages(v) - 1);

	rsim_zap_range(sim, v->mm, rsim_vma_start(v) + (lo - pgoff),
		       rsim_vma_start(v) + (hi - pgoff) + 1);
}

static int rsim_op_truncate(struct rsim *sim, unsigned long id,
			    unsigned long npages)
{
	struct rsim_file *file = rsim_file_find(sim, id);
	struct rsim_page *page, *tmp;

	if (!file)
		return -EBADF;
	if (npages > RSIM_FILE_MAX_PAGES)
		return -EINVAL;
	sim->op_cost = &sim->cost.truncate;
	sim->cost.truncate.calls++;
	if (npages < file->size) {
		sim->cost.truncate.rmap_updates +=
			sim->file_ops->for_each_vma(sim, file, npages,
						    file->size - 1,
						    rsim_truncate_vma);
		/*
		 * The file's own list, not offsets npages..size: O(pages
		 * cached), whatever the size.  The order of freeing is
		 * not seen (no digest, no counter but cost.pages), so
		 * the list's order serves as well as index order.
		 */
		list_for_each_entry_safe(page, tmp, &file->pages,
					 cache_list) {
			if (page->index < npages)
				continue;
			rsim_cache_remove(sim, page);
			rsim_page_free(sim, page);
		}
	}
	file->size = npages;
	return 0;
}

static void rsim_fold_walk(struct rsim *sim, const struct rsim_op *op,
			   const struct rsim_walk_result *result)
{
	unsigned int i;

	rsim_fold(sim, op->kind);
	for (i = 0; i < rsim_op_desc(op->kind)->nr_args; i++)
		rsim_fold(sim, op->args[i]);
	rsim_fold(sim, result->nr);
	rsim_fold(sim, result->hash);
	sim->last_walk = *result;
}

static int rsim_op_page(struct rsim *sim, const struct rsim_op *op)
{
	struct rsim_walk_result result = { };
	struct rsim_page *page = NULL;
	struct rsim_file *file;
	struct rsim_mm *mm;
	struct rsim_pte *pte;

	if (op->kind == RSIM_OP_RECLAIM_FILE || op->kind == RSIM_OP_WALK_FILE) {
		file = rsim_file_find(sim, op->args[0]);
		if (!file)
			return -EBADF;
		if (op->args[1] < file->size)
			page = rsim_cache_find(sim, file, op->args[1]);
	} else {
		mm = rsim_mm_find(sim, op->args[0]);
		if (!mm)
			return -ESRCH;
		if (!rsim_find_vma(mm, op->args[1]))
			return -EFAULT;
		pte = rsim_pte_lookup(mm, op->args[1]);
		if (pte)
			page = pte->page;
	}
	sim->op_cost = &sim->misc;
	if (page) {
		if (op->kind == RSIM_OP_RECLAIM_FILE ||
		    op->kind == RSIM_OP_RECLAIM_ADDR)
			rsim_reclaim_page(sim, page, &result);
		else
			rsim_walk_twins(sim, page, &result);
	}
	rsim_fold_walk(sim, op, &result);
	return 0;
}

/* The op's own function: rsim_apply() below. */
static int rsim_do_apply(struct rsim *sim, const struct rsim_op *op)
{
	const unsigned long *a = op->args;

	switch (op->kind) {
	case RSIM_OP_FILE_CREATE:
		return rsim_op_file_create(sim, a[0], a[1]);
	case RSIM_OP_EXEC:
		return rsim_op_exec(sim, a[0]);
	case RSIM_OP_FORK:
		return rsim_op_fork(sim, a[0], a[1]);
	case RSIM_OP_EXIT:
		return rsim_op_exit(sim, a[0]);
	case RSIM_OP_MMAP_SHARED:
	case RSIM_OP_MMAP_PRIVATE:
	case RSIM_OP_MMAP_ANON:
		return rsim_op_mmap(sim, op);
	case RSIM_OP_MUNMAP:
		return rsim_op_munmap(sim, op);
	case RSIM_OP_MPROTECT:
		return rsim_op_mprotect(sim, op);
	case RSIM_OP_MREMAP_RESIZE:
		return rsim_op_mremap_resize(sim, op);
	case RSIM_OP_MREMAP_MOVE:
		return rsim_op_mremap_move(sim, op);
	case RSIM_OP_FAULT_READ:
	case RSIM_OP_FAULT_WRITE:
		return rsim_op_fault(sim, op);
	case RSIM_OP_TRUNCATE:
		return rsim_op_truncate(sim, a[0], a[1]);
	case RSIM_OP_RECLAIM_FILE:
	case RSIM_OP_RECLAIM_ADDR:
	case RSIM_OP_WALK_FILE:
	case RSIM_OP_WALK_ADDR:
		return rsim_op_page(sim, op);
	default:
		return -EINVAL;
	}
}

/**
 * rsim_apply - run one operation
 * @sim: the simulation
 * @op: the operation, see enum rsim_op_kind for the arguments
 *
 * Cost: that of the op under the schemes (a fork is O(vmas + ptes), a
 * reclaim one or two rmap walks, ...).
 *
 * Return: 0; a negative errno when @op is invalid in the current state
 * (-ESRCH unknown pid, -EBADF unknown file, -EEXIST id taken, -EFAULT no
 * vma or no access, -ENOMEM unmapped range or no room, -EINVAL bad
 * argument), with the simulation unchanged; or -ENOMEM when memory ran
 * out, after which the simulation refuses every op with -ENOMEM.  Only
 * the latter makes rsim_out_of_memory() true.
 */
int rsim_apply(struct rsim *sim, const struct rsim_op *op)
{
	int err;

	if (sim->broken)
		return -ENOMEM;
	sim->op_cost = &sim->misc;
	sim->refused = false;
	err = rsim_do_apply(sim, op);
	if (err == -ENOMEM && !sim->refused)
		sim->out_of_memory = true;
	return err;
}

/**
 * rsim_out_of_memory - did an op fail because an allocation failed?
 * @sim: the simulation
 *
 * Tells a real -ENOMEM from mprotect's and mremap's refusal of a range
 * (also -ENOMEM, as in the kernel).  Once true, stays true.  O(1).
 */
bool rsim_out_of_memory(const struct rsim *sim)
{
	return sim->out_of_memory;
}

/* ---- lifecycle and accessors --------------------------------------------- */

/**
 * rsim_create - an empty simulation under the given schemes
 * @file_scheme: how file pages are reverse-mapped
 * @anon_scheme: how anonymous pages are reverse-mapped
 *
 * O(RSIM_HASH_BUCKETS).  Return: the simulation, or NULL when out of
 * memory or a scheme is out of range.
 */
struct rsim *rsim_create(enum rsim_file_scheme file_scheme,
			 enum rsim_anon_scheme anon_scheme)
{
	struct rsim *sim;
	unsigned int i;

	if ((unsigned int)file_scheme >= RSIM_NR_FILE_SCHEMES ||
	    (unsigned int)anon_scheme >= RSIM_NR_ANON_SCHEMES)
		return NULL;
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return NULL;
	sim->file_ops = rsim_file_schemes[file_scheme];
	sim->anon_ops = rsim_anon_schemes[anon_scheme];
	for (i = 0; i < RSIM_HASH_BUCKETS; i++) {
		INIT_LIST_HEAD(&sim->mm_hash[i]);
		INIT_LIST_HEAD(&sim->file_hash[i]);
	}
	INIT_LIST_HEAD(&sim->mms);
	INIT_LIST_HEAD(&sim->files);
	INIT_LIST_HEAD(&sim->pages);
	sim->op_cost = &sim->misc;
	return sim;
}

/**
 * rsim_destroy - free a simulation and everything in it
 * @sim: the simulation, or NULL
 *
 * O(everything).  Works on a simulation broken by -ENOMEM too.
 */
void rsim_destroy(struct rsim *sim)
{
	struct rsim_file *file, *ftmp;
	struct rsim_page *page, *ptmp;
	struct rsim_mm *mm, *mtmp;

	if (!sim)
		return;
	sim->op_cost = &sim->misc;
	list_for_each_entry_safe(mm, mtmp, &sim->mms, all)
		rsim_mm_free(sim, mm);
	list_for_each_entry_safe(file, ftmp, &sim->files, all) {
		list_for_each_entry_safe(page, ptmp, &file->pages, cache_list)
			rsim_page_free(sim, page);
		list_del(&file->all);
		kfree(file);
	}
	/* after -ENOMEM a page may be left half made */
	list_for_each_entry_safe(page, ptmp, &sim->pages, lru) {
		list_del(&page->lru);
		kfree(page);
	}
	kfree(sim->cache_hash);
	kfree(sim);
}

/**
 * rsim_digest - the running hash over every rmap walk's result
 * @sim: the simulation
 *
 * O(1).  Equal under every scheme for the same ops.
 */
u64 rsim_digest(const struct rsim *sim)
{
	return sim->digest;
}

/**
 * rsim_cost - the cost counters so far
 * @sim: the simulation
 *
 * O(1).  Return: counters owned by @sim, valid until rsim_destroy().
 */
const struct rsim_cost *rsim_cost(const struct rsim *sim)
{
	return &sim->cost;
}

/**
 * rsim_last_walk - the result of the last walk or reclaim op
 * @sim: the simulation
 *
 * O(1).  Return: count and order-independent hash of the (pid, address)
 * set it found (for a reclaim: unmapped).
 */
const struct rsim_walk_result *rsim_last_walk(const struct rsim *sim)
{
	return &sim->last_walk;
}
