/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the models suite: a seeded PRNG, one simulation per
 * scheme combination driven in lock step, and a random op generator
 * over a small address space (so ops collide: forks share pages, munmaps
 * cut vmas, mremaps land next to each other).
 */
#ifndef PRIOTREE_TESTS_MODELS_UTIL_H
#define PRIOTREE_TESTS_MODELS_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsim.h"

#define NR_COMBOS	(RSIM_NR_FILE_SCHEMES * RSIM_NR_ANON_SCHEMES)

struct test_rng {
	uint64_t state;
};

/* splitmix64: any seed, even 0, gives a full-period stream */
static inline uint64_t rng_next(struct test_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline unsigned long rng_below(struct test_rng *rng,
				      unsigned long bound)
{
	return (unsigned long)(rng_next(rng) % bound);
}

/* Every scheme combination, each with its own simulation. */
struct combos {
	struct rsim	*sim[NR_COMBOS];
};

static inline enum rsim_file_scheme combo_file(int i)
{
	return i / RSIM_NR_ANON_SCHEMES;
}

static inline enum rsim_anon_scheme combo_anon(int i)
{
	return i % RSIM_NR_ANON_SCHEMES;
}

static inline void combos_create(struct combos *c)
{
	int i;

	for (i = 0; i < NR_COMBOS; i++) {
		c->sim[i] = rsim_create(combo_file(i), combo_anon(i));
		if (!c->sim[i]) {
			fprintf(stderr,
				"%s:%d: expected a simulation, got NULL\n",
				__FILE__, __LINE__);
			exit(1);
		}
	}
}

static inline void combos_destroy(struct combos *c)
{
	int i;

	for (i = 0; i < NR_COMBOS; i++)
		rsim_destroy(c->sim[i]);
}

/* "fork 1 2": the op in scenario-like text, for failure messages. */
static inline const char *op_text(const struct rsim_op *op)
{
	static char buf[160];
	const struct rsim_op_desc *d = rsim_op_desc(op->kind);
	unsigned int i;
	int n;

	n = snprintf(buf, sizeof(buf), "%s", d ? d->name : "?");
	for (i = 0; d && i < d->nr_args; i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %lu", op->args[i]);
	return buf;
}

/*
 * Apply @op to every simulation.  Fails (message in @why, returns -1)
 * when the return codes differ, a simulation no longer matches the
 * ground truth, or the digests differ.  Returns the common rc otherwise.
 */
static inline int combos_apply_rest(struct combos *c, const struct rsim_op *op,
				    int verify, char *why, size_t len, int rc0)
{
	struct rsim_report report;
	int i, rc;

	for (i = 0; i < NR_COMBOS; i++) {
		rc = i ? rsim_apply(c->sim[i], op) : rc0;
		if (rc != rc0) {
			snprintf(why, len, "%s: expected rc %d as under %s/%s, got %d under %s/%s",
				 op_text(op), rc0,
				 rsim_file_scheme_name(combo_file(0)),
				 rsim_anon_scheme_name(combo_anon(0)), rc,
				 rsim_file_scheme_name(combo_file(i)),
				 rsim_anon_scheme_name(combo_anon(i)));
			return -1;
		}
		if (verify && rsim_verify(c->sim[i], &report)) {
			snprintf(why, len, "%s: expected ground truth under %s/%s: %s",
				 op_text(op),
				 rsim_file_scheme_name(combo_file(i)),
				 rsim_anon_scheme_name(combo_anon(i)),
				 report.msg);
			return -1;
		}
		if (rsim_digest(c->sim[i]) != rsim_digest(c->sim[0])) {
			snprintf(why, len, "%s: expected digest %016llx as under %s/%s, got %016llx under %s/%s",
				 op_text(op),
				 (unsigned long long)rsim_digest(c->sim[0]),
				 rsim_file_scheme_name(combo_file(0)),
				 rsim_anon_scheme_name(combo_anon(0)),
				 (unsigned long long)rsim_digest(c->sim[i]),
				 rsim_file_scheme_name(combo_file(i)),
				 rsim_anon_scheme_name(combo_anon(i)));
			return -1;
		}
	}
	return rc0;
}

static inline int combos_apply(struct combos *c, const struct rsim_op *op,
			       int verify, char *why, size_t len)
{
	return combos_apply_rest(c, op, verify, why, len,
				 rsim_apply(c->sim[0], op));
}

#define RAND_PIDS	5
#define RAND_FILES	3
#define RAND_ADDRS	48

/* A random kind, weighted towards faults on a small address space. */
static inline enum rsim_op_kind random_kind(struct test_rng *r)
{
	static const struct {
		enum rsim_op_kind	kind;
		unsigned int		weight;
	} mix[] = {
		{ RSIM_OP_FAULT_WRITE, 20 },	{ RSIM_OP_FAULT_READ, 14 },
		{ RSIM_OP_MMAP_ANON, 7 },	{ RSIM_OP_MMAP_PRIVATE, 5 },
		{ RSIM_OP_MMAP_SHARED, 5 },	{ RSIM_OP_MUNMAP, 4 },
		{ RSIM_OP_MPROTECT, 5 },	{ RSIM_OP_MREMAP_RESIZE, 4 },
		{ RSIM_OP_MREMAP_MOVE, 6 },	{ RSIM_OP_FORK, 6 },
		{ RSIM_OP_EXIT, 2 },		{ RSIM_OP_EXEC, 1 },
		{ RSIM_OP_TRUNCATE, 2 },	{ RSIM_OP_RECLAIM_ADDR, 5 },
		{ RSIM_OP_RECLAIM_FILE, 3 },	{ RSIM_OP_WALK_ADDR, 8 },
		{ RSIM_OP_WALK_FILE, 3 },
	};
	unsigned int i, total = 0, pick;

	for (i = 0; i < ARRAY_SIZE(mix); i++)
		total += mix[i].weight;
	pick = rng_below(r, total);
	for (i = 0; pick >= mix[i].weight; i++)
		pick -= mix[i].weight;
	return mix[i].kind;
}

/*
 * Random arguments for an op of @kind over pids 1..RAND_PIDS, files
 * 1..RAND_FILES and addresses below RAND_ADDRS.  Many are invalid in
 * the state they meet (unknown pid, no vma...): those must fail alike
 * under every scheme.
 */
static inline void random_op(struct test_rng *r, struct rsim_op *op,
			     enum rsim_op_kind kind)
{
	unsigned long *a = op->args;

	memset(op, 0, sizeof(*op));
	op->kind = kind;
	/* process 1 is busiest: most ops find a live mm */
	a[0] = 1 + rng_below(r, rng_below(r, 2) ? 2 : RAND_PIDS);
	a[1] = rng_below(r, RAND_ADDRS);
	a[2] = 1 + rng_below(r, 12);
	a[3] = 1 + rng_below(r, 3);		/* prot: r, w or rw */
	a[4] = 1 + rng_below(r, RAND_FILES);
	a[5] = rng_below(r, 24);
	switch (kind) {
	case RSIM_OP_MREMAP_RESIZE:
		a[3] = 1 + rng_below(r, 12);
		break;
	case RSIM_OP_MREMAP_MOVE:
		a[3] = 1 + rng_below(r, 12);
		a[4] = rng_below(r, RAND_ADDRS);
		break;
	case RSIM_OP_FORK:
		a[1] = 1 + rng_below(r, RAND_PIDS);
		break;
	case RSIM_OP_EXIT:
		/* process 1 rarely goes: it is the one that forks */
		if (a[0] == 1 && rng_below(r, 8))
			a[0] = 2 + rng_below(r, RAND_PIDS - 1);
		break;
	case RSIM_OP_TRUNCATE:
		a[0] = a[4];
		a[1] = rng_below(r, 32);
		break;
	case RSIM_OP_RECLAIM_FILE:
	case RSIM_OP_WALK_FILE:
		a[0] = a[4];
		a[1] = a[5];
		break;
	default:
		break;
	}
}

/*
 * The start of every random scenario: the files and process 1; half the
 * scenarios also start with anonymous pages shared by a fork, so that
 * mremap, reclaim and walks meet COW-shared pages (anonmm's early COW
 * copies and their walks) often.
 */
static inline int random_prologue(struct combos *c, struct test_rng *r,
				  char *why, size_t len)
{
	struct rsim_op op = { RSIM_OP_FILE_CREATE, { 0 } };
	unsigned long f, vpn, base;

	for (f = 1; f <= RAND_FILES; f++) {
		op.args[0] = f;
		op.args[1] = 8 + rng_below(r, 24);
		if (combos_apply(c, &op, 0, why, len))
			return -1;
	}
	op = (struct rsim_op){ RSIM_OP_EXEC, { 1 } };
	if (combos_apply(c, &op, 0, why, len))
		return -1;
	if (rng_below(r, 2))
		return 0;
	base = rng_below(r, RAND_ADDRS - 8);
	op = (struct rsim_op){ RSIM_OP_MMAP_ANON, { 1, base, 8,
			       RSIM_PROT_READ | RSIM_PROT_WRITE } };
	if (combos_apply(c, &op, 0, why, len))
		return -1;
	for (vpn = base; vpn < base + 8; vpn += 2) {
		op = (struct rsim_op){ RSIM_OP_FAULT_WRITE, { 1, vpn } };
		if (combos_apply(c, &op, 0, why, len))
			return -1;
	}
	op = (struct rsim_op){ RSIM_OP_FORK, { 1, 2 } };
	return combos_apply(c, &op, 0, why, len) ? -1 : 0;
}

#endif /* PRIOTREE_TESTS_MODELS_UTIL_H */
