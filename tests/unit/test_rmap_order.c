// SPDX-License-Identifier: GPL-2.0
/*
 * The order in which an i_mmap query on the prio tree visits vmas: what
 * it guarantees and what it does not.
 *
 * Linux 6.1 lets mremap() move ptes without the rmap locks when the
 * destination vma comes after the source in "rmap traversal order"
 * (copy_vma(), move_ptes()): an rbtree walk visits vmas in increasing
 * vm_pgoff, ties in insertion order.  The prio tree walks in heap
 * pre-order on the last page, so the kernel port must not rely on that
 * (kernel-port/patches/0004 takes the rmap locks instead), while fork's
 * insert_after order (child after parent) does hold.  These tests pin
 * both facts down, so a change to the walk that altered either shows up.
 */

#include "unit_util.h"

#define ORDER_TREES	400
#define ORDER_OTHERS	40

/* Position of @want in the query of @page, or -1 when it is not visited. */
static int visit_position(struct prio_tree_root *root,
			  const struct vm_area_struct *want,
			  unsigned long page)
{
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;
	int pos = 0;

	for (vma = __vma_prio_tree_first(root, &iter, page, page); vma;
	     vma = __vma_prio_tree_next(vma, root, &iter, page, page), pos++)
		if (vma == want)
			return pos;
	return -1;
}

/*
 * The mremap shape: a source vma mapping file pages [0, 7] and the
 * destination of a grow-and-move of its tail, [4, 11], among other vmas
 * inserted in random order.  In interval-tree order the source (pgoff 0)
 * always comes first.  In the prio tree the destination, whose last page
 * is higher, is visited first in a good share of trees: the order that
 * mremap's lockless pte move relies on is not given.
 */
static void test_mremap_destination_can_come_first(void **state)
{
	struct test_rng rng = { .state = 20041 };
	struct vm_area_struct src, dst, other[ORDER_OTHERS];
	struct prio_tree_root root;
	unsigned int t, i, dst_first = 0;

	(void)state;
	for (t = 0; t < ORDER_TREES; t++) {
		unsigned int where = rng_below(&rng, ORDER_OTHERS + 1);
		bool src_before = rng_below(&rng, 2);
		int ps, pd;

		INIT_RAW_PRIO_TREE_ROOT(&root);
		vma_set(&src, 0, 7);
		vma_set(&dst, 4, 11);
		for (i = 0; i < ORDER_OTHERS; i++) {
			unsigned long first = rng_below(&rng, 64);

			if (i == where) {
				/* mremap inserts the destination after the source */
				__vma_prio_tree_insert(&root,
						       src_before ? &src : &dst);
				__vma_prio_tree_insert(&root,
						       src_before ? &dst : &src);
			}
			vma_set(&other[i], first, first + rng_below(&rng, 16));
			__vma_prio_tree_insert(&root, &other[i]);
		}
		if (where == ORDER_OTHERS) {
			__vma_prio_tree_insert(&root, src_before ? &src : &dst);
			__vma_prio_tree_insert(&root, src_before ? &dst : &src);
		}
		assert_vma_tree_valid(&root, "mremap shape");

		ps = visit_position(&root, &src, 5);
		pd = visit_position(&root, &dst, 5);
		assert_true(ps >= 0 && pd >= 0);	/* both found, once */
		if (pd < ps)
			dst_first++;
	}
	print_message("destination visited first in %u of %u trees\n",
		      dst_first, ORDER_TREES);
	/* neither always nor never: no order to rely on either way */
	assert_true(dst_first >= ORDER_TREES / 40);
	assert_true(dst_first < ORDER_TREES);
}

/*
 * A heap property the kernel's reasoning could lean on instead: of two
 * overlapping vmas on one root-to-leaf path, the one with the higher
 * last page is nearer the root.  With a single pair and nothing else,
 * the destination ([4, 11]) is always visited first, whatever order the
 * two were inserted in.
 */
static void test_higher_last_page_first_when_alone(void **state)
{
	struct vm_area_struct src, dst;
	struct prio_tree_root root;
	unsigned int order;

	(void)state;
	for (order = 0; order < 2; order++) {
		INIT_RAW_PRIO_TREE_ROOT(&root);
		vma_set(&src, 0, 7);
		vma_set(&dst, 4, 11);
		__vma_prio_tree_insert(&root, order ? &dst : &src);
		__vma_prio_tree_insert(&root, order ? &src : &dst);
		assert_vma_tree_valid(&root, "pair");
		assert_int_equal(visit_position(&root, &dst, 5), 0);
		assert_int_equal(visit_position(&root, &src, 5), 1);
	}
}

/*
 * fork(): dup_mmap() puts the child's vma after the parent's with
 * vma_interval_tree_insert_after(), which the port maps to
 * __vma_prio_tree_add().  Every query must visit the child after the
 * parent, whatever role the parent has (tree node, list head, list
 * member), so an rmap walk that meets the child has already seen the
 * parent, whose ptes copy_page_range() copies.
 */
static void test_fork_child_after_parent(void **state)
{
	struct test_rng rng = { .state = 7 };
	struct vm_area_struct vma[64];
	struct prio_tree_root root;
	unsigned int t, n, i;

	(void)state;
	for (t = 0; t < ORDER_TREES; t++) {
		INIT_RAW_PRIO_TREE_ROOT(&root);
		n = 0;
		/* a few ranges, each first mapped by one "exec" */
		for (i = 0; i < 8; i++) {
			unsigned long first = rng_below(&rng, 32);

			vma_set(&vma[n], first, first + rng_below(&rng, 8));
			__vma_prio_tree_insert(&root, &vma[n++]);
		}
		/* then forks of random vmas, children of children too */
		while (n < ARRAY_SIZE(vma)) {
			struct vm_area_struct *parent = &vma[rng_below(&rng, n)];
			struct vm_area_struct *child = &vma[n++];
			unsigned long page;
			int pp, pc;

			vma_set(child, parent->vm_pgoff, HEAP_INDEX(parent));
			__vma_prio_tree_add(child, parent);
			assert_vma_tree_valid(&root, "fork");

			page = RADIX_INDEX(parent) +
			       rng_below(&rng, VMA_SIZE(parent));
			pp = visit_position(&root, parent, page);
			pc = visit_position(&root, child, page);
			assert_true(pp >= 0 && pc >= 0);
			if (pc <= pp)
				fail_msg("tree %u: child %td visited at %d, before its parent %td at %d",
					 t, child - vma, pc, parent - vma, pp);
		}
	}
}

/*
 * Identical ranges inserted one after another are visited in insertion
 * order: the later ones join the first one's vm_set at its tail.
 */
static void test_identical_ranges_in_insertion_order(void **state)
{
	struct vm_area_struct vma[6], other;
	struct prio_tree_root root;
	unsigned int i;

	(void)state;
	INIT_RAW_PRIO_TREE_ROOT(&root);
	vma_set(&other, 2, 20);
	__vma_prio_tree_insert(&root, &other);
	for (i = 0; i < ARRAY_SIZE(vma); i++) {
		vma_set(&vma[i], 3, 9);
		__vma_prio_tree_insert(&root, &vma[i]);
	}
	assert_vma_tree_valid(&root, "identical");
	for (i = 1; i < ARRAY_SIZE(vma); i++)
		assert_true(visit_position(&root, &vma[i - 1], 5) <
			    visit_position(&root, &vma[i], 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mremap_destination_can_come_first),
		cmocka_unit_test(test_higher_last_page_first_when_alone),
		cmocka_unit_test(test_fork_child_after_parent),
		cmocka_unit_test(test_identical_ranges_in_insertion_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
