/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: <linux/slab.h> on malloc.  The gfp flags carry no meaning in
 * userspace except __GFP_ZERO; allocation failure is reported as in the
 * kernel, by a NULL return.  kmem_cache keeps its slabs itself (below).
 */
#ifndef _COMPAT_LINUX_SLAB_H
#define _COMPAT_LINUX_SLAB_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/list.h>

typedef unsigned int gfp_t;

#define __GFP_ZERO	0x100u
#define GFP_KERNEL	0x1u
#define GFP_ATOMIC	0x2u
#define GFP_NOWAIT	0x4u

static inline void *kmalloc(size_t size, gfp_t flags)
{
	return (flags & __GFP_ZERO) ? calloc(1, size) : malloc(size);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(n, size);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, flags);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/*
 * kmem_cache: objects of one size, kept in slabs as mm/slub.c keeps them,
 * cut down to what a single-threaded user needs.
 *
 * A slab is KMEM_CACHE_SLAB_SIZE bytes aligned to its size, as an order-3
 * page block is in the kernel, so an object's slab is its address rounded
 * down.  The slab's header comes first and its objects follow, each at a
 * multiple of the cache's stride.  Free objects are linked through their
 * first word; objects never handed out are not linked at all, but taken
 * from @fresh on, so a new slab costs no pass over its memory.
 *
 * Invariants: a slab with a free object is on @partial, a full one on
 * @full; @inuse counts the slab's objects handed out; at most one slab of
 * a cache is empty (a free that empties a slab gives it back to the pool
 * below, unless it is the only slab with room), so a cache holds what its
 * peak needed only while that many objects are in use, give or take a
 * slab.
 *
 * Unlike the kernel's, a cache has no lock: its user serialises the
 * calls, as the one owner of a per-object cache does anyway.  Only the
 * pool of slabs is shared, and locked.
 *
 * Under valgrind and AddressSanitizer a free object is unaddressable (the
 * slab allocator's KASAN hooks, here memcheck's mempool requests and
 * ASan's manual poisoning), so a use after kmem_cache_free() is caught as
 * it would be after free(), and an object never freed is a leak.
 */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define KMEM_CACHE_MEMCHECK	1
#endif
#endif
#ifndef KMEM_CACHE_MEMCHECK
#define VALGRIND_CREATE_MEMPOOL(pool, rz, zeroed)	do { } while (0)
#define VALGRIND_DESTROY_MEMPOOL(pool)			do { } while (0)
#define VALGRIND_MEMPOOL_ALLOC(pool, addr, size)	do { } while (0)
#define VALGRIND_MEMPOOL_FREE(pool, addr)		do { } while (0)
#define VALGRIND_MAKE_MEM_NOACCESS(addr, len)		do { } while (0)
#define VALGRIND_MAKE_MEM_DEFINED(addr, len)		do { } while (0)
#define VALGRIND_MAKE_MEM_UNDEFINED(addr, len)		do { } while (0)
#endif

#if defined(__SANITIZE_ADDRESS__)
#define KMEM_CACHE_ASAN		1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KMEM_CACHE_ASAN		1
#endif
#endif
#ifdef KMEM_CACHE_ASAN
#include <sanitizer/asan_interface.h>
#define kmem_cache_poison(addr, len)	ASAN_POISON_MEMORY_REGION(addr, len)
#define kmem_cache_unpoison(addr, len)	ASAN_UNPOISON_MEMORY_REGION(addr, len)
#else
#define kmem_cache_poison(addr, len)	do { } while (0)
#define kmem_cache_unpoison(addr, len)	do { } while (0)
#endif

typedef unsigned int slab_flags_t;

#define SLAB_HWCACHE_ALIGN	0x2000u	/* objects start on cache lines */
#define L1_CACHE_BYTES		64
#define KMEM_CACHE_SLAB_SIZE	32768UL	/* a power of two */
#define KMEM_CACHE_MINALIGN	16	/* malloc()'s grid */

struct kmem_cache {
	const char		*name;
	size_t			size;		/* stride: object size, aligned */
	size_t			object_size;	/* as asked */
	size_t			offset;		/* of a slab's first object */
	unsigned int		objects;	/* per slab, >= 1 */
	struct list_head	partial;	/* slabs with a free object */
	struct list_head	full;
	unsigned long		nr_slabs;
};

