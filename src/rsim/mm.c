// SPDX-License-Identifier: GPL-2.0
/*
 * The bottom layer of the simulated memory manager: the objects every
 * other file works on and the primitives the schemes are built from.
 *
 *  - the (pid, address) hash that walk results are summed in;
 *  - mms and files by id;
 *  - page tables: three levels of 512 entries, allocated on demand;
 *  - pages: allocation and freeing (the rmap of a page is rmap.c's);
 *  - the page cache: every file's pages, hashed on (file, index);
 *  - walk visits: what a scheme's walk calls for each pte it examines;
 *  - vmas: allocation and the per-mm address index (find_vma);
 *  - the i_mmap lists, which every file scheme but prio keeps, as the
 *    core of 2.6.5 kept them for truncate whatever the rmap;
 *  - anon_vma objects, which anon_vma.c and avc.c share.
 *
 * Nothing here calls a scheme or a file above this one: a walk's found
 * callback is the only way back up, and it is the caller's.
 */

#include "rsim_internal.h"

/* ---- hashing ------------------------------------------------------------- */

/**
 * rsim_mapping_hash - the hash of one (pid, vpn) mapping
 * @pid: the process
 * @vpn: the virtual page
 *
 * Walk results are summed, so the hash of a set does not depend on the
 * order a scheme finds its members in.  O(1).
 */
u64 rsim_mapping_hash(unsigned long pid, unsigned long vpn)
{
	return rsim_mix64(rsim_mix64((u64)pid + 0x9e3779b97f4a7c15ULL) ^
			  (u64)vpn);
}

/* ---- lookup -------------------------------------------------------------- */

/**
 * rsim_mm_find - the mm of process @pid
 * @sim: the simulation
 * @pid: the process id
 *
 * O(1) expected: one bucket of the pid hash.  Return: the mm or NULL.
 */
struct rsim_mm *rsim_mm_find(struct rsim *sim, unsigned long pid)
{
	struct rsim_mm *mm;

	list_for_each_entry(mm, &sim->mm_hash[rsim_bucket(pid)], hash)
		if (mm->pid == pid)
			return mm;
	return NULL;
}

/**
 * rsim_file_find - the file with id @id
 * @sim: the simulation
 * @id: the file id
 *
 * O(1) expected: one bucket of the file hash.  Return: the file or NULL.
 */
struct rsim_file *rsim_file_find(struct rsim *sim, unsigned long id)
{
	struct rsim_file *file;

	list_for_each_entry(file, &sim->file_hash[rsim_bucket(id)], hash)
		if (file->id == id)
			return file;
	return NULL;
}

/* ---- page tables --------------------------------------------------------- */

#define RSIM_PMD_SPAN	(RSIM_PT_ENTRIES * RSIM_PT_ENTRIES)

/**
 * rsim_pte_lookup - the pte for @vpn in @mm, if its table exists
 * @mm: the mm
 * @vpn: a virtual page number below RSIM_TASK_PAGES
 *
 * O(1): three array lookups.  Return: the pte (present or not), or NULL
 * when no table covers @vpn.
 */
struct rsim_pte *rsim_pte_lookup(struct rsim_mm *mm, unsigned long vpn)
{
	struct rsim_pmd_table *pmd;
	struct rsim_pte_table *table;

	if (vpn >= RSIM_TASK_PAGES)
		return NULL;
	pmd = mm->pgd[vpn >> (2 * RSIM_PT_SHIFT)];
	if (!pmd)
		return NULL;
	table = pmd->table[(vpn >> RSIM_PT_SHIFT) & RSIM_PT_MASK];
	if (!table)
		return NULL;
	return &table->pte[vpn & RSIM_PT_MASK];
}

/**
 * rsim_pte_alloc - the pte for @vpn in @mm, allocating its tables
 * @mm: the mm
 * @vpn: a virtual page number below RSIM_TASK_PAGES
 *
 * O(RSIM_PT_ENTRIES) when a pte table is made (each pte learns its
 * slot, which leads a bare pte pointer back to its mm), O(1) otherwise.
 * A table once made stays until rsim_free_page_tables().
 *
 * Return: the pte, or NULL when out of memory.
 */
