// SPDX-License-Identifier: GPL-2.0
/*
 * An outside program written against the kernel API, built with
 *
 *	cc kcompat_consumer.c $(pkg-config --cflags --libs libpriotree-kcompat)
 *
 * <linux/prio_tree.h>, <linux/mm.h> and <linux/list.h> must resolve to the
 * installed compat layer, and <linux/kernel.h> to the compat header that
 * still forwards to the UAPI one (struct sysinfo stays visible).
 *
 * It keeps self-contained prio_tree_nodes (start/last) on a list_head as
 * its brute-force oracle, checks every query against the list and the
 * tree's own checker after every mutation, and puts a few vmas through the
 * vma layer.
 *
 * usage: kcompat_consumer [OPS [SEED]]
 */

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/vma_prio_tree.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef _COMPAT_LINUX_KERNEL_H
#error "libpriotree-kcompat.pc did not put the compat <linux/kernel.h> first"
#endif
#ifndef _LINUX_KERNEL_H
#error "the compat <linux/kernel.h> did not forward to the UAPI header"
#endif

#define NR_ITEMS	256
#define PHASE_OPS	4000

struct item {
	struct prio_tree_node node;
	struct list_head link;		/* on in_tree or on spare */
	unsigned long reported;
};

static struct item items[NR_ITEMS];
static LIST_HEAD(in_tree);
static LIST_HEAD(spare);
static unsigned long query_nr, op_nr, seed;
static unsigned long long rng_state;
static int short_only;		/* first half of a phase */

#define EXPECT(cond, fmt, ...)						\
do {									\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected " fmt			\
			" (seed %lu, op %lu)\n", __FILE__, __LINE__,	\
			##__VA_ARGS__, seed, op_nr);			\
		exit(1);						\
	}								\
} while (0)

static unsigned long rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned long)(rng_state * 0x2545f4914f6cdd1dULL);
}

/*
 * Small intervals mostly, so that inserts meet identical ones; many
 * lengths behind two starts, which fill the size levels; and intervals
 * of any width, which make the tree taller under them.  The first half
 * of a phase has no wide ones, so the tree is short while it fills up.
 */
static void random_interval(unsigned long *start, unsigned long *last)
{
	switch (rnd() % (short_only ? 3 : 4)) {
	case 0:
	case 1:
		*start = rnd() % 16;
		*last = *start + rnd() % 4;
		break;
	case 2:
		*start = rnd() % 2;
		*last = *start + rnd() % 64;
		break;
	default:
		*start = rnd() >> (rnd() % 64);
		*last = *start + (rnd() >> (rnd() % 64 + 1));
		if (*last < *start)
			*last = ULONG_MAX;
		break;
	}
}

static void check_tree(struct prio_tree_root *root)
{
	struct prio_tree_fault fault;

	EXPECT(prio_tree_check(root, &fault) == 0,
	       "prio_tree_check() == 0, got invariant %s at depth %u",
	       fault.invariant, fault.depth);
}

static void check_query(struct prio_tree_root *root, unsigned long begin,
			unsigned long end)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node;
	struct item *it;
	size_t got = 0, expected = 0;

	query_nr++;
	for (node = prio_tree_first(root, &iter, begin, end); node;
	     node = prio_tree_next(root, &iter, begin, end)) {
		it = container_of(node, struct item, node);
		EXPECT(it >= items && it < items + NR_ITEMS,
		       "a node of ours, got %p", (void *)node);
		EXPECT(node->start <= end && begin <= node->last,
		       "[%lu, %lu] to overlap [%lu, %lu]", node->start,
		       node->last, begin, end);
		EXPECT(it->reported != query_nr, "item %td reported once",
		       it - items);
		it->reported = query_nr;
		got++;
	}
	list_for_each_entry(it, &in_tree, link)
		if (it->node.start <= end && begin <= it->node.last)
			expected++;
	EXPECT(got == expected, "%zu nodes for [%lu, %lu], got %zu",
	       expected, begin, end, got);
}

