// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario corpus shared by the userspace run and the in-kernel KUnit
 * suite (see pt_corpus.h).  This file is copied into the kernel as
 * lib/priotree/pt_corpus.c and must stay byte-identical there, so it uses
 * only what both <linux/...> worlds provide: kernel.h, errno.h, slab.h,
 * mm.h and the prio tree headers.
 *
 * Three node flavours are driven:
 *   plain  struct prio_tree_node with its own [start, last];
 *   raw    the vma-embedded raw_prio_tree_node, through prio_tree_*();
 *   vma    the vm_set layer, through __vma_prio_tree_*(), with forks
 *          (__vma_prio_tree_add) and __vma_modify().
 *
 * Random scenarios mix inserts, removes, replaces or forks, lookups or
 * modifies, and stabbing queries.  Shape scenarios rebuild the workloads
 * the 2004 patch was measured with: Andrew Morton's rmap-test (N vmas of
 * S pages, one page apart over one file, in T tasks) and Ingo Molnar's
 * test-mmap (many one-page vmas in reverse file order, then forks).
 *
 * Each mutation is followed by the full invariant checker while the
 * scenario holds at most PT_CHECK_ALL_LIVE objects; above that, every
 * PT_CHECK_STRIDE-th mutation and the end of each phase are checked, so
 * the 120,000-vma test-mmap shape stays linear enough to boot under TCG.
 * The rmap model scenarios (pt_corpus_rmap.c) follow the tree scenarios
 * in the numbering.
 * Each query is compared with a brute-force oracle: every reported object
 * is live, overlaps the query and is reported once, and the number
 * reported equals the number of live objects that overlap.
 */

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

#include "pt_corpus.h"

#define PT_CHUNK		512	/* objects per allocation */
#define PT_DEAD			(~0U)	/* live_pos of an object not in use */
#define PT_CHECK_ALL_LIVE	1024
#define PT_CHECK_STRIDE		1024
#define PT_VM_BASE		0x100000UL
/* a vma spans at most 2^40 pages, so vm_end never wraps */
#define PT_VMA_MAX_SPAN		(1UL << 40)
/*
 * "ramp": keys of 3 bits, one more every PT_RAMP_STEP operations up to 8,
 * then the tree is emptied and the climb starts again.  Each growth of
 * index_bits by one then sinks a full tree whose size levels hold nodes
 * (70% of the keys start at 0..3): the case where seed defect (a) put
 * nodes where later walks do not look, which no other family reached.
 */
#define PT_RAMP_STEP		48
#define PT_RAMP_PERIOD		(6 * PT_RAMP_STEP)

enum pt_flavour { PT_PLAIN, PT_RAW, PT_VMA };

enum pt_keys {
	PT_KEYS_TINY,	/* [0, 15]: the query-walk bound bug shows here */
	PT_KEYS_SMALL,	/* short intervals below 1024 */
	PT_KEYS_WIDE,	/* any 64-bit start, sizes of every magnitude */
	PT_KEYS_TOP,	/* intervals touching ULONG_MAX */
	PT_KEYS_GROW,	/* mixed magnitudes: index_bits grows often */
	PT_KEYS_DUP,	/* 24 distinct intervals: duplicates and vm_sets */
	PT_KEYS_RAMP,	/* a full tree gaining one key bit at a time */
};

enum pt_kind { PT_RANDOM, PT_WINDOWS, PT_TEST_MMAP };

struct pt_scenario {
	const char	*name;
	u8		kind;
	u8		flavour;
	u8		keys;
	u8		shuffled;	/* windows: all copies inserted, shuffled */
	u32		seed;
	u32		ops;		/* random: operations to issue */
	u32		cap;		/* random: live objects at most */
	u32		nr_vmas;	/* shapes: vmas per task */
	u32		vma_pages;	/* windows: pages per vma */
	u32		tasks;		/* shapes: copies of each vma */
};

#define PT_RANDOM_SC(fl, flname, k, kname, s, n, c)		\
	{ .name = flname "-" kname "-" #s, .kind = PT_RANDOM,	\
	  .flavour = fl, .keys = k, .seed = s, .ops = n, .cap = c }

