/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PT_CORPUS_H
#define _PT_CORPUS_H

/*
 * The scenario corpus that both worlds replay: the userspace program
 * (tests/corpus/ptcorpus.c) and the KUnit suite booted in QEMU
 * (prio_tree_kunit.c, beside this file).  The whole directory is copied
 * into the kernel's lib/priotree/corpus/ byte for byte.
 *
 * Every scenario is deterministic: a seeded generator decides every
 * operation, and nothing that differs between the worlds (pointers,
 * allocator order, time) reaches the digest.  The digest is a 64-bit
 * FNV-1a hash over everything observable: each query's results in the
 * order the tree reports them, each insert's and lookup's answer, and
 * each invariant check's return value.  A scenario also verifies itself
 * against a brute-force oracle, so a wrong answer fails it in both
 * worlds, not only as a digest mismatch.
 */

#include <linux/kernel.h>

#define PT_CORPUS_WHY_LEN	160

struct pt_corpus_result {
	u64	digest;
	u64	ops;		/* tree operations issued (queries included) */
	u64	checks;		/* full invariant checks run */
	u64	visits;		/* query results reported by the tree */
	int	error;		/* 0, -ENOMEM, or -EUCLEAN on a wrong result */
	char	why[PT_CORPUS_WHY_LEN];
};

/* Called once per scenario, in corpus order, by pt_corpus_run_all(). */
typedef void (*pt_corpus_emit_fn)(void *ctx, const char *name,
				  const struct pt_corpus_result *result);

unsigned int pt_corpus_count(void);
const char *pt_corpus_name(unsigned int index);
int pt_corpus_run(unsigned int index, struct pt_corpus_result *result);
int pt_corpus_run_all(pt_corpus_emit_fn emit, void *ctx);

/*
 * The rmap model scenarios (pt_corpus_rmap.c), numbered after the tree
 * scenarios by pt_corpus_run(); not for direct use.
 */
unsigned int pt_rmap_count(void);
const char *pt_rmap_name(unsigned int index);
int pt_rmap_run(unsigned int index, struct pt_corpus_result *result);

#endif /* _PT_CORPUS_H */
