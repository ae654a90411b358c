// SPDX-License-Identifier: GPL-2.0
/*
 * cmocka unit tests of the reverse-mapping models, one per operation and
 * per corner case the 2004 discussion named.  Every test drives all
 * twelve scheme combinations in lock step (ground truth checked and
 * digests compared after each op) and then asserts what must differ
 * between the schemes: vmas visited, copies made, memory, merges.  The
 * last checks the work profile that rmapsim's scenario loader records
 * for its progress display.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>

#include "gen.h"
#include "models_util.h"
#include "scenario.h"

#define OP(kind, ...)	((struct rsim_op){ RSIM_OP_##kind, { __VA_ARGS__ } })

#define RW	(RSIM_PROT_READ | RSIM_PROT_WRITE)
#define RO	RSIM_PROT_READ

/* Apply @op everywhere, expecting @want; fail with the reason if not. */
static void expect_op(struct combos *c, struct rsim_op op, int want,
		      const char *file, int line)
{
	char why[512] = "";
	int rc = combos_apply(c, &op, 1, why, sizeof(why));

	if (rc == -1 && why[0])
		fail_msg("%s:%d: %s", file, line, why);
	if (rc != want)
		fail_msg("%s:%d: %s: expected rc %d, got %d", file, line,
			 op_text(&op), want, rc);
}

#define apply_ok(c, op)		expect_op((c), (op), 0, __FILE__, __LINE__)
#define apply_err(c, op, err)	expect_op((c), (op), (err), __FILE__, __LINE__)

static struct rsim *combo(struct combos *c, enum rsim_file_scheme f,
			  enum rsim_anon_scheme a)
{
	return c->sim[f * RSIM_NR_ANON_SCHEMES + a];
}

static const struct rsim_cost *cost_of(struct combos *c,
				       enum rsim_file_scheme f,
				       enum rsim_anon_scheme a)
{
	return rsim_cost(combo(c, f, a));
}

static int setup(void **state)
{
	struct combos *c = malloc(sizeof(*c));

	if (!c)
		return -1;
	combos_create(c);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	combos_destroy(*state);
	free(*state);
	return 0;
}

/* ---- file pages ------------------------------------------------------- */

static void test_file_shared_walk(void **state)
{
	struct combos *c = *state;
	unsigned long pid;

	apply_ok(c, OP(FILE_CREATE, 1, 16));
	for (pid = 1; pid <= 4; pid++) {
		apply_ok(c, OP(EXEC, pid));
		/* each maps a different page range: only pid 1..2 cover 5 */
		apply_ok(c, OP(MMAP_SHARED, pid, 100, 4, RW, 1, pid * 2));
	}
	apply_ok(c, OP(FAULT_READ, 2, 101));	/* pgoff 5 */
	apply_ok(c, OP(FAULT_WRITE, 1, 103));	/* pgoff 5 */
	apply_ok(c, OP(WALK_FILE, 1, 5));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	/* list reads all 4 vmas, prio only the 2 that overlap pgoff 5 */
	assert_int_equal(cost_of(c, RSIM_FILE_LIST, 0)->file_walk.vmas, 4);
	assert_int_equal(cost_of(c, RSIM_FILE_PRIO, 0)->file_walk.vmas, 2);
	assert_int_equal(cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->file_walk.vmas,
			 0);
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->file_walk.chain_entries, 2);
	/* a shared file page is never copied */
	assert_int_equal(cost_of(c, RSIM_FILE_PRIO, 0)->cow_copies, 0);
}

static void test_pte_chain_memory(void **state)
{
	struct combos *c = *state;
	unsigned long pid;

	apply_ok(c, OP(FILE_CREATE, 1, 4));
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_SHARED, 1, 0, 4, RO, 1, 0));
	for (pid = 0; pid < 4; pid++)
		apply_ok(c, OP(FAULT_READ, 1, pid));
	/* one pte per page: the direct case costs no chain block */
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->pte_chain_blocks, 0);
	for (pid = 2; pid <= 15; pid++)
		apply_ok(c, OP(FORK, 1, pid));
	/* 15 ptes of each of 4 pages: 3 blocks of 7 pointers each */
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->pte_chain_blocks, 12);
	assert_int_equal(cost_of(c, RSIM_FILE_PRIO, 0)->pte_chain_blocks, 0);
	assert_true(cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->meta_bytes >
		    cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA)->meta_bytes);
	for (pid = 2; pid <= 15; pid++)
		apply_ok(c, OP(EXIT, pid));
	/* 2.6.5 never turns a one-entry chain back into a direct pte */
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->pte_chain_blocks, 4);
	apply_ok(c, OP(EXIT, 1));
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->pte_chain_blocks, 0);
	assert_int_equal(cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->meta_bytes, 0);
}