static const struct pt_scenario pt_scenarios[] = {
	/* key family "tiny": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_TINY, "tiny", 1, 16000, 24),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_TINY, "tiny", 2, 16000, 24),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_TINY, "tiny", 3, 16000, 24),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_TINY, "tiny", 1, 16000, 24),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_TINY, "tiny", 2, 16000, 24),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_TINY, "tiny", 3, 16000, 24),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_TINY, "tiny", 1, 16000, 24),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_TINY, "tiny", 2, 16000, 24),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_TINY, "tiny", 3, 16000, 24),
	/* key family "small": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_SMALL, "small", 1, 16000, 192),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_SMALL, "small", 2, 16000, 192),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_SMALL, "small", 3, 16000, 192),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_SMALL, "small", 1, 16000, 192),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_SMALL, "small", 2, 16000, 192),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_SMALL, "small", 3, 16000, 192),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_SMALL, "small", 1, 16000, 192),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_SMALL, "small", 2, 16000, 192),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_SMALL, "small", 3, 16000, 192),
	/* key family "wide": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_WIDE, "wide", 1, 16000, 256),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_WIDE, "wide", 2, 16000, 256),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_WIDE, "wide", 3, 16000, 256),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_WIDE, "wide", 1, 16000, 256),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_WIDE, "wide", 2, 16000, 256),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_WIDE, "wide", 3, 16000, 256),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_WIDE, "wide", 1, 16000, 256),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_WIDE, "wide", 2, 16000, 256),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_WIDE, "wide", 3, 16000, 256),
	/* key family "top": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_TOP, "top", 1, 16000, 128),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_TOP, "top", 2, 16000, 128),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_TOP, "top", 3, 16000, 128),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_TOP, "top", 1, 16000, 128),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_TOP, "top", 2, 16000, 128),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_TOP, "top", 3, 16000, 128),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_TOP, "top", 1, 16000, 128),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_TOP, "top", 2, 16000, 128),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_TOP, "top", 3, 16000, 128),
	/* key family "grow": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_GROW, "grow", 1, 16000, 256),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_GROW, "grow", 2, 16000, 256),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_GROW, "grow", 3, 16000, 256),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_GROW, "grow", 1, 16000, 256),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_GROW, "grow", 2, 16000, 256),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_GROW, "grow", 3, 16000, 256),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_GROW, "grow", 1, 16000, 256),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_GROW, "grow", 2, 16000, 256),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_GROW, "grow", 3, 16000, 256),
	/* key family "dup": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_DUP, "dup", 1, 16000, 64),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_DUP, "dup", 2, 16000, 64),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_DUP, "dup", 3, 16000, 64),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_DUP, "dup", 1, 16000, 64),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_DUP, "dup", 2, 16000, 64),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_DUP, "dup", 3, 16000, 64),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_DUP, "dup", 1, 16000, 64),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_DUP, "dup", 2, 16000, 64),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_DUP, "dup", 3, 16000, 64),
	/* key family "ramp": each flavour with seeds 1-3 */
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_RAMP, "ramp", 1, 16000, 64),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_RAMP, "ramp", 2, 16000, 64),
	PT_RANDOM_SC(PT_PLAIN, "plain", PT_KEYS_RAMP, "ramp", 3, 16000, 64),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_RAMP, "ramp", 1, 16000, 64),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_RAMP, "ramp", 2, 16000, 64),
	PT_RANDOM_SC(PT_RAW, "raw", PT_KEYS_RAMP, "ramp", 3, 16000, 64),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_RAMP, "ramp", 1, 16000, 64),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_RAMP, "ramp", 2, 16000, 64),
	PT_RANDOM_SC(PT_VMA, "vma", PT_KEYS_RAMP, "ramp", 3, 16000, 64),
	/* rmap-test -n 100 -s 600 -t 100: forks add beside the parent */
	{ .name = "rmap-test-n100-s600-t100", .kind = PT_WINDOWS,
	  .flavour = PT_VMA, .seed = 1, .nr_vmas = 100, .vma_pages = 600,
	  .tasks = 100 },
	/* the same shape, every copy inserted through the tree, shuffled */
	{ .name = "rmap-test-n100-s600-t100-shuffled", .kind = PT_WINDOWS,
	  .flavour = PT_VMA, .seed = 2, .nr_vmas = 100, .vma_pages = 600,
	  .tasks = 100, .shuffled = 1 },
	/* rmap-test -n 10000 -s 7 -t 1 */
	{ .name = "rmap-test-n10000-s7-t1", .kind = PT_WINDOWS,
	  .flavour = PT_VMA, .seed = 3, .nr_vmas = 10000, .vma_pages = 7,
	  .tasks = 1 },
	{ .name = "rmap-test-n1000-s64-t8-shuffled", .kind = PT_WINDOWS,
	  .flavour = PT_VMA, .seed = 4, .nr_vmas = 1000, .vma_pages = 64,
	  .tasks = 8, .shuffled = 1 },
	/* test-mmap: one-page vmas in reverse file order, then 5 forks */
	{ .name = "test-mmap-2000-fork5", .kind = PT_TEST_MMAP,
	  .flavour = PT_VMA, .seed = 5, .nr_vmas = 2000, .tasks = 6 },
	{ .name = "test-mmap-20000-fork5", .kind = PT_TEST_MMAP,
	  .flavour = PT_VMA, .seed = 6, .nr_vmas = 20000, .tasks = 6 },
};

