/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interval tree's node, shared by the inlined subject (itree_adapter.c
 * defines its own static copy of the functions) and the out-of-line one
 * (itree_ool.c exports them, as mm/interval_tree.c does for vmas).
 */
#ifndef PTBENCH_ITREE_NODE_H
#define PTBENCH_ITREE_NODE_H

#include <linux/rbtree.h>

struct it_node {
	struct rb_node rb;
	unsigned long start;
	unsigned long last;
	unsigned long subtree_last;
};

void ool_it_insert(struct it_node *node, struct rb_root_cached *root);
void ool_it_remove(struct it_node *node, struct rb_root_cached *root);
struct it_node *ool_it_iter_first(struct rb_root_cached *root,
				  unsigned long start, unsigned long last);
struct it_node *ool_it_iter_next(struct it_node *node, unsigned long start,
				 unsigned long last);

#endif /* PTBENCH_ITREE_NODE_H */
