/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests: a seeded PRNG, tree checks that fail
 * the current cmocka test with the invariant the checker named, and
 * constructors for the two node flavours.
 *
 * Every helper is static inline so that each test file stays one
 * translation unit and needs nothing but the library under test.
 */
#ifndef PRIOTREE_TESTS_UNIT_UTIL_H
#define PRIOTREE_TESTS_UNIT_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/vma_prio_tree.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

/*
 * splitmix64: small, fast, and every seed (even 0) gives a full-period
 * stream, so a seed from the command line can be anything.
 */
struct test_rng {
	uint64_t state;
};

static inline uint64_t rng_next(struct test_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound), bound > 0; the modulo bias is irrelevant here. */
static inline unsigned long rng_below(struct test_rng *rng,
				      unsigned long bound)
{
	return (unsigned long)(rng_next(rng) % bound);
}

/* The low @bits bits of a random word, 0 <= bits <= BITS_PER_LONG. */
static inline unsigned long rng_bits(struct test_rng *rng, unsigned int bits)
{
	if (!bits)
		return 0;
	return (unsigned long)rng_next(rng) >> (BITS_PER_LONG - bits);
}

/*
 * Fail the running test unless prio_tree_check() passes; @where says which
 * step broke the tree.
 */
#define assert_tree_valid(root, where)					\
do {									\
	struct prio_tree_fault __f;					\
									\
	if (prio_tree_check((root), &__f))				\
		fail_msg("%s:%d: expected a valid tree after %s, "	\
			 "invariant %s broken at depth %u by [%lu, %lu]", \
			 __FILE__, __LINE__, (where), __f.invariant,	\
			 __f.depth, __f.radix, __f.heap);		\
} while (0)

#define assert_vma_tree_valid(root, where)				\
do {									\
	struct prio_tree_fault __f;					\
									\
	if (vma_prio_tree_check((root), &__f))				\
		fail_msg("%s:%d: expected a valid vma tree after %s, "	\
			 "invariant %s broken at depth %u by [%lu, %lu]", \
			 __FILE__, __LINE__, (where), __f.invariant,	\
			 __f.depth, __f.radix, __f.heap);		\
} while (0)

/*
 * Expect @checker to report a verdict that starts with @want, or, with
 * @whole, is exactly @want (the terminating NUL compared too).
 */
#define __assert_fault(checker, root, want, whole)			\
do {									\
	struct prio_tree_fault __f = { .invariant = NULL };		\
	const char *__want = (want);					\
	int __ret = checker((root), &__f);				\
									\
	if (__ret != -EUCLEAN || !__f.invariant ||			\
	    strncmp(__f.invariant, __want, strlen(__want) + (whole)))	\
		fail_msg("%s:%d: expected \"%s\" to be reported, "	\
			 "got %d (%s)", __FILE__, __LINE__, __want,	\
			 __ret, __f.invariant ? __f.invariant : "none"); \
} while (0)

/* Expect the invariant numbered @number (a string literal). */
#define assert_tree_fault(root, number) \
	__assert_fault(prio_tree_check, root, number " ", false)
#define assert_vma_tree_fault(root, number) \
	__assert_fault(vma_prio_tree_check, root, number " ", false)

/*
 * Expect exactly @text: for the invariants with more than one verdict,
 * the one a test means to reach.
 */
#define assert_tree_fault_is(root, text) \
	__assert_fault(prio_tree_check, root, text, true)
#define assert_vma_tree_fault_is(root, text) \
	__assert_fault(vma_prio_tree_check, root, text, true)

static inline void node_set(struct prio_tree_node *node, unsigned long start,
			    unsigned long last)
{
	INIT_PRIO_TREE_NODE(node);
	node->start = start;
	node->last = last;
}

/*
 * A vma mapping file pages [pgoff, last]: one page per index, placed at an
 * arbitrary but page-aligned address (the tree never reads vm_start except
 * through the size).  @last - @pgoff must fit in the address space.
 */
static inline void vma_set(struct vm_area_struct *vma, unsigned long pgoff,
			   unsigned long last)
{
	memset(vma, 0, sizeof(*vma));
	vma->vm_start = 0x10000UL;
	vma->vm_end = vma->vm_start + ((last - pgoff + 1) << PAGE_SHIFT);
	vma->vm_pgoff = pgoff;
	INIT_VMA_SHARED(vma);
}

static inline bool ranges_overlap(unsigned long a_first, unsigned long a_last,
				  unsigned long b_first, unsigned long b_last)
{
	return a_first <= b_last && b_first <= a_last;
}

#endif /* PRIOTREE_TESTS_UNIT_UTIL_H */
