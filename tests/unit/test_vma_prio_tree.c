// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the seed's vma layer (<linux/vma_prio_tree.h>): vm_set
 * lists of vmas that map an identical range, the three roles (tree node,
 * list head, list member) and every transition between them, the fork
 * pattern, __vma_modify(), and queries that must return each vma exactly
 * once.  vma_prio_tree_check() runs after every mutation.
 */

#include "unit_util.h"

enum role {
	ROLE_NONE,
	ROLE_TREE_NODE,
	ROLE_LIST_HEAD,
	ROLE_LIST_MEMBER,
};

static const char *const role_name[] = {
	"none", "tree node", "list head", "list member",
};

/* The role a vma has, read from its linkage as the seed's rules say. */
static enum role role_of(const struct vm_area_struct *vma)
{
	if (vma_shared_empty(vma))
		return ROLE_NONE;
	if (vma->shared.both.parent)
		return ROLE_TREE_NODE;
	return vma->shared.vm_set.head ? ROLE_LIST_HEAD : ROLE_LIST_MEMBER;
}

#define assert_role(vma, want)						\
do {									\
	enum role __r = role_of(vma);					\
									\
	if (__r != (want))						\
		fail_msg("%s:%d: expected %s to be a %s, it is a %s",	\
			 __FILE__, __LINE__, #vma, role_name[want],	\
			 role_name[__r]);				\
} while (0)

#define NVMAS	24

struct vpool {
	struct prio_tree_root root;
	struct vm_area_struct vma[NVMAS];
	bool in_tree[NVMAS];
	unsigned long seen[NVMAS];
	unsigned long queries;
};

static void vpool_init(struct vpool *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	INIT_PRIO_TREE_ROOT(&p->root);	/* the vma layer makes it raw */
	for (i = 0; i < NVMAS; i++)
		vma_set(&p->vma[i], 0, 0);
}

static void v_insert(struct vpool *p, unsigned int i, unsigned long first,
		     unsigned long last)
{
	vma_set(&p->vma[i], first, last);
	__vma_prio_tree_insert(&p->root, &p->vma[i]);
	p->in_tree[i] = true;
	assert_vma_tree_valid(&p->root, "__vma_prio_tree_insert");
	assert_false(vma_shared_empty(&p->vma[i]));
}

static void v_fork(struct vpool *p, unsigned int child, unsigned int parent)
{
	vma_set(&p->vma[child], p->vma[parent].vm_pgoff,
		HEAP_INDEX(&p->vma[parent]));
	__vma_prio_tree_add(&p->vma[child], &p->vma[parent]);
	p->in_tree[child] = true;
	assert_vma_tree_valid(&p->root, "__vma_prio_tree_add");
}

static void v_remove(struct vpool *p, unsigned int i)
{
	__vma_prio_tree_remove(&p->root, &p->vma[i]);
	p->in_tree[i] = false;
	assert_vma_tree_valid(&p->root, "__vma_prio_tree_remove");
	assert_true(vma_shared_empty(&p->vma[i]));
	assert_null(p->vma[i].shared.vm_set.head);
}

/* Query [first, last]: every vma in the tree that overlaps, once each. */
static void v_query(struct vpool *p, unsigned long first, unsigned long last)
{
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;
	unsigned long want = 0, got = 0, stamp = ++p->queries;
	unsigned int i;

	for (i = 0; i < NVMAS; i++)
		if (p->in_tree[i] &&
		    ranges_overlap(RADIX_INDEX(&p->vma[i]),
				   HEAP_INDEX(&p->vma[i]), first, last))
			want++;
	for (vma = __vma_prio_tree_first(&p->root, &iter, first, last); vma;
	     vma = __vma_prio_tree_next(vma, &p->root, &iter, first, last)) {
		i = vma - p->vma;
		if (i >= NVMAS || !p->in_tree[i] || p->seen[i] == stamp ||
		    !ranges_overlap(RADIX_INDEX(vma), HEAP_INDEX(vma), first,
				    last))
			fail_msg("%s:%d: query [%lu, %lu] returned vma %u wrongly",
				 __FILE__, __LINE__, first, last, i);
		p->seen[i] = stamp;
		if (++got > NVMAS)
			break;
	}
	if (got != want)
		fail_msg("%s:%d: expected query [%lu, %lu] to return %lu vmas, got %lu",
			 __FILE__, __LINE__, first, last, want, got);
}

/* All queries inside [0, 31]: the ranges used here live there. */
static void v_query_all(struct vpool *p)
{
	unsigned long a, b;

	for (a = 0; a < 32; a++)
		for (b = a; b < 32; b++)
			v_query(p, a, b);
	v_query(p, 0, ULONG_MAX);
}

