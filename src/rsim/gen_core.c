// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario generators, the bottom layer: the random number generator,
 * the parameters and their names, and rsim_gen_op(), which every
 * generator emits through.  The generators (gen_workloads.c,
 * gen_random.c) call down into this file and never the other way;
 * gen_run.c picks the generator of a kind.  See gen.h.
 */

#include <linux/kernel.h>
#include <linux/slab.h>

#include "gen_internal.h"

void rsim_gen_rng_seed(struct rsim_gen_rng *rng, u64 seed)
{
	rng->state = seed;
}

u64 rsim_gen_rng_next(struct rsim_gen_rng *rng)
{
	u64 z;

	rng->state += 0x9e3779b97f4a7c15ULL;
	z = rng->state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A value in [0, @bound), @bound >= 1.  The modulo bias is below
 * bound / 2^64, far under anything a scenario could show.
 */
unsigned long rsim_gen_rng_below(struct rsim_gen_rng *rng,
				 unsigned long bound)
{
	return (unsigned long)(rsim_gen_rng_next(rng) % bound);
}

static const char *const rsim_gen_kind_names[RSIM_NR_GEN_KINDS] = {
	[RSIM_GEN_RMAP_TEST]		= "rmap-test",
	[RSIM_GEN_TEST_MMAP2]		= "test-mmap2",
	[RSIM_GEN_TEST_MMAP3]		= "test-mmap3",
	[RSIM_GEN_AVC_FORK_CHAIN]	= "avc-fork-chain",
	[RSIM_GEN_FORK_EXEC_MIX]	= "fork-exec-mix",
	[RSIM_GEN_RANDOM]		= "random",
};

const char *rsim_gen_kind_name(enum rsim_gen_kind kind)
{
	if ((unsigned int)kind >= RSIM_NR_GEN_KINDS)
		return NULL;
	return rsim_gen_kind_names[kind];
}

void rsim_gen_defaults(struct rsim_gen_params *params,
		       enum rsim_gen_kind kind)
{
	*params = (struct rsim_gen_params) {
		.kind		= kind,
		.access		= RSIM_GEN_ACCESS_LINEAR,
		.iterations	= 1,
		.mappings	= 1,
		.size		= 1,
		.tasks		= 1,
		.workers	= 0,
		.reclaim	= 1,
		.seed		= 1,
	};

	switch (kind) {
	case RSIM_GEN_RMAP_TEST:
		/* rmap-test 1 of the seed is -i 10 -n 100 -s 600 -t 100 */
		params->iterations = 2;
		params->mappings = 100;
		params->size = 60;
		params->tasks = 10;
		break;
	case RSIM_GEN_TEST_MMAP2:
		params->size = 2000;
		params->tasks = 5;
		break;
	case RSIM_GEN_TEST_MMAP3:
		params->size = 20000;
		params->tasks = 5;
		break;
	case RSIM_GEN_AVC_FORK_CHAIN:
		params->size = 16;
		params->tasks = 64;
		params->workers = 1;
		break;
	case RSIM_GEN_FORK_EXEC_MIX:
		params->iterations = 200;
		params->size = 32;
		params->tasks = 8;
		params->reclaim = 4;
		break;
	case RSIM_GEN_RANDOM:
		params->iterations = 300;
		params->mappings = 3;
		params->size = 16;
		params->tasks = 6;
		break;
	default:
		break;
	}
}

/* The largest pool of live processes fork-exec-mix and random keep. */
#define RSIM_GEN_MAX_TASKS	64

int rsim_gen_check(const struct rsim_gen_params *params, const char **why)
{
	const struct rsim_gen_params *p = params;

	*why = NULL;
	if ((unsigned int)p->kind >= RSIM_NR_GEN_KINDS)
		*why = "unknown kind";
	else if (p->access > RSIM_GEN_ACCESS_HALF)
		*why = "unknown access pattern";
	else if (!p->iterations || !p->mappings || !p->size || !p->tasks ||
		 !p->reclaim)
		*why = "-i, -n, -s, -t and -V must be at least 1";
	else if (p->iterations > 10000000 || p->mappings > 1000000 ||
		 p->size > 1000000 || p->tasks > 1000000 ||
		 p->workers > 1000 || p->reclaim > 1000000)
		*why = "-i, -n, -s, -t or -V above 1000000 (-w above 1000)";
	else if (p->kind == RSIM_GEN_RMAP_TEST &&
		 p->mappings * (p->size + 1) >= RSIM_TASK_PAGES / 2)
		*why = "-n * -s does not fit the address space";
	else if ((p->kind == RSIM_GEN_TEST_MMAP2 ||
		  p->kind == RSIM_GEN_TEST_MMAP3) &&
		 p->size >= RSIM_TASK_PAGES / 2)
		*why = "-s does not fit the address space";
	else if (p->kind == RSIM_GEN_AVC_FORK_CHAIN &&
		 p->tasks * (p->workers + 1) > 1000000)
		*why = "-t * (-w + 1) above 1000000 processes";
	else if ((p->kind == RSIM_GEN_FORK_EXEC_MIX ||
		  p->kind == RSIM_GEN_RANDOM) &&
		 p->tasks > RSIM_GEN_MAX_TASKS)
		*why = "-t above 64 processes alive at once";
	else if (p->kind == RSIM_GEN_FORK_EXEC_MIX && p->size > 4096)
		*why = "-s above 4096 anonymous pages per process";
	else if (p->kind == RSIM_GEN_RANDOM &&
		 (p->size > 4096 || p->mappings > 64))
		*why = "-s above 4096 or -n above 64 files";
	return *why ? -EINVAL : 0;
}

/* ---- names, without libc ------------------------------------------- */

struct rsim_gen_buf {
	char		*buf;
	unsigned long	size;
	unsigned long	len;
};

static void rsim_gen_put_str(struct rsim_gen_buf *b, const char *s)
{
	while (*s) {
		if (b->len + 1 < b->size)
			b->buf[b->len++] = *s;
		s++;
	}
	if (b->size)
		b->buf[b->len] = '\0';
}

static void rsim_gen_put_num(struct rsim_gen_buf *b, const char *prefix,
			     u64 value)
{
	char digits[24];
	int i = sizeof(digits) - 1;

	digits[i] = '\0';
	do {
		digits[--i] = '0' + (char)(value % 10);
		value /= 10;
	} while (value);
	rsim_gen_put_str(b, prefix);
	rsim_gen_put_str(b, &digits[i]);
}

static const char *const rsim_gen_access_flags[] = {
	[RSIM_GEN_ACCESS_LINEAR]	= "-l",
	[RSIM_GEN_ACCESS_RANDOM]	= "-r",
	[RSIM_GEN_ACCESS_HALF]		= "-h",
};

void rsim_gen_name(const struct rsim_gen_params *params, char *buf,
		   unsigned long size)
{
	const struct rsim_gen_params *p = params;
	struct rsim_gen_buf b = { .buf = buf, .size = size };
	bool seeded = false;

	rsim_gen_put_str(&b, rsim_gen_kind_name(p->kind) ?: "unknown");
	switch (p->kind) {
	case RSIM_GEN_RMAP_TEST:
		rsim_gen_put_str(&b, rsim_gen_access_flags[p->access]);
		rsim_gen_put_num(&b, "-i", p->iterations);
		rsim_gen_put_num(&b, "-n", p->mappings);
		rsim_gen_put_num(&b, "-s", p->size);
		rsim_gen_put_num(&b, "-t", p->tasks);
		rsim_gen_put_num(&b, "-V", p->reclaim);
		seeded = p->access == RSIM_GEN_ACCESS_RANDOM;
		break;
	case RSIM_GEN_TEST_MMAP2:
	case RSIM_GEN_TEST_MMAP3:
		rsim_gen_put_num(&b, "-s", p->size);
		rsim_gen_put_num(&b, "-t", p->tasks);
		rsim_gen_put_num(&b, "-V", p->reclaim);
		break;
	case RSIM_GEN_AVC_FORK_CHAIN:
		rsim_gen_put_num(&b, "-s", p->size);
		rsim_gen_put_num(&b, "-t", p->tasks);
		rsim_gen_put_num(&b, "-w", p->workers);
		rsim_gen_put_num(&b, "-V", p->reclaim);
		break;
	case RSIM_GEN_FORK_EXEC_MIX:
		rsim_gen_put_num(&b, "-i", p->iterations);
		rsim_gen_put_num(&b, "-s", p->size);
		rsim_gen_put_num(&b, "-t", p->tasks);
		rsim_gen_put_num(&b, "-V", p->reclaim);
		seeded = true;
		break;
	case RSIM_GEN_RANDOM:
		rsim_gen_put_num(&b, "-i", p->iterations);
		rsim_gen_put_num(&b, "-n", p->mappings);
		rsim_gen_put_num(&b, "-s", p->size);
		rsim_gen_put_num(&b, "-t", p->tasks);
		seeded = true;
		break;
	default:
		break;
	}
	if (seeded)
		rsim_gen_put_num(&b, "-seed", p->seed);
}

/* ---- emitting: what every generator calls ------------------------- */

int rsim_gen_op(struct rsim_gen *gen, enum rsim_op_kind kind,
		unsigned long a0, unsigned long a1, unsigned long a2,
		unsigned long a3, unsigned long a4, unsigned long a5)
{
	struct rsim_op op = {
		.kind = kind,
		.args = { a0, a1, a2, a3, a4, a5 },
	};

	if (!gen->err)
		gen->err = gen->emit(gen->ctx, &op);
	return gen->err;
}
