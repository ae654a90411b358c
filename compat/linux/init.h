/* SPDX-License-Identifier: GPL-2.0 */
/* compat: <linux/init.h>.  There is no init section to discard in userspace. */
#ifndef _COMPAT_LINUX_INIT_H
#define _COMPAT_LINUX_INIT_H

#define __init
#define __initdata
#define __exit

#endif /* _COMPAT_LINUX_INIT_H */
