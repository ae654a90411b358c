/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/bug.h>.
 *
 * BUG() and a true BUG_ON() print the condition, file, line and function
 * on stderr and abort(), which death tests and sanitizers can observe.
 * WARN_ON() prints and returns its condition, as in the kernel.
 */
#ifndef _COMPAT_LINUX_BUG_H
#define _COMPAT_LINUX_BUG_H

#include <stdio.h>
#include <stdlib.h>

#include <linux/compiler.h>

#define __pt_report(kind, cond_str)					\
	fprintf(stderr, "%s: %s at %s:%d/%s()\n", kind, cond_str,	\
		__FILE__, __LINE__, __func__)

#define BUG() do {							\
	__pt_report("BUG", "failure");					\
	fflush(stderr);							\
	abort();							\
} while (0)

#define BUG_ON(cond) do {						\
	if (unlikely(cond)) {						\
		__pt_report("BUG", "BUG_ON(" #cond ")");		\
		fflush(stderr);						\
		abort();						\
	}								\
} while (0)

#define WARN_ON(cond) ({						\
	int __ret_warn_on = !!(cond);					\
	if (unlikely(__ret_warn_on))					\
		__pt_report("WARNING", "WARN_ON(" #cond ")");		\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	int __ret_warn_once = !!(cond);					\
	if (unlikely(__ret_warn_once && !__warned)) {			\
		__warned = true;					\
		__pt_report("WARNING", "WARN_ON_ONCE(" #cond ")");	\
	}								\
	unlikely(__ret_warn_once);					\
})

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#endif /* _COMPAT_LINUX_BUG_H */
