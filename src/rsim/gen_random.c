// SPDX-License-Identifier: GPL-2.0
/*
 * The random scenario: every op kind, with small ids and a small address
 * space so that ranges collide, vmas split and merge, forks share pages
 * and truncates cut through mappings.  A candidate op is tried on a
 * scratch simulation first and emitted only if it applies there, so the
 * scenario is valid by construction (rsim_apply() changes nothing when
 * it refuses an op, see rsim.h).
 */

#include <linux/kernel.h>

#include "gen_internal.h"

/* Virtual pages [0, RANDOM_SPAN) hold every mapping. */
#define RANDOM_SPAN		64UL
/* Files are at most this much larger than -s, to fault beyond EOF. */
#define RANDOM_FILE_SLACK	8UL

/* Relative frequencies of the op kinds; faults dominate, as in life. */
static const unsigned char rsim_gen_random_weight[RSIM_NR_OPS] = {
	[RSIM_OP_FILE_CREATE]	= 1,
	[RSIM_OP_EXEC]		= 2,
	[RSIM_OP_FORK]		= 4,
	[RSIM_OP_EXIT]		= 2,
	[RSIM_OP_MMAP_SHARED]	= 4,
	[RSIM_OP_MMAP_PRIVATE]	= 4,
	[RSIM_OP_MMAP_ANON]	= 4,
	[RSIM_OP_MUNMAP]	= 3,
	[RSIM_OP_MPROTECT]	= 3,
	[RSIM_OP_MREMAP_RESIZE]	= 3,
	[RSIM_OP_MREMAP_MOVE]	= 3,
	[RSIM_OP_FAULT_READ]	= 10,
	[RSIM_OP_FAULT_WRITE]	= 12,
	[RSIM_OP_TRUNCATE]	= 2,
	[RSIM_OP_RECLAIM_FILE]	= 3,
	[RSIM_OP_RECLAIM_ADDR]	= 3,
	[RSIM_OP_WALK_FILE]	= 3,
	[RSIM_OP_WALK_ADDR]	= 3,
};

static enum rsim_op_kind rsim_gen_random_kind(struct rsim_gen_rng *rng)
{
	unsigned int total = 0, pick, kind;

	for (kind = 0; kind < RSIM_NR_OPS; kind++)
		total += rsim_gen_random_weight[kind];
	pick = rsim_gen_rng_below(rng, total);
	for (kind = 0; kind < RSIM_NR_OPS; kind++) {
		if (pick < rsim_gen_random_weight[kind])
			break;
		pick -= rsim_gen_random_weight[kind];
	}
	return kind;
}