static void test_indices(void **state)
{
	struct vm_area_struct vma;

	(void)state;
	memset(&vma, 0xa5, sizeof(vma));
	vma.vm_start = 0x400000;
	vma.vm_end = 0x403000;		/* three pages */
	vma.vm_pgoff = 7;
	assert_int_equal(RADIX_INDEX(&vma), 7);
	assert_int_equal(HEAP_INDEX(&vma), 9);
	/* one page at the very end of the file offset space */
	vma.vm_end = 0x401000;
	vma.vm_pgoff = ULONG_MAX;
	assert_true(HEAP_INDEX(&vma) == ULONG_MAX);
	INIT_VMA_SHARED(&vma);
	assert_true(vma_shared_empty(&vma));
	assert_null(vma.shared.both.first);
	assert_null(vma.shared.both.second);
	assert_null(vma.shared.both.parent);
	assert_null(vma.shared.vm_set.head);
}

/*
 * Identical ranges grow through all three roles and shrink back:
 *   A alone: tree node; + B: B is the list head; + C, D: list members.
 */
static void test_roles_grow_and_shrink(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 0, 10, 19);
	assert_true(p.root.raw);
	assert_role(&p.vma[0], ROLE_TREE_NODE);
	assert_null(p.vma[0].shared.vm_set.head);
	v_insert(&p, 1, 10, 19);
	assert_role(&p.vma[0], ROLE_TREE_NODE);
	assert_role(&p.vma[1], ROLE_LIST_HEAD);
	assert_ptr_equal(p.vma[0].shared.vm_set.head, &p.vma[1]);
	assert_ptr_equal(p.vma[1].shared.vm_set.head, &p.vma[0]);
	v_insert(&p, 2, 10, 19);
	v_insert(&p, 3, 10, 19);
	assert_role(&p.vma[2], ROLE_LIST_MEMBER);
	assert_role(&p.vma[3], ROLE_LIST_MEMBER);
	/* other ranges around it, some identical among themselves */
	v_insert(&p, 4, 0, 31);
	v_insert(&p, 5, 12, 12);
	v_insert(&p, 6, 12, 12);
	v_insert(&p, 7, 20, 25);
	v_query_all(&p);

	/* shrink: member, member, head, tree node */
	v_remove(&p, 3);
	v_remove(&p, 2);
	assert_role(&p.vma[1], ROLE_LIST_HEAD);
	v_remove(&p, 1);
	assert_role(&p.vma[0], ROLE_TREE_NODE);
	assert_null(p.vma[0].shared.vm_set.head);
	v_query_all(&p);
	v_remove(&p, 0);
	assert_null(prio_tree_lookup(&p.root, 10, 19));
	v_query_all(&p);
}

/* Removing the tree node: its head takes its place, a member heads. */
static void test_remove_tree_node(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 4, 0, 31);		/* so that [10, 19] is not the root */
	v_insert(&p, 0, 10, 19);
	v_insert(&p, 1, 10, 19);
	v_insert(&p, 2, 10, 19);
	v_insert(&p, 3, 10, 19);
	v_insert(&p, 5, 16, 16);	/* and has a child */
	v_remove(&p, 0);
	assert_role(&p.vma[1], ROLE_TREE_NODE);
	assert_ptr_equal(prio_tree_lookup(&p.root, 10, 19),
			 (struct prio_tree_node *)
			 &p.vma[1].shared.prio_tree_node);
	/* the ring runs head 1, 2, 3: the first member is the new head */
	assert_role(&p.vma[2], ROLE_LIST_HEAD);
	assert_role(&p.vma[3], ROLE_LIST_MEMBER);
	assert_ptr_equal(p.vma[1].shared.vm_set.head, &p.vma[2]);
	v_query_all(&p);
	v_remove(&p, 1);
	assert_role(&p.vma[2], ROLE_TREE_NODE);
	assert_role(&p.vma[3], ROLE_LIST_HEAD);
	/* a tree node whose head has no members: the head alone follows */
	v_remove(&p, 2);
	assert_role(&p.vma[3], ROLE_TREE_NODE);
	assert_null(p.vma[3].shared.vm_set.head);
	v_query_all(&p);
	/* the root itself, with a vm_set */
	v_insert(&p, 6, 0, 31);
	v_remove(&p, 4);
	assert_role(&p.vma[6], ROLE_TREE_NODE);
	assert_true(prio_tree_root((struct prio_tree_node *)
				   &p.vma[6].shared.prio_tree_node));
	v_query_all(&p);
}

