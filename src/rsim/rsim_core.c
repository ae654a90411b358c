// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated memory manager: processes, vmas, page tables, faults and
 * the ops of <rsim.h>, with the reverse map delegated to the scheme files.
 *
 * Invariants rsim_verify() checks after any op:
 *  - every present pte lies inside a vma of its mm;
 *  - page->mapcount is the number of present ptes that map the page;
 *  - a writable pte in a private vma maps an anonymous page mapped once
 *    (copy-on-write never lets two mms write one page);
 *  - a file page maps at vm_start + (index - vm_pgoff) of a vma of its
 *    file, below EOF; an anonymous page satisfies its scheme's
 *    mapping/index rule (rsim_anon_check_page());
 *  - the scheme's rmap walk of every page finds exactly the ptes that a
 *    brute-force scan of every page table finds;
 *  - every prio tree (i_mmap, each mm's address index) passes its check.
 */

#include <linux/string.h>

#include "rsim_internal.h"

/* ---- hashing ------------------------------------------------------------- */

static u64 rsim_mix64(u64 x)
{
	/* the splitmix64 finaliser: every input bit affects every output */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

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

static void rsim_fold(struct rsim *sim, u64 value)
{
	sim->digest = rsim_mix64(sim->digest ^ value) + 0x2545f4914f6cdd1dULL;
}

static unsigned int rsim_bucket(unsigned long id)
{
	return rsim_mix64(id) & (RSIM_HASH_BUCKETS - 1);
}

/* ---- names --------------------------------------------------------------- */

static const char *const rsim_file_names[RSIM_NR_FILE_SCHEMES] = {
	[RSIM_FILE_PTE_CHAIN]	= "pte_chain",
	[RSIM_FILE_LIST]	= "list",
	[RSIM_FILE_PRIO]	= "prio",
};

static const char *const rsim_anon_names[RSIM_NR_ANON_SCHEMES] = {
	[RSIM_ANON_PTE_CHAIN]	= "pte_chain",
	[RSIM_ANON_VMA]		= "anon_vma",
	[RSIM_ANON_MM]		= "anonmm",
	[RSIM_ANON_VMA_CHAIN]	= "anon_vma_chain",
};

static const struct rsim_op_desc rsim_op_descs[RSIM_NR_OPS] = {
	[RSIM_OP_FILE_CREATE]	= { "file", 2, { "file", "npages" } },
	[RSIM_OP_EXEC]		= { "exec", 1, { "pid" } },
	[RSIM_OP_FORK]		= { "fork", 2, { "parent", "child" } },
	[RSIM_OP_EXIT]		= { "exit", 1, { "pid" } },
	[RSIM_OP_MMAP_SHARED]	= { "mmap-shared", 6,
		{ "pid", "addr", "npages", "prot", "file", "pgoff" } },
	[RSIM_OP_MMAP_PRIVATE]	= { "mmap-private", 6,
		{ "pid", "addr", "npages", "prot", "file", "pgoff" } },
	[RSIM_OP_MMAP_ANON]	= { "mmap-anon", 4,
		{ "pid", "addr", "npages", "prot" } },
	[RSIM_OP_MUNMAP]	= { "munmap", 3, { "pid", "addr", "npages" } },
	[RSIM_OP_MPROTECT]	= { "mprotect", 4,
		{ "pid", "addr", "npages", "prot" } },
	[RSIM_OP_MREMAP_RESIZE]	= { "mremap", 4,
		{ "pid", "addr", "old_npages", "new_npages" } },
	[RSIM_OP_MREMAP_MOVE]	= { "mremap-move", 5,
		{ "pid", "addr", "old_npages", "new_npages", "new_addr" } },
	[RSIM_OP_FAULT_READ]	= { "read", 2, { "pid", "addr" } },
	[RSIM_OP_FAULT_WRITE]	= { "write", 2, { "pid", "addr" } },
	[RSIM_OP_TRUNCATE]	= { "truncate", 2, { "file", "npages" } },
	[RSIM_OP_RECLAIM_FILE]	= { "reclaim-file", 2, { "file", "pgoff" } },
	[RSIM_OP_RECLAIM_ADDR]	= { "reclaim", 2, { "pid", "addr" } },
	[RSIM_OP_WALK_FILE]	= { "walk-file", 2, { "file", "pgoff" } },
	[RSIM_OP_WALK_ADDR]	= { "walk", 2, { "pid", "addr" } },
};

/**
 * rsim_file_scheme_name - printable name of a file page scheme
 * @scheme: the scheme
 *
 * O(1).  Return: "pte_chain", "list" or "prio"; "?" when out of range.
 */
const char *rsim_file_scheme_name(enum rsim_file_scheme scheme)
{
	if ((unsigned int)scheme >= RSIM_NR_FILE_SCHEMES)
		return "?";
	return rsim_file_names[scheme];
}

/**
 * rsim_anon_scheme_name - printable name of an anonymous page scheme
 * @scheme: the scheme
 *
 * O(1).  Return: "pte_chain", "anon_vma", "anonmm" or "anon_vma_chain";
 * "?" when out of range.
 */
const char *rsim_anon_scheme_name(enum rsim_anon_scheme scheme)
{
	if ((unsigned int)scheme >= RSIM_NR_ANON_SCHEMES)
		return "?";
	return rsim_anon_names[scheme];
}

/**
 * rsim_file_scheme_parse - the file scheme called @name
 * @name: "pte_chain", "list" or "prio"
 *
 * O(1).  Return: the scheme, or -EINVAL.
 */
int rsim_file_scheme_parse(const char *name)
{
	int i;

	for (i = 0; i < RSIM_NR_FILE_SCHEMES; i++)
		if (!strcmp(name, rsim_file_names[i]))
			return i;
	return -EINVAL;
}

/**
 * rsim_anon_scheme_parse - the anonymous scheme called @name
 * @name: "pte_chain", "anon_vma", "anonmm" or "anon_vma_chain"
 *
 * O(1).  Return: the scheme, or -EINVAL.
 */
int rsim_anon_scheme_parse(const char *name)
{
	int i;

	for (i = 0; i < RSIM_NR_ANON_SCHEMES; i++)
		if (!strcmp(name, rsim_anon_names[i]))
			return i;
	return -EINVAL;
}

/**
 * rsim_op_desc - name and arguments of an op kind
 * @kind: the kind
 *
 * O(1).  Return: the description, or NULL when @kind is out of range.
 */
const struct rsim_op_desc *rsim_op_desc(enum rsim_op_kind kind)
{
	if ((unsigned int)kind >= RSIM_NR_OPS)
		return NULL;
	return &rsim_op_descs[kind];
}

/**
 * rsim_op_parse - the op kind whose name is @name
 * @name: e.g. "mremap-move"
 *
 * O(RSIM_NR_OPS).  Return: the kind, or -EINVAL.
 */
int rsim_op_parse(const char *name)
{
	int i;

	for (i = 0; i < RSIM_NR_OPS; i++)
		if (!strcmp(name, rsim_op_descs[i].name))
			return i;
	return -EINVAL;
}

/* ---- lookup -------------------------------------------------------------- */

static struct rsim_mm *rsim_mm_find(struct rsim *sim, unsigned long pid)
{
	struct rsim_mm *mm;

	list_for_each_entry(mm, &sim->mm_hash[rsim_bucket(pid)], hash)
		if (mm->pid == pid)
			return mm;
	return NULL;
}

static struct rsim_file *rsim_file_find(struct rsim *sim, unsigned long id)
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

static struct rsim_pte *rsim_pte_alloc(struct rsim_mm *mm, unsigned long vpn)
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

/*
 * The first present pte at or after *@vpn and below @end, skipping
 * missing tables; *@vpn is set to its page.  NULL when there is none.
 */
static struct rsim_pte *rsim_next_pte(struct rsim_mm *mm, unsigned long *vpn,
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

static void rsim_free_page_tables(struct rsim_mm *mm)
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

/* ---- pages and their rmap ------------------------------------------------ */

static struct rsim_page *rsim_page_alloc(struct rsim *sim)
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

static void rsim_page_free(struct rsim *sim, struct rsim_page *page)
{
	BUG_ON(page->mapcount);
	rsim_pte_chain_check_empty(page);
	list_del(&page->twins);
	list_del(&page->lru);
	kfree(page);
	sim->cost.pages--;
}

/* Does @page's scheme keep a pte chain? */
static bool rsim_page_chained(const struct rsim *sim,
			      const struct rsim_page *page)
{
	if (page->flags & RSIM_PG_ANON)
		return sim->anon_scheme == RSIM_ANON_PTE_CHAIN;
	return sim->file_scheme == RSIM_FILE_PTE_CHAIN;
}

/* Map @page at @pte with @bits (page_add_rmap).  0 or -ENOMEM. */
static int rsim_pte_map(struct rsim *sim, struct rsim_pte *pte,
			struct rsim_page *page, unsigned long bits)
{
	BUG_ON(pte->page);
	pte->page = page;
	pte->bits = (pte->bits & ~((1UL << RSIM_PTE_SLOT_SHIFT) - 1)) | bits;
	page->mapcount++;
	if (rsim_page_chained(sim, page)) {
		if (rsim_pte_chain_add(sim, page, pte)) {
			page->mapcount--;
			pte->page = NULL;
			return -ENOMEM;
		}
		sim->op_cost->rmap_updates++;
	}
	sim->cost.ptes_mapped++;
	return 0;
}

/*
 * Clear @pte (page_remove_rmap).  The page is not freed here, so walks
 * may unmap as they go; see rsim_page_release().  @hand_on: under anonmm
 * re-point page->mapping when @mm was the one it named.
 */
static struct rsim_page *rsim_pte_unmap(struct rsim *sim, struct rsim_pte *pte,
					struct rsim_mm *mm, bool hand_on)
{
	struct rsim_page *page = pte->page;

	if (rsim_page_chained(sim, page)) {
		rsim_pte_chain_remove(sim, page, pte);
		sim->op_cost->rmap_updates++;
	}
	page->mapcount--;
	pte->page = NULL;
	pte->bits &= ~((1UL << RSIM_PTE_SLOT_SHIFT) - 1);
	sim->cost.ptes_mapped--;
	if (hand_on && page->mapcount && (page->flags & RSIM_PG_ANON))
		rsim_anonmm_hand_on(sim, page, mm);
	return page;
}

/* An anonymous page that nothing maps is gone (and swap forgets). */
static void rsim_page_release(struct rsim *sim, struct rsim_page *page)
{
	if ((page->flags & RSIM_PG_ANON) && !page->mapcount)
		rsim_page_free(sim, page);
}

/* A written page holds new data: it is nobody's twin any more. */
static void rsim_page_written(struct rsim_page *page)
{
	list_del_init(&page->twins);
}

/* ---- rmap walks ---------------------------------------------------------- */

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

static void rsim_walk_page(struct rsim *sim, struct rsim_walk *walk,
			   struct rsim_page *page,
			   void (*found)(struct rsim_walk *walk,
					 struct rsim_pte *pte),
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
	if (anon)
		rsim_anon_walk(walk);
	else
		rsim_file_walk(walk);
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

/*
 * page_referenced() then try_to_unmap() on @page and its twins; the
 * unmapped set goes into @result.  Anonymous pages are freed; file pages
 * leave the page cache.
 */
static void rsim_reclaim_page(struct rsim *sim, struct rsim_page *page,
			      struct rsim_walk_result *result)
{
	struct rsim_page *twin;
	struct rsim_walk walk = { };
	struct rsim_file *file;

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
			file = twin->mapping;
			file->cache[twin->index] = NULL;
			rsim_page_free(sim, twin);
		}
		sim->cost.pages_reclaimed++;
		if (twin == page)
			break;
	}
}

/* An explicit walk of @page and its twins, without side effects. */
static void rsim_walk_twins(struct rsim *sim, struct rsim_page *page,
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

/* Any vma of @mm that overlaps [start, end), or NULL. */
static struct rsim_vma *rsim_find_overlap(struct rsim_mm *mm,
					  unsigned long start,
					  unsigned long end)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;

	node = prio_tree_first(&mm->addr_index, &iter, start, end - 1);
	return node ? container_of(node, struct rsim_vma, addr_node) : NULL;
}

static void rsim_addr_index_insert(struct rsim_vma *v)
{
	struct prio_tree_node *node = &v->addr_node;

	INIT_PRIO_TREE_NODE(node);
	node->start = rsim_vma_start(v);
	node->last = rsim_vma_end(v) - 1;
	BUG_ON(prio_tree_insert(&v->mm->addr_index, node) != node);
}

/* Set @v's range and offset everywhere it is indexed. */
static void rsim_vma_set_range(struct rsim *sim, struct rsim_vma *v,
			       unsigned long start, unsigned long end,
			       unsigned long pgoff)
{
	prio_tree_remove(&v->mm->addr_index, &v->addr_node);
	rsim_file_modify_vma(sim, v, start, end, pgoff);
	rsim_addr_index_insert(v);
}

static struct rsim_vma *rsim_vma_alloc(struct rsim_mm *mm,
				       unsigned long start, unsigned long end,
				       unsigned long pgoff,
				       unsigned long vm_flags,
				       struct rsim_file *file)
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

/* Put @v, whose file and anon rmap are set up, into its mm. */
static void rsim_vma_link_mm(struct rsim *sim, struct rsim_vma *v)
{
	rsim_addr_index_insert(v);
	list_add_tail(&v->mm_list, &v->mm->vmas);
	v->mm->nr_vmas++;
	sim->cost.vmas++;
}

/* Unlink @v from everything and free it; its ptes must be gone. */
static void rsim_vma_free(struct rsim *sim, struct rsim_vma *v)
{
	rsim_file_unlink_vma(sim, v);
	rsim_anon_unlink_vma(sim, v);
	prio_tree_remove(&v->mm->addr_index, &v->addr_node);
	list_del(&v->mm_list);
	v->mm->nr_vmas--;
	sim->cost.vmas--;
	kfree(v);
}

/*
 * Split @v at @at: @v keeps [start, at), the returned new vma gets
 * [at, end) with the linear vm_pgoff.  NULL on -ENOMEM.
 */
static struct rsim_vma *rsim_vma_split(struct rsim *sim, struct rsim_vma *v,
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
	rsim_file_link_vma(sim, upper);
	rsim_vma_link_mm(sim, upper);
	return upper;
}

/* Could @prev and @next (adjacent) be one vma, whatever the scheme? */
static bool rsim_vma_compatible(struct rsim_vma *prev, struct rsim_vma *next)
{
	if (rsim_vma_end(prev) != rsim_vma_start(next) ||
	    prev->file != next->file ||
	    prev->vma.vm_flags != next->vma.vm_flags)
		return false;
	return !prev->file ||
	       prev->vma.vm_pgoff + rsim_vma_pages(prev) == next->vma.vm_pgoff;
}

/*
 * vma_merge(): join @v with its neighbours where flags, file, offset and
 * the anonymous scheme allow.  Returns the vma that now covers @v's pages.
 */
static struct rsim_vma *rsim_vma_try_merge(struct rsim *sim,
					   struct rsim_vma *v)
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

/* zap_page_range(): clear every pte of @mm in [start, end). */
static void rsim_zap_range(struct rsim *sim, struct rsim_mm *mm,
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

/* do_munmap(): remove [start, end) of @mm, splitting vmas at the ends. */
static int rsim_do_munmap(struct rsim *sim, struct rsim_mm *mm,
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
	rsim_anonmm_exit(sim, mm);
	rsim_free_page_tables(mm);
}

/* ---- mms ----------------------------------------------------------------- */

static struct rsim_mm *rsim_mm_new(struct rsim *sim, unsigned long pid,
				   struct rsim_mm *parent)
{
	struct rsim_mm *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->pid = pid;
	INIT_LIST_HEAD(&mm->vmas);
	INIT_PRIO_TREE_ROOT(&mm->addr_index);
	if (rsim_anonmm_new(sim, mm, parent)) {
		kfree(mm);
		return NULL;
	}
	mm->serial = ++sim->mm_serial;
	list_add_tail(&mm->hash, &sim->mm_hash[rsim_bucket(pid)]);
	list_add_tail(&mm->all, &sim->mms);
	sim->cost.mms++;
	return mm;
}

static void rsim_mm_free(struct rsim *sim, struct rsim_mm *mm)
{
	rsim_mm_teardown(sim, mm);
	list_del(&mm->hash);
	list_del(&mm->all);
	sim->cost.mms--;
	kfree(mm);
}

/* ---- the ops ------------------------------------------------------------- */

static bool rsim_range_ok(unsigned long addr, unsigned long npages)
{
	return npages && addr < RSIM_TASK_PAGES &&
	       npages <= RSIM_TASK_PAGES - addr;
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
	rsim_file_link_vma(sim, v);
	rsim_vma_link_mm(sim, v);
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
		return -ENOMEM;
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
			return -ENOMEM;
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
 * move_page_tables() for one page: the pte at @from moves to @to.  Under
 * anonmm a shared anonymous page cannot change address, so it is copied
 * first (the early COW break): the copy, a twin of the page, moves.
 */
static int rsim_move_pte(struct rsim *sim, struct rsim_mm *mm,
			 struct rsim_vma *nv, struct rsim_pte *from,
			 struct rsim_pte *to, unsigned long to_vpn)
{
	struct rsim_page *page = from->page, *copy;
	unsigned long bits = from->bits & (RSIM_PTE_WRITE | RSIM_PTE_YOUNG);
	int err;

	sim->cost.mremap.ptes++;
	if (sim->anon_scheme == RSIM_ANON_MM && (page->flags & RSIM_PG_ANON)) {
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
	rsim_file_link_vma(sim, nv);
	rsim_vma_link_mm(sim, nv);
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

/*
 * Make the page cache array cover @pgoff (< file->size).  It grows by
 * doubling, up to the file size, so a large sparse file costs only what
 * was faulted in.  0 or -ENOMEM.
 */
static int rsim_file_cache_cover(struct rsim_file *file, unsigned long pgoff)
{
	unsigned long nr = max(16UL, 2 * file->nr_slots), i;
	struct rsim_page **cache;

	if (pgoff < file->nr_slots)
		return 0;
	nr = min(max(nr, pgoff + 1), file->size);
	cache = kcalloc(nr, sizeof(*cache), GFP_KERNEL);
	if (!cache)
		return -ENOMEM;
	for (i = 0; i < file->nr_slots; i++)
		cache[i] = file->cache[i];
	kfree(file->cache);
	file->cache = cache;
	file->nr_slots = nr;
	return 0;
}

static struct rsim_page *rsim_file_get_page(struct rsim *sim,
					    struct rsim_file *file,
					    unsigned long pgoff)
{
	struct rsim_page *page;

	if (rsim_file_cache_cover(file, pgoff))
		return NULL;
	page = file->cache[pgoff];
	if (page)
		return page;
	page = rsim_page_alloc(sim);
	if (!page)
		return NULL;
	page->mapping = file;
	page->index = pgoff;
	file->cache[pgoff] = page;
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
	struct rsim_page *page;
	unsigned long i;

	if (!file)
		return -EBADF;
	if (npages > RSIM_FILE_MAX_PAGES)
		return -EINVAL;
	sim->op_cost = &sim->cost.truncate;
	sim->cost.truncate.calls++;
	if (npages < file->size) {
		sim->cost.truncate.rmap_updates +=
			rsim_file_for_each_vma(sim, file, npages,
					       file->size - 1,
					       rsim_truncate_vma);
		for (i = npages; i < min(file->size, file->nr_slots); i++) {
			page = file->cache[i];
			if (!page)
				continue;
			file->cache[i] = NULL;
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
	for (i = 0; i < rsim_op_descs[op->kind].nr_args; i++)
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
		if (op->args[1] < min(file->size, file->nr_slots))
			page = file->cache[op->args[1]];
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
 * out, after which the simulation refuses every op with -ENOMEM.
 */
int rsim_apply(struct rsim *sim, const struct rsim_op *op)
{
	const unsigned long *a = op->args;

	if (sim->broken)
		return -ENOMEM;
	sim->op_cost = &sim->misc;
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
	sim->file_scheme = file_scheme;
	sim->anon_scheme = anon_scheme;
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
	unsigned long i;

	if (!sim)
		return;
	sim->op_cost = &sim->misc;
	list_for_each_entry_safe(mm, mtmp, &sim->mms, all)
		rsim_mm_free(sim, mm);
	list_for_each_entry_safe(file, ftmp, &sim->files, all) {
		for (i = 0; i < file->nr_slots; i++)
			if (file->cache[i])
				rsim_page_free(sim, file->cache[i]);
		kfree(file->cache);
		list_del(&file->all);
		kfree(file);
	}
	/* after -ENOMEM a page may be left half made */
	list_for_each_entry_safe(page, ptmp, &sim->pages, lru) {
		list_del(&page->lru);
		kfree(page);
	}
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

/* ---- verification -------------------------------------------------------- */

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
	unsigned long vpn = 0, nr_vmas = 0;
	int err;

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
			err = rsim_anon_check_page(sim, page, v, vpn, report);
			if (err)
				return err;
		} else if (page->mapping != v->file ||
			   page->index != v->vma.vm_pgoff +
					  (vpn - rsim_vma_start(v)) ||
			   page->index >= v->file->size ||
			   v->file->cache[page->index] != page) {
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
	struct rsim_anonmm *amm;
	struct rsim_walk walk;
	struct rsim_file *file;
	struct rsim_page *page;
	struct rsim_pte *pte;
	struct rsim_mm *mm;
	unsigned long i;
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
		err = rsim_file_check(sim, file, report);
		if (err)
			return err;
		for (i = 0; i < file->nr_slots; i++) {
			page = file->cache[i];
			if (page && (i >= file->size || page->index != i ||
				     page->mapping != file ||
				     (page->flags & RSIM_PG_ANON)))
				return rsim_fail(report, "page cache entry",
						 file->id, i);
		}
	}
	sim->quiet = true;
	list_for_each_entry(page, &sim->pages, lru) {
		if (page->mapcount != page->gt_count) {
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
		if ((page->flags & RSIM_PG_ANON) &&
		    sim->anon_scheme == RSIM_ANON_MM) {
			amm = page->mapping;
			pte = rsim_pte_lookup(amm->mm, page->index);
			if (!pte || pte->page != page) {
				snprintf(report->msg, sizeof(report->msg),
					 "page %llu: anonmm's mm does not map it",
					 (unsigned long long)page->serial);
				err = -EUCLEAN;
				break;
			}
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
