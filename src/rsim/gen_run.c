// SPDX-License-Identifier: GPL-2.0
/*
 * rsim_gen_run(): the one place that knows every generator.  It checks
 * the parameters, seeds the generator and calls the generator of the
 * kind through a table; the generators call only down, into gen_core.c,
 * so a new kind is a new generator function plus one line here.
 */

#include <linux/kernel.h>

#include "gen_internal.h"

typedef int (*rsim_gen_fn)(struct rsim_gen *gen);

static const rsim_gen_fn rsim_gen_fns[RSIM_NR_GEN_KINDS] = {
	[RSIM_GEN_RMAP_TEST]		= rsim_gen_rmap_test,
	[RSIM_GEN_TEST_MMAP2]		= rsim_gen_test_mmap,
	[RSIM_GEN_TEST_MMAP3]		= rsim_gen_test_mmap,
	[RSIM_GEN_AVC_FORK_CHAIN]	= rsim_gen_avc_fork_chain,
	[RSIM_GEN_FORK_EXEC_MIX]	= rsim_gen_fork_exec_mix,
	[RSIM_GEN_RANDOM]		= rsim_gen_random,
};

int rsim_gen_run(const struct rsim_gen_params *params, rsim_gen_emit_t emit,
		 void *ctx)
{
	struct rsim_gen gen = {
		.params	= params,
		.emit	= emit,
		.ctx	= ctx,
	};
	const char *why;

	/* rsim_gen_check() keeps params->kind inside the table */
	if (rsim_gen_check(params, &why) || !rsim_gen_fns[params->kind])
		return -EINVAL;
	rsim_gen_rng_seed(&gen.rng, params->seed);
	return rsim_gen_fns[params->kind](&gen);
}