static void exercise_tree(unsigned long ops)
{
	struct prio_tree_root root;
	struct prio_tree_node *old;
	struct item *it, *twin;
	unsigned long begin;
	int i;

	INIT_PRIO_TREE_ROOT(&root);
	for (i = 0; i < NR_ITEMS; i++)
		list_add_tail(&items[i].link, &spare);

	for (op_nr = 0; op_nr < ops; op_nr++) {
		/* each phase starts from an empty tree */
		if (op_nr % PHASE_OPS == 0) {
			list_for_each_entry_safe(it, twin, &in_tree, link) {
				prio_tree_remove(&root, &it->node);
				list_move(&it->link, &spare);
				check_tree(&root);
			}
			EXPECT(prio_tree_empty(&root), "an empty tree");
		}
		short_only = op_nr % PHASE_OPS < PHASE_OPS / 2;

		switch (rnd() % 3) {
		case 0:
			if (list_empty(&spare))
				break;
			it = list_first_entry(&spare, struct item, link);
			INIT_PRIO_TREE_NODE(&it->node);
			random_interval(&it->node.start, &it->node.last);
			old = prio_tree_insert(&root, &it->node);
			if (old == &it->node) {
				list_move(&it->link, &in_tree);
			} else {
				/* (6): the identical interval is returned */
				twin = container_of(old, struct item, node);
				EXPECT(twin->node.start == it->node.start &&
				       twin->node.last == it->node.last,
				       "insert to return the identical node");
				/* swap them, as a caller handing over would */
				prio_tree_replace(&root, old, &it->node);
				list_move(&it->link, &in_tree);
				list_move(&twin->link, &spare);
			}
			EXPECT(prio_tree_lookup(&root, it->node.start,
						it->node.last) == &it->node,
			       "lookup to find [%lu, %lu]", it->node.start,
			       it->node.last);
			check_tree(&root);
			break;
		case 1:
			if (list_empty(&in_tree))
				break;
			/* any of the eight newest, so removal order varies */
			it = list_first_entry(&in_tree, struct item, link);
			for (i = rnd() % 8; i > 0 &&
			     !list_is_last(&it->link, &in_tree); i--)
				it = list_next_entry(it, link);
			prio_tree_remove(&root, &it->node);
			list_move(&it->link, &spare);
			EXPECT(!prio_tree_lookup(&root, it->node.start,
						 it->node.last),
			       "lookup not to find removed [%lu, %lu]",
			       it->node.start, it->node.last);
			check_tree(&root);
			break;
		default:
			begin = rnd() % 4 ? rnd() % 24 : rnd();
			check_query(&root, begin,
				    begin + rnd() % 8 < begin ?
				    ULONG_MAX : begin + rnd() % 8);
			break;
		}
	}
	check_query(&root, 0, ULONG_MAX);
}

/* Three vmas mapping one file range share one tree node (vm_set). */
static void exercise_vmas(void)
{
	struct vm_area_struct vmas[3];
	struct prio_tree_root root;
	struct prio_tree_iter iter;
	struct prio_tree_fault fault;
	struct vm_area_struct *vma;
	int i, found = 0;

	INIT_PRIO_TREE_ROOT(&root);
	for (i = 0; i < 3; i++) {
		vmas[i].vm_start = (unsigned long)(i + 1) << 30;
		vmas[i].vm_end = vmas[i].vm_start + 4 * PAGE_SIZE;
		vmas[i].vm_pgoff = 100;
		INIT_VMA_SHARED(&vmas[i]);
		EXPECT(vma_shared_empty(&vmas[i]), "a fresh vma to be empty");
		__vma_prio_tree_insert(&root, &vmas[i]);
		EXPECT(vma_prio_tree_check(&root, &fault) == 0,
		       "vma_prio_tree_check() == 0, got %s", fault.invariant);
	}
	for (vma = __vma_prio_tree_first(&root, &iter, 103, 103); vma;
	     vma = __vma_prio_tree_next(vma, &root, &iter, 103, 103))
		found++;
	EXPECT(found == 3, "page 103 mapped by 3 vmas, got %d", found);
	EXPECT(!__vma_prio_tree_first(&root, &iter, 104, ULONG_MAX),
	       "no vma to map pages from 104 on");
	for (i = 0; i < 3; i++) {
		__vma_prio_tree_remove(&root, &vmas[i]);
		EXPECT(vma_shared_empty(&vmas[i]), "a removed vma to be empty");
		EXPECT(vma_prio_tree_check(&root, &fault) == 0,
		       "vma_prio_tree_check() == 0, got %s", fault.invariant);
	}
	EXPECT(prio_tree_empty(&root), "the tree to be empty at the end");
}

int main(int argc, char **argv)
{
	unsigned long ops = 200000;
	struct sysinfo info;
	char *end;

	seed = 1;
	EXPECT(argc <= 3, "usage: %s [OPS [SEED]]", argv[0]);
	if (argc > 1) {
		ops = strtoul(argv[1], &end, 0);
		EXPECT(*argv[1] && !*end, "OPS to be a number, got '%s'",
		       argv[1]);
	}
	if (argc > 2) {
		seed = strtoul(argv[2], &end, 0);
		EXPECT(*argv[2] && !*end, "SEED to be a number, got '%s'",
		       argv[2]);
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;

	/* the UAPI part of <linux/kernel.h> came through the forwarder */
	BUILD_BUG_ON(sizeof(info.loads) != 3 * sizeof(info.loads[0]));

	prio_tree_init();
	exercise_tree(ops);
	exercise_vmas();

	printf("kcompat_consumer: %lu ops, %lu queries, seed %lu: ok\n", ops,
	       query_nr, seed);
	return 0;
}