static void test_truncate(void **state)
{
	struct combos *c = *state;

	apply_ok(c, OP(FILE_CREATE, 1, 8));
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_SHARED, 1, 0, 8, RW, 1, 0));
	apply_ok(c, OP(MMAP_PRIVATE, 1, 20, 8, RW, 1, 0));
	apply_ok(c, OP(FAULT_WRITE, 1, 6));
	apply_ok(c, OP(FAULT_READ, 1, 25));
	apply_ok(c, OP(FAULT_WRITE, 1, 27));	/* a private COW copy */
	apply_ok(c, OP(FAULT_READ, 1, 1));
	apply_ok(c, OP(FORK, 1, 2));
	apply_ok(c, OP(TRUNCATE, 1, 4));
	assert_int_equal(cost_of(c, 0, 0)->ptes_mapped, 2);	/* page 1 */
	apply_ok(c, OP(WALK_ADDR, 2, 6));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 0);
	apply_ok(c, OP(WALK_FILE, 1, 1));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	/* beyond EOF is SIGBUS */
	apply_err(c, OP(FAULT_READ, 1, 6), -EFAULT);
	apply_ok(c, OP(TRUNCATE, 1, 8));
	apply_ok(c, OP(FAULT_READ, 1, 6));
}

static void test_reclaim(void **state)
{
	struct combos *c = *state;

	apply_ok(c, OP(FILE_CREATE, 1, 8));
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_PRIVATE, 1, 0, 8, RO, 1, 0));
	apply_ok(c, OP(MMAP_ANON, 1, 10, 4, RW));
	apply_ok(c, OP(FAULT_READ, 1, 3));
	apply_ok(c, OP(FAULT_WRITE, 1, 11));
	apply_ok(c, OP(FORK, 1, 2));
	apply_ok(c, OP(FORK, 2, 3));
	apply_ok(c, OP(RECLAIM_FILE, 1, 3));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 3);
	/* only the parent's pte was young: fork copies ptes old */
	assert_int_equal(cost_of(c, 0, 0)->referenced, 1);
	apply_ok(c, OP(RECLAIM_ADDR, 3, 11));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 3);
	assert_int_equal(cost_of(c, 0, 0)->ptes_mapped, 0);
	assert_int_equal(cost_of(c, 0, 0)->pages, 0);
	/* nothing there any more: a no-op */
	apply_ok(c, OP(RECLAIM_ADDR, 3, 11));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 0);
	apply_ok(c, OP(FAULT_READ, 2, 11));
	assert_int_equal(cost_of(c, 0, 0)->pages, 1);
}

/*
 * truncate finds the vmas through i_mmap: the list reads every vma of
 * the file, the prio tree only those that map beyond the new EOF.
 */
static void test_truncate_query_cost(void **state)
{
	struct combos *c = *state;
	unsigned long i;

	apply_ok(c, OP(FILE_CREATE, 1, 64));
	apply_ok(c, OP(EXEC, 1));
	for (i = 0; i < 32; i++)
		apply_ok(c, OP(MMAP_SHARED, 1, 100 + 2 * i, 1, RO, 1, i));
	apply_ok(c, OP(FAULT_READ, 1, 100 + 2 * 31));
	apply_ok(c, OP(TRUNCATE, 1, 30));
	assert_int_equal(cost_of(c, RSIM_FILE_LIST, 0)->truncate.rmap_updates,
			 32);
	/* pte_chain also drops the zapped pte's chain entry */
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, 0)->truncate.rmap_updates, 33);
	assert_int_equal(cost_of(c, RSIM_FILE_PRIO, 0)->truncate.rmap_updates,
			 2);
	assert_int_equal(cost_of(c, 0, 0)->ptes_mapped, 0);
}

