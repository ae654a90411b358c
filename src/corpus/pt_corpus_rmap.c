// SPDX-License-Identifier: GPL-2.0
/*
 * The rmap model half of the scenario corpus: the workloads of
 * rsim/gen.h replayed through the simulator of rsim/rsim.h under the
 * rmap schemes.  Copied into the kernel as lib/priotree/corpus/
 * pt_corpus_rmap.c, byte for byte, like pt_corpus.c.
 *
 * Every workload runs under several (file, anon) scheme pairs, chosen so
 * that each of the three file schemes and each of the four anon schemes
 * is used.  The linear i_mmap list is left out of test-mmap: that is the
 * O(n) walk the prio tree was written to replace, and under TCG it would
 * take the boot's whole time budget.
 *
 * The digest covers the simulator's own digest (every rmap walk's result
 * set, in op order), every cost counter (deterministic by rsim.h's
 * contract, and scheme-specific) and each verification's result.
 * rsim_verify() - every page's reverse map against a brute-force walk
 * of all page tables, and every i_mmap prio tree's invariants - runs
 * every PT_RMAP_VERIFY_EVERY ops and at the end; a failure fails the
 * scenario with the simulator's report.
 */

#include <linux/kernel.h>
#include <linux/errno.h>

#include "pt_corpus.h"
#include "../rsim/gen.h"

#define PT_RMAP_VERIFY_EVERY	32768

struct pt_rmap_scenario {
	const char		*name;
	u8			gen;	/* enum rsim_gen_kind, with defaults */
	u8			file;	/* enum rsim_file_scheme */
	u8			anon;	/* enum rsim_anon_scheme */
};

#define PT_RMAP(work, g, f, fname, a, aname)				\
	{ .name = "rmap-" work "-" fname "-" aname, .gen = g,		\
	  .file = f, .anon = a }

static const struct pt_rmap_scenario pt_rmap_scenarios[] = {
	/* every file scheme and every anon scheme, in four pairs */
	PT_RMAP("rmap-test", RSIM_GEN_RMAP_TEST, RSIM_FILE_PTE_CHAIN, "pte_chain",
		RSIM_ANON_PTE_CHAIN, "pte_chain"),
	PT_RMAP("rmap-test", RSIM_GEN_RMAP_TEST, RSIM_FILE_LIST, "list",
		RSIM_ANON_VMA, "anon_vma"),
	PT_RMAP("rmap-test", RSIM_GEN_RMAP_TEST, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_MM, "anonmm"),
	PT_RMAP("rmap-test", RSIM_GEN_RMAP_TEST, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA_CHAIN, "anon_vma_chain"),
	/* test-mmap: every anon scheme, file pages under pte_chain and prio */
	PT_RMAP("test-mmap2", RSIM_GEN_TEST_MMAP2, RSIM_FILE_PTE_CHAIN, "pte_chain",
		RSIM_ANON_PTE_CHAIN, "pte_chain"),
	PT_RMAP("test-mmap2", RSIM_GEN_TEST_MMAP2, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA, "anon_vma"),
	PT_RMAP("test-mmap2", RSIM_GEN_TEST_MMAP2, RSIM_FILE_PTE_CHAIN, "pte_chain",
		RSIM_ANON_MM, "anonmm"),
	PT_RMAP("test-mmap2", RSIM_GEN_TEST_MMAP2, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA_CHAIN, "anon_vma_chain"),
	PT_RMAP("test-mmap3", RSIM_GEN_TEST_MMAP3, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA_CHAIN, "anon_vma_chain"),
	PT_RMAP("test-mmap3", RSIM_GEN_TEST_MMAP3, RSIM_FILE_PTE_CHAIN,
		"pte_chain", RSIM_ANON_MM, "anonmm"),
	/* every file and anon scheme */
	PT_RMAP("avc-fork-chain", RSIM_GEN_AVC_FORK_CHAIN, RSIM_FILE_PTE_CHAIN, "pte_chain",
		RSIM_ANON_PTE_CHAIN, "pte_chain"),
	PT_RMAP("avc-fork-chain", RSIM_GEN_AVC_FORK_CHAIN, RSIM_FILE_LIST, "list",
		RSIM_ANON_VMA, "anon_vma"),
	PT_RMAP("avc-fork-chain", RSIM_GEN_AVC_FORK_CHAIN, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_MM, "anonmm"),
	PT_RMAP("avc-fork-chain", RSIM_GEN_AVC_FORK_CHAIN, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA_CHAIN, "anon_vma_chain"),
	/* every file and anon scheme */
	PT_RMAP("fork-exec-mix", RSIM_GEN_FORK_EXEC_MIX, RSIM_FILE_PTE_CHAIN, "pte_chain",
		RSIM_ANON_PTE_CHAIN, "pte_chain"),
	PT_RMAP("fork-exec-mix", RSIM_GEN_FORK_EXEC_MIX, RSIM_FILE_LIST, "list",
		RSIM_ANON_VMA, "anon_vma"),
	PT_RMAP("fork-exec-mix", RSIM_GEN_FORK_EXEC_MIX, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_MM, "anonmm"),
	PT_RMAP("fork-exec-mix", RSIM_GEN_FORK_EXEC_MIX, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA_CHAIN, "anon_vma_chain"),
	/* every file and anon scheme */
	PT_RMAP("random", RSIM_GEN_RANDOM, RSIM_FILE_PTE_CHAIN, "pte_chain",
		RSIM_ANON_PTE_CHAIN, "pte_chain"),
	PT_RMAP("random", RSIM_GEN_RANDOM, RSIM_FILE_LIST, "list",
		RSIM_ANON_VMA, "anon_vma"),
	PT_RMAP("random", RSIM_GEN_RANDOM, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_MM, "anonmm"),
	PT_RMAP("random", RSIM_GEN_RANDOM, RSIM_FILE_PRIO, "prio",
		RSIM_ANON_VMA_CHAIN, "anon_vma_chain"),
};

