/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One interval index under test.  Each adapter is compiled against its
 * own headers (compat/ for the prio tree, the kernel's tools/include for
 * the interval tree, libbsd for <bsd/sys/tree.h>), so the driver only
 * sees this table.
 */
#ifndef PTBENCH_H
#define PTBENCH_H

#include <stddef.h>

struct bench_ops {
	const char *name;
	const char *what;
	/* room for @n intervals, numbered 0 .. n-1 */
	void *(*create)(unsigned long n);
	void (*insert)(void *ix, unsigned long id, unsigned long start,
		       unsigned long last);
	/* optional: called once after the last insert, timed with them */
	void (*build)(void *ix);
	/* NULL for a static index: the remove phase is not measured */
	void (*remove)(void *ix, unsigned long id);
	/*
	 * Every stored interval overlapping [first, last]: adds the number of
	 * hits to *hits and a hash of their ids (order-independent) to *sum.
	 */
	void (*query)(void *ix, unsigned long first, unsigned long last,
		      unsigned long *hits, unsigned long *sum);
	/*
	 * Optional, never timed: the nodes the query for [first, last]
	 * visits (reads the interval or subtree bound of), hits included.
	 */
	unsigned long (*visits)(void *ix, unsigned long first,
				unsigned long last);
	void (*destroy)(void *ix);
};

extern const struct bench_ops prio_vma_ops, prio_inline_ops, prio_node_ops,
	priotree_ops, priotree_batch_ops, priotree_build_ops, itree_ops,
	itree_ool_ops, itree_vma_ops, bsdrb_ops, iitree_ops, list_ops;

/*
 * @n zeroed node slots of @size bytes, on a cache line and, when large,
 * on huge pages (ptbench.c says why).  Every adapter takes its node array
 * from here, so every subject gets the same kind of memory.  Freed with
 * free().
 */
void *bench_nodes(unsigned long n, size_t size);

/* order-independent hash of one hit */
static inline unsigned long bench_mix(unsigned long id)
{
	id = (id + 1) * 0x9e3779b97f4a7c15UL;
	return id ^ (id >> 29);
}

#endif /* PTBENCH_H */
