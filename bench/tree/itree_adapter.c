// SPDX-License-Identifier: GPL-2.0
/*
 * The peer: Linux's augmented rbtree interval tree, which replaced the
 * prio tree for i_mmap in 3.7, built from the installed kernel source's
 * tools/ tree (interval_tree_generic.h, lib/rbtree.c), never copied here.
 * One node per mapping, as vma_interval_tree does.  Three subjects:
 *   itree      INTERVAL_TREE_DEFINE static in this translation unit, so
 *              the compiler inlines insert, remove and the iterator here;
 *              the node stores its [start, last];
 *   itree-ool  the same tree, called out of line in itree_ool.c;
 *   itree-vma  inlined too, but over the vma the prio-vma subject uses,
 *              keyed as 6.1's mm/interval_tree.c keys i_mmap: start is
 *              vm_pgoff, last is derived from vm_pgoff, vm_start and
 *              vm_end, and only the subtree bound is stored.  This is the
 *              job the prio tree did for i_mmap, node for node.
 */
#include <stddef.h>
#include <stdlib.h>

#include <linux/compiler.h>
#include <linux/interval_tree_generic.h>

#include "bench.h"
#include "itree_node.h"

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
	ix->nodes = bench_nodes(n, sizeof(*ix->nodes));
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

/*
 * Nodes visited: interval_tree_generic.h's iter_first/iter_next replayed
 * with a count of every node whose fields the walk reads (the root, the
 * cached leftmost, each child whose subtree_last it tests, each parent it
 * climbs to).
 */
static struct it_node *count_subtree_search(struct it_node *node,
					    unsigned long start,
					    unsigned long last,
					    unsigned long *v)
{
	for (;;) {
		if (node->rb.rb_left) {
			struct it_node *left = rb_entry(node->rb.rb_left,
							struct it_node, rb);

			++*v;
			if (start <= left->subtree_last) {
				node = left;
				continue;
			}
		}
		if (node->start <= last) {
			if (start <= node->last)
				return node;
			if (node->rb.rb_right) {
				node = rb_entry(node->rb.rb_right,
						struct it_node, rb);
				++*v;
				if (start <= node->subtree_last)
					continue;
			}
		}
		return NULL;
	}
}

static struct it_node *count_iter_next(struct it_node *node,
				       unsigned long start,
				       unsigned long last, unsigned long *v)
{
	struct rb_node *rb = node->rb.rb_right, *prev;

	for (;;) {
		if (rb) {
			struct it_node *right = rb_entry(rb, struct it_node,
							 rb);

			++*v;
			if (start <= right->subtree_last)
				return count_subtree_search(right, start,
							    last, v);
		}
		do {
			rb = rb_parent(&node->rb);
			if (!rb)
				return NULL;
			prev = &node->rb;
			node = rb_entry(rb, struct it_node, rb);
			++*v;
			rb = node->rb.rb_right;
		} while (prev == rb);
		if (last < node->start)
			return NULL;
		else if (start <= node->last)
			return node;
	}
}

static unsigned long itree_visits(void *p, unsigned long first,
				  unsigned long last)
{
	struct it_ix *ix = p;
	struct it_node *node;
	unsigned long v = 0;

	if (!ix->root.rb_root.rb_node)
		return 0;
	node = rb_entry(ix->root.rb_root.rb_node, struct it_node, rb);
	v++;
	if (node->subtree_last < first)
		return v;
	v++;
	if (rb_entry(ix->root.rb_leftmost, struct it_node, rb)->start > last)
		return v;
	for (node = count_subtree_search(node, first, last, &v); node;
	     node = count_iter_next(node, first, last, &v))
		;
	return v;
}

static void itree_destroy(void *p)
{
	struct it_ix *ix = p;

	free(ix->nodes);
	free(ix);
}

const struct bench_ops itree_ops = {
	.name = "itree",
	.what = "Linux 6.1 interval tree, inlined (static, this file)",
	.create = itree_create,
	.insert = itree_insert,
	.remove = itree_remove,
	.query = itree_query,
	.visits = itree_visits,
	.destroy = itree_destroy,
};

static void ool_insert(void *p, unsigned long id, unsigned long start,
		       unsigned long last)
{
	struct it_ix *ix = p;

	ix->nodes[id].start = start;
	ix->nodes[id].last = last;
	ool_it_insert(&ix->nodes[id], &ix->root);
}