struct pt_rmap_run {
	struct rsim			*sim;
	struct pt_corpus_result		*res;
	u64				since_verify;
	struct rsim_report		report;
};

/* FNV-1a over the eight bytes of @v, as pt_corpus.c does. */
static void pt_rmap_mix(struct pt_corpus_result *res, u64 v)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		res->digest ^= v & 0xff;
		res->digest *= 0x100000001b3ULL;
		v >>= 8;
	}
}

static int pt_rmap_verify(struct pt_rmap_run *run)
{
	int ret = rsim_verify(run->sim, &run->report);

	run->res->checks++;
	run->since_verify = 0;
	pt_rmap_mix(run->res, (u64)(s64)ret);
	if (ret && !run->res->error) {
		run->res->error = ret;
		snprintf(run->res->why, sizeof(run->res->why),
			 "op %llu: rsim_verify: %s",
			 (unsigned long long)run->res->ops, run->report.msg);
	}
	return ret;
}

static int pt_rmap_emit(void *ctx, const struct rsim_op *op)
{
	struct pt_rmap_run *run = ctx;
	const struct rsim_walk_result *walk;
	int ret;

	run->res->ops++;
	ret = rsim_apply(run->sim, op);
	pt_rmap_mix(run->res, (u64)(s64)ret);
	if (ret) {
		/* the generator promises ops that apply under every scheme */
		run->res->error = -EUCLEAN;
		snprintf(run->res->why, sizeof(run->res->why),
			 "op %llu (kind %u) failed with %d",
			 (unsigned long long)run->res->ops, op->kind, ret);
		return -EUCLEAN;
	}
	if (op->kind == RSIM_OP_WALK_FILE || op->kind == RSIM_OP_WALK_ADDR) {
		walk = rsim_last_walk(run->sim);
		pt_rmap_mix(run->res, walk->nr);
		pt_rmap_mix(run->res, walk->hash);
		run->res->visits += walk->nr;
	}
	if (++run->since_verify == PT_RMAP_VERIFY_EVERY)
		return pt_rmap_verify(run);
	return 0;
}

static void pt_rmap_mix_walk(struct pt_corpus_result *res,
			     const struct rsim_walk_cost *w)
{
	pt_rmap_mix(res, w->walks);
	pt_rmap_mix(res, w->vmas);
	pt_rmap_mix(res, w->mms);
	pt_rmap_mix(res, w->anon_vmas);
	pt_rmap_mix(res, w->chain_entries);
	pt_rmap_mix(res, w->ptes);
	pt_rmap_mix(res, w->found);
}

