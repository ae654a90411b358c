/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/compiler.h>.
 *
 * compat/ is the shim directory that lets src/ compile unchanged outside
 * the kernel (the pattern of Linux's tools/testing/vma).  It comes first on
 * the include path of the library, its tests and libpriotree-kcompat
 * consumers, and provides just what src/ uses.  Each header is one of:
 * a remap (the kernel name done with libc), an empty stub (a kernel-only
 * annotation with no userspace meaning), or a forwarder (#include_next to
 * the system header of the same name, so nothing is shadowed).
 */
#ifndef _COMPAT_LINUX_COMPILER_H
#define _COMPAT_LINUX_COMPILER_H

#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __cold			__attribute__((__cold__))
#define __noreturn		__attribute__((__noreturn__))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))

#endif /* _COMPAT_LINUX_COMPILER_H */
