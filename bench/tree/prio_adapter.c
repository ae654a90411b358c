// SPDX-License-Identifier: GPL-2.0
/*
 * The prio tree as i_mmap used it from 2.6.7: one vm_area_struct per
 * mapping, identical ranges sharing one tree node through vm_set lists.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/prio_tree_walk.h>
#include <linux/vma_prio_tree.h>
#include <linux/slab.h>

#include "bench.h"

struct prio_ix {
	struct prio_tree_root root;
	struct vm_area_struct *vmas;
};

static void *prio_create(unsigned long n)
{
	struct prio_ix *ix = kzalloc(sizeof(*ix), GFP_KERNEL);

	if (!ix)
		return NULL;
	INIT_RAW_PRIO_TREE_ROOT(&ix->root);
	ix->vmas = bench_nodes(n, sizeof(*ix->vmas));
	if (!ix->vmas) {
		kfree(ix);
		return NULL;
	}
	return ix;
}

static void prio_insert(void *p, unsigned long id, unsigned long start,
			unsigned long last)
{
	struct prio_ix *ix = p;
	struct vm_area_struct *vma = &ix->vmas[id];

	vma->vm_pgoff = start;
	vma->vm_start = 0;
	vma->vm_end = (last - start + 1) << PAGE_SHIFT;
	/*
	 * No INIT_VMA_SHARED(): the insert writes every word of "shared"
	 * and reads none, and a vma comes here zeroed by bench_nodes() or
	 * reset by the last remove, as itree-vma's node is not reset
	 * before its insert either.
	 */
	__vma_prio_tree_insert(&ix->root, vma);
}

static void prio_remove(void *p, unsigned long id)
{
	struct prio_ix *ix = p;

	__vma_prio_tree_remove(&ix->root, &ix->vmas[id]);
}

static void prio_query(void *p, unsigned long first, unsigned long last,
		       unsigned long *hits, unsigned long *sum)
{
	struct prio_ix *ix = p;
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;

	for (vma = __vma_prio_tree_first(&ix->root, &iter, first, last); vma;
	     vma = __vma_prio_tree_next(vma, &ix->root, &iter, first, last)) {
		(*hits)++;
		*sum += bench_mix(vma - ix->vmas);
	}
}

/*
 * The same query with the walk compiled into this loop
 * (<linux/prio_tree_walk.h>), as INTERVAL_TREE_DEFINE() compiles the
 * interval tree's into itree's: the peer it is measured against.
 */
static void prio_inline_query(void *p, unsigned long first,
			      unsigned long last, unsigned long *hits,
			      unsigned long *sum)
{
	struct prio_ix *ix = p;
	struct prio_tree_iter iter;
	struct vm_area_struct *vma;

	for (vma = __vma_prio_tree_first_inline(&ix->root, &iter, first, last);
	     vma; vma = __vma_prio_tree_next_inline(vma, &ix->root, &iter,
						    first, last)) {
		(*hits)++;
		*sum += bench_mix(vma - ix->vmas);
	}
}

/*
 * Nodes visited, counted without touching the library: the library's
 * iterator has no counter, so this replays its pruned pre-order walk
 * (prio_tree.c, "Stabbing queries") over the same tree, using only the
 * invariants <linux/prio_tree.h> states.  A node counts once its interval
 * is read: the root, and every child that the radix test on the path
 * lets the walk look at (whether or not its heap then closes it).  The
 * vm_set members of an overlapping node are hits, one visit each.
 */
struct prio_walk {
	unsigned long begin, end;
	bool raw;		/* nodes in vmas, else plain nodes */
	unsigned long examined, overlapping;
};

static void walk_key(const struct prio_walk *w, struct prio_tree_node *node,
		     unsigned long *radix, unsigned long *heap)
{
	struct vm_area_struct *vma;

	if (!w->raw) {
		*radix = node->start;
		*heap = node->last;
		return;
	}
	vma = prio_tree_entry(node, struct vm_area_struct,
			      shared.prio_tree_node);
	*radix = RADIX_INDEX(vma);
	*heap = HEAP_INDEX(vma);
}

