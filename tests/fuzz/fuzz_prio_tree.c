// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for the kernel API of the prio tree: <linux/prio_tree.h>
 * (self-contained nodes) and <linux/vma_prio_tree.h> (vmas, raw nodes and
 * vm_set lists), side by side in one run.
 *
 * The input is a program: a setup byte (index universe, root kind), then
 * operations, each one opcode byte followed by its operands (see enum
 * fuzz_op).  Indices come from fuzz_index(), which favours 0, ULONG_MAX
 * and 2^k - 1 so that index_bits grows and shrinks back to 1 often, or
 * from the intervals already stored.  Next to each tree the harness keeps
 * a brute-force
 * model (which nodes and vmas are in, with which intervals) and demands:
 *
 *  - after every mutation: prio_tree_check() / vma_prio_tree_check() pass,
 *    index_bits is exactly the bits of the largest heap_index in the tree
 *    now (it grows on insert and shrinks on remove), and a query over
 *    [0, ULONG_MAX] returns exactly the model's set;
 *  - insert returns the node already holding an identical interval, and
 *    only then; replace and lookup return what the model says;
 *  - every range and point query returns each overlapping node or vma
 *    exactly once, nothing else, and a vm_set's vmas one after another;
 *    a finished query keeps returning NULL.
 *
 * The library sources are built into the harness with
 * CONFIG_PRIO_TREE_DEBUG=1, so the tree also re-verifies itself and any
 * API misuse the harness might commit would abort with a BUG().
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/prio_tree.h>
#include <linux/prio_tree_walk.h>
#include <linux/vma_prio_tree.h>

#include "fuzz_input.h"

/*
 * Small pools: collisions of intervals (duplicates, vm_sets) are what the
 * interesting paths need, and the checker costs O(n log n) per mutation.
 */
#define NODE_SLOTS	40
#define VMA_SLOTS	40
#define MAX_OPS		3000

/* vm_end must not overflow: vm_start < 2^49, pages <= 2^40. */
#define MAX_VMA_PAGES	(1UL << 40)

enum fuzz_op {
	OP_NODE_INSERT,		/* slot, interval */
	OP_NODE_INSERT_TWIN,	/* slot, slot: a copy of a node's key */
	OP_NODE_REMOVE,		/* slot */
	OP_NODE_REPLACE,	/* slot, slot */
	OP_NODE_LOOKUP,		/* mode, interval or slot */
	OP_NODE_QUERY,		/* point, point, stop-after */
	OP_NODE_POINT,		/* point */
	OP_VMA_INSERT,		/* slot, vma range */
	OP_VMA_INSERT_TWIN,	/* slot, slot: a range already in */
	OP_VMA_FORK,		/* slot, slot: __vma_prio_tree_add() */
	OP_VMA_REMOVE,		/* slot */
	OP_VMA_MODIFY,		/* slot, vma range; in the tree or not */
	OP_VMA_MODIFY_TWIN,	/* slot, slot: onto another vma's range */
	OP_VMA_LOOKUP,		/* index, index */
	OP_VMA_QUERY,		/* point, point */
	OP_VMA_POINT,		/* point */
	OP_NODE_CLEAR,		/* empty the node tree, root first */
	OP_NODE_SWEEP,		/* index: queries ending at each start */
	OP_VMA_SWEEP,		/* index */
	OP_NODE_BULK,		/* count, seed, seed */
	OP_VMA_BULK,		/* count, seed, seed */
	OP_NODE_CORRUPT,	/* kind: break, check, repair */
	OP_VMA_CORRUPT,		/* slot, kind */
	OP_COUNT
};

struct node_model {
	struct prio_tree_node	node;
	bool			in_tree;
};

struct vma_model {
	struct vm_area_struct	vma;
	bool			in_tree;
};

struct fuzz_state {
	struct fuzz_input	in;
	struct prio_tree_root	node_root;
	struct prio_tree_root	vma_root;
	unsigned long		universe;	/* mask of every index */
	struct node_model	nodes[NODE_SLOTS];
	struct vma_model	vmas[VMA_SLOTS];
	unsigned char		seen[VMA_SLOTS > NODE_SLOTS ?
				     VMA_SLOTS : NODE_SLOTS];
};

/* The index_bits a tree needs for @heap: 1 for 0 and 1, else bit length. */
static unsigned int bits_for(unsigned long heap)
{
	return heap ? BITS_PER_LONG - __builtin_clzl(heap) : 1;
}

/*
 * An index of this run's universe.  A run in a universe of 16, 64 or 256
 * values packs its intervals densely, as a brute-force stress with tiny
 * indices does: that is where the walk's pruning is tested hardest.
 * Boundary values stay boundaries: ULONG_MAX becomes the universe's top.
 */
static unsigned long index_of(struct fuzz_state *s)
{
	return fuzz_index(&s->in) & s->universe;
}

static bool overlaps(unsigned long r, unsigned long h,
		     unsigned long begin, unsigned long end)
{
	return r <= end && h >= begin;
}

/*
 * Slot selection: a byte names a slot, and the search moves on from there
 * to the first slot in the wanted state, so most bytes do something.
 * Returns -1 when no slot is in that state.
 */