static void pt_rmap_mix_op(struct pt_corpus_result *res,
			   const struct rsim_op_cost *c)
{
	pt_rmap_mix(res, c->calls);
	pt_rmap_mix(res, c->ptes);
	pt_rmap_mix(res, c->rmap_updates);
}

/* Everything struct rsim_cost holds, in its declaration order. */
static void pt_rmap_mix_cost(struct pt_corpus_result *res,
			     const struct rsim_cost *c)
{
	pt_rmap_mix_walk(res, &c->file_walk);
	pt_rmap_mix_walk(res, &c->anon_walk);
	pt_rmap_mix_op(res, &c->fork);
	pt_rmap_mix_op(res, &c->exit);
	pt_rmap_mix_op(res, &c->mremap);
	pt_rmap_mix_op(res, &c->munmap);
	pt_rmap_mix_op(res, &c->truncate);
	pt_rmap_mix(res, c->faults);
	pt_rmap_mix(res, c->cow_copies);
	pt_rmap_mix(res, c->cow_early);
	pt_rmap_mix(res, c->pages_reclaimed);
	pt_rmap_mix(res, c->referenced);
	pt_rmap_mix(res, c->meta_bytes);
	pt_rmap_mix(res, c->meta_bytes_peak);
	pt_rmap_mix(res, c->pte_chain_blocks);
	pt_rmap_mix(res, c->pages);
	pt_rmap_mix(res, c->ptes_mapped);
	pt_rmap_mix(res, c->vmas);
	pt_rmap_mix(res, c->mms);
}

/**
 * pt_rmap_count - number of rmap model scenarios
 *
 * Return: the count.  O(1).
 */
unsigned int pt_rmap_count(void)
{
	return ARRAY_SIZE(pt_rmap_scenarios);
}

/**
 * pt_rmap_name - the name of rmap scenario @index
 * @index: below pt_rmap_count()
 *
 * Return: a static string, or NULL out of range.  O(1).
 */
const char *pt_rmap_name(unsigned int index)
{
	return index < ARRAY_SIZE(pt_rmap_scenarios) ?
		pt_rmap_scenarios[index].name : NULL;
}

/**
 * pt_rmap_run - replay one workload under one scheme pair
 * @index: below pt_rmap_count()
 * @res: digest and counters, already initialised by pt_corpus_run()
 *
 * Cost: the workload's ops times rsim_apply(), plus a verification
 * (O(pages * walk + ptes)) every PT_RMAP_VERIFY_EVERY ops.
 *
 * Return: 0, -EINVAL, -ENOMEM or -EUCLEAN, with @res->why filled in.
 */
int pt_rmap_run(unsigned int index, struct pt_corpus_result *res)
{
	const struct pt_rmap_scenario *sc;
	struct rsim_gen_params params;
	struct pt_rmap_run run = { .res = res };
	const char *why = "";
	int ret;

	if (index >= ARRAY_SIZE(pt_rmap_scenarios))
		return -EINVAL;
	sc = &pt_rmap_scenarios[index];
	rsim_gen_defaults(&params, sc->gen);
	ret = rsim_gen_check(&params, &why);
	if (ret) {
		res->error = ret;
		snprintf(res->why, sizeof(res->why), "generator: %s", why);
		return ret;
	}
	run.sim = rsim_create(sc->file, sc->anon);
	if (!run.sim) {
		res->error = -ENOMEM;
		snprintf(res->why, sizeof(res->why), "rsim_create: no memory");
		return -ENOMEM;
	}
	ret = rsim_gen_run(&params, pt_rmap_emit, &run);
	if (!ret)
		ret = pt_rmap_verify(&run);
	if (!ret) {
		pt_rmap_mix(res, rsim_digest(run.sim));
		pt_rmap_mix_cost(res, rsim_cost(run.sim));
	} else if (!res->error) {
		res->error = ret;
		snprintf(res->why, sizeof(res->why),
			 "op %llu: generator stopped with %d",
			 (unsigned long long)res->ops, ret);
	}
	rsim_destroy(run.sim);
	return res->error;
}
