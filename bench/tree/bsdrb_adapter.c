// SPDX-License-Identifier: GPL-2.0
/*
 * libbsd's <sys/tree.h> red-black tree (the BSDs' RB_* macros, through
 * the libbsd-overlay pkg-config module), augmented with the largest last
 * in each subtree.  RB_AUGMENT(x) recomputes x from its children; the
 * macros call it in every rotation but only on the parent of the changed
 * link, so insert and remove finish the path to the root here.
 */
#include <stdlib.h>

#include <sys/cdefs.h>
#ifndef __unused
#define __unused	__attribute__((__unused__))
#endif
#define RB_AUGMENT(x)	bsd_augment(x)
#include <sys/tree.h>

#include "bench.h"

struct bsd_node {
	RB_ENTRY(bsd_node) entry;
	unsigned long start, last, max;
};

static inline void bsd_augment(struct bsd_node *x);

static inline int bsd_cmp(const struct bsd_node *a, const struct bsd_node *b)
{
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->last != b->last)
		return a->last < b->last ? -1 : 1;
	return a < b ? -1 : a > b;
}

RB_HEAD(bsd_tree, bsd_node);
RB_GENERATE_STATIC(bsd_tree, bsd_node, entry, bsd_cmp)

static inline void bsd_augment(struct bsd_node *x)
{
	struct bsd_node *l = RB_LEFT(x, entry), *r = RB_RIGHT(x, entry);
	unsigned long max = x->last;

	if (l && l->max > max)
		max = l->max;
	if (r && r->max > max)
		max = r->max;
	x->max = max;
}

struct bsd_ix {
	struct bsd_tree head;
	struct bsd_node *nodes;
};

static void *bsd_create(unsigned long n)
{
	struct bsd_ix *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	RB_INIT(&ix->head);
	ix->nodes = bench_nodes(n, sizeof(*ix->nodes));
	if (!ix->nodes) {
		free(ix);
		return NULL;
	}
	return ix;
}

static void bsd_insert(void *p, unsigned long id, unsigned long start,
		       unsigned long last)
{
	struct bsd_ix *ix = p;
	struct bsd_node *node = &ix->nodes[id], *up;

	node->start = start;
	node->last = last;
	node->max = last;
	RB_INSERT(bsd_tree, &ix->head, node);
	/*
	 * Each ancestor of @node holds its subtree's bound with or without
	 * @node (a rotation recomputes from children that may not have seen
	 * it yet, and does not reach the nodes above), so all of them, up to
	 * the root, get @last folded in.
	 */
	for (up = RB_PARENT(node, entry); up; up = RB_PARENT(up, entry))
		if (up->max < last)
			up->max = last;
}

static void bsd_remove(void *p, unsigned long id)
{
	struct bsd_ix *ix = p;
	struct bsd_node *node = &ix->nodes[id], *low, *up;

	/* the lowest node whose subtree changes, found before unlinking */
	if (RB_LEFT(node, entry) && RB_RIGHT(node, entry)) {
		low = RB_RIGHT(node, entry);
		while (RB_LEFT(low, entry))
			low = RB_LEFT(low, entry);
		if (RB_PARENT(low, entry) != node)
			low = RB_PARENT(low, entry);
	} else {
		low = RB_PARENT(node, entry);
	}
	RB_REMOVE(bsd_tree, &ix->head, node);
	for (up = low; up; up = RB_PARENT(up, entry))
		bsd_augment(up);
}

/* In-order walk of the subtrees that can overlap; counts every node read. */
static void bsd_search(struct bsd_node *node, unsigned long first,
		       unsigned long last, struct bsd_ix *ix,
		       unsigned long *hits, unsigned long *sum,
		       unsigned long *visits)
{
	while (node) {
		++*visits;
		if (node->max < first)
			return;
		bsd_search(RB_LEFT(node, entry), first, last, ix, hits, sum,
			   visits);
		if (node->start > last)
			return;
		if (node->last >= first) {
			(*hits)++;
			*sum += bench_mix(node - ix->nodes);
		}
		node = RB_RIGHT(node, entry);
	}
}

static void bsd_query(void *p, unsigned long first, unsigned long last,
		      unsigned long *hits, unsigned long *sum)
{
	struct bsd_ix *ix = p;
	unsigned long visits = 0;

	bsd_search(RB_ROOT(&ix->head), first, last, ix, hits, sum, &visits);
}

static unsigned long bsd_visits(void *p, unsigned long first,
				unsigned long last)
{
	struct bsd_ix *ix = p;
	unsigned long visits = 0, hits = 0, sum = 0;

	bsd_search(RB_ROOT(&ix->head), first, last, ix, &hits, &sum, &visits);
	return visits;
}

static void bsd_destroy(void *p)
{
	struct bsd_ix *ix = p;

	free(ix->nodes);
	free(ix);
}

const struct bench_ops bsdrb_ops = {
	.name = "bsd-rb",
	.what = "libbsd <sys/tree.h> RB tree + RB_AUGMENT subtree max",
	.create = bsd_create,
	.insert = bsd_insert,
	.remove = bsd_remove,
	.query = bsd_query,
	.visits = bsd_visits,
	.destroy = bsd_destroy,
};