static int pick_node_from(struct fuzz_state *s, unsigned int start,
			  bool in_tree)
{
	unsigned int i;

	for (i = 0; i < NODE_SLOTS; i++) {
		unsigned int slot = (start + i) % NODE_SLOTS;

		if (s->nodes[slot].in_tree == in_tree)
			return slot;
	}
	return -1;
}

static int pick_vma_from(struct fuzz_state *s, unsigned int start,
			 bool in_tree)
{
	unsigned int i;

	for (i = 0; i < VMA_SLOTS; i++) {
		unsigned int slot = (start + i) % VMA_SLOTS;

		if (s->vmas[slot].in_tree == in_tree)
			return slot;
	}
	return -1;
}

static int pick_node(struct fuzz_state *s, bool in_tree)
{
	return pick_node_from(s, fuzz_below(&s->in, NODE_SLOTS), in_tree);
}

static int pick_vma(struct fuzz_state *s, bool in_tree)
{
	return pick_vma_from(s, fuzz_below(&s->in, VMA_SLOTS), in_tree);
}

/*
 * The bulk operations draw many keys from two input bytes, so that short
 * inputs (libFuzzer starts with very short ones) already build trees of
 * dozens of nodes.  xorshift64: any seed but 0 works, and 0 is mapped.
 */