struct pt_obj {
	struct prio_tree_node	node;	/* plain flavour */
	struct vm_area_struct	vma;	/* raw flavour and vma layer */
	u32			id;
	u32			mark;	/* query epoch that reported it */
	u32			live_pos; /* index in run->live, or PT_DEAD */
};

struct pt_run {
	const struct pt_scenario	*sc;
	struct pt_corpus_result		*res;
	struct prio_tree_root		root;
	struct pt_obj			**chunk;
	u32				nr_chunks;
	u32				capacity;
	u32				*live;		/* ids in use */
	u32				nr_live;
	u32				*free_ids;
	u32				nr_free;
	u32				epoch;
	u64				rng;
	u64				mutations;
	u32				op;		/* random: the op running */
};

/* splitmix64: a full-period 64-bit generator, identical in both worlds */
static u64 pt_rand(struct pt_run *run)
{
	u64 z = (run->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform enough below @n (> 0); bias does not matter, repeatability does. */
static u64 pt_below(struct pt_run *run, u64 n)
{
	return pt_rand(run) % n;
}

/* FNV-1a over the eight bytes of @v, least significant first. */
static void pt_mix(struct pt_run *run, u64 v)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		run->res->digest ^= v & 0xff;
		run->res->digest *= 0x100000001b3ULL;
		v >>= 8;
	}
}

static void pt_mix_str(struct pt_run *run, const char *s)
{
	while (*s)
		pt_mix(run, (unsigned char)*s++);
}

static int pt_fail(struct pt_run *run, int error, const char *what,
		   unsigned long a, unsigned long b)
{
	if (!run->res->error) {
		run->res->error = error;
		snprintf(run->res->why, sizeof(run->res->why),
			 "op %llu: %s [%#lx, %#lx]",
			 (unsigned long long)run->res->ops, what, a, b);
	}
	return error;
}

static struct pt_obj *pt_obj(struct pt_run *run, u32 id)
{
	return &run->chunk[id / PT_CHUNK][id % PT_CHUNK];
}

static void pt_key(const struct pt_run *run, const struct pt_obj *o,
		   unsigned long *radix, unsigned long *heap)
{
	if (run->sc->flavour == PT_PLAIN) {
		*radix = o->node.start;
		*heap = o->node.last;
	} else {
		*radix = RADIX_INDEX(&o->vma);
		*heap = HEAP_INDEX(&o->vma);
	}
}

static struct prio_tree_node *pt_node(const struct pt_run *run,
				      struct pt_obj *o)
{
	if (run->sc->flavour == PT_PLAIN)
		return &o->node;
	return (struct prio_tree_node *)&o->vma.shared.prio_tree_node;
}

static struct pt_obj *pt_vma_obj(struct vm_area_struct *vma)
{
	return container_of(vma, struct pt_obj, vma);
}

static struct pt_obj *pt_node_obj(const struct pt_run *run,
				  struct prio_tree_node *node)
{
	if (run->sc->flavour == PT_PLAIN)
		return container_of(node, struct pt_obj, node);
	return pt_vma_obj(prio_tree_entry(node, struct vm_area_struct,
					  shared.prio_tree_node));
}

/* Give @o the interval [@radix, @heap], in no tree yet. */
static void pt_set_key(struct pt_run *run, struct pt_obj *o,
		       unsigned long radix, unsigned long heap)
{
	if (run->sc->flavour == PT_PLAIN) {
		INIT_PRIO_TREE_NODE(&o->node);
		o->node.start = radix;
		o->node.last = heap;
		return;
	}
	o->vma.vm_pgoff = radix;
	o->vma.vm_start = PT_VM_BASE;
	o->vma.vm_end = PT_VM_BASE + ((heap - radix + 1) << PAGE_SHIFT);
	INIT_VMA_SHARED(&o->vma);
}

