// SPDX-License-Identifier: GPL-2.0
/*
 * The "unseen program": what someone who only read the March 2004 prio
 * tree patch would write against an installed libpriotree, built with
 *
 *	cc unseen_vma_program.c $(pkg-config --cflags --libs libpriotree-kcompat)
 *
 * It uses the seed's vma API and nothing newer: INIT_PRIO_TREE_ROOT,
 * struct vm_area_struct (vm_start, vm_end, vm_pgoff), INIT_VMA_SHARED,
 * vma_shared_empty, __vma_prio_tree_insert/remove/add, __vma_modify and
 * __vma_prio_tree_first/next.  No checker, no lookup, no knowledge of how
 * the tree is laid out: its only oracle is its own table of which vma maps
 * which file pages, against which it checks every query, plus one promise
 * of the seed's design: vmas of an identical range share a tree node (the
 * vm_set list), so a query reports them in one run.
 *
 * It plays an address_space's i_mmap tree: mmap (insert), fork
 * (__vma_prio_tree_add beside the parent's vma), munmap (remove), mremap
 * and vma merges (__vma_modify), and truncate-like lookups (queries).  It
 * runs in rounds; each round draws its ranges from one shape (tiny, small,
 * anywhere, ending at ULONG_MAX, many lengths behind two starts, or a
 * handful of ranges shared by many vmas), mixes in rare ever wider offsets
 * once the tree is full so that index_bits has to grow under it, and ends
 * by unmapping everything.
 *
 * Each of the three defects of the posted patch (size bits after
 * index_bits growth, the query's climb out of the size levels, and the
 * maxindex table filled only by prio_tree_init()), put back into the
 * library, makes this program fail well within a default run (by op
 * 234000 at the latest with seeds 1, 7 and 8).
 *
 * Unlike in 2004, <linux/mm.h> no longer brings the vma layer in: it
 * includes <linux/vma_prio_tree.h> itself.
 *
 * The only thing it reads beyond the API is root.index_bits, a field of
 * the seed's struct prio_tree_root, to prove that the run did cover
 * index_bits growth.
 *
 * usage: unseen_vma_program [OPS [SEED]]    (default 2000000 ops, seed 1)
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mm.h>
#include <linux/vma_prio_tree.h>
#include <linux/prio_tree.h>
#include <linux/vma_prio_tree.h>

#define NR_VMAS		1024
#define MAX_PAGES	(1UL << 36)	/* keeps vm_end within 64 bits */
#define NR_SHARED	4		/* ranges per round in a clone round */
#define NR_NESTED	64		/* lengths per round in a nested round */
#define RUN_SLOTS	4096		/* > 2 * NR_VMAS, a power of two */

enum range_shape {
	SHAPE_TINY,		/* pgoff < 16, a few pages: identical ranges */
	SHAPE_SMALL,		/* pgoff < 1024 */
	SHAPE_ANYWHERE,		/* pgoff and size of random bit width */
	SHAPE_TOP,		/* the last page is at or near ULONG_MAX */
	SHAPE_NESTED,		/* two starts, NR_NESTED lengths */
	SHAPE_CLONES,		/* NR_SHARED ranges for the whole round */
	NR_SHAPES,
};

static const char *const shape_names[NR_SHAPES] = {
	"tiny", "small", "anywhere", "top", "nested", "clones",
};

/* the i_mmap tree and its vmas */
static struct prio_tree_root i_mmap;
static struct vm_area_struct vmas[NR_VMAS];

/* the oracle: which vmas are mapped, as a dense set with positions */
static unsigned int mapped[NR_VMAS], nr_mapped;
static unsigned int unmapped[NR_VMAS], nr_unmapped;
static unsigned int set_pos[NR_VMAS];
static unsigned char is_mapped[NR_VMAS];
static unsigned long reported_in[NR_VMAS];	/* query that last saw it */

static unsigned long long rng_state;
static unsigned long seed, op_nr;
static enum range_shape shape;
static unsigned long shared_pgoff[NR_SHARED], shared_pages[NR_SHARED];
static unsigned long nested_pages[NR_NESTED];
static unsigned int nested_bits;	/* lengths are below 2^nested_bits */

/*
 * The ranges whose vmas one query has reported so far.  The seed keeps
 * one tree node per distinct range, with the other vmas of that range on
 * its vm_set list, and __vma_prio_tree_next() walks that list before it
 * moves on in the tree: so the vmas of one range come out in one run, and
 * a range that shows up in two runs has two tree nodes.
 */