struct rsim_pte *rsim_pte_alloc(struct rsim_mm *mm, unsigned long vpn)
{
	struct rsim_pmd_table **pmdp = &mm->pgd[vpn >> (2 * RSIM_PT_SHIFT)];
	struct rsim_pte_table **tablep;
	struct rsim_pte_table *table;
	unsigned long i;

	if (!*pmdp) {
		*pmdp = kzalloc(sizeof(**pmdp), GFP_KERNEL);
		if (!*pmdp)
			return NULL;
	}
	tablep = &(*pmdp)->table[(vpn >> RSIM_PT_SHIFT) & RSIM_PT_MASK];
	if (!*tablep) {
		table = kzalloc(sizeof(*table), GFP_KERNEL);
		if (!table)
			return NULL;
		table->mm = mm;
		table->base = vpn & ~RSIM_PT_MASK;
		for (i = 0; i < RSIM_PT_ENTRIES; i++)
			table->pte[i].bits = i << RSIM_PTE_SLOT_SHIFT;
		*tablep = table;
	}
	return &(*tablep)->pte[vpn & RSIM_PT_MASK];
}

/**
 * rsim_next_pte - the first present pte at or after *@vpn, below @end
 * @mm: the mm
 * @vpn: where to start; set to the page of the pte found
 * @end: the page after the range
 *
 * Skips missing tables whole, so a scan costs O(tables + ptes) of the
 * range, not O(range).  Return: the pte, or NULL when there is none.
 */
struct rsim_pte *rsim_next_pte(struct rsim_mm *mm, unsigned long *vpn,
			       unsigned long end)
{
	unsigned long at = *vpn;
	struct rsim_pmd_table *pmd;
	struct rsim_pte_table *table;
	struct rsim_pte *pte;

	while (at < end) {
		pmd = mm->pgd[at >> (2 * RSIM_PT_SHIFT)];
		if (!pmd) {
			at = (at | (RSIM_PMD_SPAN - 1)) + 1;
			continue;
		}
		table = pmd->table[(at >> RSIM_PT_SHIFT) & RSIM_PT_MASK];
		if (!table) {
			at = (at | RSIM_PT_MASK) + 1;
			continue;
		}
		pte = &table->pte[at & RSIM_PT_MASK];
		if (pte->page) {
			*vpn = at;
			return pte;
		}
		at++;
	}
	return NULL;
}

/**
 * rsim_free_page_tables - free every page table of @mm
 * @mm: an mm with no present pte left
 *
 * O(RSIM_PT_ENTRIES^2) at most.
 */
void rsim_free_page_tables(struct rsim_mm *mm)
{
	unsigned long i, j;

	for (i = 0; i < RSIM_PT_ENTRIES; i++) {
		if (!mm->pgd[i])
			continue;
		for (j = 0; j < RSIM_PT_ENTRIES; j++)
			kfree(mm->pgd[i]->table[j]);
		kfree(mm->pgd[i]);
		mm->pgd[i] = NULL;
	}
}

/* ---- pages --------------------------------------------------------------- */

/**
 * rsim_page_alloc - a new physical page, on sim->pages
 * @sim: the simulation
 *
 * O(1).  The page is neither file nor anonymous yet: the caller sets
 * its mapping and index.  Return: the page, or NULL when out of memory.
 */
struct rsim_page *rsim_page_alloc(struct rsim *sim)
{
	struct rsim_page *page = kzalloc(sizeof(*page), GFP_KERNEL);

	if (!page)
		return NULL;
	INIT_LIST_HEAD(&page->twins);
	list_add_tail(&page->lru, &sim->pages);
	page->serial = ++sim->page_serial;
	sim->cost.pages++;
	return page;
}

/**
 * rsim_page_free - free a page that nothing maps
 * @sim: the simulation
 * @page: a page with mapcount 0, out of the page cache
 *
 * O(1).  BUG()s if a pte still maps the page or a pte chain is left
 * (that would be leaked memory and a stale walk).
 */