static int pt_alloc(struct pt_run *run, u32 capacity)
{
	u32 i;

	run->capacity = capacity;
	run->nr_chunks = (capacity + PT_CHUNK - 1) / PT_CHUNK;
	run->chunk = kcalloc(run->nr_chunks, sizeof(*run->chunk), GFP_KERNEL);
	run->live = kmalloc_array(capacity, sizeof(u32), GFP_KERNEL);
	run->free_ids = kmalloc_array(capacity, sizeof(u32), GFP_KERNEL);
	if (!run->chunk || !run->live || !run->free_ids)
		return -ENOMEM;
	for (i = 0; i < run->nr_chunks; i++) {
		run->chunk[i] = kcalloc(PT_CHUNK, sizeof(struct pt_obj),
					GFP_KERNEL);
		if (!run->chunk[i])
			return -ENOMEM;
	}
	/* hand out low ids first: free_ids is a stack */
	for (i = 0; i < capacity; i++) {
		struct pt_obj *o = pt_obj(run, i);

		o->id = i;
		o->live_pos = PT_DEAD;
		run->free_ids[capacity - 1 - i] = i;
	}
	run->nr_free = capacity;
	return 0;
}

static void pt_release(struct pt_run *run)
{
	u32 i;

	if (run->chunk)
		for (i = 0; i < run->nr_chunks; i++)
			kfree(run->chunk[i]);
	kfree(run->chunk);
	kfree(run->live);
	kfree(run->free_ids);
}

static struct pt_obj *pt_get(struct pt_run *run)
{
	return pt_obj(run, run->free_ids[--run->nr_free]);
}

static void pt_put(struct pt_run *run, struct pt_obj *o)
{
	run->free_ids[run->nr_free++] = o->id;
}

static void pt_make_live(struct pt_run *run, struct pt_obj *o)
{
	o->live_pos = run->nr_live;
	run->live[run->nr_live++] = o->id;
}

static void pt_make_dead(struct pt_run *run, struct pt_obj *o)
{
	struct pt_obj *last = pt_obj(run, run->live[--run->nr_live]);

	run->live[o->live_pos] = last->id;
	last->live_pos = o->live_pos;
	o->live_pos = PT_DEAD;
	pt_put(run, o);
}

static struct pt_obj *pt_pick_live(struct pt_run *run)
{
	return pt_obj(run, run->live[pt_below(run, run->nr_live)]);
}

/* The live object with exactly [@radix, @heap], by brute force. */
static struct pt_obj *pt_brute_find(struct pt_run *run, unsigned long radix,
				    unsigned long heap)
{
	unsigned long r, h;
	u32 i;

	for (i = 0; i < run->nr_live; i++) {
		struct pt_obj *o = pt_obj(run, run->live[i]);

		pt_key(run, o, &r, &h);
		if (r == radix && h == heap)
			return o;
	}
	return NULL;
}

static u64 pt_brute_count(struct pt_run *run, unsigned long begin,
			  unsigned long end)
{
	unsigned long r, h;
	u64 count = 0;
	u32 i;

	for (i = 0; i < run->nr_live; i++) {
		pt_key(run, pt_obj(run, run->live[i]), &r, &h);
		if (r <= end && begin <= h)
			count++;
	}
	return count;
}

/* The full invariant check, hashed; see the stride rule at the top. */
static int pt_check(struct pt_run *run, bool force)
{
	struct prio_tree_fault fault = { .invariant = "" };
	int ret;

	if (!force && run->nr_live > PT_CHECK_ALL_LIVE &&
	    run->mutations % PT_CHECK_STRIDE)
		return 0;
	if (run->sc->flavour == PT_VMA)
		ret = vma_prio_tree_check(&run->root, &fault);
	else
		ret = prio_tree_check(&run->root, &fault);
	run->res->checks++;
	pt_mix(run, (u64)(s64)ret);
	if (ret) {
		pt_mix_str(run, fault.invariant);
		return pt_fail(run, -EUCLEAN, fault.invariant, fault.radix,
			       fault.heap);
	}
	return 0;
}

static int pt_mutated(struct pt_run *run)
{
	run->mutations++;
	return pt_check(run, false);
}

/*
 * Run the stabbing query [@begin, @end] and check it against the oracle.
 * @expect is the number of live objects overlapping it, or -1 to count
 * them by brute force.
 */
