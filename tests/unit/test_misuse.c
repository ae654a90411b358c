// SPDX-License-Identifier: GPL-2.0
/*
 * Death tests for misuse of the kernel API, against the
 * library built with CONFIG_PRIO_TREE_DEBUG=1.  Each misuse runs in a
 * forked child whose stderr is captured: the child must die of SIGABRT
 * and say what was wrong, naming the file and line of the check.
 *
 * <priotree.h> is then shown to turn the same mistakes into error codes,
 * in the same debug build, without aborting.
 */

#include "unit_util.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <priotree.h>

#if !IS_ENABLED(CONFIG_PRIO_TREE_DEBUG)
#error "test_misuse needs the CONFIG_PRIO_TREE_DEBUG=1 build of the library"
#endif

/*
 * Run @misuse in a child; expect SIGABRT and every string of @needles
 * (NULL-terminated) on its stderr.
 */
static void expect_abort(const char *what, void (*misuse)(void),
			 const char *const *needles)
{
	char out[4096];
	size_t len = 0;
	ssize_t got;
	int pipefd[2], status;
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		misuse();
		/* the library let it through: say so, and fail the test */
		fprintf(stderr, "no abort\n");
		_exit(0);
	}
	close(pipefd[1]);
	while (len < sizeof(out) - 1 &&
	       (got = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += got;
	out[len] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);

	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		fail_msg("%s:%d: expected %s to abort with SIGABRT, got status %#x, stderr: %s",
			 __FILE__, __LINE__, what, status, out);
	for (; *needles; needles++)
		if (!strstr(out, *needles))
			fail_msg("%s:%d: expected %s to report \"%s\", stderr: %s",
				 __FILE__, __LINE__, what, *needles, out);
}

static struct prio_tree_root root;
static struct prio_tree_node n15, n23, stray;

static void build_tree(void)
{
	INIT_PRIO_TREE_ROOT(&root);
	node_set(&n15, 1, 5);
	node_set(&n23, 2, 3);
	prio_tree_insert(&root, &n15);
	prio_tree_insert(&root, &n23);
}

static void insert_twice_leaf(void)
{
	build_tree();
	prio_tree_insert(&root, &n23);
}

static void insert_twice_root(void)
{
	build_tree();
	prio_tree_insert(&root, &n15);
}

static void test_insert_node_in_tree(void **state)
{
	static const char *const needles[] = {
		"BUG_ON(prio_tree_contains(root, node))", "prio_tree.c:",
		"prio_tree_insert", NULL,
	};

	(void)state;
	expect_abort("inserting a leaf again", insert_twice_leaf, needles);
	expect_abort("inserting the root again", insert_twice_root, needles);
}

static void remove_stray(void)
{
	build_tree();
	node_set(&stray, 2, 3);		/* same key as a node in the tree */
	prio_tree_remove(&root, &stray);
}

static void remove_from_empty(void)
{
	INIT_PRIO_TREE_ROOT(&root);
	node_set(&stray, 0, 0);
	prio_tree_remove(&root, &stray);
}

static void remove_twice(void)
{
	build_tree();
	prio_tree_remove(&root, &n23);
	prio_tree_remove(&root, &n23);
}

static void test_remove_node_in_no_tree(void **state)
{
	static const char *const needles[] = {
		"BUG_ON(!prio_tree_contains(root, node))", "prio_tree.c:",
		"prio_tree_remove", NULL,
	};

	(void)state;
	expect_abort("removing a node never inserted", remove_stray, needles);
	expect_abort("removing from an empty tree", remove_from_empty,
		     needles);
	expect_abort("removing a node twice", remove_twice, needles);
}

static void insert_reversed(void)
{
	build_tree();
	node_set(&stray, 5, 3);
	prio_tree_insert(&root, &stray);
}

static void query_reversed(void)
{
	struct prio_tree_iter iter;

	build_tree();
	prio_tree_first(&root, &iter, 4, 2);
}

static void test_start_after_last(void **state)
{
	static const char *const insert_needles[] = {
		"BUG_ON(radix > heap)", "prio_tree.c:", NULL,
	};
	static const char *const query_needles[] = {
		"BUG_ON(begin > end)", "prio_tree_first", NULL,
	};

	(void)state;
	expect_abort("inserting [5, 3]", insert_reversed, insert_needles);
	expect_abort("querying [4, 2]", query_reversed, query_needles);
}

/*
 * An iterator continued on a root it was not started on.  The check runs
 * once per hit, so only this build makes it; what it catches is a caller
 * mixing up two trees, which would otherwise walk one with the other's
 * state.
 */
static void next_other_root(void)
{
	struct prio_tree_root second = PRIO_TREE_ROOT;
	struct prio_tree_iter iter;

	build_tree();
	assert_non_null(prio_tree_first(&root, &iter, 2, 2));
	prio_tree_next(&second, &iter, 2, 2);
}

static void test_next_on_other_root(void **state)
{
	static const char *const needles[] = {
		"BUG_ON(iter->root != root)", "prio_tree.c:",
		"prio_tree_next", NULL,
	};

	(void)state;
	expect_abort("prio_tree_next() on another root", next_other_root,
		     needles);
}

