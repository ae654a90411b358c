// SPDX-License-Identifier: GPL-2.0
/*
 * An outside program using only <priotree.h> from an installed libpriotree,
 * built with
 *
 *	cc plain_consumer.c $(pkg-config --cflags --libs libpriotree)
 *
 * It checks the plain C API against its own brute-force list of entries:
 * random inserts and removes (identical intervals, [0,0] and ULONG_MAX
 * endpoints included), every query's hits against the list (entries of
 * one interval together, as documented; read one at a time or in
 * batches), the error returns, and
 * priotree_check() after every mutation.  It works in phases that start
 * from an empty index, fill it with many lengths behind two starts, then
 * add wide intervals that make the tree taller under them.
 *
 * usage: plain_consumer [OPS [SEED]]
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <priotree.h>

#define NR_ENTRIES	512
#define PHASE_OPS	4000
#define RUN_SLOTS	1024	/* > 2 * NR_ENTRIES, a power of two */

struct entry {
	unsigned long start;
	unsigned long last;
	int in_index;
	unsigned long reported;		/* query number that last saw it */
};

static struct entry entries[NR_ENTRIES];
static unsigned long query_nr;
static unsigned long long rng_state;
static unsigned long op_nr;
static unsigned long seed;
static int nested_only;		/* first half of a phase */

/* intervals that one query has reported so far, see note_run() */
static struct {
	unsigned long start, last;
	unsigned long query;
} runs[RUN_SLOTS];