static struct {
	unsigned long first, last;
	unsigned long query;		/* the query that filled the slot */
} runs[RUN_SLOTS];

static struct {
	unsigned long mmaps, forks, munmaps, modifies, queries, hits;
	unsigned long rounds, full_growths;
	unsigned long longest_run;	/* most vmas of one range in a row */
	unsigned int max_index_bits;
} stats;

#define EXPECT(cond, fmt, ...)						\
do {									\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected " fmt			\
			" (seed %lu, op %lu, %s round)\n", __FILE__,	\
			__LINE__, ##__VA_ARGS__, seed, op_nr,		\
			shape_names[shape]);				\
		exit(1);						\
	}								\
} while (0)

/* xorshift64*: fixed seed, same run on every machine */
static unsigned long rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned long)(rng_state * 0x2545f4914f6cdd1dULL);
}

static unsigned long rnd_below(unsigned long n)
{
	return rnd() % n;
}

/* A value of a random bit width, 0 .. 64 bits: every level gets used. */
static unsigned long rnd_width(void)
{
	unsigned int bits = rnd_below(65);

	return bits ? rnd() >> (64 - bits) : 0;
}

static unsigned long first_page(const struct vm_area_struct *vma)
{
	return vma->vm_pgoff;
}

static unsigned long last_page(const struct vm_area_struct *vma)
{
	return vma->vm_pgoff + ((vma->vm_end - vma->vm_start) >> PAGE_SHIFT) - 1;
}

static void set_move(unsigned int *from, unsigned int *nr_from,
		     unsigned int *to, unsigned int *nr_to, unsigned int idx)
{
	unsigned int pos = set_pos[idx];

	from[pos] = from[--*nr_from];
	set_pos[from[pos]] = pos;
	set_pos[idx] = *nr_to;
	to[(*nr_to)++] = idx;
}

static void mark_mapped(unsigned int idx)
{
	set_move(unmapped, &nr_unmapped, mapped, &nr_mapped, idx);
	is_mapped[idx] = 1;
}

static void mark_unmapped(unsigned int idx)
{
	set_move(mapped, &nr_mapped, unmapped, &nr_unmapped, idx);
	is_mapped[idx] = 0;
}

/*
 * Pages [pgoff, pgoff + pages - 1] of the current round's shape; the last
 * page never passes ULONG_MAX.
 */
static void random_range(unsigned long *pgoff, unsigned long *pages)
{
	unsigned long room;
	unsigned int k;

	switch (shape) {
	case SHAPE_TINY:
		*pgoff = rnd_below(16);
		*pages = 1 + rnd_below(4);
		return;
	case SHAPE_SMALL:
		*pgoff = rnd_below(1024);
		*pages = 1 + rnd_below(64);
		return;
	case SHAPE_NESTED:
		*pgoff = rnd_below(2);
		*pages = nested_pages[rnd_below(NR_NESTED)];
		return;
	case SHAPE_CLONES:
		k = rnd_below(NR_SHARED);
		*pgoff = shared_pgoff[k];
		*pages = shared_pages[k];
		return;
	case SHAPE_TOP:
		*pages = 1 + (rnd_width() & (MAX_PAGES - 1));
		/* end exactly at ULONG_MAX half of the time */
		*pgoff = ULONG_MAX - (*pages - 1) -
			 (rnd_below(2) ? 0 : rnd_below(1024));
		return;
	default:
		*pgoff = rnd_width();
		room = ULONG_MAX - *pgoff;	/* pages - 1 may be this much */
		*pages = 1 + (rnd_width() & (MAX_PAGES - 1));
		if (*pages - 1 > room)
			*pages = room + 1;
		return;
	}
}

/*
 * Once the tree is three quarters full, now and then map one page at an
 * offset of inject_bits bits, a few bits wider each time: every such
 * mapping that is wider than all before makes index_bits grow (the seed's
 * prio_tree_expand()) under a full tree.
 */
static unsigned int inject_bits;

static int random_growth_range(unsigned long *pgoff, unsigned long *pages)
{
	if (nr_mapped < NR_VMAS * 3 / 4 || inject_bits > 64 ||
	    rnd_below(32))
		return 0;
	*pgoff = 1UL << (inject_bits - 1);
	*pgoff |= (rnd() >> 1) >> (64 - inject_bits);
	*pages = 1;
	inject_bits += 1 + rnd_below(4);
	return 1;
}