static void prio_walk(struct prio_walk *w, struct prio_tree_node *node,
		      unsigned long mask, unsigned long value, int size_level)
{
	unsigned long radix, heap, right_value, child_mask;
	int child_level;

	w->examined++;
	walk_key(w, node, &radix, &heap);
	if (heap < w->begin)
		return;
	if (radix <= w->end)
		w->overlapping++;
	else if (size_level)
		return;		/* the whole size subtree has this radix */

	if (size_level) {
		child_level = size_level + 1;
		child_mask = mask >> 1;
	} else if (mask > 1) {
		child_level = 0;
		child_mask = mask >> 1;
	} else {
		child_level = 1;
		child_mask = 1UL << (BITS_PER_LONG - 1);
	}
	if (!prio_tree_left_empty(node))
		prio_walk(w, node->left, child_mask, value, child_level);
	right_value = size_level ? value : value | mask;
	if (!prio_tree_right_empty(node) && w->end >= right_value)
		prio_walk(w, node->right, child_mask, right_value,
			  child_level);
}

/*
 * The nodes of @root that a query for [@first, @last] with @hits hits looks
 * at: the tree nodes whose keys it reads, and the other members of the
 * overlapping nodes' vm_sets or rings, which it returns without a read.
 */
static unsigned long tree_visits(const struct prio_tree_root *root,
				 unsigned long first, unsigned long last,
				 bool raw, unsigned long hits)
{
	struct prio_walk w = { .begin = first, .end = last, .raw = raw };

	if (prio_tree_empty(root))
		return 0;
	prio_walk(&w, root->prio_tree_node, 1UL << (root->index_bits - 1),
		  0, 0);
	return w.examined + hits - w.overlapping;
}

static unsigned long prio_visits(void *p, unsigned long first,
				 unsigned long last)
{
	struct prio_ix *ix = p;
	unsigned long hits = 0, sum = 0;

	prio_query(p, first, last, &hits, &sum);
	return tree_visits(&ix->root, first, last, true, hits);
}

static void prio_destroy(void *p)
{
	struct prio_ix *ix = p;

	kfree(ix->vmas);
	kfree(ix);
}

const struct bench_ops prio_vma_ops = {
	.name = "prio-vma",
	.what = "libpriotree, __vma_prio_tree_* (i_mmap 2.6.7-3.6)",
	.create = prio_create,
	.insert = prio_insert,
	.remove = prio_remove,
	.query = prio_query,
	.visits = prio_visits,
	.destroy = prio_destroy,
};

/* Insert and remove are prio-vma's calls: only the query is inlined. */
const struct bench_ops prio_inline_ops = {
	.name = "prio-inline",
	.what = "libpriotree, __vma_prio_tree_*_inline (<linux/prio_tree_walk.h>)",
	.create = prio_create,
	.insert = prio_insert,
	.remove = prio_remove,
	.query = prio_inline_query,
	.visits = prio_visits,
	.destroy = prio_destroy,
};

/*
 * The prio tree of plain nodes, each holding its own start and last, with
 * the walk compiled in (prio_tree_first/next_inline()): the library's
 * counterpart of itree, an interval tree of nodes holding start, last and
 * the subtree's last.  A plain tree holds each interval once (invariant
 * (6)); here, as a vm_set does for vmas, the nodes of one interval are a
 * ring (dup_next/dup_prev, by id), whose member in the tree returns them
 * all.  The ring lives beside the nodes: a query reads it only at a hit.
 */
struct node_ix {
	struct prio_tree_root root;
	struct prio_tree_node *nodes;
	unsigned int *dup_next, *dup_prev;
};

static void node_destroy(void *p)
{
	struct node_ix *ix = p;

	kfree(ix->nodes);
	kfree(ix->dup_next);
	kfree(ix->dup_prev);
	kfree(ix);
}

static void *node_create(unsigned long n)
{
	struct node_ix *ix = kzalloc(sizeof(*ix), GFP_KERNEL);

	if (!ix)
		return NULL;
	INIT_PRIO_TREE_ROOT(&ix->root);
	ix->nodes = bench_nodes(n, sizeof(*ix->nodes));
	ix->dup_next = kcalloc(n, sizeof(*ix->dup_next), GFP_KERNEL);
	ix->dup_prev = kcalloc(n, sizeof(*ix->dup_prev), GFP_KERNEL);
	if (!ix->nodes || !ix->dup_next || !ix->dup_prev) {
		node_destroy(ix);
		return NULL;
	}
	return ix;
}

