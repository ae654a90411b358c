// SPDX-License-Identifier: GPL-2.0
/*
 * ptcorpus: run the shared scenario corpus in userspace and print one
 * "PT-DIGEST <scenario> <16 hex>" line per scenario on stdout, the very
 * lines the in-kernel KUnit suite prints on the console.  kernel-port's
 * compare step diffs the two.
 *
 *   ptcorpus            run everything; exit 1 if any scenario failed
 *   ptcorpus --list     print the scenario names
 *   ptcorpus --stats    also print per-scenario counters on stderr
 *
 * A failing scenario still prints its digest line (the comparison then
 * shows where the worlds stand) and a "file:line: expected ..." line on
 * stderr naming the scenario and what went wrong.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "pt_corpus.h"

struct ptcorpus_totals {
	bool			stats;
	unsigned long long	ops;
	unsigned long long	checks;
	unsigned long long	visits;
	unsigned int		failed;
};

static void ptcorpus_emit(void *ctx, const char *name,
			  const struct pt_corpus_result *r)
{
	struct ptcorpus_totals *t = ctx;

	printf("PT-DIGEST %s %016llx\n", name, (unsigned long long)r->digest);
	fflush(stdout);
	if (r->error) {
		fprintf(stderr, "%s:%d: expected scenario %s to pass: %s (error %d)\n",
			__FILE__, __LINE__, name, r->why, r->error);
		t->failed++;
	}
	if (t->stats)
		fprintf(stderr, "PT-STATS %s ops=%llu checks=%llu results=%llu\n",
			name, (unsigned long long)r->ops,
			(unsigned long long)r->checks,
			(unsigned long long)r->visits);
	t->ops += r->ops;
	t->checks += r->checks;
	t->visits += r->visits;
}

int main(int argc, char **argv)
{
	struct ptcorpus_totals totals = { 0 };
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < pt_corpus_count(); i++)
			printf("%s\n", pt_corpus_name(i));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--stats")) {
		totals.stats = true;
	} else if (argc != 1) {
		fprintf(stderr, "%s:%d: expected no argument, --list or --stats, got %s\n",
			__FILE__, __LINE__, argv[1]);
		return 2;
	}
#ifdef PRIOTREE_DEFECT_BUILD
	/* a seed defect put back: fails on purpose (tests/defects/README.md) */
	if (getenv("PRIOTREE_UNDER_VALGRIND")) {
		printf("# defect build: skipped under valgrind\n");
		return 77;
	}
#endif
	pt_corpus_run_all(ptcorpus_emit, &totals);
	fprintf(stderr, "PT-TOTAL scenarios=%u failed=%u ops=%llu checks=%llu results=%llu\n",
		pt_corpus_count(), totals.failed, totals.ops, totals.checks,
		totals.visits);
	return totals.failed ? 1 : 0;
}