/* mremap moves ptes: pte_chain rewrites one chain entry per pte. */
static void test_mremap_move_file(void **state)
{
	struct combos *c = *state;
	unsigned long vpn;

	apply_ok(c, OP(FILE_CREATE, 1, 8));
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_SHARED, 1, 0, 8, RW, 1, 0));
	for (vpn = 0; vpn < 8; vpn++)
		apply_ok(c, OP(FAULT_READ, 1, vpn));
	apply_ok(c, OP(FORK, 1, 2));
	apply_ok(c, OP(MREMAP_MOVE, 1, 0, 8, 8, 40));
	apply_ok(c, OP(WALK_FILE, 1, 3));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	assert_int_equal(cost_of(c, 0, 0)->mremap.ptes, 8);
	assert_int_equal(
		cost_of(c, RSIM_FILE_PTE_CHAIN, RSIM_ANON_VMA)->
		mremap.rmap_updates, 1 + 2 * 8);
	assert_int_equal(
		cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA)->mremap.rmap_updates,
		1);
	/* exec throws the old mm away: only the child's mappings stay */
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(WALK_FILE, 1, 3));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
}

/* ---- vma operations ---------------------------------------------------- */

static void test_munmap_partial(void **state)
{
	struct combos *c = *state;
	unsigned long vpn;

	apply_ok(c, OP(FILE_CREATE, 1, 16));
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_SHARED, 1, 0, 16, RW, 1, 0));
	for (vpn = 0; vpn < 16; vpn++)
		apply_ok(c, OP(FAULT_WRITE, 1, vpn));
	apply_ok(c, OP(MUNMAP, 1, 4, 4));
	assert_int_equal(cost_of(c, 0, 0)->vmas, 2);
	assert_int_equal(cost_of(c, 0, 0)->ptes_mapped, 12);
	apply_err(c, OP(FAULT_READ, 1, 5), -EFAULT);
	apply_ok(c, OP(WALK_FILE, 1, 9));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	/* mapping the hole again at the same offset merges all three */
	apply_ok(c, OP(MMAP_SHARED, 1, 4, 4, RW, 1, 4));
	assert_int_equal(cost_of(c, 0, 0)->vmas, 1);
	/* an unmap of nothing is fine */
	apply_ok(c, OP(MUNMAP, 1, 100, 4));
}

static void test_mprotect_split_merge(void **state)
{
	struct combos *c = *state;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 0, 12, RW));
	apply_ok(c, OP(FAULT_WRITE, 1, 5));
	apply_ok(c, OP(MPROTECT, 1, 4, 4, RO));
	assert_int_equal(cost_of(c, 0, 0)->vmas, 3);
	apply_err(c, OP(FAULT_WRITE, 1, 5), -EFAULT);
	apply_ok(c, OP(FAULT_WRITE, 1, 9));
	apply_ok(c, OP(MPROTECT, 1, 4, 4, RW));
	/* one anon_vma throughout, so every scheme merges back */
	assert_int_equal(cost_of(c, 0, RSIM_ANON_VMA)->vmas, 1);
	assert_int_equal(cost_of(c, 0, RSIM_ANON_VMA_CHAIN)->vmas, 1);
	assert_int_equal(cost_of(c, 0, RSIM_ANON_MM)->vmas, 1);
	/* revoked write was write-protected: a write now faults, reuses */
	apply_ok(c, OP(FAULT_WRITE, 1, 5));
	assert_int_equal(cost_of(c, 0, 0)->cow_copies, 0);
	apply_err(c, OP(MPROTECT, 1, 10, 4, RO), -ENOMEM);
}

/*
 * Two adjacent anonymous vmas with linear vm_pgoff but different
 * anon_vmas: 2.6.7 refuses to merge them (so does 2.6.34), the schemes
 * without anon_vma merge.
 */
static void test_anon_vma_merge_refusal(void **state)
{
	struct combos *c = *state;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 10, 8, RW));
	apply_ok(c, OP(MPROTECT, 1, 14, 4, RO));
	apply_ok(c, OP(FAULT_WRITE, 1, 11));	/* anon_vma X for [10,14) */
	apply_ok(c, OP(FAULT_READ, 1, 15));	/* anon_vma Y for [14,18) */
	apply_ok(c, OP(MPROTECT, 1, 14, 4, RW));
	assert_int_equal(cost_of(c, 0, RSIM_ANON_VMA)->vmas, 2);
	assert_int_equal(cost_of(c, 0, RSIM_ANON_VMA_CHAIN)->vmas, 2);
	assert_int_equal(cost_of(c, 0, RSIM_ANON_MM)->vmas, 1);
	assert_int_equal(cost_of(c, 0, RSIM_ANON_PTE_CHAIN)->vmas, 1);
	/* the run still moves as one under every scheme */
	apply_ok(c, OP(MREMAP_MOVE, 1, 10, 8, 8, 40));
	apply_ok(c, OP(WALK_ADDR, 1, 45));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
}