static void node_insert(void *p, unsigned long id, unsigned long start,
			unsigned long last)
{
	struct node_ix *ix = p;
	struct prio_tree_node *node = &ix->nodes[id], *in_tree;
	unsigned int head;

	node->start = start;
	node->last = last;
	in_tree = prio_tree_insert(&ix->root, node);
	if (in_tree == node) {
		ix->dup_next[id] = id;
		ix->dup_prev[id] = id;
		return;
	}
	/* the interval is there: join its ring; not in the tree itself */
	node->parent = NULL;
	head = in_tree - ix->nodes;
	ix->dup_next[id] = ix->dup_next[head];
	ix->dup_prev[id] = head;
	ix->dup_prev[ix->dup_next[head]] = id;
	ix->dup_next[head] = id;
}

static void node_remove(void *p, unsigned long id)
{
	struct node_ix *ix = p;
	unsigned int next = ix->dup_next[id], prev = ix->dup_prev[id];

	if (next == id) {
		prio_tree_remove(&ix->root, &ix->nodes[id]);
		return;
	}
	/* the tree member hands its place to the next node of its interval */
	if (ix->nodes[id].parent)
		prio_tree_replace(&ix->root, &ix->nodes[id], &ix->nodes[next]);
	ix->dup_next[prev] = next;
	ix->dup_prev[next] = prev;
}

static void node_query(void *p, unsigned long first, unsigned long last,
		       unsigned long *hits, unsigned long *sum)
{
	struct node_ix *ix = p;
	struct prio_tree_iter iter;
	struct prio_tree_node *node;
	unsigned int head, id;

	for (node = prio_tree_first_inline(&ix->root, &iter, first, last);
	     node; node = prio_tree_next_inline(&ix->root, &iter, first, last)) {
		head = node - ix->nodes;
		id = head;
		do {
			(*hits)++;
			*sum += bench_mix(id);
			id = ix->dup_next[id];
		} while (id != head);
	}
}

static unsigned long node_visits(void *p, unsigned long first,
				 unsigned long last)
{
	struct node_ix *ix = p;
	unsigned long hits = 0, sum = 0;

	node_query(p, first, last, &hits, &sum);
	return tree_visits(&ix->root, first, last, false, hits);
}

const struct bench_ops prio_node_ops = {
	.name = "prio-node",
	.what = "libpriotree, plain nodes, prio_tree_*_inline (<linux/prio_tree_walk.h>)",
	.create = node_create,
	.insert = node_insert,
	.remove = node_remove,
	.query = node_query,
	.visits = node_visits,
	.destroy = node_destroy,
};

/*
 * The linear i_mmap list that the prio tree replaced: every query looks
 * at every vma.
 */
struct list_ix {
	struct list_head head;
	struct list_node {
		struct list_head link;
		unsigned long start, last;
	} *nodes;
};

static void *list_create(unsigned long n)
{
	struct list_ix *ix = kzalloc(sizeof(*ix), GFP_KERNEL);

	if (!ix)
		return NULL;
	INIT_LIST_HEAD(&ix->head);
	ix->nodes = bench_nodes(n, sizeof(*ix->nodes));
	if (!ix->nodes) {
		kfree(ix);
		return NULL;
	}
	return ix;
}

static void list_insert(void *p, unsigned long id, unsigned long start,
			unsigned long last)
{
	struct list_ix *ix = p;

	ix->nodes[id].start = start;
	ix->nodes[id].last = last;
	list_add_tail(&ix->nodes[id].link, &ix->head);
}

static void list_remove(void *p, unsigned long id)
{
	struct list_ix *ix = p;

	list_del(&ix->nodes[id].link);
}

static void list_query(void *p, unsigned long first, unsigned long last,
		       unsigned long *hits, unsigned long *sum)
{
	struct list_ix *ix = p;
	struct list_node *node;

	list_for_each_entry(node, &ix->head, link) {
		if (node->start > last || node->last < first)
			continue;
		(*hits)++;
		*sum += bench_mix(node - ix->nodes);
	}
}

static unsigned long list_visits(void *p, unsigned long first,
				 unsigned long last)
{
	struct list_ix *ix = p;
	struct list_node *node;
	unsigned long n = 0;

	list_for_each_entry(node, &ix->head, link)
		n++;
	return n;
}

static void list_destroy(void *p)
{
	struct list_ix *ix = p;

	kfree(ix->nodes);
	kfree(ix);
}

const struct bench_ops list_ops = {
	.name = "list",
	.what = "linear i_mmap list (2.6.5 objrmap)",
	.create = list_create,
	.insert = list_insert,
	.remove = list_remove,
	.query = list_query,
	.visits = list_visits,
	.destroy = list_destroy,
};
