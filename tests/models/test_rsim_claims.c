// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' claims, measured on the models: each check replays one
 * generated workload (src/rsim/gen.h) under the schemes it compares,
 * prints the counters side by side with the median CPU time of three
 * replays, and fails unless the shape the 2004 discussion reported
 * holds:
 *
 *   A  objrmap over a list reads every vma of the file per walk, so its
 *      walks grow with the number of vmas; the prio tree's do not
 *      (test-mmap2 at growing sizes).
 *   B  pte_chain memory grows with the mapped ptes; objrmap's does not
 *      (rmap-test with growing mappings).
 *   C  on fork-exec churn, anon_vma and anonmm do comparable fork and
 *      exit work, both far below pte_chain.
 *   D  anon_vma's walks degrade along a long fork chain, anon_vma_chain's
 *      do not (avc-fork-chain at growing chain lengths).
 *
 * The counters are deterministic; the CPU times are only printed.
 * Under PRIOTREE_UNDER_VALGRIND the sizes shrink.
 */

#include <stdlib.h>
#include <time.h>

#include "models_util.h"
#include "gen.h"

struct op_buf {
	struct rsim_op	*ops;
	unsigned long	nr, cap;
};

static int collect(void *ctx, const struct rsim_op *op)
{
	struct op_buf *b = ctx;

	if (b->nr == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4096;
		b->ops = realloc(b->ops, b->cap * sizeof(*b->ops));
		if (!b->ops)
			return -ENOMEM;
	}
	b->ops[b->nr++] = *op;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	/* CPU time: the machine is shared, wall time mostly measures that */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Replay @b under @f/@a three times; @cost gets the counters (equal in
 * every replay), the return value is the median CPU time in ms.
 */
static double replay(const struct op_buf *b, enum rsim_file_scheme f,
		     enum rsim_anon_scheme a, struct rsim_cost *cost)
{
	double ms[3], t0;
	struct rsim *sim;
	unsigned long i;
	int run, rc;

	for (run = 0; run < 3; run++) {
		sim = rsim_create(f, a);
		if (!sim) {
			fprintf(stderr, "%s:%d: expected a simulation\n",
				__FILE__, __LINE__);
			exit(1);
		}
		t0 = now();
		for (i = 0; i < b->nr; i++) {
			rc = rsim_apply(sim, &b->ops[i]);
			if (rc) {
				fprintf(stderr, "%s:%d: expected op %lu (%s) to apply under %s/%s, got %d\n",
					__FILE__, __LINE__, i,
					op_text(&b->ops[i]),
					rsim_file_scheme_name(f),
					rsim_anon_scheme_name(a), rc);
				exit(1);
			}
		}
		ms[run] = (now() - t0) * 1e3;
		if (run && memcmp(cost, rsim_cost(sim), sizeof(*cost))) {
			fprintf(stderr, "%s:%d: expected the same counters in every replay\n",
				__FILE__, __LINE__);
			exit(1);
		}
		*cost = *rsim_cost(sim);
		rsim_destroy(sim);
	}
	qsort(ms, 3, sizeof(ms[0]), cmp_double);
	return ms[1];
}

static void generate(struct op_buf *b, const struct rsim_gen_params *p)
{
	const char *why = NULL;

	b->nr = 0;
	if (rsim_gen_check(p, &why) || rsim_gen_run(p, collect, b)) {
		fprintf(stderr, "%s:%d: expected a scenario, got %s\n",
			__FILE__, __LINE__, why ? why : "an error");
		exit(1);
	}
}

static int failures;

#define claim(cond, ...)						\
do {									\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		failures++;						\
	}								\
} while (0)

static double per(u64 num, u64 den)
{
	return den ? (double)num / den : 0;
}

