// SPDX-License-Identifier: GPL-2.0
/*
 * The differential property test of the reverse-mapping models.
 *
 * Seeded random scenarios (fork, exit, exec, mmap of every kind, partial
 * munmap, mprotect splits, mremap resize and move, faults, truncate,
 * reclaim, walks) run under all twelve scheme combinations in lock step.
 * After every op each simulation must agree with the ground truth (its
 * rmap walks of every page against a brute-force scan of every page
 * table, rsim_verify()), every op must succeed or fail alike everywhere,
 * and the digests of all walks so far must be equal.
 *
 * Usage: test_rsim_diff [SCENARIOS [OPS [SEED]]]; defaults 10000, 60, 1.
 * Under PRIOTREE_UNDER_VALGRIND the default is 150 scenarios.
 */

#include "models_util.h"

int main(int argc, char **argv)
{
	unsigned long scenarios = 10000, ops = 60, seed = 1, s, i = 0;
	unsigned long applied = 0, failed_ops = 0, walks = 0;
	struct combos c;
	struct rsim_op op;
	struct test_rng r;
	char why[512];
	int rc, keep_any, tries;

	if (getenv("PRIOTREE_UNDER_VALGRIND"))
		scenarios = 150;
	if (argc > 1)
		scenarios = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		ops = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		seed = strtoul(argv[3], NULL, 0);

	for (s = 0; s < scenarios; s++) {
		r.state = seed * 1000003ULL + s;
		combos_create(&c);
		if (random_prologue(&c, &r, why, sizeof(why)))
			goto fail;
		for (i = 0; i < ops; i++) {
			/*
			 * Most ops are drawn until one applies on the first
			 * simulation (a refused op changes nothing there);
			 * one in five is kept whatever it meets, to check
			 * that refusals agree too.
			 */
			keep_any = rng_below(&r, 5) == 0;
			for (tries = 0; ; tries++) {
				random_op(&r, &op);
				rc = rsim_apply(c.sim[0], &op);
				if (!rc || keep_any || tries == 30)
					break;
			}
			why[0] = '\0';
			rc = combos_apply_rest(&c, &op, 1, why, sizeof(why),
					       rc);
			if (rc == -1 && why[0])
				goto fail;
			applied++;
			failed_ops += rc != 0;
			walks += op.kind >= RSIM_OP_RECLAIM_FILE && !rc;
			why[0] = '\0';
		}
		combos_destroy(&c);
	}
	printf("%lu scenarios, %lu ops x %d scheme combinations: %lu ops refused alike, %lu walks/reclaims agreed\n",
	       scenarios, applied, NR_COMBOS, failed_ops, walks);
	return 0;
fail:
	fprintf(stderr, "%s:%d: scenario %lu (seed %lu) op %lu: %s\n",
		__FILE__, __LINE__, s, seed, i, why);
	combos_destroy(&c);
	return 1;
}
