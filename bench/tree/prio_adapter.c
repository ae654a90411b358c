// SPDX-License-Identifier: GPL-2.0
/*
 * The prio tree as i_mmap used it from 2.6.7: one vm_area_struct per
 * mapping, identical ranges sharing one tree node through vm_set lists.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
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
	ix->vmas = kcalloc(n, sizeof(*ix->vmas), GFP_KERNEL);
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
	INIT_VMA_SHARED(vma);
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

static void prio_destroy(void *p)
{
	struct prio_ix *ix = p;

	kfree(ix->vmas);
	kfree(ix);
}

const struct bench_ops prio_vma_ops = {
	.name = "prio",
	.what = "libpriotree vma layer (i_mmap 2.6.7-3.6)",
	.create = prio_create,
	.insert = prio_insert,
	.remove = prio_remove,
	.query = prio_query,
	.destroy = prio_destroy,
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
	ix->nodes = kcalloc(n, sizeof(*ix->nodes), GFP_KERNEL);
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
	.destroy = list_destroy,
};