static unsigned long bulk_random(unsigned long *state)
{
	unsigned long x = *state ? *state : 0x9e3779b97f4a7c15UL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/*
 * An interval: either two indices in order, or an index and a short
 * length (saturating at ULONG_MAX), chosen by a mode byte.
 */
static void decode_interval(struct fuzz_state *s, unsigned long *start,
			    unsigned long *last)
{
	uint8_t mode = fuzz_u8(&s->in);
	unsigned long a = index_of(s), b, len;

	if (mode & 1) {
		b = index_of(s);
		*start = a < b ? a : b;
		*last = a < b ? b : a;
		return;
	}
	len = mode >> 1;
	*start = a;
	*last = a > s->universe - len ? s->universe : a + len;
}

/*
 * A vma range: vm_pgoff from fuzz_index(), a page count that keeps
 * HEAP_INDEX from wrapping (a vma may end exactly at page ULONG_MAX),
 * and a page-aligned vm_start below 2^49 so vm_end cannot overflow.
 */
static void decode_vma_range(struct fuzz_state *s, unsigned long *vm_start,
			     unsigned long *vm_end, unsigned long *pgoff)
{
	uint8_t shape = fuzz_u8(&s->in);
	unsigned long pages;

	*pgoff = index_of(s);
	if (shape & 0x80)
		pages = 1 + (index_of(s) % MAX_VMA_PAGES);
	else
		pages = 1 + (shape & 0x0f);
	if (pages - 1 > s->universe - *pgoff)
		pages = s->universe - *pgoff + 1;
	*vm_start = ((unsigned long)fuzz_u8(&s->in) << 28 |
		     (unsigned long)(shape & 0x70) << 16) << PAGE_SHIFT;
	*vm_end = *vm_start + (pages << PAGE_SHIFT);
}

static int node_slot(struct fuzz_state *s, const struct prio_tree_node *node)
{
	uintptr_t p = (uintptr_t)node, base = (uintptr_t)s->nodes;

	FUZZ_EXPECT(p >= base && p < base + sizeof(s->nodes) &&
		    (p - base) % sizeof(s->nodes[0]) ==
		    offsetof(struct node_model, node),
		    "node %p returned by the tree is none of the harness's",
		    (const void *)node);
	return (p - base) / sizeof(s->nodes[0]);
}

static int vma_slot(struct fuzz_state *s, const struct vm_area_struct *vma)
{
	uintptr_t p = (uintptr_t)vma, base = (uintptr_t)s->vmas;

	FUZZ_EXPECT(p >= base && p < base + sizeof(s->vmas) &&
		    (p - base) % sizeof(s->vmas[0]) ==
		    offsetof(struct vma_model, vma),
		    "vma %p returned by the tree is none of the harness's",
		    (const void *)vma);
	return (p - base) / sizeof(s->vmas[0]);
}

static int node_model_find(struct fuzz_state *s, unsigned long start,
			   unsigned long last)
{
	int i;

	for (i = 0; i < NODE_SLOTS; i++)
		if (s->nodes[i].in_tree && s->nodes[i].node.start == start &&
		    s->nodes[i].node.last == last)
			return i;
	return -1;
}

static bool node_model_empty(struct fuzz_state *s)
{
	int i;

	for (i = 0; i < NODE_SLOTS; i++)
		if (s->nodes[i].in_tree)
			return false;
	return true;
}

/* The index_bits the model's nodes call for: the largest heap's (4). */
static unsigned int node_model_bits(struct fuzz_state *s)
{
	unsigned long heap = 0;
	int i;

	for (i = 0; i < NODE_SLOTS; i++)
		if (s->nodes[i].in_tree && s->nodes[i].node.last > heap)
			heap = s->nodes[i].node.last;
	return bits_for(heap);
}

static unsigned int vma_model_bits(struct fuzz_state *s)
{
	unsigned long heap = 0;
	int i;

	for (i = 0; i < VMA_SLOTS; i++)
		if (s->vmas[i].in_tree && HEAP_INDEX(&s->vmas[i].vma) > heap)
			heap = HEAP_INDEX(&s->vmas[i].vma);
	return bits_for(heap);
}

/*
 * Runs the query [@begin, @end] on the node tree and compares it with the
 * model.  @stop_after > 0 abandons the query after that many hits (callers
 * may stop early; the iterator holds no resources); the hits so far must
 * still be right and distinct.
 */
static void node_query(struct fuzz_state *s, unsigned long begin,
		       unsigned long end, unsigned int stop_after)
{
	struct prio_tree_iter iter, inline_iter;
	struct prio_tree_node *node, *inline_node;
	unsigned int hits = 0, expected = 0;
	int i, slot;

	memset(s->seen, 0, sizeof(s->seen));
	/* the inline form (<linux/prio_tree_walk.h>) in step with the library */
	inline_node = prio_tree_first_inline(&s->node_root, &inline_iter,
					     begin, end);
	for (node = prio_tree_first(&s->node_root, &iter, begin, end); node;
	     node = prio_tree_next(&s->node_root, &iter, begin, end)) {
		FUZZ_EXPECT(inline_node == node,
			    "query [%lu, %lu]: the inline query returned another node than the library",
			    begin, end);
		inline_node = prio_tree_next_inline(&s->node_root,
						    &inline_iter, begin, end);
		slot = node_slot(s, node);
		FUZZ_EXPECT(s->nodes[slot].in_tree,
			    "query [%lu, %lu] returned slot %d, not in the tree",
			    begin, end, slot);
		FUZZ_EXPECT(overlaps(node->start, node->last, begin, end),
			    "query [%lu, %lu] returned [%lu, %lu]", begin, end,
			    node->start, node->last);
		FUZZ_EXPECT(!s->seen[slot],
			    "query [%lu, %lu] returned [%lu, %lu] twice",
			    begin, end, node->start, node->last);
		s->seen[slot] = 1;
		if (++hits == stop_after)
			return;
	}
	FUZZ_EXPECT(!prio_tree_next(&s->node_root, &iter, begin, end),
		    "finished query [%lu, %lu] returned another node",
		    begin, end);
	FUZZ_EXPECT(!inline_node,
		    "query [%lu, %lu]: the inline query went on after the library's ended",
		    begin, end);
	for (i = 0; i < NODE_SLOTS; i++) {
		if (!s->nodes[i].in_tree ||
		    !overlaps(s->nodes[i].node.start, s->nodes[i].node.last,
			      begin, end))
			continue;
		expected++;
		FUZZ_EXPECT(s->seen[i], "query [%lu, %lu] missed [%lu, %lu]",
			    begin, end, s->nodes[i].node.start,
			    s->nodes[i].node.last);
	}
	FUZZ_EXPECT(hits == expected, "query [%lu, %lu]: %u hits, model %u",
		    begin, end, hits, expected);
}

/*
 * The vma version: every vma of an overlapping range exactly once, and
 * the vmas of one range (one tree node and its vm_set) consecutively.
 */
static void vma_query(struct fuzz_state *s, unsigned long begin,
		      unsigned long end)
{
	struct prio_tree_iter iter, inline_iter;
	struct vm_area_struct *vma, *prev = NULL, *inline_vma;
	unsigned int hits = 0, expected = 0;
	unsigned long r, h;
	int i, slot;

	memset(s->seen, 0, sizeof(s->seen));
	/* the inline form (<linux/prio_tree_walk.h>) in step with the library */
	inline_vma = __vma_prio_tree_first_inline(&s->vma_root, &inline_iter,
						  begin, end);
	for (vma = __vma_prio_tree_first(&s->vma_root, &iter, begin, end); vma;
	     vma = __vma_prio_tree_next(vma, &s->vma_root, &iter, begin, end)) {
		FUZZ_EXPECT(inline_vma == vma,
			    "vma query [%lu, %lu]: the inline query returned another vma than the library",
			    begin, end);
		inline_vma = __vma_prio_tree_next_inline(inline_vma,
							 &s->vma_root,
							 &inline_iter, begin,
							 end);
		slot = vma_slot(s, vma);
		r = RADIX_INDEX(vma);
		h = HEAP_INDEX(vma);
		FUZZ_EXPECT(s->vmas[slot].in_tree,
			    "vma query [%lu, %lu] returned vma %d, not in the tree",
			    begin, end, slot);
		FUZZ_EXPECT(overlaps(r, h, begin, end),
			    "vma query [%lu, %lu] returned vma [%lu, %lu]",
			    begin, end, r, h);
		FUZZ_EXPECT(!s->seen[slot],
			    "vma query [%lu, %lu] returned vma %d twice",
			    begin, end, slot);
		/* a range seen before must be the one just returned */
		if (!prev || RADIX_INDEX(prev) != r || HEAP_INDEX(prev) != h) {
			for (i = 0; i < VMA_SLOTS; i++)
				FUZZ_EXPECT(!s->seen[i] ||
					    RADIX_INDEX(&s->vmas[i].vma) != r ||
					    HEAP_INDEX(&s->vmas[i].vma) != h,
					    "vma query [%lu, %lu]: the vm_set of [%lu, %lu] came in pieces",
					    begin, end, r, h);
		}
		s->seen[slot] = 1;
		prev = vma;
		hits++;
	}
	FUZZ_EXPECT(!prio_tree_next(&s->vma_root, &iter, begin, end),
		    "finished vma query [%lu, %lu] returned another node",
		    begin, end);
	FUZZ_EXPECT(!inline_vma,
		    "vma query [%lu, %lu]: the inline query went on after the library's ended",
		    begin, end);
	for (i = 0; i < VMA_SLOTS; i++) {
		vma = &s->vmas[i].vma;
		if (!s->vmas[i].in_tree ||
		    !overlaps(RADIX_INDEX(vma), HEAP_INDEX(vma), begin, end))
			continue;
		expected++;
		FUZZ_EXPECT(s->seen[i],
			    "vma query [%lu, %lu] missed vma %d [%lu, %lu]",
			    begin, end, i, RADIX_INDEX(vma), HEAP_INDEX(vma));
	}
	FUZZ_EXPECT(hits == expected, "vma query [%lu, %lu]: %u hits, model %u",
		    begin, end, hits, expected);
}

static void verify_node_tree(struct fuzz_state *s)
{
	struct prio_tree_fault fault;

	FUZZ_EXPECT(prio_tree_check(&s->node_root, &fault) == 0,
		    "invariant %s at depth %u, node [%lu, %lu]",
		    fault.invariant, fault.depth, fault.radix, fault.heap);
	FUZZ_EXPECT(s->node_root.index_bits == node_model_bits(s),
		    "index_bits %u, model %u", s->node_root.index_bits,
		    node_model_bits(s));
	node_query(s, 0, ULONG_MAX, 0);
}

static void verify_vma_tree(struct fuzz_state *s)
{
	struct prio_tree_fault fault;

	FUZZ_EXPECT(vma_prio_tree_check(&s->vma_root, &fault) == 0,
		    "vma invariant %s at depth %u, range [%lu, %lu]",
		    fault.invariant, fault.depth, fault.radix, fault.heap);
	FUZZ_EXPECT(s->vma_root.index_bits == vma_model_bits(s),
		    "vma index_bits %u, model %u", s->vma_root.index_bits,
		    vma_model_bits(s));
	vma_query(s, 0, ULONG_MAX);
}

/* Insert [@start, @last] with the node of @slot, which is in no tree. */
static void node_insert(struct fuzz_state *s, int slot, unsigned long start,
			unsigned long last)
{
	struct prio_tree_node *node, *ret;
	int existing;

	node = &s->nodes[slot].node;
	node->start = start;
	node->last = last;
	existing = node_model_find(s, start, last);

	ret = prio_tree_insert(&s->node_root, node);
	if (existing >= 0) {
		FUZZ_EXPECT(ret == &s->nodes[existing].node,
			    "insert of present [%lu, %lu] returned %p, not slot %d",
			    start, last, (void *)ret, existing);
	} else {
		FUZZ_EXPECT(ret == node,
			    "insert of new [%lu, %lu] returned %p, not the node",
			    start, last, (void *)ret);
		s->nodes[slot].in_tree = true;
	}
	verify_node_tree(s);
}

/*
 * The checkers must be able to fail.  The corruption operations break one
 * field of a tree on purpose, demand that the checker reports the
 * invariant that field belongs to, and put the field back.  Only
 * corruptions whose first visible symptom is certain are made; the
 * checker walks the root first, so most of them are at the root.
 */
static void expect_fault(const struct prio_tree_root *root, bool vma,
			 const char *invariant, const char *what)
{
	struct prio_tree_fault fault = { .invariant = NULL };
	int ret = vma ? vma_prio_tree_check(root, &fault) :
			prio_tree_check(root, &fault);

	FUZZ_EXPECT(ret == -EUCLEAN && fault.invariant,
		    "the checker missed %s (returned %d)", what, ret);
	FUZZ_EXPECT(!invariant || !strncmp(fault.invariant, invariant,
					   strlen(invariant)),
		    "%s reported as '%s', not '%s'", what, fault.invariant,
		    invariant);
}

static void op_node_corrupt(struct fuzz_state *s)
{
	struct prio_tree_root *root = &s->node_root;
	struct prio_tree_node *top = root->prio_tree_node, *child, saved;
	unsigned short bits = root->index_bits;
	unsigned int kind = fuzz_below(&s->in, 7);

	if (!top || kind == 0) {
		root->index_bits = kind & 1 ? 0 : BITS_PER_LONG + 1;
		if (!top && kind)
			root->index_bits = 2;
		expect_fault(root, false, "4 bound", "a bad index_bits");
		root->index_bits = bits;
		return;
	}
	saved = *top;
	child = !prio_tree_left_empty(top) ? top->left :
		!prio_tree_right_empty(top) ? top->right : NULL;
	switch (kind) {
	case 1:
		if (top->last < ULONG_MAX)
			top->start = top->last + 1;
		else if (top->start)
			top->last = top->start - 1;
		else
			break;
		expect_fault(root, false, "0 interval", "start > last");
		break;
	case 2:
		if (bits == BITS_PER_LONG)
			break;
		top->last = prio_tree_maxindex(bits) + 1;
		expect_fault(root, false, "4 bound", "last above maxindex");
		break;
	case 3:
		top->parent = NULL;
		expect_fault(root, false, "5 links", "a root with a parent");
		break;
	case 4:
		top->left = NULL;
		expect_fault(root, false, "5 links", "a NULL child");
		break;
	case 5:
		if (!child)
			break;
		child->parent = child;
		expect_fault(root, false, "5 links", "a child's parent link");
		child->parent = top;
		break;
	default:
		if (!child)
			break;
		/* swap the keys of the root and a child: heap order breaks */
		top->start = child->start;
		top->last = child->last;
		child->start = saved.start;
		child->last = saved.last;
		expect_fault(root, false, "1 heap order", "swapped keys");
		child->start = top->start;
		child->last = top->last;
		break;
	}
	*top = saved;
	verify_node_tree(s);
}

/* A tree-node vma that has a vm_set, or NULL. */
static struct vm_area_struct *vma_with_set(struct fuzz_state *s)
{
	int i;

	for (i = 0; i < VMA_SLOTS; i++)
		if (s->vmas[i].in_tree && s->vmas[i].vma.shared.both.parent &&
		    s->vmas[i].vma.shared.vm_set.head)
			return &s->vmas[i].vma;
	return NULL;
}

/*
 * vm_end <= vm_start, yet the same number of pages: vm_start moves to the
 * top of the address space and vm_end wraps around past 0.  The tree sees
 * an unchanged range, so only invariant (8) can notice.
 */
static void vma_wrap(struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;

	vma->vm_start = -PAGE_SIZE;
	vma->vm_end = vma->vm_start + size;
}

static void op_vma_corrupt(struct fuzz_state *s)
{
	struct prio_tree_root *root = &s->vma_root;
	struct vm_area_struct *node, *head, *member, saved[3];
	unsigned int kind = fuzz_below(&s->in, 7);
	int slot = pick_vma(s, true);

	if (slot < 0)
		return;
	node = vma_with_set(s);
	if (!node || kind == 0) {
		if (kind & 1) {
			root->raw = 0;
			expect_fault(root, true, NULL,
				     "a vma tree with a plain root");
			root->raw = 1;
		} else {
			node = &s->vmas[slot].vma;
			saved[0] = *node;
			vma_wrap(node);
			expect_fault(root, true, "8 vma", "vm_end <= vm_start");
			*node = saved[0];
		}
		verify_vma_tree(s);
		return;
	}
	head = node->shared.vm_set.head;
	member = list_entry(head->shared.vm_set.list.next,
			    struct vm_area_struct, shared.vm_set.list);
	saved[0] = *node;
	saved[1] = *head;
	saved[2] = *member;
	switch (kind) {
	case 1:
		head->shared.vm_set.head = head;
		expect_fault(root, true, "7 vm_set: head does not point back",
			     "a head pointing elsewhere");
		break;
	case 2:
		head->shared.vm_set.parent = node;
		expect_fault(root, true,
			     "7 vm_set: list head has a tree parent",
			     "a head with a tree parent");
		break;
	case 3:
		head->shared.vm_set.list.prev = NULL;
		expect_fault(root, true, "7 vm_set: ring links disagree",
			     "a broken ring");
		break;
	case 4:
		member->vm_pgoff ^= 1;
		expect_fault(root, true, "7 vm_set: member maps another range",
			     "a member of another range");
		break;
	case 5:
		if (member == head)
			break;
		member->shared.vm_set.head = node;
		expect_fault(root, true,
			     "7 vm_set: member has a tree or head role",
			     "a member with a role");
		break;
	default:
		vma_wrap(member);
		expect_fault(root, true, "8 vma",
			     "a member with vm_end <= vm_start");
		break;
	}
	/* member may be head: restore in reverse order of saving */
	*member = saved[2];
	*head = saved[1];
	*node = saved[0];
	verify_vma_tree(s);
}

static void op_node_insert(struct fuzz_state *s, bool twin)
{
	int slot = pick_node(s, false), twin_slot = -1;
	unsigned long start = 0, last = 0;

	if (twin)
		twin_slot = pick_node(s, true);
	else
		decode_interval(s, &start, &last);
	if (slot < 0 || (twin && twin_slot < 0))
		return;
	if (twin) {
		start = s->nodes[twin_slot].node.start;
		last = s->nodes[twin_slot].node.last;
	}
	node_insert(s, slot, start, last);
}

/* count, seed, seed: insert up to 16 pseudo-random intervals. */
static void op_node_bulk(struct fuzz_state *s)
{
	unsigned int count = 1 + fuzz_below(&s->in, 16);
	unsigned long rnd = fuzz_u8(&s->in) | fuzz_u8(&s->in) << 8;
	unsigned long a, b;
	int slot;

	while (count--) {
		slot = pick_node_from(s, bulk_random(&rnd) % NODE_SLOTS, false);
		if (slot < 0)
			return;
		a = bulk_random(&rnd) & s->universe;
		b = bulk_random(&rnd) & s->universe;
		node_insert(s, slot, a < b ? a : b, a < b ? b : a);
	}
}

static void op_node_remove(struct fuzz_state *s)
{
	int slot = pick_node(s, true);

	if (slot < 0)
		return;
	prio_tree_remove(&s->node_root, &s->nodes[slot].node);
	s->nodes[slot].in_tree = false;
	verify_node_tree(s);
}

static void op_node_replace(struct fuzz_state *s)
{
	int old = pick_node(s, true), slot = pick_node(s, false);
	struct prio_tree_node *ret;

	if (old < 0 || slot < 0)
		return;
	s->nodes[slot].node.start = s->nodes[old].node.start;
	s->nodes[slot].node.last = s->nodes[old].node.last;
	ret = prio_tree_replace(&s->node_root, &s->nodes[old].node,
				&s->nodes[slot].node);
	FUZZ_EXPECT(ret == &s->nodes[old].node,
		    "replace returned %p, not the old node", (void *)ret);
	s->nodes[old].in_tree = false;
	s->nodes[slot].in_tree = true;
	verify_node_tree(s);
}

static void op_node_lookup(struct fuzz_state *s)
{
	uint8_t mode = fuzz_u8(&s->in);
	unsigned long start = 0, last = 0;
	struct prio_tree_node *ret;
	int slot, expected;

	if (mode & 1) {
		slot = pick_node(s, true);
		if (slot < 0)
			return;
		start = s->nodes[slot].node.start;
		last = s->nodes[slot].node.last;
	} else {
		/* unordered on purpose: start > last must find nothing */
		start = index_of(s);
		last = index_of(s);
	}
	expected = start <= last ? node_model_find(s, start, last) : -1;
	ret = prio_tree_lookup(&s->node_root, start, last);
	FUZZ_EXPECT(ret == (expected < 0 ? NULL : &s->nodes[expected].node),
		    "lookup [%lu, %lu] returned %p, model slot %d",
		    start, last, (void *)ret, expected);
}

/*
 * A query endpoint.  Half the time it is taken from the tree itself: a
 * stored interval's start or last, nudged by one.  Pruning mistakes show
 * where a query ends exactly at a subtree's least radix, which an
 * independent index rarely hits (the seed's query defect (b) survived
 * 120 s of fuzzing before this).
 */
static unsigned long query_point(struct fuzz_state *s, bool vma)
{
	uint8_t sel = fuzz_u8(&s->in);
	unsigned long v;
	int slot;

	if (!(sel & 0x80))
		return index_of(s);
	slot = vma ? pick_vma(s, true) : pick_node(s, true);
	if (slot < 0)
		return 0;
	if (vma)
		v = sel & 1 ? HEAP_INDEX(&s->vmas[slot].vma) :
			      RADIX_INDEX(&s->vmas[slot].vma);
	else
		v = sel & 1 ? s->nodes[slot].node.last :
			      s->nodes[slot].node.start;
	if ((sel & 6) == 2 && v < ULONG_MAX)
		v++;
	else if ((sel & 6) == 4 && v > 0)
		v--;
	return v;
}

static void op_node_query(struct fuzz_state *s, bool point)
{
	unsigned long a = query_point(s, false);
	unsigned long b = point ? a : query_point(s, false);
	uint8_t stop = point ? 0 : fuzz_u8(&s->in);

	/* an abandoned query now and then; most are checked in full */
	node_query(s, a < b ? a : b, a < b ? b : a,
		   stop >= 0xf8 ? stop & 7 : 0);
}

/*
 * Every query that ends at a stored interval's start, from a begin the
 * input picks, plus the point queries at every start and last: the
 * queries most likely to meet a wrongly closed right subtree.
 * O(n (log n + m)).
 */
static void op_node_sweep(struct fuzz_state *s)
{
	unsigned long begin = index_of(s), start, last;
	int i;

	for (i = 0; i < NODE_SLOTS; i++) {
		if (!s->nodes[i].in_tree)
			continue;
		start = s->nodes[i].node.start;
		last = s->nodes[i].node.last;
		node_query(s, begin < start ? begin : start, start, 0);
		node_query(s, start, start, 0);
		node_query(s, last, last, 0);
	}
}

static void op_node_clear(struct fuzz_state *s)
{
	struct prio_tree_node *top;

	while (!prio_tree_empty(&s->node_root)) {
		top = s->node_root.prio_tree_node;
		prio_tree_remove(&s->node_root, top);
		s->nodes[node_slot(s, top)].in_tree = false;
		verify_node_tree(s);
	}
	FUZZ_EXPECT(node_model_empty(s),
		    "an empty tree, but the model holds nodes");
}

static void vma_set_range(struct vm_area_struct *vma, unsigned long vm_start,
			  unsigned long vm_end, unsigned long pgoff)
{
	vma->vm_start = vm_start;
	vma->vm_end = vm_end;
	vma->vm_pgoff = pgoff;
}

/* Give the vma of @slot, which is in no tree, a range and insert it. */
static void vma_insert(struct fuzz_state *s, int slot, unsigned long vm_start,
		       unsigned long vm_end, unsigned long pgoff)
{
	struct vm_area_struct *vma = &s->vmas[slot].vma;

	FUZZ_EXPECT(vma_shared_empty(vma), "vma %d out of the tree has links",
		    slot);
	vma_set_range(vma, vm_start, vm_end, pgoff);
	__vma_prio_tree_insert(&s->vma_root, vma);
	s->vmas[slot].in_tree = true;
	verify_vma_tree(s);
}

/*
 * The range an insert or modify targets: decoded from the input, or, for
 * @twin, copied from a vma already in the tree (false if there is none).
 */
static bool vma_target_range(struct fuzz_state *s, bool twin,
			     unsigned long *vm_start, unsigned long *vm_end,
			     unsigned long *pgoff)
{
	struct vm_area_struct *vma;
	int twin_slot;

	if (!twin) {
		decode_vma_range(s, vm_start, vm_end, pgoff);
		return true;
	}
	twin_slot = pick_vma(s, true);
	if (twin_slot < 0)
		return false;
	vma = &s->vmas[twin_slot].vma;
	*vm_start = vma->vm_start;
	*vm_end = vma->vm_end;
	*pgoff = vma->vm_pgoff;
	return true;
}

static void op_vma_insert(struct fuzz_state *s, bool twin)
{
	int slot = pick_vma(s, false);
	unsigned long vm_start = 0, vm_end = 0, pgoff = 0;

	if (!vma_target_range(s, twin, &vm_start, &vm_end, &pgoff) || slot < 0)
		return;
	vma_insert(s, slot, vm_start, vm_end, pgoff);
}

/*
 * count, seed, seed: insert up to 16 pseudo-random vmas of up to 8 pages;
 * one in four maps exactly the pages of a vma already in, to grow vm_sets.
 */
static void op_vma_bulk(struct fuzz_state *s)
{
	unsigned int count = 1 + fuzz_below(&s->in, 16);
	unsigned long rnd = fuzz_u8(&s->in) | fuzz_u8(&s->in) << 8;
	unsigned long pgoff, pages;
	struct vm_area_struct *twin;
	int slot, twin_slot;

	while (count--) {
		slot = pick_vma_from(s, bulk_random(&rnd) % VMA_SLOTS, false);
		if (slot < 0)
			return;
		twin_slot = pick_vma_from(s, bulk_random(&rnd) % VMA_SLOTS,
					  true);
		if (twin_slot >= 0 && bulk_random(&rnd) % 4 == 0) {
			twin = &s->vmas[twin_slot].vma;
			vma_insert(s, slot, twin->vm_start, twin->vm_end,
				   twin->vm_pgoff);
			continue;
		}
		pgoff = bulk_random(&rnd) & s->universe;
		pages = 1 + bulk_random(&rnd) % 8;
		if (pages - 1 > s->universe - pgoff)
			pages = s->universe - pgoff + 1;
		vma_insert(s, slot, 0, pages << PAGE_SHIFT, pgoff);
	}
}

static void op_vma_fork(struct fuzz_state *s)
{
	int old = pick_vma(s, true), slot = pick_vma(s, false);
	struct vm_area_struct *vma, *parent;

	if (old < 0 || slot < 0)
		return;
	parent = &s->vmas[old].vma;
	vma = &s->vmas[slot].vma;
	vma_set_range(vma, parent->vm_start, parent->vm_end, parent->vm_pgoff);
	__vma_prio_tree_add(vma, parent);
	s->vmas[slot].in_tree = true;
	verify_vma_tree(s);
}

static void op_vma_remove(struct fuzz_state *s)
{
	int slot = pick_vma(s, true);
	struct vm_area_struct *vma;

	if (slot < 0)
		return;
	vma = &s->vmas[slot].vma;
	__vma_prio_tree_remove(&s->vma_root, vma);
	s->vmas[slot].in_tree = false;
	FUZZ_EXPECT(vma_shared_empty(vma) && !vma->shared.vm_set.head,
		    "removed vma %d keeps links", slot);
	verify_vma_tree(s);
}

static void op_vma_modify(struct fuzz_state *s, bool twin)
{
	bool in_tree = fuzz_u8(&s->in) & 1;
	int slot = pick_vma(s, in_tree);
	unsigned long vm_start = 0, vm_end = 0, pgoff = 0;
	struct vm_area_struct *vma;

	if (!vma_target_range(s, twin, &vm_start, &vm_end, &pgoff) || slot < 0)
		return;
	vma = &s->vmas[slot].vma;
	if (!in_tree) {
		__vma_modify(NULL, vma, vm_start, vm_end, pgoff);
		FUZZ_EXPECT(vma->vm_start == vm_start &&
			    vma->vm_end == vm_end && vma->vm_pgoff == pgoff &&
			    vma_shared_empty(vma),
			    "__vma_modify(NULL) of vma %d", slot);
		return;
	}
	/* remove and insert: the tree may be empty in between */
	s->vmas[slot].in_tree = false;
	__vma_modify(&s->vma_root, vma, vm_start, vm_end, pgoff);
	s->vmas[slot].in_tree = true;
	verify_vma_tree(s);
}

static void op_vma_lookup(struct fuzz_state *s)
{
	unsigned long r = index_of(s), h = index_of(s);
	struct prio_tree_node *ret;
	struct vm_area_struct *vma;
	bool present = false;
	int i, slot;

	if (fuzz_u8(&s->in) & 1) {
		slot = pick_vma(s, true);
		if (slot >= 0) {
			r = RADIX_INDEX(&s->vmas[slot].vma);
			h = HEAP_INDEX(&s->vmas[slot].vma);
		}
	}
	for (i = 0; i < VMA_SLOTS; i++)
		if (s->vmas[i].in_tree && r <= h &&
		    RADIX_INDEX(&s->vmas[i].vma) == r &&
		    HEAP_INDEX(&s->vmas[i].vma) == h)
			present = true;
	ret = prio_tree_lookup(&s->vma_root, r, h);
	FUZZ_EXPECT(!!ret == present, "vma lookup [%lu, %lu]: %p, model %d",
		    r, h, (void *)ret, present);
	if (!ret)
		return;
	vma = prio_tree_entry(ret, struct vm_area_struct,
			      shared.prio_tree_node);
	slot = vma_slot(s, vma);
	FUZZ_EXPECT(s->vmas[slot].in_tree && vma->shared.both.parent &&
		    RADIX_INDEX(vma) == r && HEAP_INDEX(vma) == h,
		    "vma lookup [%lu, %lu] found vma %d, not its tree node",
		    r, h, slot);
}

static void op_vma_query(struct fuzz_state *s, bool point)
{
	unsigned long a = query_point(s, true);
	unsigned long b = point ? a : query_point(s, true);

	vma_query(s, a < b ? a : b, a < b ? b : a);
}

/* op_node_sweep() for the vma tree. */
static void op_vma_sweep(struct fuzz_state *s)
{
	unsigned long begin = index_of(s), r, h;
	int i;

	for (i = 0; i < VMA_SLOTS; i++) {
		if (!s->vmas[i].in_tree)
			continue;
		r = RADIX_INDEX(&s->vmas[i].vma);
		h = HEAP_INDEX(&s->vmas[i].vma);
		vma_query(s, begin < r ? begin : r, r);
		vma_query(s, r, r);
		vma_query(s, h, h);
	}
}

static void fuzz_state_init(struct fuzz_state *s, const uint8_t *data,
			    size_t size)
{
	static const unsigned long universes[] = { ULONG_MAX, 15, 63, 255 };
	uint8_t setup;
	int i;

	memset(s, 0, sizeof(*s));
	fuzz_input_init(&s->in, data, size);
	INIT_PRIO_TREE_ROOT(&s->node_root);
	/*
	 * The first byte chooses the universe of indices (bits 1-2) and how
	 * the vma root starts (bit 0): already raw, or plain, which
	 * __vma_prio_tree_insert() must turn raw by itself.
	 */
	setup = fuzz_u8(&s->in);
	s->universe = universes[(setup >> 1) & 3];
	if (setup & 1)
		INIT_RAW_PRIO_TREE_ROOT(&s->vma_root);
	else
		INIT_PRIO_TREE_ROOT(&s->vma_root);
	for (i = 0; i < NODE_SLOTS; i++)
		INIT_PRIO_TREE_NODE(&s->nodes[i].node);
	for (i = 0; i < VMA_SLOTS; i++) {
		INIT_VMA_SHARED(&s->vmas[i].vma);
		vma_set_range(&s->vmas[i].vma, 0, PAGE_SIZE, 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_state state;
	struct fuzz_state *s = &state;
	unsigned int ops;

	fuzz_state_init(s, data, size);
	for (ops = 0; ops < MAX_OPS && fuzz_more(&s->in); ops++) {
		switch (fuzz_u8(&s->in) % OP_COUNT) {
		case OP_NODE_INSERT:
			op_node_insert(s, false);
			break;
		case OP_NODE_INSERT_TWIN:
			op_node_insert(s, true);
			break;
		case OP_NODE_REMOVE:
			op_node_remove(s);
			break;
		case OP_NODE_REPLACE:
			op_node_replace(s);
			break;
		case OP_NODE_LOOKUP:
			op_node_lookup(s);
			break;
		case OP_NODE_QUERY:
			op_node_query(s, false);
			break;
		case OP_NODE_POINT:
			op_node_query(s, true);
			break;
		case OP_VMA_INSERT:
			op_vma_insert(s, false);
			break;
		case OP_VMA_INSERT_TWIN:
			op_vma_insert(s, true);
			break;
		case OP_VMA_FORK:
			op_vma_fork(s);
			break;
		case OP_VMA_REMOVE:
			op_vma_remove(s);
			break;
		case OP_VMA_MODIFY:
			op_vma_modify(s, false);
			break;
		case OP_VMA_MODIFY_TWIN:
			op_vma_modify(s, true);
			break;
		case OP_VMA_LOOKUP:
			op_vma_lookup(s);
			break;
		case OP_VMA_QUERY:
			op_vma_query(s, false);
			break;
		case OP_VMA_POINT:
			op_vma_query(s, true);
			break;
		case OP_NODE_CLEAR:
			op_node_clear(s);
			break;
		case OP_NODE_SWEEP:
			op_node_sweep(s);
			break;
		case OP_VMA_SWEEP:
			op_vma_sweep(s);
			break;
		case OP_NODE_BULK:
			op_node_bulk(s);
			break;
		case OP_VMA_BULK:
			op_vma_bulk(s);
			break;
		case OP_NODE_CORRUPT:
			op_node_corrupt(s);
			break;
		case OP_VMA_CORRUPT:
			op_vma_corrupt(s);
			break;
		}
	}
	/* Nothing is allocated: the trees die with the pools. */
	return 0;
}
