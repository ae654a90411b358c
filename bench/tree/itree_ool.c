// SPDX-License-Identifier: GPL-2.0
/*
 * The interval tree out of line: INTERVAL_TREE_DEFINE with exported,
 * non-static functions in a translation unit of its own, the way
 * mm/interval_tree.c builds vma_interval_tree_*.  Callers in other files
 * (itree_adapter.c) pay a call per insert, remove, iter_first and
 * iter_next, as the kernel's rmap walks do.
 */
#include <linux/compiler.h>
#include <linux/interval_tree_generic.h>

#include "itree_node.h"

#define IT_START(n)	((n)->start)
#define IT_LAST(n)	((n)->last)

INTERVAL_TREE_DEFINE(struct it_node, rb, unsigned long, subtree_last,
		     IT_START, IT_LAST, , ool_it)
