// SPDX-License-Identifier: GPL-2.0
/*
 * compat's kmem_cache (compat/linux/slab.h), which <priotree.h> takes its
 * ranges and entries from: the layout it promises, its invariants after
 * every call of a random run checked against a model of the live objects,
 * the pool of slabs given back, and the rules it shares with the kernel's
 * (no constructor, destroy only when empty).
 *
 * Run as "test_compat_slab --use-after-free", it reads an object after
 * freeing it and exits 0: under memcheck or AddressSanitizer that read
 * must be reported, which tests/unit/meson.build checks.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/slab.h>

#define RANDOM_OPS	200000
#define RANDOM_LIVE	1500	/* nearly four slabs of 72-byte objects */

/* A free object's link, which memcheck and ASan guard as the object. */
static void *free_link(void *obj)
{
	void *next;

	kmem_cache_unpoison(obj, sizeof(void *));
	VALGRIND_MAKE_MEM_DEFINED(obj, sizeof(void *));
	next = *(void **)obj;
	kmem_cache_poison(obj, sizeof(void *));
	VALGRIND_MAKE_MEM_NOACCESS(obj, sizeof(void *));
	return next;
}

/*
 * Walk the cache and check what compat/linux/slab.h states: partial slabs
 * have room and full ones none, the counts add up, at most one slab is
 * empty, and every object handed out lies on the stride inside its slab.
 * Return: the objects in use.
 */
static size_t check_cache(const struct kmem_cache *s)
{
	const struct kmem_cache_slab *slab;
	unsigned long slabs = 0, empty = 0;
	size_t inuse = 0, freed;
	void *obj;

	list_for_each_entry(slab, &s->partial, list) {
		assert_true(slab->inuse < s->objects);
		assert_true(slab->fresh <= s->objects);
		/* the freed objects and the never used ones make the room */
		freed = 0;
		for (obj = slab->freelist; obj; obj = free_link(obj)) {
			uintptr_t off = (uintptr_t)obj - (uintptr_t)slab;

			assert_ptr_equal(kmem_cache_slab_of(obj), slab);
			assert_true(off >= s->offset);
			assert_int_equal((off - s->offset) % s->size, 0);
			assert_true((off - s->offset) / s->size < slab->fresh);
			freed++;
			assert_true(freed <= s->objects);
		}
		assert_int_equal(slab->inuse + freed, slab->fresh);
		empty += !slab->inuse;
		inuse += slab->inuse;
		slabs++;
	}
	list_for_each_entry(slab, &s->full, list) {
		assert_int_equal(slab->inuse, s->objects);
		assert_null(slab->freelist);
		inuse += slab->inuse;
		slabs++;
	}
	assert_int_equal(slabs, s->nr_slabs);
	assert_true(empty <= 1);
	return inuse;
}

static void test_layout(void **state)
{
	struct kmem_cache *s = kmem_cache_create("t", 120, 0,
						 SLAB_HWCACHE_ALIGN, NULL);
	void *a, *b;

	(void)state;
	assert_non_null(s);
	/* a range of <priotree.h>: two cache lines a stride */
	assert_int_equal(s->size, 128);
	assert_int_equal(s->offset % L1_CACHE_BYTES, 0);
	assert_int_equal(s->objects,
			 (KMEM_CACHE_SLAB_SIZE - s->offset) / s->size);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	b = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal((uintptr_t)a % L1_CACHE_BYTES, 0);
	assert_int_equal((char *)b - (char *)a, 128);
	/* the last object freed is the next one handed out */
	kmem_cache_free(s, a);
	assert_ptr_equal(kmem_cache_alloc(s, GFP_KERNEL), a);
	kmem_cache_free(s, b);
	kmem_cache_free(s, a);
	kmem_cache_free(s, NULL);
	assert_int_equal(check_cache(s), 0);
	kmem_cache_destroy(s);
	kmem_cache_destroy(NULL);

	/* without the flag: malloc()'s 16-byte grid, at least a pointer */
	s = kmem_cache_create("t", 48, 0, 0, NULL);
	assert_int_equal(s->size, 48);
	kmem_cache_destroy(s);
	s = kmem_cache_create("t", 1, 0, 0, NULL);
	assert_int_equal(s->size, 16);
	kmem_cache_destroy(s);
	s = kmem_cache_create("t", 40, 32, 0, NULL);
	assert_int_equal(s->size, 64);
	kmem_cache_destroy(s);
}

