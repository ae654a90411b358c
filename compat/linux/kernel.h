/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/kernel.h>.
 *
 * Forwards to the UAPI header of the same name first, so a program that
 * includes this one still gets everything the system's <linux/kernel.h>
 * declares (struct sysinfo users keep working).
 */
#ifndef _COMPAT_LINUX_KERNEL_H
#define _COMPAT_LINUX_KERNEL_H

#include_next <linux/kernel.h>

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/bug.h>
#include <linux/printk.h>

typedef uint8_t		u8;
typedef uint16_t	u16;
typedef uint32_t	u32;
typedef uint64_t	u64;
typedef int8_t		s8;
typedef int16_t		s16;
typedef int32_t		s32;
typedef int64_t		s64;

#ifndef BITS_PER_LONG
#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#endif

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))

/*
 * IS_ENABLED(CONFIG_FOO): true when the build defines CONFIG_FOO to 1
 * (meson passes -DCONFIG_PRIO_TREE_DEBUG=1 for -Dchecker=true), as in
 * the kernel's <linux/kconfig.h>.
 */
#define __PT_ARG_PLACEHOLDER_1			0,
#define __pt_take_second_arg(ignored, val, ...)	val
#define __pt_is_defined(x)			___pt_is_defined(x)
#define ___pt_is_defined(val)			____pt_is_defined(__PT_ARG_PLACEHOLDER_##val)
#define ____pt_is_defined(arg1_or_junk)		__pt_take_second_arg(arg1_or_junk 1, 0, 0)
#ifndef IS_ENABLED
#define IS_ENABLED(option)			__pt_is_defined(option)
#endif

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define max_t(type, a, b)	max((type)(a), (type)(b))

#endif /* _COMPAT_LINUX_KERNEL_H */