static void start_round(void)
{
	int k;

	/*
	 * Nested rounds: up to NR_NESTED distinct lengths behind each of two
	 * starts, more than the nested_bits radix levels can hold, so they
	 * fill the size levels below their start; then index_bits grows past
	 * them (the injections begin at nested_bits + 2 bits), and more vmas
	 * of the same ranges arrive.  The posted patch lost track of those
	 * size levels when index_bits grew.
	 */
	nested_bits = 3 + rnd_below(8);
	for (k = 0; k < NR_NESTED; k++)
		nested_pages[k] = 1 + rnd_below(1UL << nested_bits);
	inject_bits = 11 + rnd_below(8);

	shape = rnd_below(NR_SHAPES);
	if (shape == SHAPE_CLONES) {
		/* the shared ranges themselves come from another shape */
		shape = rnd_below(SHAPE_CLONES);
		for (k = 0; k < NR_SHARED; k++)
			random_range(&shared_pgoff[k], &shared_pages[k]);
		shape = SHAPE_CLONES;
	}
	if (shape == SHAPE_NESTED)
		inject_bits = nested_bits + 2;
	stats.rounds++;
}

/* A query range that is likely to hit something in this round's shape. */
static void random_query(unsigned long *begin, unsigned long *end)
{
	unsigned long pages, len;

	/* a query over everything reports all vmas: rare, it is costly */
	switch (rnd_below(32)) {
	case 0:
		*begin = 0;
		*end = ULONG_MAX;
		return;
	case 1 ... 4:
		*begin = rnd_width();
		*end = *begin;
		return;
	case 5 ... 12:
		/* near a mapped vma's first or last page */
		if (nr_mapped) {
			struct vm_area_struct *vma;

			vma = &vmas[mapped[rnd_below(nr_mapped)]];
			*begin = rnd_below(2) ? first_page(vma) :
						last_page(vma);
			*begin -= *begin >= 2 ? rnd_below(3) : 0;
			*end = *begin + rnd_below(3);
			if (*end < *begin)
				*end = ULONG_MAX;
			return;
		}
		/* fall through */
	default:
		random_range(begin, &pages);
		len = rnd_below(4) ? rnd_below(2) : pages;
		*end = *begin + len < *begin ? ULONG_MAX : *begin + len;
		return;
	}
}

static void note_run(unsigned long first, unsigned long last)
{
	unsigned long slot = (first * 0x9e3779b97f4a7c15UL ^ last) >> 52;

	for (;; slot = (slot + 1) & (RUN_SLOTS - 1)) {
		if (runs[slot].query != stats.queries)
			break;
		EXPECT(runs[slot].first != first || runs[slot].last != last,
		       "the vmas of range [%lu, %lu] in one run, got a second run (two tree nodes for one range)",
		       first, last);
	}
	runs[slot].first = first;
	runs[slot].last = last;
	runs[slot].query = stats.queries;
}

/*
 * One stabbing query through the seed's iterator, checked against the
 * oracle: every reported vma is mapped, overlaps [@begin, @end] and is
 * reported once, no overlapping vma is missed, and the vmas of one range
 * come in one run.
 */
static void check_query(unsigned long begin, unsigned long end)
{
	struct prio_tree_iter iter;
	struct vm_area_struct *vma, *prev = NULL;
	unsigned long got = 0, expected = 0, run = 0;
	unsigned int i, idx;

	stats.queries++;
	for (vma = __vma_prio_tree_first(&i_mmap, &iter, begin, end); vma;
	     vma = __vma_prio_tree_next(vma, &i_mmap, &iter, begin, end)) {
		EXPECT(vma >= vmas && vma < vmas + NR_VMAS,
		       "a vma of ours from the iterator, got %p",
		       (void *)vma);
		idx = vma - vmas;
		EXPECT(is_mapped[idx], "reported vma %u to be mapped", idx);
		EXPECT(first_page(vma) <= end && begin <= last_page(vma),
		       "vma %u [%lu, %lu] to map a page of [%lu, %lu]", idx,
		       first_page(vma), last_page(vma), begin, end);
		EXPECT(reported_in[idx] != stats.queries,
		       "vma %u to be reported once for [%lu, %lu]", idx,
		       begin, end);
		reported_in[idx] = stats.queries;
		got++;
		EXPECT(got <= nr_mapped, "at most %u vmas reported",
		       nr_mapped);

		if (prev && first_page(prev) == first_page(vma) &&
		    last_page(prev) == last_page(vma)) {
			run++;
		} else {
			run = 1;
			note_run(first_page(vma), last_page(vma));
		}
		if (run > stats.longest_run)
			stats.longest_run = run;
		prev = vma;
	}

	for (i = 0; i < nr_mapped; i++) {
		vma = &vmas[mapped[i]];
		if (first_page(vma) > end || begin > last_page(vma))
			continue;
		expected++;
		EXPECT(reported_in[mapped[i]] == stats.queries,
		       "vma %u [%lu, %lu] to be reported for [%lu, %lu] (%lu reported)",
		       mapped[i], first_page(vma), last_page(vma), begin, end,
		       got);
	}
	EXPECT(got == expected, "%lu vmas for [%lu, %lu], got %lu", expected,
	       begin, end, got);
	stats.hits += got;
}