static int pt_query(struct pt_run *run, unsigned long begin,
		    unsigned long end, s64 expect)
{
	struct prio_tree_iter iter;
	struct prio_tree_node *node = NULL;
	struct vm_area_struct *vma = NULL;
	unsigned long r, h;
	u64 count = 0;
	struct pt_obj *o;

	run->res->ops++;
	run->epoch++;
	pt_mix(run, 0x51);
	pt_mix(run, begin);
	pt_mix(run, end);
	if (run->sc->flavour == PT_VMA)
		vma = __vma_prio_tree_first(&run->root, &iter, begin, end);
	else
		node = prio_tree_first(&run->root, &iter, begin, end);
	for (;;) {
		if (run->sc->flavour == PT_VMA) {
			if (!vma)
				break;
			o = pt_vma_obj(vma);
		} else {
			if (!node)
				break;
			o = pt_node_obj(run, node);
		}
		pt_key(run, o, &r, &h);
		pt_mix(run, o->id);
		if (o->live_pos == PT_DEAD)
			return pt_fail(run, -EUCLEAN,
				       "query reported a removed object", r, h);
		if (r > end || begin > h)
			return pt_fail(run, -EUCLEAN,
				       "query reported a non-overlapping interval",
				       r, h);
		if (o->mark == run->epoch)
			return pt_fail(run, -EUCLEAN,
				       "query reported an object twice", r, h);
		o->mark = run->epoch;
		count++;
		if (count > run->nr_live)
			return pt_fail(run, -EUCLEAN,
				       "query reported more objects than live",
				       begin, end);
		if (run->sc->flavour == PT_VMA)
			vma = __vma_prio_tree_next(vma, &run->root, &iter,
						   begin, end);
		else
			node = prio_tree_next(&run->root, &iter, begin, end);
	}
	run->res->visits += count;
	pt_mix(run, count);
	if (expect < 0)
		expect = pt_brute_count(run, begin, end);
	if (count != (u64)expect)
		return pt_fail(run, -EUCLEAN,
			       count < (u64)expect ?
			       "query missed an overlapping interval" :
			       "query count differs from the oracle",
			       begin, end);
	return 0;
}

/* A random interval of the scenario's key family; never reversed. */
static void pt_random_key(struct pt_run *run, unsigned long *radix,
			  unsigned long *heap)
{
	unsigned long r, h, span, max;
	unsigned int bits;

	switch (run->sc->keys) {
	case PT_KEYS_TINY:
		r = pt_below(run, 16);
		h = r + pt_below(run, 16 - r);
		break;
	case PT_KEYS_SMALL:
		r = pt_below(run, 1024);
		h = r + pt_below(run, 1 + pt_below(run, 64));
		break;
	case PT_KEYS_WIDE:
		/*
		 * One draw per statement: C leaves the order in which the
		 * operands of ">>" or "&" are evaluated unspecified, and the
		 * two worlds' compilers (or one compiler with and without
		 * sanitizers) do pick differently, which changes the keys.
		 */
		r = pt_rand(run);
		span = pt_rand(run);
		span >>= pt_below(run, BITS_PER_LONG);
		h = r + span < r ? ULONG_MAX : r + span;
		break;
	case PT_KEYS_TOP:
		if (pt_below(run, 2)) {
			r = ULONG_MAX - pt_below(run, 4096);
			h = r + pt_below(run, ULONG_MAX - r + 1);
		} else {
			r = pt_below(run, 4096);
			h = ULONG_MAX - pt_below(run, 4096);
		}
		break;
	case PT_KEYS_GROW:
		bits = 1 + pt_below(run, BITS_PER_LONG);
		max = prio_tree_maxindex(bits);
		r = pt_rand(run) & max;
		span = pt_rand(run);
		span &= max >> pt_below(run, bits);
		h = r + span > max || r + span < r ? max : r + span;
		break;
	case PT_KEYS_RAMP:
		bits = 3 + run->op % PT_RAMP_PERIOD / PT_RAMP_STEP;
		max = prio_tree_maxindex(bits);
		if (pt_below(run, 100) < 70)
			r = pt_below(run, 4);
		else
			r = pt_rand(run) & max;
		span = pt_rand(run) & max;
		h = span > max - r ? max : r + span;
		break;
	default: /* PT_KEYS_DUP */
		r = 4 * pt_below(run, 8);
		h = r + pt_below(run, 3);
		break;
	}
	if (run->sc->flavour != PT_PLAIN && h - r >= PT_VMA_MAX_SPAN)
		h = r + (h - r) % PT_VMA_MAX_SPAN;
	*radix = r;
	*heap = h;
}