static void ctor(void *obj)
{
	(void)obj;
}

static void test_refused(void **state)
{
	(void)state;
	assert_null(kmem_cache_create("t", 64, 0, 0, ctor));
	assert_null(kmem_cache_create("t", 64, 0, 0x1u, NULL));
	assert_null(kmem_cache_create("t", 64, 24, 0, NULL));
	/* not even two objects a slab */
	assert_null(kmem_cache_create("t", KMEM_CACHE_SLAB_SIZE / 2 + 1, 0, 0,
				      NULL));
}

static void test_zero(void **state)
{
	struct kmem_cache *s = kmem_cache_create("t", 100, 0, 0, NULL);
	unsigned char *p, zero[100] = { 0 };

	(void)state;
	p = kmem_cache_alloc(s, GFP_KERNEL);
	memset(p, 0xa5, 100);
	kmem_cache_free(s, p);
	p = kmem_cache_alloc(s, GFP_KERNEL | __GFP_ZERO);
	assert_memory_equal(p, zero, 100);
	kmem_cache_free(s, p);
	kmem_cache_destroy(s);
}

/*
 * Slabs come and go with the objects: filling one slab and one object
 * more takes two, freeing the second slab's object gives nothing back
 * (the cache keeps one empty slab), nor does making room in the first,
 * and freeing everything leaves one.
 */