static void ool_remove(void *p, unsigned long id)
{
	struct it_ix *ix = p;

	ool_it_remove(&ix->nodes[id], &ix->root);
}

static void ool_query(void *p, unsigned long first, unsigned long last,
		      unsigned long *hits, unsigned long *sum)
{
	struct it_ix *ix = p;
	struct it_node *node;

	for (node = ool_it_iter_first(&ix->root, first, last); node;
	     node = ool_it_iter_next(node, first, last)) {
		(*hits)++;
		*sum += bench_mix(node - ix->nodes);
	}
}

/*
 * itree-vma.  The vma is the compat one prio-vma links (compat/linux/mm.h),
 * field for field, with 6.1's i_mmap linkage in place of the prio tree's:
 * both are 64 bytes with vm_pgoff at the same offset, so the two subjects
 * touch the same cache lines per node.  The check below keeps them so.
 */
#define IT_VMA_PAGE_SHIFT	12

struct it_vma {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long vm_flags;
	struct {
		struct rb_node rb;
		unsigned long rb_subtree_last;
	} shared;
	unsigned long vm_pgoff;
};

_Static_assert(sizeof(struct it_vma) == 8 * sizeof(long) &&
	       offsetof(struct it_vma, vm_pgoff) == 7 * sizeof(long),
	       "itree-vma must keep the layout of the compat vm_area_struct");

static inline unsigned long it_vma_start_pgoff(const struct it_vma *v)
{
	return v->vm_pgoff;
}

/* as 6.1's vma_last_pgoff(): three loads, like the prio tree's heap */
static inline unsigned long it_vma_last_pgoff(const struct it_vma *v)
{
	return v->vm_pgoff +
	       ((v->vm_end - v->vm_start) >> IT_VMA_PAGE_SHIFT) - 1;
}

INTERVAL_TREE_DEFINE(struct it_vma, shared.rb, unsigned long,
		     shared.rb_subtree_last, it_vma_start_pgoff,
		     it_vma_last_pgoff, static, itvma)

struct itv_ix {
	struct rb_root_cached root;
	struct it_vma *vmas;
};

static void *itv_create(unsigned long n)
{
	struct itv_ix *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	ix->root = RB_ROOT_CACHED;
	ix->vmas = bench_nodes(n, sizeof(*ix->vmas));
	if (!ix->vmas) {
		free(ix);
		return NULL;
	}
	return ix;
}

/* the same vma fields as prio_adapter.c's prio_insert() */
static void itv_insert(void *p, unsigned long id, unsigned long start,
		       unsigned long last)
{
	struct itv_ix *ix = p;
	struct it_vma *vma = &ix->vmas[id];

	vma->vm_pgoff = start;
	vma->vm_start = 0;
	vma->vm_end = (last - start + 1) << IT_VMA_PAGE_SHIFT;
	itvma_insert(vma, &ix->root);
}

static void itv_remove(void *p, unsigned long id)
{
	struct itv_ix *ix = p;

	itvma_remove(&ix->vmas[id], &ix->root);
}

static void itv_query(void *p, unsigned long first, unsigned long last,
		      unsigned long *hits, unsigned long *sum)
{
	struct itv_ix *ix = p;
	struct it_vma *vma;

	for (vma = itvma_iter_first(&ix->root, first, last); vma;
	     vma = itvma_iter_next(vma, first, last)) {
		(*hits)++;
		*sum += bench_mix(vma - ix->vmas);
	}
}

static void itv_destroy(void *p)
{
	struct itv_ix *ix = p;

	free(ix->vmas);
	free(ix);
}

/*
 * No visits: the tree has itree's shape node for node (the same keys
 * inserted in the same order, compared by start alone), so its visits
 * are itree's.
 */
const struct bench_ops itree_vma_ops = {
	.name = "itree-vma",
	.what = "the same, inlined, over vmas keyed as mm/interval_tree.c",
	.create = itv_create,
	.insert = itv_insert,
	.remove = itv_remove,
	.query = itv_query,
	.destroy = itv_destroy,
};

const struct bench_ops itree_ool_ops = {
	.name = "itree-ool",
	.what = "the same, out of line (exported, as mm/interval_tree.c)",
	.create = itree_create,
	.insert = ool_insert,
	.remove = ool_remove,
	.query = ool_query,
	.visits = itree_visits,
	.destroy = itree_destroy,
};