#define EXPECT(cond, fmt, ...)						\
do {									\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected " fmt			\
			" (seed %lu, op %lu)\n", __FILE__, __LINE__,	\
			##__VA_ARGS__, seed, op_nr);			\
		exit(1);						\
	}								\
} while (0)

/* xorshift64*: a fixed seed gives the same run everywhere. */
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

/*
 * An interval from one of four shapes: nested (two starts, 64 lengths:
 * more distinct intervals behind one start than a short tree has levels),
 * tiny (many identical intervals), anywhere in the 64-bit range, or
 * touching ULONG_MAX.  The first half of a phase is nested only.
 */
static void random_interval(unsigned long *start, unsigned long *last)
{
	unsigned long len;

	switch (nested_only ? 3 : rnd_below(4)) {
	case 3:
		*start = rnd_below(2);
		*last = *start + rnd_below(64);
		break;
	case 0:
		*start = rnd_below(8);
		*last = *start + rnd_below(4);
		break;
	case 1:
		*start = rnd() >> rnd_below(64);
		len = rnd() >> rnd_below(64);
		*last = len > ULONG_MAX - *start ? ULONG_MAX : *start + len;
		break;
	default:
		*last = ULONG_MAX;
		*start = ULONG_MAX - (rnd() >> rnd_below(64));
		break;
	}
}

static int overlaps(const struct entry *e, unsigned long first,
		    unsigned long last)
{
	return e->start <= last && first <= e->last;
}

static void check_index(struct priotree *pt, size_t expected_count)
{
	char msg[256];

	EXPECT(priotree_check(pt, msg, sizeof(msg)) == 0,
	       "priotree_check() == 0, got: %s", msg);
	EXPECT(priotree_count(pt) == expected_count,
	       "priotree_count() == %zu, got %zu", expected_count,
	       priotree_count(pt));
}

/* A new run of hits with one interval: no earlier run of this query had it. */
static void note_run(unsigned long start, unsigned long last)
{
	unsigned long slot = (start * 0x9e3779b97f4a7c15UL ^ last) >> 54;

	for (;; slot = (slot + 1) & (RUN_SLOTS - 1)) {
		if (runs[slot].query != query_nr)
			break;
		EXPECT(runs[slot].start != start || runs[slot].last != last,
		       "the entries of [%lu, %lu] together, got two runs",
		       start, last);
	}
	runs[slot].start = start;
	runs[slot].last = last;
	runs[slot].query = query_nr;
}

/*
 * Every hit once, entries of one interval together, and nothing but the
 * entries the list says overlap.
 */
static void check_query(struct priotree *pt, unsigned long first,
			unsigned long last)
{
	/* odd queries read their hits in batches of up to 5 */
	unsigned int batch = query_nr % 2 ? 5 : 0;
	struct priotree_hit buf[5], hit;
	size_t expected = 0, got = 0;
	struct entry *e, *prev = NULL;
	struct priotree_iter it;
	int i, nr = 0, at = 0;

	query_nr++;
	EXPECT(priotree_query(pt, first, last, &it) == 0,
	       "priotree_query(%lu, %lu) == 0", first, last);
	for (;;) {
		if (!batch) {
			if (priotree_next(&it, &hit) <= 0)
				break;
		} else {
			if (at == nr) {
				nr = priotree_next_batch(&it, buf, batch);
				EXPECT(nr >= 0 && nr <= (int)batch,
				       "0 to %u hits from priotree_next_batch(), got %d",
				       batch, nr);
				at = 0;
				if (!nr)
					break;
			}
			hit = buf[at++];
		}
		e = hit.item;
		EXPECT(e >= entries && e < entries + NR_ENTRIES,
		       "a hit's item to be one of ours, got %p", hit.item);
		EXPECT(e->in_index, "hit entry %td to be in the index",
		       e - entries);
		EXPECT(hit.start == e->start && hit.last == e->last,
		       "hit [%lu, %lu] to be entry %td's [%lu, %lu]",
		       hit.start, hit.last, e - entries, e->start, e->last);
		EXPECT(overlaps(e, first, last),
		       "hit [%lu, %lu] to overlap the query [%lu, %lu]",
		       e->start, e->last, first, last);
		EXPECT(e->reported != query_nr,
		       "entry %td to be reported once per query", e - entries);
		e->reported = query_nr;
		got++;
		if (!prev || prev->start != e->start || prev->last != e->last)
			note_run(e->start, e->last);
		prev = e;
	}
	for (i = 0; i < NR_ENTRIES; i++)
		if (entries[i].in_index && overlaps(&entries[i], first, last))
			expected++;
	EXPECT(got == expected, "%zu hits for [%lu, %lu], got %zu", expected,
	       first, last, got);
}

static int count_hit(const struct priotree_hit *hit, void *arg)
{
	(void)hit;
	++*(size_t *)arg;
	return 0;
}

static int stop_at_first(const struct priotree_hit *hit, void *arg)
{
	(void)hit;
	(void)arg;
	return 7;
}

static void remove_entry(struct priotree *pt, struct entry *e,
			 size_t count_after)
{
	EXPECT(priotree_remove(pt, e->start, e->last, e) == 0,
	       "remove of entry %td [%lu, %lu] to succeed", e - entries,
	       e->start, e->last);
	e->in_index = 0;
	check_index(pt, count_after);
}

/* The documented error returns, on a non-empty index. */
static void check_errors(struct priotree *pt)
{
	struct priotree_iter it;
	struct priotree_hit hit;
	size_t n = priotree_count(pt);

	EXPECT(priotree_insert(pt, 5, 4, NULL) == -EINVAL,
	       "insert of start > last to fail with -EINVAL");
	EXPECT(priotree_remove(pt, 5, 4, NULL) == -EINVAL,
	       "remove of start > last to fail with -EINVAL");
	EXPECT(priotree_remove(pt, 1, 2, &it) == -ENOENT,
	       "remove of an item never inserted to fail with -ENOENT");
	EXPECT(priotree_query(pt, 9, 3, &it) == -EINVAL,
	       "query of first > last to fail with -EINVAL");
	EXPECT(priotree_next(&it, &hit) == 0,
	       "no hits after a failed query");
	EXPECT(priotree_foreach(pt, 9, 3, count_hit, &n) == -EINVAL,
	       "foreach of first > last to fail with -EINVAL");
	EXPECT(priotree_count(pt) == n, "errors to leave the count alone");
}

int main(int argc, char **argv)
{
	unsigned long ops = 50000;
	size_t in_index = 0, counted;
	struct priotree *pt;
	unsigned long first, last;
	struct entry *e;
	char *end;
	int i;

	seed = 1;
	EXPECT(argc <= 3, "usage: %s [OPS [SEED]]", argv[0]);
	if (argc > 1) {
		ops = strtoul(argv[1], &end, 0);
		EXPECT(*argv[1] && !*end, "OPS to be a number, got '%s'",
		       argv[1]);
	}
	if (argc > 2) {
		seed = strtoul(argv[2], &end, 0);
		EXPECT(*argv[2] && !*end, "SEED to be a number, got '%s'",
		       argv[2]);
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;

	pt = priotree_new();
	EXPECT(pt, "priotree_new() to return an index");
	check_index(pt, 0);
	check_query(pt, 0, ULONG_MAX);

	for (op_nr = 0; op_nr < ops; op_nr++) {
		if (op_nr % PHASE_OPS == 0) {
			for (i = 0; i < NR_ENTRIES; i++)
				if (entries[i].in_index)
					remove_entry(pt, &entries[i],
						     --in_index);
			check_query(pt, 0, ULONG_MAX);
		}
		nested_only = op_nr % PHASE_OPS < PHASE_OPS / 2;
		e = &entries[rnd_below(NR_ENTRIES)];
		switch (rnd_below(4)) {
		case 0:
		case 1:
			if (e->in_index) {
				remove_entry(pt, e, --in_index);
				break;
			}
			random_interval(&e->start, &e->last);
			EXPECT(priotree_insert(pt, e->start, e->last, e) == 0,
			       "insert of [%lu, %lu] to succeed", e->start,
			       e->last);
			e->in_index = 1;
			check_index(pt, ++in_index);
			break;
		case 2:
			random_interval(&first, &last);
			check_query(pt, first, last);
			break;
		default:
			first = rnd() >> rnd_below(64);
			check_query(pt, first, first);
			break;
		}
	}

	check_errors(pt);
	check_query(pt, 0, ULONG_MAX);
	counted = 0;
	EXPECT(priotree_foreach(pt, 0, ULONG_MAX, count_hit, &counted) == 0,
	       "a complete foreach to return 0");
	EXPECT(counted == in_index, "foreach to visit %zu entries, got %zu",
	       in_index, counted);
	if (in_index)
		EXPECT(priotree_foreach(pt, 0, ULONG_MAX, stop_at_first,
					NULL) == 7,
		       "foreach to return the callback's non-zero value");

	for (i = 0; i < NR_ENTRIES; i++)
		if (entries[i].in_index)
			remove_entry(pt, &entries[i], --in_index);
	check_query(pt, 0, ULONG_MAX);
	priotree_free(pt);
	priotree_free(NULL);

	printf("plain_consumer: %lu ops, %lu queries, seed %lu: ok\n", ops,
	       query_nr, seed);
	return 0;
}
