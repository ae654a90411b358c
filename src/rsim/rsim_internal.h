/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PRIOTREE_RMAP_RSIM_INTERNAL_H
#define _PRIOTREE_RMAP_RSIM_INTERNAL_H

/*
 * The objects of the simulated memory manager and the ops tables of its
 * reverse-mapping schemes, shared by the engine's files.  The calls go
 * one way, top to bottom:
 *
 *   ops.c      rsim_apply() and the ops, rsim_create() and the accessors
 *   verify.c   rsim_verify(): every rule against ground truth
 *   names.c    op names; the array of schemes rsim_create() picks from
 *              (calls nothing: it only holds the tables' addresses)
 *   vma.c      vmas (split, merge, free), unmapping, mms
 *   rmap.c     mapping and unmapping a pte, rmap walks, reclaim
 *   file.c, pte_chain.c, anon_vma.c, avc.c, anonmm.c
 *              the schemes, each one or two ops tables
 *   mm.c       page tables, pages, vma lookup, walk visits, i_mmap
 *              lists, anon_vma objects: what the schemes use
 *
 * The files above the schemes reach a scheme only through the ops table
 * rsim_create() stored in struct rsim (through the inline helpers at
 * the end of this header), and a scheme calls only mm.c and this header.
 *
 * Every name carries the rsim_ prefix: in a kernel build these live next
 * to the real struct page, struct mm_struct and struct anon_vma.
 */

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

#include "rsim.h"

/* ---- page tables: three levels of 512 entries, 27 bits of vpn ------ */

#define RSIM_PT_SHIFT		9
#define RSIM_PT_ENTRIES		(1UL << RSIM_PT_SHIFT)
#define RSIM_PT_MASK		(RSIM_PT_ENTRIES - 1)

/*
 * A pte.  @bits holds the protection and young bits and, above
 * RSIM_PTE_SLOT_SHIFT, the slot of the pte in its table: a pte_chain
 * entry is a bare pte pointer, and the slot leads back to the table and
 * so to the mm and the virtual address, as the kernel finds the mm
 * through the page table page.
 */
#define RSIM_PTE_WRITE		0x1UL
#define RSIM_PTE_YOUNG		0x2UL
#define RSIM_PTE_SLOT_SHIFT	8

struct rsim_page;
struct rsim_mm;

struct rsim_pte {
	struct rsim_page	*page;		/* NULL: not present */
	unsigned long		bits;
};

struct rsim_pte_table {
	struct rsim_mm		*mm;
	unsigned long		base;		/* vpn of pte[0] */
	struct rsim_pte		pte[RSIM_PT_ENTRIES];
};

struct rsim_pmd_table {
	struct rsim_pte_table	*table[RSIM_PT_ENTRIES];
};

/* ---- physical pages ------------------------------------------------ */

#define RSIM_PG_ANON		0x1UL	/* anonymous (incl. private COW copy) */
#define RSIM_PG_DIRECT		0x2UL	/* pte_chain: pte.direct is valid */

/*
 * 2.6.5's pte_chain block: one cache line of pte pointers.  Entries fill
 * a block from its end; the first block of a page's chain is the only
 * one that may have free slots (at its front).
 */
#define RSIM_NRPTE		7

struct rsim_pte_chain {
	struct rsim_pte_chain	*next;
	struct rsim_pte		*ptes[RSIM_NRPTE];
};

struct rsim_page {
	unsigned long		flags;
	/*
	 * File page: the struct rsim_file.  Anonymous page: the anon_vma
	 * (anon_vma, anon_vma_chain), the anonmm (anonmm) or NULL
	 * (pte_chain).
	 */
	void			*mapping;
	/*
	 * File page: offset in pages.  anon_vma schemes: linear index in
	 * vma units (vm_pgoff + offset in the vma).  anonmm: the virtual
	 * page number.
	 */
	unsigned long		index;
	long			mapcount;	/* present ptes mapping it */
	union {
		struct rsim_pte		*direct;
		struct rsim_pte_chain	*chain;
	} pte;
	/*
	 * anonmm's early COW copies of one page hold the same data: they
	 * form a ring here, and walks for the digest cover the ring, which
	 * is the one page the other schemes still share.  A page that is
	 * written leaves its ring.
	 */
	struct list_head	twins;
	struct list_head	lru;		/* sim->pages, by allocation */
	/* file page: its page cache hash chain and its file's ->pages */
	struct rsim_page	*cache_next;
	struct list_head	cache_list;
	u64			serial;
	/* ground truth scratch for rsim_verify() */
	unsigned long		gt_count;
	u64			gt_hash;
};