static int pt_random_insert(struct pt_run *run)
{
	struct prio_tree_node *got;
	struct pt_obj *o = pt_get(run), *dup;
	unsigned long r, h;

	pt_random_key(run, &r, &h);
	pt_set_key(run, o, r, h);
	run->res->ops++;
	pt_mix(run, 0x49);
	pt_mix(run, r);
	pt_mix(run, h);
	if (run->sc->flavour == PT_VMA) {
		__vma_prio_tree_insert(&run->root, &o->vma);
		pt_make_live(run, o);
		return pt_mutated(run);
	}
	dup = pt_brute_find(run, r, h);
	got = prio_tree_insert(&run->root, pt_node(run, o));
	pt_mix(run, pt_node_obj(run, got)->id);
	if (dup) {
		pt_put(run, o);
		if (got != pt_node(run, dup))
			return pt_fail(run, -EUCLEAN,
				       "insert of a duplicate did not return it",
				       r, h);
		return pt_check(run, false);
	}
	if (got != pt_node(run, o))
		return pt_fail(run, -EUCLEAN,
			       "insert of a new interval returned another node",
			       r, h);
	pt_make_live(run, o);
	return pt_mutated(run);
}

static int pt_random_remove(struct pt_run *run)
{
	struct pt_obj *o = pt_pick_live(run);

	run->res->ops++;
	pt_mix(run, 0x52);
	pt_mix(run, o->id);
	if (run->sc->flavour == PT_VMA)
		__vma_prio_tree_remove(&run->root, &o->vma);
	else
		prio_tree_remove(&run->root, pt_node(run, o));
	pt_make_dead(run, o);
	return pt_mutated(run);
}

/* plain and raw: prio_tree_replace(); vma: a fork beside a live vma */
static int pt_random_twin(struct pt_run *run)
{
	struct pt_obj *old = pt_pick_live(run), *o = pt_get(run);
	struct prio_tree_node *got;
	unsigned long r, h;

	pt_key(run, old, &r, &h);
	pt_set_key(run, o, r, h);
	run->res->ops++;
	pt_mix(run, 0x54);
	pt_mix(run, old->id);
	pt_mix(run, o->id);
	if (run->sc->flavour == PT_VMA) {
		__vma_prio_tree_add(&o->vma, &old->vma);
		pt_make_live(run, o);
		return pt_mutated(run);
	}
	got = prio_tree_replace(&run->root, pt_node(run, old), pt_node(run, o));
	if (got != pt_node(run, old))
		return pt_fail(run, -EUCLEAN, "replace did not return the old node",
			       r, h);
	pt_make_dead(run, old);
	pt_make_live(run, o);
	return pt_mutated(run);
}

/* plain and raw: prio_tree_lookup(); vma: __vma_modify() */
static int pt_random_probe(struct pt_run *run)
{
	struct pt_obj *o, *want;
	struct prio_tree_node *got;
	unsigned long r, h;

	run->res->ops++;
	if (run->sc->flavour == PT_VMA) {
		o = pt_pick_live(run);
		pt_random_key(run, &r, &h);
		pt_mix(run, 0x4d);
		pt_mix(run, o->id);
		pt_mix(run, r);
		pt_mix(run, h);
		__vma_modify(&run->root, &o->vma, PT_VM_BASE,
			     PT_VM_BASE + ((h - r + 1) << PAGE_SHIFT), r);
		return pt_mutated(run);
	}
	if (pt_below(run, 2))
		pt_key(run, pt_pick_live(run), &r, &h);
	else
		pt_random_key(run, &r, &h);
	want = pt_brute_find(run, r, h);
	got = prio_tree_lookup(&run->root, r, h);
	pt_mix(run, 0x4c);
	pt_mix(run, got ? pt_node_obj(run, got)->id : PT_DEAD);
	if (got != (want ? pt_node(run, want) : NULL))
		return pt_fail(run, -EUCLEAN, "lookup disagrees with the oracle",
			       r, h);
	return 0;
}