static struct vm_area_struct vma, other;

static void vma_insert_empty(void)
{
	INIT_PRIO_TREE_ROOT(&root);
	vma_set(&vma, 3, 5);
	vma.vm_end = vma.vm_start;
	__vma_prio_tree_insert(&root, &vma);
}

static void vma_insert_reversed(void)
{
	INIT_PRIO_TREE_ROOT(&root);
	vma_set(&vma, 3, 5);
	vma.vm_end = vma.vm_start - PAGE_SIZE;
	__vma_prio_tree_insert(&root, &vma);
}

static void vma_add_empty(void)
{
	INIT_PRIO_TREE_ROOT(&root);
	vma_set(&other, 3, 3);
	__vma_prio_tree_insert(&root, &other);
	/* wraps to the same one-page size, but vm_end <= vm_start */
	vma_set(&vma, 3, 3);
	vma.vm_start = -PAGE_SIZE;
	vma.vm_end = 0;
	__vma_prio_tree_add(&vma, &other);
}

static void test_vma_end_not_after_start(void **state)
{
	static const char *const insert_needles[] = {
		"is empty or reversed", "BUG", "prio_tree.c:",
		"__vma_prio_tree_insert", NULL,
	};
	static const char *const add_needles[] = {
		"is empty or reversed", "BUG", "vma_prio_tree.c:",
		"__vma_prio_tree_add", NULL,
	};

	(void)state;
	expect_abort("inserting a vma with vm_end == vm_start",
		     vma_insert_empty, insert_needles);
	expect_abort("inserting a vma with vm_end < vm_start",
		     vma_insert_reversed, insert_needles);
	expect_abort("adding a vma with vm_end <= vm_start", vma_add_empty,
		     add_needles);
}

static void vma_remove_stray(void)
{
	INIT_PRIO_TREE_ROOT(&root);
	vma_set(&vma, 3, 5);
	__vma_prio_tree_remove(&root, &vma);
}

static void test_vma_remove_in_no_tree(void **state)
{
	static const char *const needles[] = {
		"VM_BUG_ON_VMA(vma_shared_empty(vma))", "vma_prio_tree.c:",
		"start 0x10000 end 0x13000 pgoff 0x3", NULL,
	};

	(void)state;
	expect_abort("removing a vma in no tree", vma_remove_stray, needles);
}

/* The same mistakes through <priotree.h>: error codes, no abort. */
static void vma_next_other_root(void)
{
	struct prio_tree_root first = RAW_PRIO_TREE_ROOT_INIT;
	struct prio_tree_root second = RAW_PRIO_TREE_ROOT_INIT;
	struct prio_tree_iter iter;
	struct vm_area_struct *hit;

	vma_set(&vma, 7, 9);
	vma_set(&other, 7, 8);
	__vma_prio_tree_insert(&first, &vma);
	__vma_prio_tree_insert(&second, &other);
	hit = __vma_prio_tree_first(&first, &iter, 7, 7);
	assert_ptr_equal(hit, &vma);
	__vma_prio_tree_next(hit, &second, &iter, 7, 7);
}

static void test_vma_next_on_other_root(void **state)
{
	static const char *const needles[] = {
		"BUG_ON(iter->root != root || !root->raw)", "prio_tree_walk.h:",
		"__vma_prio_tree_next", NULL,
	};

	(void)state;
	expect_abort("__vma_prio_tree_next() on another root",
		     vma_next_other_root, needles);
}

static void test_priotree_returns_errors(void **state)
{
	struct priotree *pt = priotree_new();
	struct priotree_iter it;
	char msg[128];
	int item;

	(void)state;
	assert_non_null(pt);
	assert_int_equal(priotree_insert(pt, 5, 3, &item), -EINVAL);
	assert_int_equal(priotree_query(pt, 4, 2, &it), -EINVAL);
	assert_int_equal(priotree_remove(pt, 2, 3, &item), -ENOENT);
	assert_int_equal(priotree_insert(pt, 2, 3, &item), 0);
	/* the same entry twice is two entries, not a corrupt tree */
	assert_int_equal(priotree_insert(pt, 2, 3, &item), 0);
	assert_int_equal(priotree_remove(pt, 2, 3, &item), 0);
	assert_int_equal(priotree_remove(pt, 2, 3, &item), 0);
	assert_int_equal(priotree_remove(pt, 2, 3, &item), -ENOENT);
	assert_int_equal(priotree_remove(pt, 3, 2, &item), -EINVAL);
	assert_int_equal(priotree_check(pt, msg, sizeof(msg)), 0);
	assert_int_equal(priotree_count(pt), 0);
	priotree_free(pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_node_in_tree),
		cmocka_unit_test(test_remove_node_in_no_tree),
		cmocka_unit_test(test_start_after_last),
		cmocka_unit_test(test_next_on_other_root),
		cmocka_unit_test(test_vma_end_not_after_start),
		cmocka_unit_test(test_vma_remove_in_no_tree),
		cmocka_unit_test(test_vma_next_on_other_root),
		cmocka_unit_test(test_priotree_returns_errors),
	};

	return cmocka_run_group_tests_name("misuse", tests, NULL, NULL);
}
