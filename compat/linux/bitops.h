/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: the subset of <linux/bitops.h> that src/ uses, a remap onto
 * the compiler's builtins.
 */
#ifndef _COMPAT_LINUX_BITOPS_H
#define _COMPAT_LINUX_BITOPS_H

#include <linux/kernel.h>

/* __fls - index of the most significant set bit; undefined for 0 */
static __always_inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

#endif /* _COMPAT_LINUX_BITOPS_H */
