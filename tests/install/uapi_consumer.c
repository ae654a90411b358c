// SPDX-License-Identifier: GPL-2.0
/*
 * <priotree.h> beside the system's UAPI <linux/kernel.h>, built with
 *
 *	cc uapi_consumer.c $(pkg-config --cflags --libs libpriotree)
 *
 * libpriotree's compat headers include a <linux/kernel.h> of their own.
 * libpriotree.pc must not put them on a consumer's include path: a program
 * that asks for <linux/kernel.h> gets the kernel's UAPI header, with
 * struct sysinfo, and not the compat one.
 *
 * usage: uapi_consumer
 */

#include <linux/kernel.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <priotree.h>

#ifdef _COMPAT_LINUX_KERNEL_H
#error "libpriotree.pc put the compat <linux/kernel.h> on the include path"
#endif
#ifndef _LINUX_KERNEL_H
#error "<linux/kernel.h> is not the UAPI header (its guard is missing)"
#endif

#define EXPECT(cond, fmt, ...)						\
do {									\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected " fmt "\n", __FILE__,	\
			__LINE__, ##__VA_ARGS__);			\
		exit(1);						\
	}								\
} while (0)

static int count_hit(const struct priotree_hit *hit, void *arg)
{
	(void)hit;
	++*(size_t *)arg;
	return 0;
}

int main(void)
{
	struct sysinfo info;
	struct priotree *pt;
	size_t hits = 0;

	/* the raw system call: the struct is the one <linux/kernel.h> gave */
	EXPECT(syscall(SYS_sysinfo, &info) == 0, "sysinfo() to succeed");
	EXPECT(info.mem_unit > 0 && info.totalram > 0,
	       "sysinfo() to report memory, got totalram %lu mem_unit %u",
	       (unsigned long)info.totalram, info.mem_unit);

	/*
	 * Index the three load averages as points and count the ones at or
	 * above one (SI_LOAD_SHIFT also comes from the UAPI headers).
	 */
	pt = priotree_new();
	EXPECT(pt, "priotree_new() to return an index");
	for (int i = 0; i < 3; i++)
		EXPECT(priotree_insert(pt, info.loads[i], info.loads[i],
				       &info.loads[i]) == 0,
		       "insert of load %d to succeed", i);
	EXPECT(priotree_count(pt) == 3, "3 entries, got %zu",
	       priotree_count(pt));
	EXPECT(priotree_foreach(pt, 0, -1UL, count_hit, &hits) == 0 &&
	       hits == 3, "a query over everything to see 3 entries, got %zu",
	       hits);
	hits = 0;
	priotree_foreach(pt, 1UL << SI_LOAD_SHIFT, -1UL, count_hit, &hits);
	priotree_free(pt);

	printf("uapi_consumer: struct sysinfo from the UAPI <linux/kernel.h>, %lu MiB RAM, %zu load averages >= 1: ok\n",
	       (unsigned long)((unsigned long long)info.totalram *
				info.mem_unit >> 20),
	       hits);
	return 0;
}
