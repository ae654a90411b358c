// SPDX-License-Identifier: GPL-2.0
/*
 * The prio tree through the plain C API, <priotree.h>: the library
 * allocates the entries, the caller keeps only (start, last, item) to
 * remove one.  The item is the interval's id.  Its nodes are private, so
 * this subject has no node-visit count (the vma subject walks the same
 * tree algorithm).  prio-build makes the same index with one
 * priotree_build() from the array of all the intervals.  prio-batch is
 * prio-api with its queries read PT_BATCH hits a call, by
 * priotree_next_batch().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <priotree.h>

#include "bench.h"

/* prio-batch's hits per call: 1.5 KiB of stack, a few pages' worth of vmas */
#define PT_BATCH	64

struct pt_ix {
	struct priotree *pt;
	unsigned long *start, *last;
	/* prio-build: the entries gathered for priotree_build() */
	struct priotree_hit *batch;
	unsigned long nr_batch;
};

/* Also frees a half-made one: NULL members are fine. */
static void pt_destroy(void *p)
{
	struct pt_ix *ix = p;

	priotree_free(ix->pt);
	free(ix->start);
	free(ix->last);
	free(ix->batch);
	free(ix);
}

static void *pt_create(unsigned long n)
{
	struct pt_ix *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	ix->pt = priotree_new();
	ix->start = calloc(n, sizeof(long));
	ix->last = calloc(n, sizeof(long));
	if (!ix->pt || !ix->start || !ix->last) {
		pt_destroy(ix);
		return NULL;
	}
	return ix;
}

static void pt_insert(void *p, unsigned long id, unsigned long start,
		      unsigned long last)
{
	struct pt_ix *ix = p;

	ix->start[id] = start;
	ix->last[id] = last;
	if (priotree_insert(ix->pt, start, last, (void *)(uintptr_t)id)) {
		fprintf(stderr, "ptbench: priotree_insert failed\n");
		exit(1);
	}
}

/*
 * prio-build: the insert phase gathers the array, then builds the index
 * from it in one call, the gathering timed with it.
 */
static void *pt_build_create(unsigned long n)
{
	struct pt_ix *ix = pt_create(n);

	if (!ix)
		return NULL;
	ix->batch = calloc(n ? n : 1, sizeof(*ix->batch));
	if (!ix->batch) {
		pt_destroy(ix);
		return NULL;
	}
	return ix;
}

static void pt_gather(void *p, unsigned long id, unsigned long start,
		      unsigned long last)
{
	struct pt_ix *ix = p;

	ix->start[id] = start;
	ix->last[id] = last;
	ix->batch[ix->nr_batch++] = (struct priotree_hit){
		.start = start, .last = last, .item = (void *)(uintptr_t)id,
	};
}

static void pt_build(void *p)
{
	struct pt_ix *ix = p;

	if (priotree_build(ix->pt, ix->batch, ix->nr_batch)) {
		fprintf(stderr, "ptbench: priotree_build failed\n");
		exit(1);
	}
}

static void pt_remove(void *p, unsigned long id)
{
	struct pt_ix *ix = p;

	if (priotree_remove(ix->pt, ix->start[id], ix->last[id],
			    (void *)(uintptr_t)id)) {
		fprintf(stderr, "ptbench: priotree_remove failed\n");
		exit(1);
	}
}

static void pt_query(void *p, unsigned long first, unsigned long last,
		     unsigned long *hits, unsigned long *sum)
{
	struct pt_ix *ix = p;
	struct priotree_iter it;
	struct priotree_hit hit;

	priotree_query(ix->pt, first, last, &it);
	while (priotree_next(&it, &hit) > 0) {
		(*hits)++;
		*sum += bench_mix((uintptr_t)hit.item);
	}
}

static void pt_batch_query(void *p, unsigned long first, unsigned long last,
			   unsigned long *hits, unsigned long *sum)
{
	struct priotree_hit batch[PT_BATCH];
	struct pt_ix *ix = p;
	struct priotree_iter it;
	int nr, i;

	priotree_query(ix->pt, first, last, &it);
	while ((nr = priotree_next_batch(&it, batch, PT_BATCH)) > 0) {
		*hits += nr;
		for (i = 0; i < nr; i++)
			*sum += bench_mix((uintptr_t)batch[i].item);
	}
}

const struct bench_ops priotree_ops = {
	.name = "prio-api",
	.what = "libpriotree, <priotree.h> (library-allocated entries)",
	.create = pt_create,
	.insert = pt_insert,
	.remove = pt_remove,
	.query = pt_query,
	.destroy = pt_destroy,
};

const struct bench_ops priotree_build_ops = {
	.name = "prio-build",
	.what = "libpriotree, <priotree.h>, built by priotree_build()",
	.create = pt_build_create,
	.insert = pt_gather,
	.build = pt_build,
	.remove = pt_remove,
	.query = pt_query,
	.destroy = pt_destroy,
};

const struct bench_ops priotree_batch_ops = {
	.name = "prio-batch",
	.what = "libpriotree, <priotree.h>, hits read 64 a call",
	.create = pt_create,
	.insert = pt_insert,
	.remove = pt_remove,
	.query = pt_batch_query,
	.destroy = pt_destroy,
};
