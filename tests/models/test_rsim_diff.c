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
 * Under PRIOTREE_UNDER_VALGRIND a fiftieth of SCENARIOS run.
 */

#include "models_util.h"

static void cost_sum(struct rsim_cost *t, const struct rsim_cost *c)
{
	t->fork.calls += c->fork.calls;
	t->exit.calls += c->exit.calls;
	t->mremap.calls += c->mremap.calls;
	t->truncate.calls += c->truncate.calls;
	t->faults += c->faults;
	t->cow_copies += c->cow_copies;
	t->cow_early += c->cow_early;
	t->pages_reclaimed += c->pages_reclaimed;
	t->file_walk.walks += c->file_walk.walks;
	t->anon_walk.walks += c->anon_walk.walks;
}

int main(int argc, char **argv)
{
	unsigned long scenarios = 10000, ops = 60, seed = 1, s, i = 0;
	unsigned long applied = 0, failed_ops = 0, walks = 0;
	static struct rsim_cost total[NR_COMBOS];
	struct combos c;
	struct rsim_op op;
	struct test_rng r;
	char why[512];
	enum rsim_op_kind kind;
	int rc, keep_any, tries;

	if (argc > 1)
		scenarios = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		ops = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		seed = strtoul(argv[3], NULL, 0);
	/* valgrind is ~50 times slower: keep the suite within its timeout */
	if (getenv("PRIOTREE_UNDER_VALGRIND"))
		scenarios = (scenarios + 49) / 50;

	for (s = 0; s < scenarios; s++) {
		r.state = seed * 1000003ULL + s;
		combos_create(&c);
		if (random_prologue(&c, &r, why, sizeof(why)))
			goto fail;
		for (i = 0; i < ops; i++) {
			/*
			 * Most ops have their arguments drawn until they
			 * apply on the first simulation (a refused op
			 * changes nothing there);
			 * one in ten is kept whatever it meets, to check
			 * that refusals agree too.
			 */
			keep_any = rng_below(&r, 10) == 0;
			kind = random_kind(&r);
			for (tries = 0; ; tries++) {
				random_op(&r, &op, kind);
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
		for (i = 0; i < NR_COMBOS; i++)
			cost_sum(&total[i], rsim_cost(c.sim[i]));
		combos_destroy(&c);
	}
	/* what the scenarios exercised, under two of the combinations */
	for (i = 0; i < NR_COMBOS; i++) {
		if (combo_anon(i) != RSIM_ANON_MM &&
		    combo_anon(i) != RSIM_ANON_VMA_CHAIN)
			continue;
		if (combo_file(i) != RSIM_FILE_PRIO)
			continue;
		printf("%s/%s: forks %llu exits %llu mremaps %llu truncates %llu faults %llu cow %llu early-cow %llu reclaimed %llu file walks %llu anon walks %llu\n",
		       rsim_file_scheme_name(combo_file(i)),
		       rsim_anon_scheme_name(combo_anon(i)),
		       (unsigned long long)total[i].fork.calls,
		       (unsigned long long)total[i].exit.calls,
		       (unsigned long long)total[i].mremap.calls,
		       (unsigned long long)total[i].truncate.calls,
		       (unsigned long long)total[i].faults,
		       (unsigned long long)total[i].cow_copies,
		       (unsigned long long)total[i].cow_early,
		       (unsigned long long)total[i].pages_reclaimed,
		       (unsigned long long)total[i].file_walk.walks,
		       (unsigned long long)total[i].anon_walk.walks);
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
