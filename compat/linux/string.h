/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: userspace stand-in for <linux/string.h>, a forwarder: the
 * kernel's string functions (strcmp, strlen, memcpy, ...) are libc's.
 */
#ifndef _COMPAT_LINUX_STRING_H
#define _COMPAT_LINUX_STRING_H

#include <string.h>

#endif /* _COMPAT_LINUX_STRING_H */