/* ---- files ---------------------------------------------------------- */

struct rsim_file {
	unsigned long		id;
	unsigned long		size;		/* pages */
	/*
	 * The page cache: its pages, in the order they were read in.  They
	 * are found by index through sim->cache_hash (mm.c), so a file
	 * costs what it caches, not what its largest offset would.
	 */
	struct list_head	pages;
	/* objrmap: private (i_mmap) and shared (i_mmap_shared) vmas */
	struct prio_tree_root	i_mmap;
	struct prio_tree_root	i_mmap_shared;
	struct list_head	i_mmap_list;
	struct list_head	i_mmap_shared_list;
	struct list_head	hash;
	struct list_head	all;
};

/* ---- anonymous rmap objects ---------------------------------------- */

/*
 * anon_vma (2.6.7): the vmas that may map its pages, on @head through
 * rsim_vma.anon_vma_node.  anon_vma_chain (2.6.34): @head lists the
 * rsim_avc structs (same_anon_vma) of every vma that may map its pages.
 */
struct rsim_anon_vma {
	struct list_head	head;
	unsigned long		serial;
};

/* anon_vma_chain: links one vma and one anon_vma. */
struct rsim_avc {
	struct rsim_vma		*vma;
	struct rsim_anon_vma	*anon_vma;
	struct list_head	same_vma;	/* on vma->avc_list */
	struct list_head	same_anon_vma;	/* on anon_vma->head */
};

/* anonmm: the mms of one exec and its forks share a bundle. */
struct rsim_anonmm_bundle {
	struct list_head	anonmms;
	unsigned long		nr;
};

struct rsim_anonmm {
	struct rsim_mm			*mm;
	struct rsim_anonmm_bundle	*bundle;
	struct list_head		list;	/* on bundle->anonmms */
};

/* ---- vmas and mms ---------------------------------------------------- */

struct rsim_vma {
	/*
	 * The kernel's vma: vm_start/vm_end (bytes), vm_pgoff, vm_flags,
	 * and the i_mmap tree linkage of <linux/vma_prio_tree.h>.
	 */
	struct vm_area_struct	vma;
	struct rsim_mm		*mm;
	struct rsim_file	*file;		/* NULL: anonymous */
	struct prio_tree_node	addr_node;	/* mm->addr_index, in pages */
	struct list_head	mm_list;	/* mm->vmas */
	struct list_head	i_mmap_node;	/* objrmap list scheme */
	struct rsim_anon_vma	*anon_vma;	/* anon_vma schemes */
	struct list_head	anon_vma_node;	/* anon_vma: on its ->head */
	struct list_head	avc_list;	/* anon_vma_chain: our avcs */
};

struct rsim_mm {
	unsigned long		pid;
	struct list_head	vmas;		/* creation order */
	unsigned long		nr_vmas;
	/* non-overlapping [start, last] in pages: find_vma in O(log n) */
	struct prio_tree_root	addr_index;
	struct rsim_pmd_table	*pgd[RSIM_PT_ENTRIES];
	struct rsim_anonmm	*anonmm;
	struct list_head	hash;
	struct list_head	all;		/* sim->mms, creation order */
	u64			serial;
};

#define RSIM_HASH_BUCKETS	256	/* pids and files: a few hundred live */

struct rsim_file_ops;
struct rsim_anon_ops;

struct rsim {
	/* the schemes, chosen once by rsim_create() */
	const struct rsim_file_ops	*file_ops;
	const struct rsim_anon_ops	*anon_ops;
	struct list_head	mm_hash[RSIM_HASH_BUCKETS];
	struct list_head	file_hash[RSIM_HASH_BUCKETS];
	struct list_head	mms;
	struct list_head	files;
	struct list_head	pages;
	/*
	 * Every file's page cache, hashed on (file id, index): a power of
	 * two of chains, at most one page per chain on average (mm.c).
	 */
	struct rsim_page	**cache_hash;
	unsigned long		cache_buckets;
	unsigned long		nr_cached;
	u64			page_serial;
	u64			mm_serial;
	unsigned long		anon_vma_serial;
	u64			digest;
	struct rsim_walk_result	last_walk;
	struct rsim_cost	cost;
	/* where rmap updates of the running op are counted */
	struct rsim_op_cost	*op_cost;
	struct rsim_op_cost	misc;
	/* set while rsim_verify() walks: its walks are not costed */
	bool			quiet;
	/* an allocation failed halfway through an op: refuse further ops */
	bool			broken;
	/* an op failed for want of memory: rsim_out_of_memory() */
	bool			out_of_memory;
	/* the running op refused its arguments with -ENOMEM (ops.c) */
	bool			refused;
};

