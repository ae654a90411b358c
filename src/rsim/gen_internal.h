/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PRIOTREE_RMAP_GEN_INTERNAL_H
#define _PRIOTREE_RMAP_GEN_INTERNAL_H

/*
 * What the generator files (gen_*.c) share: the state of one run and a
 * helper per op kind.  Each helper emits one op and returns 0 or the
 * first error; once an error is seen every later helper returns it
 * without emitting, so a generator may test only at the end of a loop.
 */

#include "gen.h"

/* Where the generators put things, in virtual pages (below 2^27). */
#define RSIM_GEN_MAP_BASE	0x100UL

struct rsim_gen {
	const struct rsim_gen_params	*params;
	struct rsim_gen_rng		rng;
	rsim_gen_emit_t			emit;
	void				*ctx;
	int				err;
};

/* gen_core.c: emit one op (the helpers below are all this) */
int rsim_gen_op(struct rsim_gen *gen, enum rsim_op_kind kind,
		unsigned long a0, unsigned long a1, unsigned long a2,
		unsigned long a3, unsigned long a4, unsigned long a5);

static inline int rsim_gen_file(struct rsim_gen *gen, unsigned long file,
				unsigned long npages)
{
	return rsim_gen_op(gen, RSIM_OP_FILE_CREATE, file, npages, 0, 0, 0, 0);
}

static inline int rsim_gen_exec(struct rsim_gen *gen, unsigned long pid)
{
	return rsim_gen_op(gen, RSIM_OP_EXEC, pid, 0, 0, 0, 0, 0);
}

static inline int rsim_gen_fork(struct rsim_gen *gen, unsigned long parent,
				unsigned long child)
{
	return rsim_gen_op(gen, RSIM_OP_FORK, parent, child, 0, 0, 0, 0);
}

static inline int rsim_gen_exit(struct rsim_gen *gen, unsigned long pid)
{
	return rsim_gen_op(gen, RSIM_OP_EXIT, pid, 0, 0, 0, 0, 0);
}

static inline int rsim_gen_mmap_file(struct rsim_gen *gen, bool shared,
				     unsigned long pid, unsigned long addr,
				     unsigned long npages, unsigned long prot,
				     unsigned long file, unsigned long pgoff)
{
	return rsim_gen_op(gen, shared ? RSIM_OP_MMAP_SHARED :
			   RSIM_OP_MMAP_PRIVATE, pid, addr, npages, prot,
			   file, pgoff);
}

static inline int rsim_gen_mmap_anon(struct rsim_gen *gen, unsigned long pid,
				     unsigned long addr, unsigned long npages,
				     unsigned long prot)
{
	return rsim_gen_op(gen, RSIM_OP_MMAP_ANON, pid, addr, npages, prot,
			   0, 0);
}

static inline int rsim_gen_touch(struct rsim_gen *gen, unsigned long pid,
				 unsigned long addr, bool write)
{
	return rsim_gen_op(gen, write ? RSIM_OP_FAULT_WRITE :
			   RSIM_OP_FAULT_READ, pid, addr, 0, 0, 0, 0);
}

static inline int rsim_gen_reclaim_file(struct rsim_gen *gen,
					unsigned long file,
					unsigned long pgoff)
{
	return rsim_gen_op(gen, RSIM_OP_RECLAIM_FILE, file, pgoff, 0, 0, 0, 0);
}

static inline int rsim_gen_reclaim_addr(struct rsim_gen *gen,
					unsigned long pid,
					unsigned long addr)
{
	return rsim_gen_op(gen, RSIM_OP_RECLAIM_ADDR, pid, addr, 0, 0, 0, 0);
}

/*
 * The generators, one per kind (gen_workloads.c, gen_random.c).  Only
 * gen_run.c calls them; they call only the helpers above and the rng of
 * gen_core.c, so the calls between the gen_*.c files go one way.
 */
int rsim_gen_rmap_test(struct rsim_gen *gen);
int rsim_gen_test_mmap(struct rsim_gen *gen);
int rsim_gen_avc_fork_chain(struct rsim_gen *gen);
int rsim_gen_fork_exec_mix(struct rsim_gen *gen);
int rsim_gen_random(struct rsim_gen *gen);

#endif /* _PRIOTREE_RMAP_GEN_INTERNAL_H */