void rsim_page_free(struct rsim *sim, struct rsim_page *page)
{
	BUG_ON(page->mapcount);
	BUG_ON(page->flags & RSIM_PG_DIRECT);
	BUG_ON(page->pte.chain);
	list_del(&page->twins);
	list_del(&page->lru);
	kfree(page);
	sim->cost.pages--;
}

/* ---- the page cache ------------------------------------------------------ */

/*
 * One hash table for the page cache of every file, as the 2.6 kernels
 * before the radix tree kept page_hash_table: memory in proportion to
 * the pages cached, never to a file's size or its largest offset.
 */
#define RSIM_CACHE_MIN_BUCKETS	64UL

static unsigned long rsim_cache_bucket(const struct rsim *sim,
				       const struct rsim_file *file,
				       unsigned long index)
{
	return rsim_mix64(rsim_mix64(file->id) + index) &
	       (sim->cache_buckets - 1);
}

/*
 * Double the table once it holds as many pages as chains.  Only a table
 * that does not exist yet is a must: without the larger one the chains
 * just grow longer, so a failed growth is not an error.
 */
static int rsim_cache_grow(struct rsim *sim)
{
	unsigned long nr = max(RSIM_CACHE_MIN_BUCKETS, 2 * sim->cache_buckets);
	struct rsim_page **old = sim->cache_hash, **table, *page;
	unsigned long i, b, old_nr = sim->cache_buckets;

	if (sim->nr_cached < sim->cache_buckets)
		return 0;
	table = kcalloc(nr, sizeof(*table), GFP_KERNEL);
	if (!table)
		return old ? 0 : -ENOMEM;
	sim->cache_hash = table;
	sim->cache_buckets = nr;
	for (i = 0; i < old_nr; i++) {
		while ((page = old[i])) {
			b = rsim_cache_bucket(sim, page->mapping, page->index);
			old[i] = page->cache_next;
			page->cache_next = table[b];
			table[b] = page;
		}
	}
	kfree(old);
	return 0;
}

/**
 * rsim_cache_find - find_get_page(): the page of @file at @index
 * @sim: the simulation
 * @file: the file
 * @index: the offset in pages
 *
 * O(1) expected: one chain of the page cache hash.  Return: the page,
 * or NULL when it is not cached.
 */
struct rsim_page *rsim_cache_find(struct rsim *sim, struct rsim_file *file,
				  unsigned long index)
{
	struct rsim_page *page;

	if (!sim->cache_buckets)
		return NULL;
	page = sim->cache_hash[rsim_cache_bucket(sim, file, index)];
	for (; page; page = page->cache_next)
		if (page->mapping == file && page->index == index)
			return page;
	return NULL;
}

/**
 * rsim_cache_add - add_to_page_cache(): @page becomes @file's at @index
 * @sim: the simulation
 * @file: the file
 * @page: a new page, neither file nor anonymous yet
 * @index: an offset in pages that @file does not cache yet
 *
 * Sets page->mapping and ->index.  O(1) amortised: the table doubles
 * now and then.  Return: 0, or -ENOMEM with nothing changed.
 */
int rsim_cache_add(struct rsim *sim, struct rsim_file *file,
		   struct rsim_page *page, unsigned long index)
{
	struct rsim_page **head;

	if (rsim_cache_grow(sim))
		return -ENOMEM;
	page->mapping = file;
	page->index = index;
	head = &sim->cache_hash[rsim_cache_bucket(sim, file, index)];
	page->cache_next = *head;
	*head = page;
	list_add_tail(&page->cache_list, &file->pages);
	sim->nr_cached++;
	return 0;
}

/**
 * rsim_cache_remove - take a file page out of its page cache
 * @sim: the simulation
 * @page: a page rsim_cache_add() added
 *
 * O(1) expected: its chain is walked to unlink it.  The page keeps its
 * mapping and index; the caller frees it.
 */