/* The splitmix64 finaliser: every input bit affects every output bit. */
static inline u64 rsim_mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* The hash bucket of a pid or a file id in sim->mm_hash, ->file_hash. */
static inline unsigned int rsim_bucket(unsigned long id)
{
	return rsim_mix64(id) & (RSIM_HASH_BUCKETS - 1);
}

static inline unsigned long rsim_vma_start(const struct rsim_vma *v)
{
	return v->vma.vm_start >> PAGE_SHIFT;
}

static inline unsigned long rsim_vma_end(const struct rsim_vma *v)
{
	return v->vma.vm_end >> PAGE_SHIFT;
}

static inline unsigned long rsim_vma_pages(const struct rsim_vma *v)
{
	return rsim_vma_end(v) - rsim_vma_start(v);
}

static inline bool rsim_vma_is_shared(const struct rsim_vma *v)
{
	return v->vma.vm_flags & VM_SHARED;
}

/*
 * The linear index of @vpn in @v: vm_pgoff + offset in the vma.  A file
 * page's offset, and the anon_vma schemes' page->index.
 */
static inline unsigned long rsim_vma_index(const struct rsim_vma *v,
					   unsigned long vpn)
{
	return v->vma.vm_pgoff + (vpn - rsim_vma_start(v));
}

static inline struct rsim_pte_table *rsim_pte_table_of(struct rsim_pte *pte)
{
	unsigned long slot = pte->bits >> RSIM_PTE_SLOT_SHIFT;

	return container_of(pte - slot, struct rsim_pte_table, pte[0]);
}

static inline unsigned long rsim_pte_vpn(struct rsim_pte *pte)
{
	return rsim_pte_table_of(pte)->base +
	       (pte->bits >> RSIM_PTE_SLOT_SHIFT);
}

static inline void rsim_meta_add(struct rsim *sim, long bytes)
{
	sim->cost.meta_bytes += bytes;
	if (sim->cost.meta_bytes > sim->cost.meta_bytes_peak)
		sim->cost.meta_bytes_peak = sim->cost.meta_bytes;
}

/*
 * One rmap walk of one page.  The scheme calls rsim_walk_visit() for each
 * pte it examines; the walk keeps the ptes that map the page.
 */
struct rsim_walk {
	struct rsim		*sim;
	struct rsim_page	*page;
	struct rsim_walk_cost	*cost;
	/* called for each pte that maps the page; may clear it */
	void			(*found)(struct rsim_walk *walk,
					 struct rsim_pte *pte);
	bool			unmaps;		/* @found clears the pte */
	unsigned long		nr;
	u64			hash;
	unsigned long		referenced;
};

/* ---- the schemes' ops tables ------------------------------------------ */

/* called for each vma that maps part of file pages [first, last] */
typedef void (*rsim_vma_range_fn)(struct rsim *sim, struct rsim_vma *v,
				  unsigned long first, unsigned long last);

/*
 * What file and anonymous pages alike ask of their scheme.
 *
 * @add_pte: page_add_rmap() for a scheme that records each pte (only
 *	pte_chain); called after the pte points at the page and
 *	page->mapcount counts it.  0, or -ENOMEM with nothing recorded.
 *	NULL: the scheme finds ptes from page->mapping and keeps nothing.
 * @remove_pte: page_remove_rmap(), before page->mapcount drops; NULL
 *	exactly when @add_pte is.
 * @walk: the rmap walk of a mapped page: rsim_walk_visit() for every pte
 *	that might map it.  walk->found may clear the pte it is given.
 */
struct rsim_page_ops {
	int	(*add_pte)(struct rsim *sim, struct rsim_page *page,
			   struct rsim_pte *pte);
	void	(*remove_pte)(struct rsim *sim, struct rsim_page *page,
			      struct rsim_pte *pte);
	void	(*walk)(struct rsim_walk *walk);
};

