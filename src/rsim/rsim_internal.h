/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PRIOTREE_RMAP_RSIM_INTERNAL_H
#define _PRIOTREE_RMAP_RSIM_INTERNAL_H

/*
 * The objects of the simulated memory manager, shared by the engine's
 * files: rsim_core.c (processes, vmas, page tables, faults, the ops),
 * rsim_file.c (i_mmap: list or prio tree), rsim_anon.c (anon_vma,
 * anonmm, anon_vma_chain) and rsim_pte_chain.c (2.6.5 pte chains).
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
	u64			serial;
	/* ground truth scratch for rsim_verify() */
	unsigned long		gt_count;
	u64			gt_hash;
};

/* ---- files ---------------------------------------------------------- */

struct rsim_file {
	unsigned long		id;
	unsigned long		size;		/* pages */
	/* the page cache: @nr_slots long, grown on demand */
	struct rsim_page	**cache;
	unsigned long		nr_slots;
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

struct rsim {
	enum rsim_file_scheme	file_scheme;
	enum rsim_anon_scheme	anon_scheme;
	struct list_head	mm_hash[RSIM_HASH_BUCKETS];
	struct list_head	file_hash[RSIM_HASH_BUCKETS];
	struct list_head	mms;
	struct list_head	files;
	struct list_head	pages;
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
};

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

/* rsim_core.c */
struct rsim_pte *rsim_pte_lookup(struct rsim_mm *mm, unsigned long vpn);
struct rsim_vma *rsim_find_vma(struct rsim_mm *mm, unsigned long vpn);
void rsim_walk_visit(struct rsim_walk *walk, struct rsim_mm *mm,
		     unsigned long vpn);
u64 rsim_mapping_hash(unsigned long pid, unsigned long vpn);

/* rsim_pte_chain.c */
int rsim_pte_chain_add(struct rsim *sim, struct rsim_page *page,
		       struct rsim_pte *pte);
void rsim_pte_chain_remove(struct rsim *sim, struct rsim_page *page,
			   struct rsim_pte *pte);
void rsim_pte_chain_walk(struct rsim_walk *walk);
void rsim_pte_chain_check_empty(struct rsim_page *page);

/* rsim_file.c */
void rsim_file_link_vma(struct rsim *sim, struct rsim_vma *v);
void rsim_file_link_fork(struct rsim *sim, struct rsim_vma *child,
			 struct rsim_vma *parent);
void rsim_file_unlink_vma(struct rsim *sim, struct rsim_vma *v);
void rsim_file_modify_vma(struct rsim *sim, struct rsim_vma *v,
			  unsigned long start, unsigned long end,
			  unsigned long pgoff);
void rsim_file_walk(struct rsim_walk *walk);
/* called for each vma that maps part of file pages [first, last] */
typedef void (*rsim_vma_range_fn)(struct rsim *sim, struct rsim_vma *v,
				  unsigned long first, unsigned long last);
int rsim_file_for_each_vma(struct rsim *sim, struct rsim_file *file,
			   unsigned long first, unsigned long last,
			   rsim_vma_range_fn fn);
int rsim_file_check(struct rsim *sim, struct rsim_file *file,
		    struct rsim_report *report);

/* rsim_anon.c */
int rsim_anon_prepare(struct rsim *sim, struct rsim_vma *v);
int rsim_anon_fork_vma(struct rsim *sim, struct rsim_vma *child,
		       struct rsim_vma *parent);
int rsim_anon_clone_vma(struct rsim *sim, struct rsim_vma *copy,
			struct rsim_vma *orig);
void rsim_anon_unlink_vma(struct rsim *sim, struct rsim_vma *v);
bool rsim_anon_mergeable(struct rsim *sim, struct rsim_vma *prev,
			 struct rsim_vma *next);
int rsim_anon_merge(struct rsim *sim, struct rsim_vma *survivor,
		    struct rsim_vma *dead);
void rsim_anon_set_page(struct rsim *sim, struct rsim_page *page,
			struct rsim_vma *v, unsigned long vpn);
void rsim_anon_walk(struct rsim_walk *walk);
int rsim_anonmm_new(struct rsim *sim, struct rsim_mm *mm,
		    struct rsim_mm *parent);
void rsim_anonmm_exit(struct rsim *sim, struct rsim_mm *mm);
void rsim_anonmm_hand_on(struct rsim *sim, struct rsim_page *page,
			 struct rsim_mm *mm);
int rsim_anon_check_page(struct rsim *sim, struct rsim_page *page,
			 struct rsim_vma *v, unsigned long vpn,
			 struct rsim_report *report);

#endif /* _PRIOTREE_RMAP_RSIM_INTERNAL_H */
