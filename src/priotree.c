// SPDX-License-Identifier: GPL-2.0
/*
 * <priotree.h>: the plain C interval index, built on the self-contained
 * node flavour of the prio tree.
 *
 * One struct pt_range per distinct interval is a tree node; its entries
 * (interval users) hang off it in insertion order.  The tree itself never
 * allocates, so every allocation happens here, before the tree is touched,
 * and an -ENOMEM leaves the index as it was.
 */

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/prio_tree.h>
#include <linux/slab.h>

#include <priotree.h>

struct priotree {
	struct prio_tree_root	root;
	size_t			count;
};

struct pt_range {
	struct prio_tree_node	node;
	struct list_head	entries;
};

struct pt_entry {
	struct list_head	link;
	void			*item;
};

/* What struct priotree_iter really holds. */
struct pt_query {
	struct prio_tree_iter	iter;
	unsigned long		first;
	unsigned long		last;
	struct pt_range		*range;	/* NULL: query exhausted */
	struct list_head	*pos;	/* last entry returned, or the head */
};

static_assert(sizeof(struct pt_query) <= sizeof(struct priotree_iter),
	      "struct priotree_iter is too small for the query state");

static inline struct pt_range *to_range(struct prio_tree_node *node)
{
	return node ? container_of(node, struct pt_range, node) : NULL;
}

struct priotree *priotree_new(void)
{
	struct priotree *pt = kzalloc(sizeof(*pt), GFP_KERNEL);

	if (pt)
		INIT_PRIO_TREE_ROOT(&pt->root);
	return pt;
}
EXPORT_SYMBOL(priotree_new);

void priotree_free(struct priotree *pt)
{
	struct pt_entry *entry, *tmp;
	struct pt_range *range;

	if (!pt)
		return;
	/* always take the root: removing it is O(log n) and needs no walk */
	while (!prio_tree_empty(&pt->root)) {
		range = to_range(pt->root.prio_tree_node);
		prio_tree_remove(&pt->root, &range->node);
		list_for_each_entry_safe(entry, tmp, &range->entries, link)
			kfree(entry);
		kfree(range);
	}
	kfree(pt);
}
EXPORT_SYMBOL(priotree_free);

int priotree_insert(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item)
{
	struct pt_range *range, *fresh = NULL;
	struct pt_entry *entry;

	if (start > last)
		return -EINVAL;

	entry = kmalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	entry->item = item;

	range = to_range(prio_tree_lookup(&pt->root, start, last));
	if (!range) {
		fresh = kmalloc(sizeof(*fresh), GFP_KERNEL);
		if (!fresh) {
			kfree(entry);
			return -ENOMEM;
		}
		fresh->node.start = start;
		fresh->node.last = last;
		INIT_LIST_HEAD(&fresh->entries);
		range = to_range(prio_tree_insert(&pt->root, &fresh->node));
		/* lookup just said the interval is absent */
		BUG_ON(range != fresh);
	}
	list_add_tail(&entry->link, &range->entries);
	pt->count++;
	return 0;
}
EXPORT_SYMBOL(priotree_insert);

int priotree_remove(struct priotree *pt, unsigned long start,
		    unsigned long last, void *item)
{
	struct pt_range *range;
	struct pt_entry *entry;

	if (start > last)
		return -EINVAL;
	range = to_range(prio_tree_lookup(&pt->root, start, last));
	if (!range)
		return -ENOENT;
	list_for_each_entry(entry, &range->entries, link) {
		if (entry->item != item)
			continue;
		list_del(&entry->link);
		kfree(entry);
		pt->count--;
		if (list_empty(&range->entries)) {
			prio_tree_remove(&pt->root, &range->node);
			kfree(range);
		}
		return 0;
	}
	return -ENOENT;
}
EXPORT_SYMBOL(priotree_remove);

size_t priotree_count(const struct priotree *pt)
{
	return pt->count;
}
EXPORT_SYMBOL(priotree_count);

int priotree_query(struct priotree *pt, unsigned long first,
		   unsigned long last, struct priotree_iter *it)
{
	struct pt_query *q = (struct pt_query *)it;

	q->first = first;
	q->last = last;
	q->range = NULL;
	q->pos = NULL;
	if (first > last)
		return -EINVAL;
	q->range = to_range(prio_tree_first(&pt->root, &q->iter, first, last));
	if (q->range)
		q->pos = &q->range->entries;
	return 0;
}
EXPORT_SYMBOL(priotree_query);

int priotree_next(struct priotree_iter *it, struct priotree_hit *hit)
{
	struct pt_query *q = (struct pt_query *)it;
	struct pt_entry *entry;

	while (q->range) {
		q->pos = q->pos->next;
		if (q->pos != &q->range->entries) {
			entry = list_entry(q->pos, struct pt_entry, link);
			hit->start = q->range->node.start;
			hit->last = q->range->node.last;
			hit->item = entry->item;
			return 1;
		}
		q->range = to_range(prio_tree_next(q->iter.root, &q->iter,
						   q->first, q->last));
		q->pos = q->range ? &q->range->entries : NULL;
	}
	return 0;
}
EXPORT_SYMBOL(priotree_next);

int priotree_foreach(struct priotree *pt, unsigned long first,
		     unsigned long last,
		     int (*fn)(const struct priotree_hit *hit, void *arg),
		     void *arg)
{
	struct priotree_iter it;
	struct priotree_hit hit;
	int ret;

	ret = priotree_query(pt, first, last, &it);
	if (ret)
		return ret;
	while (priotree_next(&it, &hit) > 0) {
		ret = fn(&hit, arg);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL(priotree_foreach);

int priotree_check(const struct priotree *pt, char *msg, size_t len)
{
	struct prio_tree_root *root = (struct prio_tree_root *)&pt->root;
	struct prio_tree_fault fault;
	struct prio_tree_iter iter;
	struct prio_tree_node *node;
	struct pt_entry *entry;
	size_t entries = 0;
	int ret;

	ret = prio_tree_check(root, &fault);
	if (ret) {
		if (msg && len)
			snprintf(msg, len, "invariant %s: node [%lu, %lu] at depth %u",
				 fault.invariant, fault.radix, fault.heap,
				 fault.depth);
		return ret;
	}
	for (node = prio_tree_first(root, &iter, 0, ULONG_MAX); node;
	     node = prio_tree_next(root, &iter, 0, ULONG_MAX)) {
		if (list_empty(&to_range(node)->entries)) {
			if (msg && len)
				snprintf(msg, len, "interval [%lu, %lu] has no entries",
					 node->start, node->last);
			return -EUCLEAN;
		}
		list_for_each_entry(entry, &to_range(node)->entries, link)
			entries++;
	}
	if (entries != pt->count) {
		if (msg && len)
			snprintf(msg, len, "count says %zu entries, tree holds %zu",
				 pt->count, entries);
		return -EUCLEAN;
	}
	return 0;
}
EXPORT_SYMBOL(priotree_check);
