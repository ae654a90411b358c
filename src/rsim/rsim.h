/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PRIOTREE_RMAP_RSIM_H
#define _PRIOTREE_RMAP_RSIM_H

/*
 * rsim: a small simulated memory manager whose reverse map is pluggable,
 * so that the rmap schemes of the 2004 debate can run the same work side
 * by side and be checked against each other and against ground truth.
 *
 * The question every scheme answers is "which (process, address) pairs
 * map this physical page?".  A simulation is created with one scheme for
 * file pages and one for anonymous pages:
 *
 *   file pages   pte_chain   2.6.5 mainline: a chain of pte pointers per
 *                            page, or one "direct" pte when mapped once
 *                list        objrmap: walk every vma on a linear
 *                            address_space->i_mmap{,_shared} list
 *                prio        objrmap: stabbing query of the radix
 *                            priority search tree (the vma layer of
 *                            <linux/vma_prio_tree.h>, with vm_set lists)
 *
 *   anon pages   pte_chain   as above
 *                anon_vma    Arcangeli (2.6.7): page->mapping is the
 *                            anon_vma, page->index is linear in vma units,
 *                            fork links the child's vma on the parent's
 *                            anon_vma list, mremap keeps vm_pgoff, vmas
 *                            with different anon_vmas never merge
 *                anonmm      Dickins: one anonmm per mm, all mms of one
 *                            exec in a bundle, page->index is the virtual
 *                            address; mremap moves only exclusive pages
 *                            and breaks copy-on-write early otherwise; an
 *                            exiting mm hands its pages on
 *                anon_vma_chain  van Riel (2.6.34): one anon_vma per
 *                            process generation, linked to vmas through
 *                            anon_vma_chain structs, so walks of a page
 *                            visit only the vmas that can map it
 *
 * Everything is driven by struct rsim_op through rsim_apply().  Addresses
 * and lengths in ops are in pages (an "address" N is the virtual page at
 * byte N << PAGE_SHIFT); file offsets are in pages.  Processes and files
 * are named by ids the scenario chooses (any unsigned long).
 *
 * Kernel semantics, with the simplifications the models need:
 *  - mmap is MAP_FIXED: whatever the new range overlapped is unmapped
 *    first.  A new vma merges with compatible neighbours, as do the
 *    pieces mprotect leaves.
 *  - Page contents are not modelled.  Reclaiming an anonymous page
 *    discards it ("swap" that forgets): a later fault at that address
 *    allocates a fresh exclusive page.
 *  - Truncate unmaps every pte beyond the new EOF in every vma of the
 *    file (shared and private, COWed copies included), found through the
 *    scheme's i_mmap query as invalidate_mmap_range() does, and then
 *    frees the page cache pages beyond EOF.
 *
 * An op that is invalid in the current state (unknown pid or file, no
 * vma at the address, range outside a vma where one is needed...) returns
 * a negative errno and leaves the simulation exactly as it was, so a
 * scenario generator may try an op and keep it only if it applies.
 *
 * Ids and structure names carry the rsim_ prefix: this header and the
 * engine compile inside a Linux 6.1 tree next to the real struct page,
 * struct mm_struct and struct anon_vma.
 */

#include <linux/kernel.h>

/* ---- schemes ------------------------------------------------------ */

enum rsim_file_scheme {
	RSIM_FILE_PTE_CHAIN,
	RSIM_FILE_LIST,
	RSIM_FILE_PRIO,
	RSIM_NR_FILE_SCHEMES
};

enum rsim_anon_scheme {
	RSIM_ANON_PTE_CHAIN,
	RSIM_ANON_VMA,
	RSIM_ANON_MM,
	RSIM_ANON_VMA_CHAIN,
	RSIM_NR_ANON_SCHEMES
};

/*
 * Printable names: "pte_chain", "list", "prio" and "pte_chain",
 * "anon_vma", "anonmm", "anon_vma_chain".  The parse functions accept
 * exactly these and return the scheme or -EINVAL.
 */
const char *rsim_file_scheme_name(enum rsim_file_scheme scheme);
const char *rsim_anon_scheme_name(enum rsim_anon_scheme scheme);
int rsim_file_scheme_parse(const char *name);
int rsim_anon_scheme_parse(const char *name);

/* ---- operations --------------------------------------------------- */

/* Largest virtual page number + 1: 27 bits, a three-level 9/9/9 table. */
#define RSIM_TASK_PAGES		(1UL << 27)
/* Largest file size in pages. */
#define RSIM_FILE_MAX_PAGES	(1UL << 27)

/* the "prot" argument */
#define RSIM_PROT_READ		0x1UL
#define RSIM_PROT_WRITE		0x2UL

#define RSIM_OP_MAX_ARGS	6