void rsim_cache_remove(struct rsim *sim, struct rsim_page *page)
{
	struct rsim_page **link;

	link = &sim->cache_hash[rsim_cache_bucket(sim, page->mapping,
						  page->index)];
	while (*link != page)
		link = &(*link)->cache_next;
	*link = page->cache_next;
	page->cache_next = NULL;
	list_del(&page->cache_list);
	sim->nr_cached--;
}

/* ---- walk visits --------------------------------------------------------- */

/**
 * rsim_walk_visit - examine the pte of @mm at @vpn for walk->page
 * @walk: the walk
 * @mm: an mm the scheme leads to
 * @vpn: the virtual page where the scheme says the page would be
 *
 * O(1).  Counts one pte examined; if it maps the page, counts it found,
 * adds it to the walk's set and calls walk->found.
 */
void rsim_walk_visit(struct rsim_walk *walk, struct rsim_mm *mm,
		     unsigned long vpn)
{
	struct rsim_pte *pte;

	walk->cost->ptes++;
	pte = rsim_pte_lookup(mm, vpn);
	if (!pte || pte->page != walk->page)
		return;
	walk->cost->found++;
	walk->nr++;
	walk->hash += rsim_mapping_hash(mm->pid, vpn);
	if (walk->found)
		walk->found(walk, pte);
}

/**
 * rsim_walk_vma - one vma of an object-based walk
 * @walk: the walk; walk->page->index is linear in vma units (a file
 *	page's offset, an anon_vma page's index)
 * @v: a vma the scheme's object leads to
 *
 * O(1).  Counts the vma; at most one of its ptes can map the page, the
 * one at the page's index, and only if the index falls inside @v.
 */
void rsim_walk_vma(struct rsim_walk *walk, struct rsim_vma *v)
{
	unsigned long index = walk->page->index;

	walk->cost->vmas++;
	if (index < v->vma.vm_pgoff ||
	    index - v->vma.vm_pgoff >= rsim_vma_pages(v))
		return;
	rsim_walk_visit(walk, v->mm,
			rsim_vma_start(v) + (index - v->vma.vm_pgoff));
}

/* ---- vmas ---------------------------------------------------------------- */

/**
 * rsim_find_vma - the vma of @mm that contains @vpn
 * @mm: the mm
 * @vpn: a virtual page number
 *
 * O(log n): a stabbing query of the mm's address prio tree, whose
 * intervals never overlap.  Return: the vma or NULL.
 */
struct rsim_vma *rsim_find_vma(struct rsim_mm *mm, unsigned long vpn)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;

	node = prio_tree_first(&mm->addr_index, &iter, vpn, vpn);
	return node ? container_of(node, struct rsim_vma, addr_node) : NULL;
}

/**
 * rsim_find_overlap - any vma of @mm that overlaps [@start, @end)
 * @mm: the mm
 * @start: first page
 * @end: page after the last, above @start
 *
 * O(log n).  Return: a vma or NULL.
 */
struct rsim_vma *rsim_find_overlap(struct rsim_mm *mm, unsigned long start,
				   unsigned long end)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;

	node = prio_tree_first(&mm->addr_index, &iter, start, end - 1);
	return node ? container_of(node, struct rsim_vma, addr_node) : NULL;
}

/**
 * rsim_addr_index_insert - put @v into its mm's address index
 * @v: a vma whose range is set and overlaps no vma of its mm
 *
 * O(log n).  BUG()s on an overlap, which the ops never allow.
 */
void rsim_addr_index_insert(struct rsim_vma *v)
{
	struct prio_tree_node *node = &v->addr_node;

	INIT_PRIO_TREE_NODE(node);
	node->start = rsim_vma_start(v);
	node->last = rsim_vma_end(v) - 1;
	BUG_ON(prio_tree_insert(&v->mm->addr_index, node) != node);
}