static void test_mremap_resize(void **state)
{
	struct combos *c = *state;

	apply_ok(c, OP(FILE_CREATE, 1, 32));
	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_PRIVATE, 1, 0, 4, RW, 1, 0));
	apply_ok(c, OP(MMAP_ANON, 1, 8, 4, RW));
	apply_ok(c, OP(FAULT_WRITE, 1, 2));
	apply_ok(c, OP(MREMAP_RESIZE, 1, 0, 4, 8));
	apply_ok(c, OP(FAULT_READ, 1, 7));
	apply_err(c, OP(MREMAP_RESIZE, 1, 0, 8, 9), -ENOMEM);
	apply_err(c, OP(MREMAP_RESIZE, 1, 6, 4, 5), -EFAULT);
	apply_ok(c, OP(MREMAP_RESIZE, 1, 0, 8, 3));
	assert_int_equal(cost_of(c, 0, 0)->ptes_mapped, 1);
	apply_ok(c, OP(WALK_FILE, 1, 7));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 0);
}

/* ---- fork, exit, COW ---------------------------------------------------- */

static void test_fork_cow(void **state)
{
	struct combos *c = *state;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 0, 4, RW));
	apply_ok(c, OP(FAULT_WRITE, 1, 0));
	apply_ok(c, OP(FAULT_WRITE, 1, 1));
	apply_ok(c, OP(FORK, 1, 2));
	apply_ok(c, OP(WALK_ADDR, 2, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	apply_ok(c, OP(FAULT_WRITE, 2, 0));	/* copy */
	assert_int_equal(cost_of(c, 0, 0)->cow_copies, 1);
	apply_ok(c, OP(FAULT_WRITE, 1, 0));	/* mapped once now: reuse */
	assert_int_equal(cost_of(c, 0, 0)->cow_copies, 1);
	apply_ok(c, OP(WALK_ADDR, 1, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	apply_ok(c, OP(WALK_ADDR, 1, 1));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	/* pte_chain pays per pte in fork, the object schemes per vma */
	assert_true(cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_PTE_CHAIN)->
		    fork.rmap_updates >
		    cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA)->
		    fork.rmap_updates);
	apply_ok(c, OP(EXIT, 1));
	apply_ok(c, OP(WALK_ADDR, 2, 1));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	apply_ok(c, OP(EXEC, 2));
	assert_int_equal(cost_of(c, 0, 0)->pages, 0);
}

static void test_invalid_ops(void **state)
{
	struct combos *c = *state;
	u64 digest;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 0, 4, RO));
	apply_ok(c, OP(FAULT_READ, 1, 0));
	apply_ok(c, OP(WALK_ADDR, 1, 0));
	digest = rsim_digest(c->sim[0]);
	apply_err(c, OP(FAULT_READ, 9, 0), -ESRCH);
	apply_err(c, OP(FAULT_READ, 1, 4), -EFAULT);
	apply_err(c, OP(FAULT_WRITE, 1, 0), -EFAULT);
	apply_err(c, OP(FORK, 1, 1), -EEXIST);
	apply_err(c, OP(FORK, 7, 8), -ESRCH);
	apply_err(c, OP(FILE_CREATE, 1, 1UL << 40), -EINVAL);
	apply_err(c, OP(MMAP_SHARED, 1, 0, 4, RW, 5, 0), -EBADF);
	apply_err(c, OP(MMAP_ANON, 1, RSIM_TASK_PAGES - 1, 2, RW), -EINVAL);
	apply_err(c, OP(MMAP_ANON, 1, 0, 0, RW), -EINVAL);
	apply_err(c, OP(MMAP_ANON, 1, 0, 1, 4), -EINVAL);
	apply_err(c, OP(MREMAP_MOVE, 1, 0, 4, 4, 2), -EINVAL);
	apply_err(c, OP(MREMAP_MOVE, 1, 2, 4, 4, 20), -EFAULT);
	apply_err(c, OP(TRUNCATE, 3, 0), -EBADF);
	apply_err(c, OP(WALK_ADDR, 1, 9), -EFAULT);
	assert_true(rsim_digest(c->sim[0]) == digest);
	{
		struct rsim_op bad = { RSIM_NR_OPS, { 0 } };

		assert_int_equal(rsim_apply(c->sim[0], &bad), -EINVAL);
	}
}