struct kmem_cache_slab {
	struct list_head	list;		/* on partial or full */
	void			*freelist;	/* freed objects */
	unsigned int		inuse;
	unsigned int		fresh;		/* objects [fresh, objects) unused */
};

static inline struct kmem_cache_slab *kmem_cache_slab_of(const void *obj)
{
	return (struct kmem_cache_slab *)((uintptr_t)obj &
					  ~(KMEM_CACHE_SLAB_SIZE - 1));
}

/*
 * @size bytes aligned to @align, or L1_CACHE_BYTES with
 * SLAB_HWCACHE_ALIGN; no constructor and no other flag.  NULL when out of
 * memory, or when not even one object fits in a slab.
 */
static inline struct kmem_cache *kmem_cache_create(const char *name,
						   unsigned int size,
						   unsigned int align,
						   slab_flags_t flags,
						   void (*ctor)(void *))
{
	struct kmem_cache *s;
	size_t stride;

	if (ctor || (flags & ~SLAB_HWCACHE_ALIGN) || (align & (align - 1)))
		return NULL;
	if (flags & SLAB_HWCACHE_ALIGN)
		align = max_t(unsigned int, align, L1_CACHE_BYTES);
	align = max_t(unsigned int, align, KMEM_CACHE_MINALIGN);
	/* a free object holds the free list's link */
	stride = max_t(size_t, size, sizeof(void *));
	stride = (stride + align - 1) & ~((size_t)align - 1);
	if (stride > KMEM_CACHE_SLAB_SIZE / 2)
		return NULL;
	s = malloc(sizeof(*s));
	if (!s)
		return NULL;
	s->name = name;
	s->size = stride;
	s->object_size = size;
	s->offset = (sizeof(struct kmem_cache_slab) + align - 1) &
		    ~((size_t)align - 1);
	s->objects = (KMEM_CACHE_SLAB_SIZE - s->offset) / stride;
	INIT_LIST_HEAD(&s->partial);
	INIT_LIST_HEAD(&s->full);
	s->nr_slabs = 0;
	VALGRIND_CREATE_MEMPOOL(s, 0, 0);
	return s;
}

/*
 * Slabs given back by the caches wait in a pool for the next cache that
 * grows, as freed pages wait in the kernel's page allocator, up to
 * KMEM_CACHE_POOL_SLABS of them (32 MiB); the rest go back to malloc().
 * Given back to malloc() at once, a 32 KiB slab coalesced with its free
 * neighbours and glibc trimmed the heap, so an index emptied and filled
 * again took every page fault again (bench/tree, small, 5 runs: 16,269
 * minor faults against 5,717 when ranges came from malloc(), whose freed
 * 128-byte chunks wait in its fast bins).  Caches of all threads share
 * the pool, hence the lock, taken once a slab.  One pool per translation
 * unit that uses kmem_cache; in the library that is priotree.c alone.
 * A pooled slab is unaddressable but for its first word, the link.
 */
#define KMEM_CACHE_POOL_SLABS	1024

static struct {
	pthread_mutex_t		lock;
	void			*slabs;
	unsigned long		nr;
} kmem_cache_pool = { PTHREAD_MUTEX_INITIALIZER, NULL, 0 };

static inline void *kmem_cache_pool_get(void)
{
	void *slab;

	pthread_mutex_lock(&kmem_cache_pool.lock);
	slab = kmem_cache_pool.slabs;
	if (slab) {
		kmem_cache_pool.slabs = *(void **)slab;
		kmem_cache_pool.nr--;
	}
	pthread_mutex_unlock(&kmem_cache_pool.lock);
	if (!slab)
		return aligned_alloc(KMEM_CACHE_SLAB_SIZE, KMEM_CACHE_SLAB_SIZE);
	kmem_cache_unpoison(slab, KMEM_CACHE_SLAB_SIZE);
	VALGRIND_MAKE_MEM_UNDEFINED(slab, KMEM_CACHE_SLAB_SIZE);
	return slab;
}

