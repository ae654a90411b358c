/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: <linux/slab.h> on malloc.  The gfp flags carry no meaning in
 * userspace except __GFP_ZERO; allocation failure is reported as in the
 * kernel, by a NULL return.
 */
#ifndef _COMPAT_LINUX_SLAB_H
#define _COMPAT_LINUX_SLAB_H

#include <stdlib.h>

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

#endif /* _COMPAT_LINUX_SLAB_H */