static void test_names(void **state)
{
	int i;

	for (i = 0; i < RSIM_NR_FILE_SCHEMES; i++)
		assert_int_equal(
			rsim_file_scheme_parse(rsim_file_scheme_name(i)), i);
	for (i = 0; i < RSIM_NR_ANON_SCHEMES; i++)
		assert_int_equal(
			rsim_anon_scheme_parse(rsim_anon_scheme_name(i)), i);
	for (i = 0; i < RSIM_NR_OPS; i++)
		assert_int_equal(rsim_op_parse(rsim_op_desc(i)->name), i);
	assert_int_equal(rsim_anon_scheme_parse("anon"), -EINVAL);
	assert_null(rsim_op_desc(RSIM_NR_OPS));
	assert_null(rsim_create(RSIM_NR_FILE_SCHEMES, 0));
}

/* ---- anonmm ------------------------------------------------------------ */

/*
 * mremap of anonymous pages shared after fork: anonmm cannot give one
 * page two addresses, so it copies the shared page (early COW) and moves
 * an exclusive one; the other schemes move ptes.  What any walk reports
 * is the same.
 */
static void test_anonmm_mremap_shared(void **state)
{
	struct combos *c = *state;
	const struct rsim_cost *mm, *av;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 0, 4, RW));
	apply_ok(c, OP(FAULT_WRITE, 1, 0));
	apply_ok(c, OP(FAULT_WRITE, 1, 1));
	apply_ok(c, OP(FORK, 1, 2));
	apply_ok(c, OP(FAULT_WRITE, 1, 1));	/* page 1 exclusive again */
	apply_ok(c, OP(MREMAP_MOVE, 1, 0, 4, 4, 100));
	mm = cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_MM);
	av = cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA);
	assert_int_equal(mm->cow_early, 1);
	assert_int_equal(av->cow_early, 0);
	assert_int_equal(mm->pages, av->pages + 1);
	/* the data of page 0 is still seen at both places */
	apply_ok(c, OP(WALK_ADDR, 1, 100));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	apply_ok(c, OP(WALK_ADDR, 1, 101));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	/* writing it splits the data apart under every scheme */
	apply_ok(c, OP(FAULT_WRITE, 1, 100));
	apply_ok(c, OP(WALK_ADDR, 2, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	/* reclaim of the twin takes the data from both places */
	apply_ok(c, OP(FORK, 2, 3));
	apply_ok(c, OP(MREMAP_MOVE, 2, 0, 4, 4, 50));
	apply_ok(c, OP(RECLAIM_ADDR, 3, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	apply_ok(c, OP(WALK_ADDR, 2, 50));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 0);
}

/*
 * A bundle whose leader exits: the pages the leader faulted in point at
 * its anonmm and are handed on to a child that maps them.
 */
static void test_anonmm_leader_exits(void **state)
{
	struct combos *c = *state;
	const struct rsim_cost *mm;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 0, 8, RW));
	apply_ok(c, OP(FAULT_WRITE, 1, 0));
	apply_ok(c, OP(FAULT_WRITE, 1, 1));
	apply_ok(c, OP(FORK, 1, 2));
	apply_ok(c, OP(FORK, 1, 3));
	apply_ok(c, OP(MUNMAP, 2, 1, 1));
	apply_ok(c, OP(EXIT, 1));
	mm = cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_MM);
	/* two pages handed on; the bundle keeps two anonmms */
	assert_true(mm->exit.rmap_updates > 0);
	apply_ok(c, OP(WALK_ADDR, 3, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 2);
	apply_ok(c, OP(WALK_ADDR, 3, 1));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	apply_ok(c, OP(EXIT, 3));
	apply_ok(c, OP(WALK_ADDR, 2, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	apply_ok(c, OP(FORK, 2, 4));
	apply_ok(c, OP(EXIT, 2));
	apply_ok(c, OP(WALK_ADDR, 4, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	apply_ok(c, OP(EXIT, 4));
	assert_int_equal(mm->meta_bytes, 0);
	assert_int_equal(mm->pages, 0);
}

/* ---- anon_vma against anon_vma_chain ----------------------------------- */

/*
 * A fork chain in which every generation writes its copy: under 2.6.7
 * all of them share one anon_vma, so a walk of the newest page reads the
 * vma of every generation; anon_vma_chain reads only its own.
 */
static void test_fork_chain_walks(void **state)
{
	struct combos *c = *state;
	unsigned long pid, depth = 20;
	u64 av, avc;

	apply_ok(c, OP(EXEC, 1));
	apply_ok(c, OP(MMAP_ANON, 1, 0, 2, RW));
	apply_ok(c, OP(FAULT_WRITE, 1, 0));
	for (pid = 2; pid <= depth; pid++) {
		apply_ok(c, OP(FORK, pid - 1, pid));
		apply_ok(c, OP(FAULT_WRITE, pid, 0));
	}
	apply_ok(c, OP(WALK_ADDR, depth, 0));
	assert_int_equal(rsim_last_walk(c->sim[0])->nr, 1);
	av = cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA)->anon_walk.vmas;
	avc = cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA_CHAIN)->anon_walk.vmas;
	assert_int_equal(av, depth);
	assert_int_equal(avc, 1);
	/* and anon_vma_chain pays in structs: one per generation per vma */
	assert_true(cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA_CHAIN)->
		    meta_bytes >
		    cost_of(c, RSIM_FILE_PRIO, RSIM_ANON_VMA)->meta_bytes);
}

/* ---- rmapsim's work profile ------------------------------------------ */

static int print_op(void *out, const struct rsim_op *op)
{
	scenario_print_op(out, op);
	return 0;
}

/*
 * test-mmap3 with twenty forks of an mm of 2,000 file vmas: the forks
 * and exits are the last 42 of 4,044 ops but a large share of the work.
 * The profile that validation records must grow with every op, match
 * the counters of a pte_chain run after each op and so end at that
 * run's total, and put the forks' work where the forks are.
 */
static void test_work_profile(void **state)
{
	char path[] = "/tmp/rsim-work-profile-XXXXXX";
	unsigned long i, first_fork = 0;
	struct rsim_gen_params params;
	struct scenario sc;
	struct rsim *sim;
	const char *why;
	FILE *out;
	int fd;

	rsim_gen_defaults(&params, RSIM_GEN_TEST_MMAP3);
	params.size = 2000;
	params.tasks = 20;
	params.reclaim = 1000;
	assert_int_equal(rsim_gen_check(&params, &why), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	out = fdopen(fd, "w");
	assert_non_null(out);
	scenario_print_header(out, "work-profile");
	assert_int_equal(rsim_gen_run(&params, print_op, out), 0);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(scenario_load(path, &sc), 0);
	unlink(path);

	sim = rsim_create(RSIM_FILE_PTE_CHAIN, RSIM_ANON_PTE_CHAIN);
	assert_non_null(sim);
	for (i = 0; i < sc.nr; i++) {
		assert_int_equal(rsim_apply(sim, &sc.ops[i]), 0);
		if (i)
			assert_true(sc.work[i] >= sc.work[i - 1] +
					       SCENARIO_OP_WORK);
		assert_true(sc.work[i] ==
			    scenario_work(rsim_cost(sim), i + 1));
		if (sc.ops[i].kind == RSIM_OP_FORK && !first_fork)
			first_fork = i;
	}
	assert_true(sc.work[sc.nr - 1] ==
		    scenario_work(rsim_cost(sim), sc.nr));
	/* past 98% of the ops, not yet half of the work */
	assert_true(first_fork * 100 > sc.nr * 98);
	assert_true(sc.work[first_fork - 1] * 2 < sc.work[sc.nr - 1]);
	rsim_destroy(sim);
	scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file_shared_walk, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pte_chain_memory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_truncate, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reclaim, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_truncate_query_cost,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_mremap_move_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_munmap_partial, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mprotect_split_merge,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_anon_vma_merge_refusal,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_mremap_resize, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fork_cow, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_invalid_ops, setup,
						teardown),
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_anonmm_mremap_shared,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_anonmm_leader_exits,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_chain_walks, setup,
						teardown),
		cmocka_unit_test(test_work_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