/* Notice index_bits growth; "full" means at least 3/4 of the vmas. */
static void note_index_bits(unsigned int bits_before, unsigned int populated)
{
	if (i_mmap.index_bits > bits_before && populated >= NR_VMAS * 3 / 4)
		stats.full_growths++;
	if (i_mmap.index_bits > stats.max_index_bits)
		stats.max_index_bits = i_mmap.index_bits;
}

static void set_range(struct vm_area_struct *vma, unsigned long pgoff,
		      unsigned long pages)
{
	/* any page-aligned address: the tree keys on file pages only */
	vma->vm_start = rnd_below(1UL << 30) << PAGE_SHIFT;
	vma->vm_end = vma->vm_start + (pages << PAGE_SHIFT);
	vma->vm_pgoff = pgoff;
}

static void do_mmap(void)
{
	unsigned int idx = unmapped[rnd_below(nr_unmapped)];
	unsigned int bits = i_mmap.index_bits, populated = nr_mapped;
	struct vm_area_struct *vma = &vmas[idx];
	unsigned long pgoff, pages;

	if (!random_growth_range(&pgoff, &pages))
		random_range(&pgoff, &pages);
	set_range(vma, pgoff, pages);
	INIT_VMA_SHARED(vma);
	EXPECT(vma_shared_empty(vma), "a fresh vma %u to be in no tree", idx);
	__vma_prio_tree_insert(&i_mmap, vma);
	EXPECT(!vma_shared_empty(vma), "vma %u to be in the tree", idx);
	mark_mapped(idx);
	note_index_bits(bits, populated);
	stats.mmaps++;
}

/* dup_mmap(): the child's vma joins the parent's, same file pages. */
static void do_fork(void)
{
	unsigned int parent_idx = mapped[rnd_below(nr_mapped)];
	unsigned int idx = unmapped[rnd_below(nr_unmapped)];
	struct vm_area_struct *parent = &vmas[parent_idx];
	struct vm_area_struct *child = &vmas[idx];

	child->vm_start = parent->vm_start;
	child->vm_end = parent->vm_end;
	child->vm_pgoff = parent->vm_pgoff;
	INIT_VMA_SHARED(child);
	__vma_prio_tree_add(child, parent);
	EXPECT(!vma_shared_empty(child), "forked vma %u to be in the tree",
	       idx);
	mark_mapped(idx);
	stats.forks++;
}

static void do_munmap(unsigned int idx)
{
	__vma_prio_tree_remove(&i_mmap, &vmas[idx]);
	EXPECT(vma_shared_empty(&vmas[idx]),
	       "unmapped vma %u to be in no tree", idx);
	mark_unmapped(idx);
	stats.munmaps++;
}

/*
 * mremap or a merge: a new range for a mapped vma through __vma_modify();
 * now and then for an unmapped one too, with no root, as the seed allows.
 */
