/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: <linux/export.h>.
 *
 * The library is built with -fvisibility=hidden, and EXPORT_SYMBOL(sym)
 * gives sym default visibility again by redeclaring it, so the kernel's
 * own export markers decide the ELF exports.  The version script
 * (src/libpriotree.map) then names the same set, and a test compares the
 * two.  Compilers that ignore a visibility attribute after the definition
 * (clang) fall back to the version script alone: see src/meson.build.
 */
#ifndef _COMPAT_LINUX_EXPORT_H
#define _COMPAT_LINUX_EXPORT_H

#if defined(__GNUC__) && !defined(__clang__)
#define EXPORT_SYMBOL(sym) \
	extern __typeof__(sym) sym __attribute__((__visibility__("default")))
#else
#define EXPORT_SYMBOL(sym) \
	extern __typeof__(sym) sym
#endif
#define EXPORT_SYMBOL_GPL(sym)	EXPORT_SYMBOL(sym)

#endif /* _COMPAT_LINUX_EXPORT_H */