/*
 * A file page scheme, the simulator's address_space_operations.  The
 * i_mmap hooks are called only for file vmas.
 *
 * @name: as printed and parsed (rsim_file_scheme_name())
 * @page: page_add_rmap, page_remove_rmap and the walk of file pages
 * @link_vma: put a new vma, range final, into its file's i_mmap
 * @link_fork: put @child, fork's copy of @parent, next to @parent
 * @unlink_vma: take a vma out of i_mmap
 * @modify_vma: set a linked vma's range and vm_pgoff where i_mmap is
 *	keyed on them; NULL: i_mmap does not care, set the fields
 * @for_each_vma: the i_mmap query of invalidate_mmap_range(): call the
 *	function on each vma whose file range meets [first, last]; it may
 *	unmap ptes but not change i_mmap.  Returns the vmas visited.
 * @check: verify the file's i_mmap, 0 or -EUCLEAN; NULL: nothing to check
 */
struct rsim_file_ops {
	const char		*name;
	struct rsim_page_ops	page;
	void	(*link_vma)(struct rsim *sim, struct rsim_vma *v);
	void	(*link_fork)(struct rsim *sim, struct rsim_vma *child,
			     struct rsim_vma *parent);
	void	(*unlink_vma)(struct rsim *sim, struct rsim_vma *v);
	void	(*modify_vma)(struct rsim_vma *v, unsigned long start,
			      unsigned long end, unsigned long pgoff);
	int	(*for_each_vma)(struct rsim *sim, struct rsim_file *file,
				unsigned long first, unsigned long last,
				rsim_vma_range_fn fn);
	int	(*check)(struct rsim_file *file, struct rsim_report *report);
};

/*
 * An anonymous page scheme.  The vma hooks are NULL for a scheme that
 * keeps no object per vma (v->anon_vma stays NULL then), the mm hooks
 * for one that keeps none per mm.
 *
 * @name: as printed and parsed (rsim_anon_scheme_name())
 * @page: page_add_rmap, page_remove_rmap and the walk of anon pages
 * @addr_indexed: page->index is the virtual page, so a page mapped by
 *	more than one pte cannot move: mremap copies it (anonmm)
 * @set_page: page_add_new_anon_rmap(): set page->mapping and ->index of
 *	a new page mapped in @v at @vpn; NULL: both stay 0 (pte_chain:
 *	the page's chain is its whole reverse map)
 * @page_ok: verify: do page->mapping and ->index lead a walk to the pte
 *	of @v at @vpn?  *@want: the index expected.  NULL: no rule
 * @mapping_ok: verify: is page->mapping, of a mapped page, alive and
 *	right?  NULL: nothing more to check than @page_ok
 * @prepare: anon_vma_prepare(): @v is about to get its first anon page.
 *	0 or -ENOMEM
 * @fork_vma: dup_mmap() for @child, a copy of @parent not yet linked
 *	anywhere.  0, or -ENOMEM with nothing linked
 * @clone_vma: @copy takes part of @orig's pages (split, mremap).  0, or
 *	-ENOMEM with nothing linked
 * @unlink_vma: @v maps no anon page any more, or its pages are covered
 *	by a vma of the same anon_vma (merge)
 * @mergeable: may @prev and @next, adjacent and compatible, be one vma?
 *	NULL: always
 * @mm_new: a new mm (@parent: forked from it; NULL: exec).  0 or -ENOMEM
 * @mm_exit: an mm whose ptes are all gone goes away
 * @hand_on: @mm stopped mapping @page, which others still map
 */
struct rsim_anon_ops {
	const char		*name;
	struct rsim_page_ops	page;
	bool			addr_indexed;
	void	(*set_page)(struct rsim_page *page, struct rsim_vma *v,
			    unsigned long vpn);
	bool	(*page_ok)(const struct rsim_page *page,
			   const struct rsim_vma *v, unsigned long vpn,
			   unsigned long *want);
	bool	(*mapping_ok)(const struct rsim_page *page);
	int	(*prepare)(struct rsim *sim, struct rsim_vma *v);
	int	(*fork_vma)(struct rsim *sim, struct rsim_vma *child,
			    struct rsim_vma *parent);
	int	(*clone_vma)(struct rsim *sim, struct rsim_vma *copy,
			     struct rsim_vma *orig);
	void	(*unlink_vma)(struct rsim *sim, struct rsim_vma *v);
	bool	(*mergeable)(const struct rsim_vma *prev,
			     const struct rsim_vma *next);
	int	(*mm_new)(struct rsim *sim, struct rsim_mm *mm,
			  struct rsim_mm *parent);
	void	(*mm_exit)(struct rsim *sim, struct rsim_mm *mm);
	void	(*hand_on)(struct rsim *sim, struct rsim_page *page,
			   struct rsim_mm *mm);
};