/* Removing the head: the first member is promoted to head. */
static void test_remove_head(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 0, 3, 9);
	v_insert(&p, 1, 3, 9);
	v_insert(&p, 2, 3, 9);
	v_insert(&p, 3, 3, 9);
	/* the ring runs head 1, 2, 3 */
	v_remove(&p, 1);
	assert_role(&p.vma[0], ROLE_TREE_NODE);
	assert_role(&p.vma[2], ROLE_LIST_HEAD);
	assert_role(&p.vma[3], ROLE_LIST_MEMBER);
	assert_ptr_equal(p.vma[0].shared.vm_set.head, &p.vma[2]);
	assert_ptr_equal(p.vma[2].shared.vm_set.head, &p.vma[0]);
	v_query_all(&p);
	v_remove(&p, 2);
	assert_role(&p.vma[3], ROLE_LIST_HEAD);
	v_remove(&p, 3);
	assert_null(p.vma[0].shared.vm_set.head);
	v_query_all(&p);
}

static void test_remove_member(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 0, 3, 9);
	v_insert(&p, 1, 3, 9);
	v_insert(&p, 2, 3, 9);
	v_insert(&p, 3, 3, 9);
	v_insert(&p, 4, 3, 9);
	v_remove(&p, 3);
	assert_role(&p.vma[1], ROLE_LIST_HEAD);
	assert_role(&p.vma[2], ROLE_LIST_MEMBER);
	assert_role(&p.vma[4], ROLE_LIST_MEMBER);
	v_query_all(&p);
	v_remove(&p, 4);
	v_remove(&p, 2);
	assert_true(list_empty(&p.vma[1].shared.vm_set.list));
	v_query_all(&p);
}

/* fork(): __vma_prio_tree_add(child, parent) with the parent in each role. */
static void test_fork(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 0, 5, 14);
	v_fork(&p, 1, 0);		/* parent: lone tree node */
	assert_role(&p.vma[1], ROLE_LIST_HEAD);
	v_fork(&p, 2, 0);		/* parent: tree node with a head */
	assert_role(&p.vma[2], ROLE_LIST_MEMBER);
	v_fork(&p, 3, 1);		/* parent: the head */
	assert_role(&p.vma[3], ROLE_LIST_MEMBER);
	v_fork(&p, 4, 2);		/* parent: a member */
	assert_role(&p.vma[4], ROLE_LIST_MEMBER);
	assert_role(&p.vma[0], ROLE_TREE_NODE);
	assert_role(&p.vma[1], ROLE_LIST_HEAD);
	v_query_all(&p);
	/* and every one of them leaves cleanly, tree node first */
	v_remove(&p, 0);
	v_remove(&p, 4);
	v_remove(&p, 1);
	v_query_all(&p);
	v_remove(&p, 3);
	v_remove(&p, 2);
	assert_true(prio_tree_empty(&p.root));
}

/* __vma_modify(): between ranges, into and out of vm_sets, and untracked. */
static void test_modify(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 0, 4, 7);
	v_insert(&p, 1, 4, 7);
	v_insert(&p, 2, 4, 7);
	v_insert(&p, 3, 20, 29);

	/* the tree node moves into another range's vm_set */
	__vma_modify(&p.root, &p.vma[0], 0x1000, 0x1000 + 10 * PAGE_SIZE, 20);
	assert_vma_tree_valid(&p.root, "__vma_modify");
	assert_role(&p.vma[0], ROLE_LIST_HEAD);
	assert_role(&p.vma[1], ROLE_TREE_NODE);
	assert_int_equal(RADIX_INDEX(&p.vma[0]), 20);
	assert_int_equal(HEAP_INDEX(&p.vma[0]), 29);
	v_query_all(&p);

	/* a member moves to a range of its own */
	__vma_modify(&p.root, &p.vma[0], 0x1000, 0x1000 + PAGE_SIZE, 31);
	assert_vma_tree_valid(&p.root, "__vma_modify");
	assert_role(&p.vma[0], ROLE_TREE_NODE);
	v_query_all(&p);

	/* shrinking in place (same pgoff, fewer pages) */
	__vma_modify(&p.root, &p.vma[2], p.vma[2].vm_start,
		     p.vma[2].vm_start + 2 * PAGE_SIZE, 4);
	assert_vma_tree_valid(&p.root, "__vma_modify");
	assert_role(&p.vma[2], ROLE_TREE_NODE);
	assert_null(p.vma[1].shared.vm_set.head);
	v_query_all(&p);

	/* with no tree, only the fields change */
	vma_set(&p.vma[9], 0, 0);
	__vma_modify(NULL, &p.vma[9], 0x2000, 0x5000, 17);
	assert_true(vma_shared_empty(&p.vma[9]));
	assert_int_equal(RADIX_INDEX(&p.vma[9]), 17);
	assert_int_equal(HEAP_INDEX(&p.vma[9]), 19);
	v_query_all(&p);
}