/*
 * The operations.  Arguments, in args[] order (addr/npages in pages):
 *
 * RSIM_OP_FILE_CREATE   file, npages
 *	A new file of npages pages.  -EEXIST if the id is taken.
 * RSIM_OP_EXEC          pid
 *	A new empty mm for pid: if pid exists its old mm is torn down as by
 *	exit (the process stays), otherwise the process is created.  Under
 *	anonmm the new mm starts a new bundle.
 * RSIM_OP_FORK          parent, child
 *	The child gets a copy of the parent's mm: shared file vmas share the pages,
 *	private and anonymous ptes become copy-on-write in both.  -EEXIST if
 *	the child exists.
 * RSIM_OP_EXIT          pid
 *	Unmaps everything and removes the process.
 * RSIM_OP_MMAP_SHARED   pid, addr, npages, prot, file, pgoff
 * RSIM_OP_MMAP_PRIVATE  pid, addr, npages, prot, file, pgoff
 *	Map file pages [pgoff, pgoff + npages) at addr (MAP_FIXED).  The
 *	range may extend beyond EOF; faults there fail.
 * RSIM_OP_MMAP_ANON     pid, addr, npages, prot
 *	Private anonymous memory (MAP_FIXED).
 * RSIM_OP_MUNMAP        pid, addr, npages
 *	Unmap whatever lies in the range (possibly nothing, possibly parts
 *	of several vmas, which are split).
 * RSIM_OP_MPROTECT      pid, addr, npages, prot
 *	Every page of the range must be mapped (-ENOMEM otherwise, as
 *	mprotect(2)).  Splits vmas at the range ends and re-merges where
 *	the flags allow.  Revoking write write-protects the ptes.
 * RSIM_OP_MREMAP_RESIZE pid, addr, old_npages, new_npages
 *	Grow or shrink in place.  [addr, addr + old_npages) must lie in one
 *	vma (-EFAULT); growth needs free space after it (-ENOMEM).
 * RSIM_OP_MREMAP_MOVE   pid, addr, old_npages, new_npages, new_addr
 *	Move [addr, addr + old_npages) (within one vma) to new_addr with
 *	new_npages pages (MREMAP_FIXED: the target range is unmapped
 *	first; it must not overlap the source, -EINVAL).
 * RSIM_OP_FAULT_READ    pid, addr
 * RSIM_OP_FAULT_WRITE   pid, addr
 *	A user access.  -EFAULT without a vma, for a write to a vma without
 *	write permission, or for a file page beyond EOF (SIGBUS).  Sets the
 *	pte's young bit; a write to a read-only pte of a writable private
 *	mapping breaks COW (reusing the page when it is mapped only once).
 * RSIM_OP_TRUNCATE      file, npages
 *	Set the file size; shrinking unmaps and frees beyond EOF.
 * RSIM_OP_RECLAIM_FILE  file, pgoff
 *	Reclaim the page cache page: page_referenced() (clears young bits),
 *	then try_to_unmap() and free.  A page not in the page cache is a
 *	no-op (returns 0).
 * RSIM_OP_RECLAIM_ADDR  pid, addr
 *	The same for the page mapped at pid/addr (file or anon).  -EFAULT
 *	without a vma; no pte there is a no-op.
 * RSIM_OP_WALK_FILE     file, pgoff
 * RSIM_OP_WALK_ADDR     pid, addr
 *	An explicit rmap walk, without side effects on the mappings: the
 *	result set of (pid, address) goes into the digest and into
 *	rsim_last_walk().  Absent pages give an empty set.
 */
enum rsim_op_kind {
	RSIM_OP_FILE_CREATE,
	RSIM_OP_EXEC,
	RSIM_OP_FORK,
	RSIM_OP_EXIT,
	RSIM_OP_MMAP_SHARED,
	RSIM_OP_MMAP_PRIVATE,
	RSIM_OP_MMAP_ANON,
	RSIM_OP_MUNMAP,
	RSIM_OP_MPROTECT,
	RSIM_OP_MREMAP_RESIZE,
	RSIM_OP_MREMAP_MOVE,
	RSIM_OP_FAULT_READ,
	RSIM_OP_FAULT_WRITE,
	RSIM_OP_TRUNCATE,
	RSIM_OP_RECLAIM_FILE,
	RSIM_OP_RECLAIM_ADDR,
	RSIM_OP_WALK_FILE,
	RSIM_OP_WALK_ADDR,
	RSIM_NR_OPS
};

struct rsim_op {
	enum rsim_op_kind	kind;
	unsigned long		args[RSIM_OP_MAX_ARGS];
};

/*
 * What a scenario parser needs to know of each kind: a lower-case name
 * ("file", "exec", "fork", "exit", "mmap-shared", "mmap-private",
 * "mmap-anon", "munmap", "mprotect", "mremap", "mremap-move", "read",
 * "write", "truncate", "reclaim-file", "reclaim", "walk-file", "walk"),
 * the argument count and each argument's name, in args[] order.
 */
struct rsim_op_desc {
	const char	*name;
	unsigned int	nr_args;
	const char	*arg_names[RSIM_OP_MAX_ARGS];
};