static inline void kmem_cache_pool_put(void *slab)
{
	char *rest = (char *)slab + sizeof(void *);
	bool pooled = false;

	kmem_cache_poison(rest, KMEM_CACHE_SLAB_SIZE - sizeof(void *));
	VALGRIND_MAKE_MEM_NOACCESS(rest, KMEM_CACHE_SLAB_SIZE - sizeof(void *));
	pthread_mutex_lock(&kmem_cache_pool.lock);
	if (kmem_cache_pool.nr < KMEM_CACHE_POOL_SLABS) {
		*(void **)slab = kmem_cache_pool.slabs;
		kmem_cache_pool.slabs = slab;
		kmem_cache_pool.nr++;
		pooled = true;
	}
	pthread_mutex_unlock(&kmem_cache_pool.lock);
	if (!pooled) {
		kmem_cache_unpoison(slab, KMEM_CACHE_SLAB_SIZE);
		free(slab);
	}
}

/* A new empty slab, first on @s's partial list; false when out of memory. */
static noinline bool kmem_cache_grow(struct kmem_cache *s)
{
	struct kmem_cache_slab *slab;

	slab = kmem_cache_pool_get();
	if (!slab)
		return false;
	slab->freelist = NULL;
	slab->inuse = 0;
	slab->fresh = 0;
	list_add(&slab->list, &s->partial);
	s->nr_slabs++;
	/* no object is handed out yet: all of them unaddressable */
	VALGRIND_MAKE_MEM_NOACCESS((char *)slab + s->offset,
				   KMEM_CACHE_SLAB_SIZE - s->offset);
	kmem_cache_poison((char *)slab + s->offset,
			  KMEM_CACHE_SLAB_SIZE - s->offset);
	return true;
}

static noinline void kmem_cache_release(struct kmem_cache *s,
				      struct kmem_cache_slab *slab)
{
	list_del(&slab->list);
	s->nr_slabs--;
	kmem_cache_pool_put(slab);
}

static inline void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	struct kmem_cache_slab *slab;
	void *obj;

	if (unlikely(list_empty(&s->partial)) && !kmem_cache_grow(s))
		return NULL;
	slab = list_first_entry(&s->partial, struct kmem_cache_slab, list);
	obj = slab->freelist;
	if (obj) {
		/* the link may be read, the rest stays unaddressable */
		kmem_cache_unpoison(obj, sizeof(void *));
		VALGRIND_MAKE_MEM_DEFINED(obj, sizeof(void *));
		slab->freelist = *(void **)obj;
	} else {
		obj = (char *)slab + s->offset + (size_t)slab->fresh++ * s->size;
	}
	if (++slab->inuse == s->objects)
		list_move(&slab->list, &s->full);
	kmem_cache_unpoison(obj, s->object_size);
	VALGRIND_MEMPOOL_ALLOC(s, obj, s->object_size);
	if (flags & __GFP_ZERO)
		memset(obj, 0, s->object_size);
	return obj;
}

static inline void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	struct kmem_cache_slab *slab;

	if (!obj)
		return;
	slab = kmem_cache_slab_of(obj);
	*(void **)obj = slab->freelist;
	slab->freelist = obj;
	VALGRIND_MEMPOOL_FREE(s, obj);
	kmem_cache_poison(obj, s->object_size);
	if (slab->inuse-- == s->objects)
		list_move(&slab->list, &s->partial);
	if (!slab->inuse && !list_is_singular(&s->partial))
		kmem_cache_release(s, slab);
}

/*
 * As in the kernel, destroying a cache that still has objects is a bug:
 * it warns and leaks the slabs, so that the objects stay valid.
 */
static inline void kmem_cache_destroy(struct kmem_cache *s)
{
	struct kmem_cache_slab *slab;

	if (!s)
		return;
	if (WARN_ON(!list_empty(&s->full) || s->nr_slabs > 1))
		return;
	if (s->nr_slabs) {
		slab = list_first_entry(&s->partial, struct kmem_cache_slab,
					list);
		if (WARN_ON(slab->inuse))
			return;
		kmem_cache_release(s, slab);
	}
	VALGRIND_DESTROY_MEMPOOL(s);
	free(s);
}

#endif /* _COMPAT_LINUX_SLAB_H */