/*
 * Brute force: many vm_sets in a small index space, random inserts,
 * forks and removals; after each, every query returns every vma once.
 */
static void test_queries_brute_force(void **state)
{
	struct test_rng rng = { .state = 2004 };
	unsigned int step, i, j;
	unsigned long a, b;
	struct vpool p;

	(void)state;
	vpool_init(&p);
	for (step = 0; step < 300; step++) {
		i = rng_below(&rng, NVMAS);
		if (p.in_tree[i]) {
			v_remove(&p, i);
		} else {
			/* ranges from a handful, so vm_sets form */
			a = rng_below(&rng, 4) * 7;
			b = a + rng_below(&rng, 3) * 4;
			j = rng_below(&rng, NVMAS);
			if (p.in_tree[j] && rng_below(&rng, 2))
				v_fork(&p, i, j);
			else
				v_insert(&p, i, a, b);
		}
		for (a = 0; a < 32; a += 3)
			for (b = a; b < 32; b += 5)
				v_query(&p, a, b);
	}
	v_query_all(&p);
}

/* vma_prio_tree_check() names (7) and (8) when vm_sets are corrupted. */
static void test_check_vm_set(void **state)
{
	struct vpool p;

	(void)state;
	vpool_init(&p);
	v_insert(&p, 0, 3, 9);
	v_insert(&p, 1, 3, 9);
	v_insert(&p, 2, 3, 9);

	/* the head does not point back at its tree node */
	p.vma[1].shared.vm_set.head = &p.vma[2];
	assert_vma_tree_fault(&p.root, "7");
	p.vma[1].shared.vm_set.head = &p.vma[0];
	assert_vma_tree_valid(&p.root, "repair");

	/* a member that claims a head role */
	p.vma[2].shared.vm_set.head = &p.vma[0];
	assert_vma_tree_fault(&p.root, "7");
	p.vma[2].shared.vm_set.head = NULL;

	/* a member mapping another range */
	p.vma[2].vm_pgoff = 4;
	assert_vma_tree_fault(&p.root, "7");
	p.vma[2].vm_pgoff = 3;

	/* ring links that disagree */
	p.vma[2].shared.vm_set.list.prev = &p.vma[2].shared.vm_set.list;
	assert_vma_tree_fault(&p.root, "7");
	p.vma[2].shared.vm_set.list.prev = &p.vma[1].shared.vm_set.list;
	assert_vma_tree_valid(&p.root, "repair");

	/*
	 * A member with vm_end <= vm_start (8) that still computes the same
	 * seven pages: the end wrapped around the top of the address space.
	 */
	p.vma[2].vm_start = -PAGE_SIZE;
	p.vma[2].vm_end = p.vma[2].vm_start + 7 * PAGE_SIZE;
	assert_int_equal(HEAP_INDEX(&p.vma[2]), 9);
	assert_vma_tree_fault(&p.root, "8");
	p.vma[2].vm_start = p.vma[0].vm_start;
	p.vma[2].vm_end = p.vma[0].vm_end;
	assert_vma_tree_valid(&p.root, "repair");

	/* the same wrap in the tree node, whose keys then pass (1)-(6) */
	p.vma[0].vm_start = -PAGE_SIZE;
	p.vma[0].vm_end = p.vma[0].vm_start + 7 * PAGE_SIZE;
	assert_vma_tree_fault_is(&p.root, "8 vma: vm_end <= vm_start");
	p.vma[0].vm_start = p.vma[2].vm_start;
	p.vma[0].vm_end = p.vma[2].vm_end;
	assert_vma_tree_valid(&p.root, "repair");

	/* a list head that also has a tree parent */
	p.vma[1].shared.vm_set.parent = &p.vma[0].shared.prio_tree_node;
	assert_vma_tree_fault_is(&p.root,
				 "7 vm_set: list head has a tree parent");
	p.vma[1].shared.vm_set.parent = NULL;
	assert_vma_tree_valid(&p.root, "repair");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_indices),
		cmocka_unit_test(test_roles_grow_and_shrink),
		cmocka_unit_test(test_remove_tree_node),
		cmocka_unit_test(test_remove_head),
		cmocka_unit_test(test_remove_member),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_modify),
		cmocka_unit_test(test_queries_brute_force),
		cmocka_unit_test(test_check_vm_set),
	};

	return cmocka_run_group_tests_name("vma_prio_tree", tests, NULL,
					   NULL);
}