static int pt_run_random(struct pt_run *run)
{
	const struct pt_scenario *sc = run->sc;
	bool ramp = sc->keys == PT_KEYS_RAMP;
	unsigned long r, h;
	u32 i, dice;
	int ret;

	/* one spare object: replace and fork need a new one at full cap */
	ret = pt_alloc(run, sc->cap + 1);
	if (ret)
		return ret;
	for (i = 0; i < sc->ops && !run->res->error; i++) {
		run->op = i;
		/* "ramp" empties the tree to climb from 3 bits again */
		if (ramp && i && i % PT_RAMP_PERIOD == 0)
			while (run->nr_live && !ret)
				ret = pt_random_remove(run);
		if (ret)
			return ret;
		dice = pt_below(run, 100);
		/* "ramp" fills its tree: growth must sink a full one */
		if (!run->nr_live ||
		    (dice < (ramp ? 70 : 30) && run->nr_live < sc->cap)) {
			ret = pt_random_insert(run);
		} else if (dice < 45) {
			ret = pt_random_remove(run);
		} else if (dice < 52) {
			if (run->nr_live < sc->cap)
				ret = pt_random_twin(run);
			else
				ret = pt_random_remove(run);
		} else if (dice < 58) {
			ret = pt_random_probe(run);
		} else {
			pt_random_key(run, &r, &h);
			if (dice < 70)
				h = r;	/* a single page, as rmap asks */
			ret = pt_query(run, r, h, -1);
		}
		if (ret)
			return ret;
	}
	while (run->nr_live && !ret)
		ret = pt_random_remove(run);
	if (!ret)
		ret = pt_check(run, true);
	pt_mix(run, run->root.index_bits);
	return ret;
}

/* Remove every live object in a seeded order, probing now and then. */
static int pt_teardown(struct pt_run *run, unsigned long last_page)
{
	unsigned long page;
	int ret = 0;

	while (run->nr_live && !ret) {
		ret = pt_random_remove(run);
		if (!ret && run->mutations % 257 == 0) {
			page = pt_below(run, last_page + 1);
			ret = pt_query(run, page, page, -1);
		}
	}
	if (!ret)
		ret = pt_check(run, true);
	pt_mix(run, run->root.index_bits);
	return ret;
}

/* New vma for file pages [@pgoff, @pgoff + @pages - 1], put in the tree. */
static struct pt_obj *pt_shape_vma(struct pt_run *run, unsigned long pgoff,
				   unsigned long pages, struct pt_obj *parent)
{
	struct pt_obj *o = pt_get(run);

	pt_set_key(run, o, pgoff, pgoff + pages - 1);
	run->res->ops++;
	pt_mix(run, parent ? 0x46 : 0x49);
	pt_mix(run, pgoff);
	if (parent)
		__vma_prio_tree_add(&o->vma, &parent->vma);
	else
		__vma_prio_tree_insert(&run->root, &o->vma);
	pt_make_live(run, o);
	return o;
}

/*
 * rmap-test: vma i maps pages [i, i + S - 1] in each of T tasks.  Page p
 * is then mapped by T * (number of i with i <= p <= i + S - 1) vmas.
 */
static int pt_run_windows(struct pt_run *run)
{
	const struct pt_scenario *sc = run->sc;
	u32 n = sc->nr_vmas, s = sc->vma_pages, t, i, j, tmp;
	unsigned long last_page = n + s - 2, p, lo, hi;
	u32 *order;
	int ret;

	ret = pt_alloc(run, n * sc->tasks);
	if (ret)
		return ret;
	order = kmalloc_array(n * sc->tasks, sizeof(u32), GFP_KERNEL);
	if (!order)
		return -ENOMEM;
	if (sc->shuffled) {
		/* every copy through the tree's duplicate path, any order */
		for (i = 0; i < n * sc->tasks; i++)
			order[i] = i % n;
		for (i = n * sc->tasks - 1; i > 0; i--) {
			j = pt_below(run, i + 1);
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i < n * sc->tasks && !ret; i++) {
			pt_shape_vma(run, order[i], s, NULL);
			ret = pt_mutated(run);
		}
	} else {
		/* the parent maps, then each fork adds beside its parent */
		for (i = 0; i < n && !ret; i++) {
			pt_shape_vma(run, i, s, NULL);
			ret = pt_mutated(run);
		}
		for (t = 1; t < sc->tasks && !ret; t++)
			for (i = 0; i < n && !ret; i++) {
				pt_shape_vma(run, i, s,
					     pt_obj(run, (t - 1) * n + i));
				ret = pt_mutated(run);
			}
	}
	kfree(order);
	if (!ret)
		ret = pt_check(run, true);
	for (p = 0; p <= last_page && !ret; p++) {
		lo = p >= s - 1 ? p - (s - 1) : 0;
		hi = p < n - 1 ? p : n - 1;
		ret = pt_query(run, p, p, (s64)(hi - lo + 1) * sc->tasks);
	}
	if (!ret)
		ret = pt_teardown(run, last_page);
	return ret;
}

