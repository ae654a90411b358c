/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/mmdebug.h>.
 *
 * Userspace builds check what a CONFIG_DEBUG_VM kernel checks.  The unit,
 * property and fuzz tests are where these invariants are exercised, so
 * they must not compile away here; a kernel without DEBUG_VM pays nothing
 * for them, which is why the library uses them on its hot paths instead
 * of BUG_ON().
 */
#ifndef _COMPAT_LINUX_MMDEBUG_H
#define _COMPAT_LINUX_MMDEBUG_H

#include <linux/bug.h>

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

#endif /* _COMPAT_LINUX_MMDEBUG_H */