static void claim_a(struct op_buf *b, int small)
{
	static const unsigned long sizes[] = { 250, 500, 1000 };
	double list_first = 0, list_last = 0, prio_first = 0, prio_last = 0;
	struct rsim_gen_params p;
	struct rsim_cost cl, cp;
	double tl, tp;
	unsigned int i;

	printf("A: test-mmap2 (one vma per page, 5 forks): file rmap walks\n");
	printf("   %6s %10s %12s %12s %9s %12s %12s\n", "pages", "walks",
	       "list vmas/w", "prio vmas/w", "ratio", "list cpu ms", "prio cpu ms");
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		rsim_gen_defaults(&p, RSIM_GEN_TEST_MMAP2);
		p.size = small ? sizes[i] / 10 : sizes[i];
		generate(b, &p);
		tl = replay(b, RSIM_FILE_LIST, RSIM_ANON_VMA, &cl);
		tp = replay(b, RSIM_FILE_PRIO, RSIM_ANON_VMA, &cp);
		printf("   %6lu %10llu %12.1f %12.2f %8.0fx %12.1f %12.1f\n",
		       p.size, (unsigned long long)cl.file_walk.walks,
		       per(cl.file_walk.vmas, cl.file_walk.walks),
		       per(cp.file_walk.vmas, cp.file_walk.walks),
		       per(cl.file_walk.vmas, cp.file_walk.vmas), tl, tp);
		if (!i) {
			list_first = per(cl.file_walk.vmas, cl.file_walk.walks);
			prio_first = per(cp.file_walk.vmas, cp.file_walk.walks);
		}
		list_last = per(cl.file_walk.vmas, cl.file_walk.walks);
		prio_last = per(cp.file_walk.vmas, cp.file_walk.walks);
	}
	claim(list_last >= 3.5 * list_first,
	      "list vmas per walk to grow with the vmas (4x vmas: %.1f -> %.1f)",
	      list_first, list_last);
	claim(prio_last <= 1.1 * prio_first,
	      "prio vmas per walk not to grow (%.2f -> %.2f)", prio_first,
	      prio_last);
}

static void claim_b(struct op_buf *b, int small)
{
	static const unsigned long sizes[] = { 8, 32, 128 };
	struct rsim_gen_params p;
	struct rsim_cost cc, co;
	u64 chain_first = 0, chain_last = 0, obj_first = 0, obj_last = 0;
	unsigned int i;

	printf("B: rmap-test (growing pages per mapping): rmap metadata peak\n");
	printf("   %6s %12s %14s %16s %8s\n", "pages", "ptes (n*s*t)",
	       "pte_chain B", "prio+anon_vma B", "ratio");
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		rsim_gen_defaults(&p, RSIM_GEN_RMAP_TEST);
		p.size = small ? sizes[i] / 4 : sizes[i];
		p.iterations = 1;
		generate(b, &p);
		replay(b, RSIM_FILE_PTE_CHAIN, RSIM_ANON_PTE_CHAIN, &cc);
		replay(b, RSIM_FILE_PRIO, RSIM_ANON_VMA, &co);
		printf("   %6lu %12llu %14llu %16llu %7.1fx\n", p.size,
		       (unsigned long long)(p.size * p.mappings * p.tasks),
		       (unsigned long long)cc.meta_bytes_peak,
		       (unsigned long long)co.meta_bytes_peak,
		       per(cc.meta_bytes_peak, co.meta_bytes_peak));
		if (!i) {
			chain_first = cc.meta_bytes_peak;
			obj_first = co.meta_bytes_peak;
		}
		chain_last = cc.meta_bytes_peak;
		obj_last = co.meta_bytes_peak;
	}
	claim(chain_last >= 8 * chain_first,
	      "pte_chain memory to grow with mapped ptes (16x: %llu -> %llu)",
	      (unsigned long long)chain_first,
	      (unsigned long long)chain_last);
	claim(obj_last <= obj_first + obj_first / 4,
	      "objrmap memory not to grow with pages (%llu -> %llu)",
	      (unsigned long long)obj_first, (unsigned long long)obj_last);
}