static void test_slabs_follow_use(void **state)
{
	struct kmem_cache *s = kmem_cache_create("t", 120, 0,
						 SLAB_HWCACHE_ALIGN, NULL);
	void **objs;
	unsigned int i, n;

	(void)state;
	n = s->objects;
	objs = calloc(2 * n, sizeof(*objs));
	assert_non_null(objs);
	for (i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(s->nr_slabs, 1);
	assert_false(list_empty(&s->full));
	objs[n] = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(s->nr_slabs, 2);
	assert_ptr_not_equal(kmem_cache_slab_of(objs[n]),
			     kmem_cache_slab_of(objs[0]));
	kmem_cache_free(s, objs[n]);
	assert_int_equal(s->nr_slabs, 2);
	assert_int_equal(check_cache(s), n);
	/* the full slab gets room; the empty one stays, the only empty */
	kmem_cache_free(s, objs[0]);
	assert_int_equal(s->nr_slabs, 2);
	assert_int_equal(check_cache(s), n - 1);
	/* emptying the first slab too gives one of the two back */
	for (i = 1; i < n; i++)
		kmem_cache_free(s, objs[i]);
	assert_int_equal(s->nr_slabs, 1);
	assert_int_equal(check_cache(s), 0);

	/* a second fill reuses the kept slab before taking a new one */
	for (i = 0; i < 2 * n; i++)
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(s->nr_slabs, 2);
	for (i = 0; i < 2 * n; i++)
		kmem_cache_free(s, objs[i]);
	assert_int_equal(s->nr_slabs, 1);
	kmem_cache_destroy(s);
	free(objs);
}

/*
 * A slab given back waits in the pool, and the next cache to grow takes
 * it again, with no trace of its past; beyond KMEM_CACHE_POOL_SLABS
 * slabs the pool sends them back to malloc().
 */
static void test_pool(void **state)
{
	struct kmem_cache *s = kmem_cache_create("t", 200, 0, 0, NULL);
	struct kmem_cache_slab *slab;
	void **objs, *fresh[KMEM_CACHE_POOL_SLABS + 2];
	unsigned long pooled;
	unsigned int i, n = 3 * s->objects;

	(void)state;
	objs = calloc(n, sizeof(*objs));
	assert_non_null(objs);
	for (i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(s->nr_slabs, 3);
	/* the slabs may have come from the pool: count from here */
	pooled = kmem_cache_pool.nr;
	for (i = 0; i < n; i++)
		kmem_cache_free(s, objs[i]);
	/*
	 * The first slab, emptied first, is kept as the one empty slab;
	 * the other two are pooled as they empty, and the destroy pools it.
	 */
	assert_int_equal(s->nr_slabs, 1);
	assert_int_equal(kmem_cache_pool.nr, pooled + 2);
	slab = kmem_cache_slab_of(objs[0]);
	kmem_cache_destroy(s);
	assert_int_equal(kmem_cache_pool.nr, pooled + 3);

	/* the last slab pooled is the first taken, reset */
	s = kmem_cache_create("t", 100, 0, 0, NULL);
	objs[0] = kmem_cache_alloc(s, GFP_KERNEL);
	assert_ptr_equal(kmem_cache_slab_of(objs[0]), slab);
	assert_int_equal(kmem_cache_pool.nr, pooled + 2);
	assert_int_equal(slab->inuse, 1);
	assert_int_equal(slab->fresh, 1);
	assert_null(slab->freelist);
	assert_int_equal(check_cache(s), 1);
	kmem_cache_free(s, objs[0]);
	kmem_cache_destroy(s);
	free(objs);

	/* the cap */
	for (i = 0; i < KMEM_CACHE_POOL_SLABS + 2; i++)
		fresh[i] = kmem_cache_pool_get();
	assert_int_equal(kmem_cache_pool.nr, 0);
	for (i = 0; i < KMEM_CACHE_POOL_SLABS + 2; i++)
		kmem_cache_pool_put(fresh[i]);
	assert_int_equal(kmem_cache_pool.nr, KMEM_CACHE_POOL_SLABS);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * Random allocs and frees against a model of the live objects: every
 * object is distinct, keeps what was written into it while it lives, and
 * the cache's invariants hold after every call.  The live count drifts
 * up and down across several slabs, so slabs fill, empty and go.
 */
static void test_random(void **state)
{
	struct kmem_cache *s = kmem_cache_create("t", 72, 0, 0, NULL);
	unsigned long *live[RANDOM_LIVE];
	size_t nr = 0, i, j, peak = 0;
	unsigned long stamp = 0;

	(void)state;
	for (i = 0; i < RANDOM_OPS; i++) {
		/* the wanted size swings between 0 and RANDOM_LIVE */
		size_t want = (i / 20000) % 2 ? RANDOM_LIVE / 8 : RANDOM_LIVE;
		bool grow = !nr || (nr < RANDOM_LIVE &&
				    rng() % 100 < (nr < want ? 60 : 40));

		if (grow) {
			live[nr] = kmem_cache_alloc(s, GFP_KERNEL);
			assert_non_null(live[nr]);
			for (j = 0; j < 9; j++)
				live[nr][j] = ++stamp;
			nr++;
		} else {
			j = rng() % nr;
			/* what it holds was not overwritten by another */
			assert_int_equal(live[j][8] - live[j][0], 8);
			kmem_cache_free(s, live[j]);
			live[j] = live[--nr];
		}
		if (nr > peak)
			peak = nr;
		if (i % 97 == 0 || nr <= 1)
			assert_int_equal(check_cache(s), nr);
	}
	assert_true(peak > s->objects * 3);
	while (nr)
		kmem_cache_free(s, live[--nr]);
	assert_int_equal(check_cache(s), 0);
	assert_true(s->nr_slabs <= 1);
	kmem_cache_destroy(s);
}

/* A use after free, for the poisoning check of meson.build. */
static int use_after_free(void)
{
	struct kmem_cache *s = kmem_cache_create("t", 64, 0, 0, NULL);
	/* volatile: the read after the free must happen */
	volatile unsigned long *p, *q;
	unsigned long v;

	p = kmem_cache_alloc(s, GFP_KERNEL);
	q = kmem_cache_alloc(s, GFP_KERNEL);
	p[3] = 42;
	kmem_cache_free(s, (void *)p);
	v = p[3];	/* here */
	kmem_cache_free(s, (void *)q);
	kmem_cache_destroy(s);
	printf("read %lu after the free\n", v);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_zero),
		cmocka_unit_test(test_slabs_follow_use),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_random),
	};

	if (argc == 2 && !strcmp(argv[1], "--use-after-free"))
		return use_after_free();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