/* Fill @op with a candidate of a random kind; it may well not apply. */
static void rsim_gen_random_op(struct rsim_gen *gen, struct rsim_op *op)
{
	const struct rsim_gen_params *p = gen->params;
	struct rsim_gen_rng *rng = &gen->rng;
	unsigned long pid = 1 + rsim_gen_rng_below(rng, p->tasks);
	unsigned long file = 1 + rsim_gen_rng_below(rng, p->mappings);
	unsigned long addr = rsim_gen_rng_below(rng, RANDOM_SPAN);
	unsigned long npages = 1 + rsim_gen_rng_below(rng, p->size);
	unsigned long prot = rsim_gen_rng_below(rng, 2) ?
			     RSIM_PROT_READ | RSIM_PROT_WRITE : RSIM_PROT_READ;
	unsigned long file_pages = p->size + RANDOM_FILE_SLACK;
	unsigned long pgoff = rsim_gen_rng_below(rng, file_pages);
	unsigned long i;

	op->kind = rsim_gen_random_kind(rng);
	for (i = 0; i < RSIM_OP_MAX_ARGS; i++)
		op->args[i] = 0;

	switch (op->kind) {
	case RSIM_OP_FILE_CREATE:
		op->args[0] = file;
		op->args[1] = rsim_gen_rng_below(rng, file_pages + 1);
		break;
	case RSIM_OP_EXEC:
	case RSIM_OP_EXIT:
		op->args[0] = pid;
		break;
	case RSIM_OP_FORK:
		op->args[0] = pid;
		op->args[1] = 1 + rsim_gen_rng_below(rng, p->tasks);
		break;
	case RSIM_OP_MMAP_SHARED:
	case RSIM_OP_MMAP_PRIVATE:
	case RSIM_OP_MMAP_ANON:
	case RSIM_OP_MPROTECT:
	case RSIM_OP_MUNMAP:
		op->args[0] = pid;
		op->args[1] = addr;
		op->args[2] = npages;
		if (op->kind == RSIM_OP_MUNMAP)
			break;
		op->args[3] = prot;
		if (op->kind == RSIM_OP_MMAP_ANON ||
		    op->kind == RSIM_OP_MPROTECT)
			break;
		op->args[4] = file;
		op->args[5] = pgoff;
		break;
	case RSIM_OP_MREMAP_RESIZE:
		op->args[0] = pid;
		op->args[1] = addr;
		op->args[2] = npages;
		op->args[3] = 1 + rsim_gen_rng_below(rng, p->size);
		break;
	case RSIM_OP_MREMAP_MOVE:
		op->args[0] = pid;
		op->args[1] = addr;
		op->args[2] = npages;
		op->args[3] = 1 + rsim_gen_rng_below(rng, p->size);
		op->args[4] = rsim_gen_rng_below(rng, RANDOM_SPAN);
		break;
	case RSIM_OP_FAULT_READ:
	case RSIM_OP_FAULT_WRITE:
	case RSIM_OP_RECLAIM_ADDR:
	case RSIM_OP_WALK_ADDR:
		op->args[0] = pid;
		op->args[1] = addr;
		break;
	case RSIM_OP_TRUNCATE:
		op->args[0] = file;
		op->args[1] = rsim_gen_rng_below(rng, file_pages + 1);
		break;
	case RSIM_OP_RECLAIM_FILE:
	case RSIM_OP_WALK_FILE:
		op->args[0] = file;
		op->args[1] = pgoff;
		break;
	default:
		break;
	}
}

/*
 * Up to this many candidates per op kept: a state in which almost
 * nothing applies (every process gone, say) ends the scenario early
 * instead of looping.
 */
#define RANDOM_TRIES_PER_OP	64

int rsim_gen_random(struct rsim_gen *gen)
{
	const struct rsim_gen_params *p = gen->params;
	unsigned long kept, tries, file;
	struct rsim_op op;
	struct rsim *scratch;
	int err;

	/* The schemes do not matter: validity does not depend on them. */
	scratch = rsim_create(RSIM_FILE_PRIO, RSIM_ANON_VMA_CHAIN);
	if (!scratch)
		return -ENOMEM;

	/* A populated start, so that the first ops have work to do. */
	op = (struct rsim_op) { .kind = RSIM_OP_FILE_CREATE };
	for (file = 1; file <= p->mappings && !gen->err; file++) {
		op.args[0] = file;
		op.args[1] = p->size;
		err = rsim_apply(scratch, &op);
		if (err) {
			gen->err = err;
			break;
		}
		rsim_gen_op(gen, op.kind, op.args[0], op.args[1], 0, 0, 0, 0);
	}
	op = (struct rsim_op) { .kind = RSIM_OP_EXEC, .args = { 1 } };
	if (!gen->err) {
		gen->err = rsim_apply(scratch, &op);
		rsim_gen_exec(gen, 1);
	}

	for (kept = 0; kept < p->iterations && !gen->err; kept++) {
		for (tries = 0; tries < RANDOM_TRIES_PER_OP; tries++) {
			rsim_gen_random_op(gen, &op);
			err = rsim_apply(scratch, &op);
			if (!err)
				break;
		}
		if (tries == RANDOM_TRIES_PER_OP)
			break;
		rsim_gen_op(gen, op.kind, op.args[0], op.args[1], op.args[2],
			    op.args[3], op.args[4], op.args[5]);
	}

	err = gen->err;
	rsim_destroy(scratch);
	return err;
}