/* NULL for a kind out of range.  O(1). */
const struct rsim_op_desc *rsim_op_desc(enum rsim_op_kind kind);
/* The kind whose desc name is @name, or -EINVAL.  O(RSIM_NR_OPS). */
int rsim_op_parse(const char *name);

/* ---- cost accounting ---------------------------------------------- */

/*
 * What rmap walks cost, for file pages and anonymous pages apart.  A walk
 * is one pass over the reverse map of one page (page_referenced,
 * try_to_unmap, an explicit walk, a verification walk is NOT counted).
 */
struct rsim_walk_cost {
	u64	walks;		/* rmap walks done */
	u64	vmas;		/* vmas visited (objrmap, anon_vma, anonmm) */
	u64	mms;		/* mms visited (anonmm bundles) */
	u64	anon_vmas;	/* anon_vma structs visited (anon_vma_chain) */
	u64	chain_entries;	/* pte_chain entries read (direct counts 1) */
	u64	ptes;		/* ptes examined (page table lookups) */
	u64	found;		/* (mm, address) mappings found */
};

/*
 * Work done by mm-wide operations: ptes copied, zapped or moved, and
 * reverse-map updates (pte_chain entries added or removed, vmas linked
 * into or out of i_mmap / anon_vma lists, anon_vma_chain structs made or
 * freed, anonmm structs made, pages handed on).
 */
struct rsim_op_cost {
	u64	calls;
	u64	ptes;
	u64	rmap_updates;
};

/*
 * All counters are deterministic: the same scenario under the same
 * schemes gives the same numbers on every run and in either world.
 */
struct rsim_cost {
	struct rsim_walk_cost	file_walk;
	struct rsim_walk_cost	anon_walk;

	struct rsim_op_cost	fork;
	struct rsim_op_cost	exit;	/* exit, and exec's teardown */
	struct rsim_op_cost	mremap;
	struct rsim_op_cost	munmap;	/* munmap and MAP_FIXED overlap */
	struct rsim_op_cost	truncate;

	u64	faults;
	u64	cow_copies;		/* COW breaks that copied the page */
	u64	cow_early;		/* anonmm: copies made by mremap */
	u64	pages_reclaimed;
	u64	referenced;		/* young ptes page_referenced() saw */

	/*
	 * Bytes of reverse-map metadata alive now and at most: pte_chain
	 * blocks, anon_vma, anonmm and anon_vma_chain structs, and the
	 * i_mmap linkage of each vma (the prio tree node and vm_set links,
	 * or the list_head).
	 */
	u64	meta_bytes;
	u64	meta_bytes_peak;
	u64	pte_chain_blocks;	/* pte_chain blocks alive */

	/* current population, for reports */
	u64	pages;			/* physical pages allocated */
	u64	ptes_mapped;		/* present ptes */
	u64	vmas;
	u64	mms;
};

/* ---- lifecycle and running ---------------------------------------- */

struct rsim;

/*
 * The result of the last RSIM_OP_WALK_*: how many mappings it found and
 * an order-independent 64-bit hash of the (pid, address) set.
 */
struct rsim_walk_result {
	unsigned long	nr;
	u64		hash;
};

/* A failed rsim_verify() fills this in. */
struct rsim_report {
	char	msg[256];
};

/*
 * rsim_create() returns an empty simulation (no files, no processes) or
 * NULL when out of memory; rsim_destroy() frees it and everything in it.
 *
 * rsim_apply() runs one op: 0, or a negative errno for an op invalid in
 * the current state (nothing changed then), or -ENOMEM.  An -ENOMEM is
 * either an op's refusal (mprotect, mremap) or an allocation failure;
 * rsim_out_of_memory() tells which: it is true from the first
 * allocation failure on.
 *
 * rsim_digest() is the running 64-bit hash over every rmap walk's result
 * set (explicit walks and the walks of reclaim), folded in op order.  It
 * does not depend on the schemes: anonmm's early COW copies of one page
 * are walked together, as the one page the other schemes still share.
 *
 * rsim_verify() walks every page through the scheme's reverse map and
 * compares with the brute-force walk of every page table; it also checks
 * mapcounts, page->mapping/index and each i_mmap prio tree.  0, or
 * -EUCLEAN with @report saying what differs.  Cost: O(pages * walk +
 * ptes).  Not counted in struct rsim_cost.
 */
struct rsim *rsim_create(enum rsim_file_scheme file_scheme,
			 enum rsim_anon_scheme anon_scheme);
void rsim_destroy(struct rsim *sim);
int rsim_apply(struct rsim *sim, const struct rsim_op *op);
u64 rsim_digest(const struct rsim *sim);
const struct rsim_cost *rsim_cost(const struct rsim *sim);
const struct rsim_walk_result *rsim_last_walk(const struct rsim *sim);
int rsim_verify(struct rsim *sim, struct rsim_report *report);
bool rsim_out_of_memory(const struct rsim *sim);

#endif /* _PRIOTREE_RMAP_RSIM_H */
