// SPDX-License-Identifier: GPL-2.0
/*
 * The peer: Linux's augmented rbtree interval tree, which replaced the
 * prio tree for i_mmap in 3.7, built from the installed kernel source's
 * tools/ tree (interval_tree_generic.h, lib/rbtree.c), never copied here.
 * One node per mapping, as vma_interval_tree does.
 */
#include <stdlib.h>

#include <linux/compiler.h>
#include <linux/interval_tree_generic.h>

#include "bench.h"

struct it_node {
	struct rb_node rb;
	unsigned long start;
	unsigned long last;
	unsigned long subtree_last;
};

#define IT_START(n)	((n)->start)
#define IT_LAST(n)	((n)->last)

INTERVAL_TREE_DEFINE(struct it_node, rb, unsigned long, subtree_last,
		     IT_START, IT_LAST, static, it)

struct it_ix {
	struct rb_root_cached root;
	struct it_node *nodes;
};

static void *itree_create(unsigned long n)
{
	struct it_ix *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	ix->root = RB_ROOT_CACHED;
	ix->nodes = calloc(n, sizeof(*ix->nodes));
	if (!ix->nodes) {
		free(ix);
		return NULL;
	}
	return ix;
}

static void itree_insert(void *p, unsigned long id, unsigned long start,
			 unsigned long last)
{
	struct it_ix *ix = p;

	ix->nodes[id].start = start;
	ix->nodes[id].last = last;
	it_insert(&ix->nodes[id], &ix->root);
}

static void itree_remove(void *p, unsigned long id)
{
	struct it_ix *ix = p;

	it_remove(&ix->nodes[id], &ix->root);
}

static void itree_query(void *p, unsigned long first, unsigned long last,
			unsigned long *hits, unsigned long *sum)
{
	struct it_ix *ix = p;
	struct it_node *node;

	for (node = it_iter_first(&ix->root, first, last); node;
	     node = it_iter_next(node, first, last)) {
		(*hits)++;
		*sum += bench_mix(node - ix->nodes);
	}
}

static void itree_destroy(void *p)
{
	struct it_ix *ix = p;

	free(ix->nodes);
	free(ix);
}

const struct bench_ops itree_ops = {
	.name = "itree",
	.what = "Linux 6.1 interval tree (i_mmap since 3.7)",
	.create = itree_create,
	.insert = itree_insert,
	.remove = itree_remove,
	.query = itree_query,
	.destroy = itree_destroy,
};
