// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "prio_tree_corpus": the libpriotree scenario corpus, run
 * inside the kernel at boot.
 *
 * One parameterised case runs each scenario of pt_corpus.c (beside this
 * file, in the kernel as in the repository's src/corpus/) and prints
 *
 *	PT-DIGEST <scenario> <16 hex digits>
 *
 * on the console, the line tests/corpus/ptcorpus prints in userspace;
 * kernel-port/compare.py diffs the two.  A scenario fails its KTAP case
 * when the tree breaks an invariant or disagrees with the corpus's
 * brute-force oracle.  A last case checks the corpus is as large as the
 * issue asks (>= 50 scenarios, >= 1,000,000 operations) and prints the
 * totals as a PT-TOTAL line.
 *
 * A third case prints the size of struct vm_area_struct as
 *
 *	PT-VMA-SIZE i_mmap=<prio|rbtree> vm_area_struct=<bytes> shared=<bytes>
 *
 * so run-suite.sh can show that a kernel with i_mmap on the prio tree
 * has the same vma as one without (patch 0001 keeps every view of
 * vma->shared inside the interval tree's four words).
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/string.h>

#include "pt_corpus.h"

#define PT_KUNIT_MIN_SCENARIOS	50
#define PT_KUNIT_MIN_OPS	1000000ULL

/* Totals over the scenarios run so far in this boot. */
static u64 pt_kunit_ops, pt_kunit_checks, pt_kunit_results;
static unsigned int pt_kunit_ran;

/* The parameter is the scenario's name string; find its index again. */
static unsigned int pt_kunit_index(const void *param)
{
	unsigned int i;

	for (i = 0; i < pt_corpus_count(); i++)
		if (pt_corpus_name(i) == param)
			break;
	return i;
}

static const void *pt_kunit_gen_params(const void *prev, char *desc)
{
	unsigned int next = prev ? pt_kunit_index(prev) + 1 : 0;
	const char *name = pt_corpus_name(next);

	if (name)
		strscpy(desc, name, KUNIT_PARAM_DESC_SIZE);
	return name;
}

static void pt_kunit_scenario(struct kunit *test)
{
	const char *name = test->param_value;
	struct pt_corpus_result *res;
	int ret;

	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, res);

	ret = pt_corpus_run(pt_kunit_index(name), res);
	pr_info("PT-DIGEST %s %016llx\n", name, res->digest);

	pt_kunit_ops += res->ops;
	pt_kunit_checks += res->checks;
	pt_kunit_results += res->visits;
	pt_kunit_ran++;
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "scenario %s: %s", name, res->why);
}

static void pt_kunit_corpus_size(struct kunit *test)
{
	pr_info("PT-TOTAL scenarios=%u ops=%llu checks=%llu results=%llu\n",
		pt_kunit_ran, pt_kunit_ops, pt_kunit_checks, pt_kunit_results);
	KUNIT_EXPECT_EQ(test, pt_kunit_ran, pt_corpus_count());
	KUNIT_EXPECT_GE(test, pt_corpus_count(), PT_KUNIT_MIN_SCENARIOS);
	KUNIT_EXPECT_GE(test, pt_kunit_ops, PT_KUNIT_MIN_OPS);
}

static void pt_kunit_vma_layout(struct kunit *test)
{
	const size_t rb_words = sizeof(struct rb_node) + sizeof(unsigned long);

	pr_info("PT-VMA-SIZE i_mmap=%s vm_area_struct=%zu shared=%zu\n",
		IS_ENABLED(CONFIG_I_MMAP_PRIO_TREE) ? "prio" : "rbtree",
		sizeof(struct vm_area_struct),
		sizeof_field(struct vm_area_struct, shared));
	/* every view of the union fits in the rb linkage's storage */
	KUNIT_EXPECT_EQ(test, sizeof_field(struct vm_area_struct, shared),
			rb_words);
	KUNIT_EXPECT_LE(test, sizeof_field(struct vm_area_struct,
					   shared.vm_set), rb_words);
	KUNIT_EXPECT_LE(test, sizeof_field(struct vm_area_struct,
					   shared.prio_tree_node), rb_words);
}

static struct kunit_case pt_kunit_cases[] = {
	KUNIT_CASE_PARAM(pt_kunit_scenario, pt_kunit_gen_params),
	KUNIT_CASE(pt_kunit_corpus_size),
	KUNIT_CASE(pt_kunit_vma_layout),
	{}
};

static struct kunit_suite pt_kunit_suite = {
	.name = "prio_tree_corpus",
	.test_cases = pt_kunit_cases,
};
kunit_test_suite(pt_kunit_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("libpriotree scenario corpus, replayed in the kernel");
