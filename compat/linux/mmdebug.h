/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/mmdebug.h>.
 *
 * Userspace builds check what a CONFIG_DEBUG_VM kernel checks, unless
 * built with -DCONFIG_DEBUG_VM=0.  The unit, property and fuzz tests are
 * where these invariants are exercised, so by default they do not
 * compile away here; a kernel without DEBUG_VM pays nothing for them,
 * which is why the library uses them on its hot paths instead of
 * BUG_ON().  bench/tree builds its copy of the library with
 * CONFIG_DEBUG_VM=0, as a production kernel is built, because the peers
 * it is measured against carry no such checks.
 */
#ifndef _COMPAT_LINUX_MMDEBUG_H
#define _COMPAT_LINUX_MMDEBUG_H

#include <linux/bug.h>

#ifndef CONFIG_DEBUG_VM
#define CONFIG_DEBUG_VM 1
#endif

#if CONFIG_DEBUG_VM

#define VM_BUG_ON(cond) do {						\
	if (unlikely(cond)) {						\
		__pt_report("BUG", "VM_BUG_ON(" #cond ")");		\
		fflush(stderr);						\
		abort();						\
	}								\
} while (0)

/* as dump_vma(): the range and offset, then the report */
#define VM_BUG_ON_VMA(cond, vma) do {					\
	if (unlikely(cond)) {						\
		fprintf(stderr, "vma %p start %#lx end %#lx pgoff %#lx\n", \
			(void *)(vma), (vma)->vm_start, (vma)->vm_end,	\
			(vma)->vm_pgoff);				\
		__pt_report("BUG", "VM_BUG_ON_VMA(" #cond ")");		\
		fflush(stderr);						\
		abort();						\
	}								\
} while (0)

/* a statement, as in 6.1: it cannot be tested */
#define VM_WARN_ON_ONCE(cond) ((void)WARN_ON_ONCE(cond))

#else /* !CONFIG_DEBUG_VM */

/* as the kernel's BUILD_BUG_ON_INVALID(): type-checked, never evaluated */
#define VM_BUG_ON(cond) ((void)sizeof((long)(cond)))
#define VM_BUG_ON_VMA(cond, vma) VM_BUG_ON(cond)
#define VM_WARN_ON_ONCE(cond) VM_BUG_ON(cond)

#endif /* CONFIG_DEBUG_VM */

#endif /* _COMPAT_LINUX_MMDEBUG_H */