/* the schemes: file.c, pte_chain.c, anon_vma.c, avc.c, anonmm.c */
extern const struct rsim_file_ops rsim_list_file_ops;
extern const struct rsim_file_ops rsim_prio_file_ops;
extern const struct rsim_file_ops rsim_pte_chain_file_ops;
extern const struct rsim_anon_ops rsim_pte_chain_anon_ops;
extern const struct rsim_anon_ops rsim_anon_vma_ops;
extern const struct rsim_anon_ops rsim_avc_ops;
extern const struct rsim_anon_ops rsim_anonmm_ops;

/* names.c: the schemes by enum value; a new scheme is one line there */
extern const struct rsim_file_ops *const
	rsim_file_schemes[RSIM_NR_FILE_SCHEMES];
extern const struct rsim_anon_ops *const
	rsim_anon_schemes[RSIM_NR_ANON_SCHEMES];

/* ---- mm.c: the bottom layer ----------------------------------------- */

u64 rsim_mapping_hash(unsigned long pid, unsigned long vpn);
struct rsim_mm *rsim_mm_find(struct rsim *sim, unsigned long pid);
struct rsim_file *rsim_file_find(struct rsim *sim, unsigned long id);

struct rsim_pte *rsim_pte_lookup(struct rsim_mm *mm, unsigned long vpn);
struct rsim_pte *rsim_pte_alloc(struct rsim_mm *mm, unsigned long vpn);
struct rsim_pte *rsim_next_pte(struct rsim_mm *mm, unsigned long *vpn,
			       unsigned long end);
void rsim_free_page_tables(struct rsim_mm *mm);

struct rsim_page *rsim_page_alloc(struct rsim *sim);
void rsim_page_free(struct rsim *sim, struct rsim_page *page);

struct rsim_page *rsim_cache_find(struct rsim *sim, struct rsim_file *file,
				  unsigned long index);
int rsim_cache_add(struct rsim *sim, struct rsim_file *file,
		   struct rsim_page *page, unsigned long index);
void rsim_cache_remove(struct rsim *sim, struct rsim_page *page);

void rsim_walk_visit(struct rsim_walk *walk, struct rsim_mm *mm,
		     unsigned long vpn);
void rsim_walk_vma(struct rsim_walk *walk, struct rsim_vma *v);

struct rsim_vma *rsim_find_vma(struct rsim_mm *mm, unsigned long vpn);
struct rsim_vma *rsim_find_overlap(struct rsim_mm *mm, unsigned long start,
				   unsigned long end);
void rsim_addr_index_insert(struct rsim_vma *v);
struct rsim_vma *rsim_vma_alloc(struct rsim_mm *mm, unsigned long start,
				unsigned long end, unsigned long pgoff,
				unsigned long vm_flags, struct rsim_file *file);
void rsim_vma_set_bounds(struct rsim_vma *v, unsigned long start,
			 unsigned long end, unsigned long pgoff);

void rsim_i_mmap_list_link(struct rsim *sim, struct rsim_vma *v);
void rsim_i_mmap_list_link_fork(struct rsim *sim, struct rsim_vma *child,
				struct rsim_vma *parent);
void rsim_i_mmap_list_unlink(struct rsim *sim, struct rsim_vma *v);
int rsim_i_mmap_list_for_each(struct rsim *sim, struct rsim_file *file,
			      unsigned long first, unsigned long last,
			      rsim_vma_range_fn fn);

struct rsim_anon_vma *rsim_anon_vma_alloc(struct rsim *sim);
void rsim_anon_vma_put(struct rsim *sim, struct rsim_anon_vma *av);
struct rsim_anon_vma *rsim_anon_vma_neighbour(struct rsim_vma *v);
bool rsim_anon_vma_mergeable(const struct rsim_vma *prev,
			     const struct rsim_vma *next);
void rsim_anon_vma_set_page(struct rsim_page *page, struct rsim_vma *v,
			    unsigned long vpn);
bool rsim_anon_vma_page_ok(const struct rsim_page *page,
			   const struct rsim_vma *v, unsigned long vpn,
			   unsigned long *want);

/* ---- rmap.c ---------------------------------------------------------- */

int rsim_pte_map(struct rsim *sim, struct rsim_pte *pte,
		 struct rsim_page *page, unsigned long bits);
struct rsim_page *rsim_pte_unmap(struct rsim *sim, struct rsim_pte *pte,
				 struct rsim_mm *mm, bool hand_on);
