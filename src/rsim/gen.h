/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PRIOTREE_RMAP_GEN_H
#define _PRIOTREE_RMAP_GEN_H

/*
 * Scenario generators: the workloads of the 2004 rmap debate, written as
 * sequences of struct rsim_op, so that the userspace tool (rmapsim) and
 * the kernel port replay the very same operations.
 *
 *   rmap-test       Andrew Morton's rmap-test: N shared mappings of one
 *                   file, each one page further into it, every page
 *                   touched, T tasks forked, then I passes of a linear,
 *                   random or half access pattern under reclaim pressure.
 *   test-mmap2      Ingo Molnar's: a file of 2,000 pages mapped one page
 *                   per vma in reverse file order, touched, then fork
 *                   five times; reclaim pressure on the file at the end.
 *   test-mmap3      the same with 20,000 pages.
 *   avc-fork-chain  the pathology behind anon_vma_chain: a chain of
 *                   servers, each forking workers and its successor and
 *                   then exiting; every child touches its copy of the
 *                   anonymous pages, so each page ends up mapped once
 *                   while one anon_vma collects every live vma.
 *   fork-exec-mix   kernbench/SDET-like churn of short-lived processes
 *                   that fork, exec, touch anonymous and file memory,
 *                   sometimes run a pipeline child, and exit.
 *   random          every op kind at random on a small address space,
 *                   each op kept only if a scratch simulation accepts it.
 *
 * Everything is deterministic: the only source of randomness is the
 * seeded generator below (no libc, no kernel prandom, whose sequence is
 * not ours to fix), so one (kind, parameters, seed) triple always gives
 * the same ops in either world.
 */

#include <linux/kernel.h>

#include "rsim.h"

/* ---- a deterministic pseudo-random generator ----------------------- */

/*
 * SplitMix64 (Steele, Lea, Flood 2014): 64 bits of state, a full period
 * of 2^64, and every seed - zero included - gives a good sequence.
 */
struct rsim_gen_rng {
	u64	state;
};

/**
 * rsim_gen_rng_seed() - start the sequence of @seed
 * @rng: the generator
 * @seed: any value
 *
 * Cost: O(1).
 */
void rsim_gen_rng_seed(struct rsim_gen_rng *rng, u64 seed);

/**
 * rsim_gen_rng_next() - the next 64 random bits
 * @rng: a seeded generator
 *
 * Cost: O(1).
 *
 * Return: the next value of the sequence.
 */
u64 rsim_gen_rng_next(struct rsim_gen_rng *rng);

/**
 * rsim_gen_rng_below() - a random value in [0, @bound)
 * @rng: a seeded generator
 * @bound: at least 1
 *
 * Cost: O(1).
 *
 * Return: the next value of the sequence modulo @bound.
 */
unsigned long rsim_gen_rng_below(struct rsim_gen_rng *rng,
				 unsigned long bound);

/* ---- the kinds and their parameters -------------------------------- */

enum rsim_gen_kind {
	RSIM_GEN_RMAP_TEST,
	RSIM_GEN_TEST_MMAP2,
	RSIM_GEN_TEST_MMAP3,
	RSIM_GEN_AVC_FORK_CHAIN,
	RSIM_GEN_FORK_EXEC_MIX,
	RSIM_GEN_RANDOM,
	RSIM_NR_GEN_KINDS
};

/* rmap-test's access patterns: -l, -r, -h */
enum rsim_gen_access {
	RSIM_GEN_ACCESS_LINEAR,
	RSIM_GEN_ACCESS_RANDOM,
	RSIM_GEN_ACCESS_HALF,
};