/**
 * rsim_vma_alloc - a new vma, linked nowhere yet
 * @mm: its mm
 * @start: first page
 * @end: page after the last
 * @pgoff: vm_pgoff (file offset; for anonymous vmas, @start)
 * @vm_flags: VM_READ, VM_WRITE, VM_SHARED...
 * @file: its file, or NULL for anonymous memory
 *
 * O(1).  Return: the vma, or NULL when out of memory.
 */
struct rsim_vma *rsim_vma_alloc(struct rsim_mm *mm, unsigned long start,
				unsigned long end, unsigned long pgoff,
				unsigned long vm_flags, struct rsim_file *file)
{
	struct rsim_vma *v = kzalloc(sizeof(*v), GFP_KERNEL);

	if (!v)
		return NULL;
	v->mm = mm;
	v->file = file;
	v->vma.vm_start = start << PAGE_SHIFT;
	v->vma.vm_end = end << PAGE_SHIFT;
	v->vma.vm_pgoff = pgoff;
	v->vma.vm_flags = vm_flags;
	INIT_VMA_SHARED(&v->vma);
	INIT_LIST_HEAD(&v->mm_list);
	INIT_LIST_HEAD(&v->i_mmap_node);
	INIT_LIST_HEAD(&v->anon_vma_node);
	INIT_LIST_HEAD(&v->avc_list);
	return v;
}

/**
 * rsim_vma_set_bounds - set @v's range (pages) and vm_pgoff
 * @v: a vma no index is keyed on just now
 * @start: new first page
 * @end: new page after the last
 * @pgoff: new vm_pgoff
 *
 * O(1).  Only the fields: the caller has taken @v out of whatever is
 * ordered by them (the address index; a prio tree of i_mmap).
 */
void rsim_vma_set_bounds(struct rsim_vma *v, unsigned long start,
			 unsigned long end, unsigned long pgoff)
{
	v->vma.vm_start = start << PAGE_SHIFT;
	v->vma.vm_end = end << PAGE_SHIFT;
	v->vma.vm_pgoff = pgoff;
}

/* ---- the i_mmap lists ---------------------------------------------------- */

static struct list_head *rsim_i_mmap_list(struct rsim_vma *v)
{
	return rsim_vma_is_shared(v) ? &v->file->i_mmap_shared_list :
				       &v->file->i_mmap_list;
}

/**
 * rsim_i_mmap_list_link - add a new file vma to its i_mmap list
 * @sim: the simulation
 * @v: a file vma
 *
 * O(1): at the tail, as __vma_link_file() did.  Costs one list_head of
 * rmap metadata.
 */
void rsim_i_mmap_list_link(struct rsim *sim, struct rsim_vma *v)
{
	list_add_tail(&v->i_mmap_node, rsim_i_mmap_list(v));
	rsim_meta_add(sim, sizeof(struct list_head));
}

/**
 * rsim_i_mmap_list_link_fork - add fork's copy of a vma right after it
 * @sim: the simulation
 * @child: the new file vma
 * @parent: the vma it copies, on the list
 *
 * O(1), as dup_mmap() does.
 */
void rsim_i_mmap_list_link_fork(struct rsim *sim, struct rsim_vma *child,
				struct rsim_vma *parent)
{
	list_add(&child->i_mmap_node, &parent->i_mmap_node);
	rsim_meta_add(sim, sizeof(struct list_head));
}

/**
 * rsim_i_mmap_list_unlink - take a file vma off its i_mmap list
 * @sim: the simulation
 * @v: a file vma on the list
 *
 * O(1).
 */
void rsim_i_mmap_list_unlink(struct rsim *sim, struct rsim_vma *v)
{
	list_del(&v->i_mmap_node);
	sim->cost.meta_bytes -= sizeof(struct list_head);
}

