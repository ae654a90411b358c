/* SPDX-License-Identifier: GPL-2.0 */
/* compat: userspace stand-in for <linux/container_of.h>. */
#ifndef _COMPAT_LINUX_CONTAINER_OF_H
#define _COMPAT_LINUX_CONTAINER_OF_H

#include <stddef.h>

/*
 * Like the kernel's, refuses (at compile time) a @ptr whose type is not
 * the type of @member, so a wrong member name cannot silently compute a
 * wrong offset.
 */
#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	_Static_assert(__builtin_types_compatible_p(__typeof__(*(ptr)),	\
			__typeof__(((type *)0)->member)) ||		\
		       __builtin_types_compatible_p(__typeof__(*(ptr)), void), \
		       "pointer type mismatch in container_of()");	\
	((type *)((char *)__mptr - offsetof(type, member))); })

#endif /* _COMPAT_LINUX_CONTAINER_OF_H */