/*
 * One struct for every kind; each kind reads the fields its comment in
 * docs/scenario-format.md lists and ignores the rest.  The letters are
 * rmap-test's own command-line flags, which rmapsim keeps for all kinds.
 *
 * @iterations:	-i  rmap-test: access passes; fork-exec-mix: jobs;
 *		    random: ops
 * @mappings:	-n  rmap-test: shared mappings; random: files
 * @size:	-s  pages per mapping (rmap-test), file pages (test-mmap),
 *		    anonymous pages per process (avc-fork-chain,
 *		    fork-exec-mix), largest range (random)
 * @tasks:	-t  processes touching the mappings (rmap-test), forks
 *		    (test-mmap), chain length (avc-fork-chain), processes
 *		    alive at once (fork-exec-mix, random)
 * @workers:	-w  avc-fork-chain: workers each server forks
 * @reclaim:	-V  reclaim pressure: rmap-test, test-mmap, avc-fork-chain
 *		    reclaim every reclaim-th page in each pressure pass;
 *		    fork-exec-mix reclaims that many pages per job
 * @seed:	--seed
 */
struct rsim_gen_params {
	enum rsim_gen_kind	kind;
	enum rsim_gen_access	access;
	unsigned long		iterations;
	unsigned long		mappings;
	unsigned long		size;
	unsigned long		tasks;
	unsigned long		workers;
	unsigned long		reclaim;
	u64			seed;
};

/**
 * rsim_gen_kind_name() - the name of a kind, as rmapsim gen takes it
 * @kind: the kind
 *
 * A tool finds a kind by comparing a name against every kind's.
 * Cost: O(1).
 *
 * Return: "rmap-test", "test-mmap2", ...; NULL for a kind out of range.
 */
const char *rsim_gen_kind_name(enum rsim_gen_kind kind);

/**
 * rsim_gen_defaults() - fill @params with @kind's defaults
 * @params: filled in
 * @kind: the kind
 *
 * The defaults are the seeds' sizes where they fit a simulation that runs
 * in seconds (test-mmap2/3 exactly; rmap-test and the rest scaled down,
 * see docs/scenario-format.md).  Cost: O(1).
 */
void rsim_gen_defaults(struct rsim_gen_params *params,
		       enum rsim_gen_kind kind);

/**
 * rsim_gen_check() - are @params usable?
 * @params: the parameters
 * @why: set to a static description of the first bad field, or NULL
 *
 * Limits keep every kind inside the simulated address space and a
 * generator's fixed-size state.  Cost: O(1).
 *
 * Return: 0, or -EINVAL.
 */
int rsim_gen_check(const struct rsim_gen_params *params, const char **why);

/**
 * rsim_gen_name() - the scenario name for @params
 * @params: checked parameters
 * @buf: where to write the NUL-terminated name
 * @size: bytes at @buf; 96 always suffice
 *
 * The name encodes the kind and every parameter the kind reads (and the
 * seed, for kinds that draw random numbers), so two different scenarios
 * never print the same PT-DIGEST name.  Truncated to fit @size.
 * Cost: O(@size).
 */
void rsim_gen_name(const struct rsim_gen_params *params, char *buf,
		   unsigned long size);

/*
 * Called once per generated op, in order.  A non-zero return stops the
 * generator, which returns that value.
 */
typedef int (*rsim_gen_emit_t)(void *ctx, const struct rsim_op *op);

/**
 * rsim_gen_run() - generate the scenario @params describes
 * @params: checked parameters (rsim_gen_check() returned 0)
 * @emit: called with each op in turn
 * @ctx: passed to @emit
 *
 * Every op emitted applies without error when replayed from an empty
 * simulation under any scheme.  fork-exec-mix allocates its pool of
 * processes and random a scratch simulation to try ops on; the other
 * kinds allocate nothing.
 * Cost: O(ops emitted); random: O(ops * cost of rsim_apply()).
 *
 * Return: 0, -EINVAL for bad @params, -ENOMEM, or what @emit returned.
 */
int rsim_gen_run(const struct rsim_gen_params *params, rsim_gen_emit_t emit,
		 void *ctx);

#endif /* _PRIOTREE_RMAP_GEN_H */
