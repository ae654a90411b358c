/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only <linux/slab.h>: a fault-injection seam for src/priotree.c.
 *
 * This directory comes before compat/ on the include path of one test
 * build of the library.  It forwards to compat's <linux/slab.h> and then
 * remaps each allocator so that it first asks failslab_should_fail(): the
 * allocation that failslab_fail_nth() chose returns NULL, exactly as a
 * failed kmalloc() does in the kernel.  Nothing else changes, so the code
 * under test is the library's own, only its memory can run out.
 */
#ifndef _UNIT_FAILSLAB_LINUX_SLAB_H
#define _UNIT_FAILSLAB_LINUX_SLAB_H

#include_next <linux/slab.h>

#include "../failslab.h"

/* A function-like macro does not expand itself: these reach compat's. */
#define kmalloc(size, flags) \
	(failslab_should_fail() ? NULL : kmalloc(size, flags))
#define kzalloc(size, flags) \
	(failslab_should_fail() ? NULL : kzalloc(size, flags))
#define kcalloc(n, size, flags) \
	(failslab_should_fail() ? NULL : kcalloc(n, size, flags))
#define kmalloc_array(n, size, flags) \
	(failslab_should_fail() ? NULL : kmalloc_array(n, size, flags))
#define kmem_cache_create(name, size, align, flags, ctor) \
	(failslab_should_fail() ? NULL : \
	 kmem_cache_create(name, size, align, flags, ctor))
#define kmem_cache_alloc(s, flags) \
	(failslab_should_fail() ? NULL : kmem_cache_alloc(s, flags))

#endif /* _UNIT_FAILSLAB_LINUX_SLAB_H */