static int rsim_i_mmap_list_range(struct rsim *sim, struct list_head *l,
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

/**
 * rsim_i_mmap_list_for_each - call @fn on each listed vma meeting a range
 * @sim: the simulation
 * @file: the file
 * @first: first file page of the range
 * @last: last file page of the range (inclusive)
 * @fn: called with each vma whose file range meets [@first, @last]; it
 *	may unmap ptes but must not change the lists
 *
 * O(vmas of the file): every vma is read, private ones first.
 *
 * Return: the number of vmas visited.
 */
int rsim_i_mmap_list_for_each(struct rsim *sim, struct rsim_file *file,
			      unsigned long first, unsigned long last,
			      rsim_vma_range_fn fn)
{
	int visited;

	visited = rsim_i_mmap_list_range(sim, &file->i_mmap_list, first, last,
					 fn);
	visited += rsim_i_mmap_list_range(sim, &file->i_mmap_shared_list,
					  first, last, fn);
	return visited;
}

/* ---- anon_vma objects ---------------------------------------------------- */

/**
 * rsim_anon_vma_alloc - a new anon_vma with nothing on it
 * @sim: the simulation
 *
 * O(1).  Return: the anon_vma, or NULL when out of memory.
 */
struct rsim_anon_vma *rsim_anon_vma_alloc(struct rsim *sim)
{
	struct rsim_anon_vma *av = kzalloc(sizeof(*av), GFP_KERNEL);

	if (!av)
		return NULL;
	INIT_LIST_HEAD(&av->head);
	av->serial = ++sim->anon_vma_serial;
	rsim_meta_add(sim, sizeof(*av));
	return av;
}

/**
 * rsim_anon_vma_put - free @av if nothing is on it any more
 * @sim: the simulation
 * @av: an anon_vma
 *
 * O(1).  A page can point at @av only while a vma on it maps the page,
 * so an empty anon_vma has no page left.
 */
void rsim_anon_vma_put(struct rsim *sim, struct rsim_anon_vma *av)
{
	if (!list_empty(&av->head))
		return;
	kfree(av);
	sim->cost.meta_bytes -= sizeof(*av);
}

/**
 * rsim_anon_vma_neighbour - find_mergeable_anon_vma()
 * @v: a vma about to get an anon_vma
 *
 * A neighbour that could merge with @v lends its anon_vma, so that the
 * two can still merge later.  O(log vmas).
 *
 * Return: the lower neighbour's anon_vma, else the upper's, else NULL.
 */
struct rsim_anon_vma *rsim_anon_vma_neighbour(struct rsim_vma *v)
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
 * rsim_anon_vma_mergeable - may @prev and @next (adjacent) become one?
 * @prev: the lower vma
 * @next: the vma that starts where @prev ends, same file and flags
 *
 * Not with two different anon_vmas (which pages would the merged vma's
 * index belong to?) nor with a vm_pgoff that is not linear across the
 * two, which page->index relies on.  O(1).
 */
bool rsim_anon_vma_mergeable(const struct rsim_vma *prev,
			     const struct rsim_vma *next)
{
	if (prev->vma.vm_pgoff + rsim_vma_pages(prev) != next->vma.vm_pgoff)
		return false;
	return !prev->anon_vma || !next->anon_vma ||
	       prev->anon_vma == next->anon_vma;
}

/**
 * rsim_anon_vma_set_page - mapping and index of a new anon_vma page
 * @page: a new anonymous page
 * @v: the vma it is mapped into, with its anon_vma
 * @vpn: where
 *
 * page->mapping is @v's anon_vma and page->index linear in vma units,
 * which split and mremap keep valid.  O(1).
 */
void rsim_anon_vma_set_page(struct rsim_page *page, struct rsim_vma *v,
			    unsigned long vpn)
{
	page->mapping = v->anon_vma;
	page->index = rsim_vma_index(v, vpn);
}

/**
 * rsim_anon_vma_page_ok - verify an anon_vma page's index for one pte
 * @page: an anonymous page
 * @v: a vma that maps it
 * @vpn: where
 * @want: set to the index expected
 *
 * O(1).  Return: whether the index leads a walk of @v to @vpn and @v
 * has an anon_vma at all.
 */
bool rsim_anon_vma_page_ok(const struct rsim_page *page,
			   const struct rsim_vma *v, unsigned long vpn,
			   unsigned long *want)
{
	*want = rsim_vma_index(v, vpn);
	return page->index == *want && v->anon_vma;
}