static void do_modify(void)
{
	unsigned int bits = i_mmap.index_bits, populated = nr_mapped;
	unsigned long pgoff, pages, start;
	struct vm_area_struct *vma;
	unsigned int idx;
	int in_tree = nr_unmapped == 0 || rnd_below(8);

	if (in_tree)
		idx = mapped[rnd_below(nr_mapped)];
	else
		idx = unmapped[rnd_below(nr_unmapped)];
	vma = &vmas[idx];
	if (!random_growth_range(&pgoff, &pages))
		random_range(&pgoff, &pages);
	/* keep vm_start half of the time, as a shrink or grow in place */
	start = rnd_below(2) ? vma->vm_start :
		rnd_below(1UL << 30) << PAGE_SHIFT;
	__vma_modify(in_tree ? &i_mmap : NULL, vma, start,
		     start + (pages << PAGE_SHIFT), pgoff);
	EXPECT(vma->vm_pgoff == pgoff && vma->vm_start == start &&
	       last_page(vma) == pgoff + pages - 1,
	       "__vma_modify() to set vma %u's range", idx);
	EXPECT(vma_shared_empty(vma) == !in_tree,
	       "vma %u to be %s a tree after __vma_modify()", idx,
	       in_tree ? "in" : "in no");
	note_index_bits(bits, populated);
	stats.modifies++;
}

/* End of a round: unmap everything, checking as the tree empties. */
static void drain(unsigned long *ops_left)
{
	unsigned long begin, end;

	while (nr_mapped) {
		do_munmap(mapped[rnd_below(nr_mapped)]);
		op_nr++;
		if (*ops_left)
			--*ops_left;
		if (rnd_below(4) == 0) {
			random_query(&begin, &end);
			check_query(begin, end);
		}
	}
	EXPECT(prio_tree_empty(&i_mmap), "an empty tree after the last munmap");
	check_query(0, ULONG_MAX);
}

static unsigned long parse_number(const char *arg, const char *what)
{
	unsigned long value;
	char *end;

	value = strtoul(arg, &end, 0);
	EXPECT(*arg && !*end, "%s to be a number, got '%s'", what, arg);
	return value;
}

int main(int argc, char **argv)
{
	unsigned long ops = 2000000, ops_left, round_left = 0;
	unsigned long begin, end;
	unsigned int i;

	seed = 1;
	EXPECT(argc <= 3, "usage: %s [OPS [SEED]]", argv[0]);
	if (argc > 1)
		ops = parse_number(argv[1], "OPS");
	if (argc > 2)
		seed = parse_number(argv[2], "SEED");
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;

	INIT_PRIO_TREE_ROOT(&i_mmap);
	for (i = 0; i < NR_VMAS; i++) {
		INIT_VMA_SHARED(&vmas[i]);
		set_pos[i] = i;
		unmapped[i] = i;
	}
	nr_unmapped = NR_VMAS;

	for (ops_left = ops; ops_left; ops_left--, op_nr++) {
		if (!round_left) {
			drain(&ops_left);
			if (!ops_left)
				break;
			start_round();
			round_left = 2000 + rnd_below(30000);
		}
		round_left--;

		/*
		 * mmap and fork outweigh munmap, so the tree fills up and
		 * stays near NR_VMAS vmas for most of a round.
		 */
		switch (rnd_below(20)) {
		case 0 ... 5:
			if (nr_unmapped)
				do_mmap();
			break;
		case 6 ... 8:
			if (nr_mapped && nr_unmapped)
				do_fork();
			break;
		case 9 ... 13:
			if (nr_mapped)
				do_munmap(mapped[rnd_below(nr_mapped)]);
			break;
		case 14 ... 15:
			if (nr_mapped)
				do_modify();
			break;
		default:
			random_query(&begin, &end);
			check_query(begin, end);
			break;
		}
	}
	drain(&ops_left);

	printf("unseen_vma_program: %lu ops, seed %lu: %lu rounds, %lu mmap, %lu fork, %lu munmap, %lu modify, %lu queries, %lu hits, longest run of one range %lu, max index_bits %u, %lu growths with the tree full\n",
	       op_nr, seed, stats.rounds, stats.mmaps, stats.forks,
	       stats.munmaps, stats.modifies, stats.queries, stats.hits,
	       stats.longest_run, stats.max_index_bits, stats.full_growths);

	/*
	 * A full-length run must have covered what it claims to test; a
	 * short one (under valgrind) only checks answers.
	 */
	if (ops >= 1000000) {
		EXPECT(stats.max_index_bits == 8 * sizeof(unsigned long),
		       "index_bits to reach %zu, got %u",
		       8 * sizeof(unsigned long), stats.max_index_bits);
		EXPECT(stats.full_growths >= 100,
		       "at least 100 index_bits growths with the tree full, got %lu",
		       stats.full_growths);
		EXPECT(stats.longest_run >= 64,
		       "a query to report 64 vmas of one range, got %lu",
		       stats.longest_run);
	}
	return 0;
}