/*
 * test-mmap: N one-page vmas mapped at file pages N-1 down to 0, then
 * five forks, each adding its copies beside the previous generation's.
 */
static int pt_run_test_mmap(struct pt_run *run)
{
	const struct pt_scenario *sc = run->sc;
	u32 n = sc->nr_vmas, t, i;
	unsigned long p;
	int ret;

	ret = pt_alloc(run, n * sc->tasks);
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		pt_shape_vma(run, n - 1 - i, 1, NULL);
		ret = pt_mutated(run);
	}
	for (t = 1; t < sc->tasks && !ret; t++)
		for (i = 0; i < n && !ret; i++) {
			pt_shape_vma(run, n - 1 - i, 1,
				     pt_obj(run, (t - 1) * n + i));
			ret = pt_mutated(run);
		}
	if (!ret)
		ret = pt_check(run, true);
	for (p = 0; p < n && !ret; p++)
		ret = pt_query(run, p, p, sc->tasks);
	if (!ret)
		ret = pt_query(run, n, ULONG_MAX, 0);
	if (!ret)
		ret = pt_teardown(run, n - 1);
	return ret;
}

/**
 * pt_corpus_count - number of scenarios in the corpus
 *
 * Return: the count; indices 0 .. count - 1 are valid.  O(1).
 */
unsigned int pt_corpus_count(void)
{
	return ARRAY_SIZE(pt_scenarios) + pt_rmap_count();
}

/**
 * pt_corpus_name - the name of scenario @index
 * @index: below pt_corpus_count()
 *
 * Return: a static string, or NULL for an index out of range.  O(1).
 */
const char *pt_corpus_name(unsigned int index)
{
	if (index < ARRAY_SIZE(pt_scenarios))
		return pt_scenarios[index].name;
	return pt_rmap_name(index - ARRAY_SIZE(pt_scenarios));
}

/**
 * pt_corpus_run - run scenario @index from scratch
 * @index: below pt_corpus_count()
 * @result: filled with the digest, the counters and any failure
 *
 * Allocates the scenario's objects (GFP_KERNEL, so may sleep), runs it
 * and frees everything.  Cost: its operation count times O(n log n) for
 * the checks, n the live objects (see the stride rule at the top).
 *
 * Return: 0, -EINVAL for a bad index, -ENOMEM, or -EUCLEAN when the tree
 * broke an invariant or answered differently from the oracle (@result's
 * why says how).
 */
int pt_corpus_run(unsigned int index, struct pt_corpus_result *result)
{
	struct pt_run run = { .res = result };
	int ret;

	*result = (struct pt_corpus_result) { .digest = 0xcbf29ce484222325ULL };
	if (index >= pt_corpus_count())
		return pt_fail(&run, -EINVAL, "no such scenario", index, 0);
	if (index >= ARRAY_SIZE(pt_scenarios))
		return pt_rmap_run(index - ARRAY_SIZE(pt_scenarios), result);
	run.sc = &pt_scenarios[index];
	run.rng = run.sc->seed;
	INIT_PRIO_TREE_ROOT(&run.root);
	if (run.sc->flavour != PT_PLAIN)
		run.root.raw = 1;

	if (run.sc->kind == PT_WINDOWS)
		ret = pt_run_windows(&run);
	else if (run.sc->kind == PT_TEST_MMAP)
		ret = pt_run_test_mmap(&run);
	else
		ret = pt_run_random(&run);
	if (ret == -ENOMEM)
		pt_fail(&run, ret, "out of memory", run.capacity, 0);
	pt_release(&run);
	return result->error;
}

/**
 * pt_corpus_run_all - run every scenario in order and report each one
 * @emit: called after each scenario with its name and result
 * @ctx: passed to @emit
 *
 * Cost: the sum of pt_corpus_run() over the corpus.
 *
 * Return: the number of scenarios that failed.
 */
int pt_corpus_run_all(pt_corpus_emit_fn emit, void *ctx)
{
	struct pt_corpus_result result;
	unsigned int i;
	int failed = 0;

	for (i = 0; i < pt_corpus_count(); i++) {
		if (pt_corpus_run(i, &result))
			failed++;
		emit(ctx, pt_corpus_name(i), &result);
	}
	return failed;
}