void rsim_page_release(struct rsim *sim, struct rsim_page *page);
void rsim_page_written(struct rsim_page *page);
void rsim_walk_page(struct rsim *sim, struct rsim_walk *walk,
		    struct rsim_page *page,
		    void (*found)(struct rsim_walk *walk, struct rsim_pte *pte),
		    bool unmaps);
void rsim_reclaim_page(struct rsim *sim, struct rsim_page *page,
		       struct rsim_walk_result *result);
void rsim_walk_twins(struct rsim *sim, struct rsim_page *page,
		     struct rsim_walk_result *result);

/* ---- vma.c ----------------------------------------------------------- */

void rsim_vma_set_range(struct rsim *sim, struct rsim_vma *v,
			unsigned long start, unsigned long end,
			unsigned long pgoff);
void rsim_vma_link_mm(struct rsim *sim, struct rsim_vma *v);
void rsim_vma_link(struct rsim *sim, struct rsim_vma *v);
void rsim_vma_free(struct rsim *sim, struct rsim_vma *v);
struct rsim_vma *rsim_vma_split(struct rsim *sim, struct rsim_vma *v,
				unsigned long at);
bool rsim_vma_compatible(struct rsim_vma *prev, struct rsim_vma *next);
struct rsim_vma *rsim_vma_try_merge(struct rsim *sim, struct rsim_vma *v);
void rsim_zap_range(struct rsim *sim, struct rsim_mm *mm,
		    unsigned long start, unsigned long end);
int rsim_do_munmap(struct rsim *sim, struct rsim_mm *mm,
		   unsigned long start, unsigned long end);
struct rsim_mm *rsim_mm_new(struct rsim *sim, unsigned long pid,
			    struct rsim_mm *parent);
void rsim_mm_free(struct rsim *sim, struct rsim_mm *mm);

/* ---- calling the schemes -------------------------------------------- */

/*
 * For the files above the schemes only: each helper calls one hook of
 * the table rsim_create() chose, and stands for what the hook's absence
 * means.  A scheme never calls these (nor ops.c, vma.c or rmap.c), so
 * no call leads from a scheme back up.
 */

static inline void rsim_file_link_vma(struct rsim *sim, struct rsim_vma *v)
{
	if (v->file)
		sim->file_ops->link_vma(sim, v);
}

static inline void rsim_file_link_fork(struct rsim *sim,
				       struct rsim_vma *child,
				       struct rsim_vma *parent)
{
	if (child->file)
		sim->file_ops->link_fork(sim, child, parent);
}

static inline void rsim_file_unlink_vma(struct rsim *sim, struct rsim_vma *v)
{
	if (v->file)
		sim->file_ops->unlink_vma(sim, v);
}

static inline void rsim_file_modify_vma(struct rsim *sim, struct rsim_vma *v,
					unsigned long start, unsigned long end,
					unsigned long pgoff)
{
	if (v->file && sim->file_ops->modify_vma)
		sim->file_ops->modify_vma(v, start, end, pgoff);
	else
		rsim_vma_set_bounds(v, start, end, pgoff);
}

static inline int rsim_anon_prepare(struct rsim *sim, struct rsim_vma *v)
{
	return sim->anon_ops->prepare ? sim->anon_ops->prepare(sim, v) : 0;
}

static inline int rsim_anon_fork_vma(struct rsim *sim, struct rsim_vma *child,
				     struct rsim_vma *parent)
{
	return sim->anon_ops->fork_vma ?
	       sim->anon_ops->fork_vma(sim, child, parent) : 0;
}

static inline int rsim_anon_clone_vma(struct rsim *sim, struct rsim_vma *copy,
				      struct rsim_vma *orig)
{
	return sim->anon_ops->clone_vma ?
	       sim->anon_ops->clone_vma(sim, copy, orig) : 0;
}

static inline void rsim_anon_unlink_vma(struct rsim *sim, struct rsim_vma *v)
{
	if (sim->anon_ops->unlink_vma)
		sim->anon_ops->unlink_vma(sim, v);
}

/* page_add_new_anon_rmap(): @page, new, is anonymous from now on */
static inline void rsim_anon_set_page(struct rsim *sim,
				      struct rsim_page *page,
				      struct rsim_vma *v, unsigned long vpn)
{
	page->flags |= RSIM_PG_ANON;
	if (sim->anon_ops->set_page) {
		sim->anon_ops->set_page(page, v, vpn);
	} else {
		page->mapping = NULL;
		page->index = 0;
	}
}

#endif /* _PRIOTREE_RMAP_RSIM_INTERNAL_H */