static void claim_c(struct op_buf *b, int small)
{
	static const enum rsim_anon_scheme schemes[] = {
		RSIM_ANON_PTE_CHAIN, RSIM_ANON_VMA, RSIM_ANON_MM,
		RSIM_ANON_VMA_CHAIN,
	};
	struct rsim_gen_params p;
	struct rsim_cost c[ARRAY_SIZE(schemes)];
	u64 work[ARRAY_SIZE(schemes)];
	double ms;
	unsigned int i;

	rsim_gen_defaults(&p, RSIM_GEN_FORK_EXEC_MIX);
	if (small)
		p.iterations /= 10;
	generate(b, &p);
	printf("C: fork-exec-mix (%lu ops), file scheme prio: fork and exit work\n",
	       b->nr);
	printf("   %-15s %10s %10s %10s %10s %10s %10s %9s\n", "anon",
	       "fork ptes", "fork upd", "exit upd", "a.vmas/w", "a.mms/w",
	       "meta peak", "cpu ms");
	for (i = 0; i < ARRAY_SIZE(schemes); i++) {
		ms = replay(b, RSIM_FILE_PRIO, schemes[i], &c[i]);
		work[i] = c[i].fork.rmap_updates + c[i].exit.rmap_updates;
		printf("   %-15s %10llu %10llu %10llu %10.2f %10.2f %10llu %9.1f\n",
		       rsim_anon_scheme_name(schemes[i]),
		       (unsigned long long)c[i].fork.ptes,
		       (unsigned long long)c[i].fork.rmap_updates,
		       (unsigned long long)c[i].exit.rmap_updates,
		       per(c[i].anon_walk.vmas, c[i].anon_walk.walks),
		       per(c[i].anon_walk.mms, c[i].anon_walk.walks),
		       (unsigned long long)c[i].meta_bytes_peak, ms);
	}
	claim(work[0] >= 3 * work[1] && work[0] >= 3 * work[2],
	      "pte_chain fork+exit rmap work (%llu) >= 3x anon_vma's (%llu) and anonmm's (%llu)",
	      (unsigned long long)work[0], (unsigned long long)work[1],
	      (unsigned long long)work[2]);
	claim(3 * work[1] >= work[2] && 3 * work[2] >= work[1],
	      "anon_vma (%llu) and anonmm (%llu) fork+exit work within 3x",
	      (unsigned long long)work[1], (unsigned long long)work[2]);
}

static void claim_d(struct op_buf *b, int small)
{
	static const unsigned long lengths[] = { 8, 16, 32 };
	double av_first = 0, av_last = 0, avc_first = 0, avc_last = 0;
	struct rsim_gen_params p;
	struct rsim_cost ca, cc;
	double ta, tc;
	unsigned int i;

	printf("D: avc-fork-chain: anonymous rmap walks\n");
	printf("   %6s %10s %14s %16s %10s %10s %10s\n", "chain", "walks",
	       "anon_vma vmas/w", "avc vmas/w", "ratio", "av cpu ms", "avc cpu ms");
	for (i = 0; i < ARRAY_SIZE(lengths); i++) {
		rsim_gen_defaults(&p, RSIM_GEN_AVC_FORK_CHAIN);
		p.tasks = small ? lengths[i] / 2 : lengths[i];
		generate(b, &p);
		ta = replay(b, RSIM_FILE_PRIO, RSIM_ANON_VMA, &ca);
		tc = replay(b, RSIM_FILE_PRIO, RSIM_ANON_VMA_CHAIN, &cc);
		printf("   %6lu %10llu %14.2f %16.2f %9.1fx %10.1f %10.1f\n",
		       p.tasks, (unsigned long long)ca.anon_walk.walks,
		       per(ca.anon_walk.vmas, ca.anon_walk.walks),
		       per(cc.anon_walk.vmas, cc.anon_walk.walks),
		       per(ca.anon_walk.vmas, cc.anon_walk.vmas), ta, tc);
		if (!i) {
			av_first = per(ca.anon_walk.vmas, ca.anon_walk.walks);
			avc_first = per(cc.anon_walk.vmas, cc.anon_walk.walks);
		}
		av_last = per(ca.anon_walk.vmas, ca.anon_walk.walks);
		avc_last = per(cc.anon_walk.vmas, cc.anon_walk.walks);
	}
	claim(av_last >= 2.5 * av_first,
	      "anon_vma vmas per walk to grow along the chain (%.2f -> %.2f)",
	      av_first, av_last);
	claim(avc_last <= 1.5 * avc_first,
	      "anon_vma_chain vmas per walk not to grow (%.2f -> %.2f)",
	      avc_first, avc_last);
}

int main(void)
{
	int small = getenv("PRIOTREE_UNDER_VALGRIND") != NULL;
	struct op_buf b = { };

	if (IS_ENABLED(CONFIG_PRIO_TREE_DEBUG))
		printf("(checker build: every tree mutation re-verifies the whole tree, so CPU times are not the schemes')\n");
	claim_a(&b, small);
	claim_b(&b, small);
	claim_c(&b, small);
	claim_d(&b, small);
	free(b.ops);
	return failures ? 1 : 0;
}
