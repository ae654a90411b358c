/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat: the subset of <linux/mm.h> that the prio tree's vma layer uses.
 *
 * struct vm_area_struct carries only what an i_mmap tree reads: the
 * page range, the file offset, the flags, and the "shared" union of
 * 2.6.10-3.6, whose vm_set view holds the head pointer, so the linkage
 * takes four words.  The kernel port gives the real vm_area_struct the
 * same union (kernel-port/patches/0001); the layout rules of that union
 * are explained in <linux/vma_prio_tree.h>.
 *
 * That is eight words: 64 bytes on a 64-bit machine, one cache line for
 * a vma that starts on one (as objects of a 64-byte slab cache do), so a
 * tree walk reads one line per vma it visits.  Nothing else goes in
 * here unless a user of this header reads it (the check below keeps the
 * size honest); the kernel's own vma is larger.
 */
#ifndef _COMPAT_LINUX_MM_H
#define _COMPAT_LINUX_MM_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/prio_tree.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_MAYSHARE	0x00000080UL

struct vm_area_struct {
	unsigned long vm_start;		/* first byte */
	unsigned long vm_end;		/* first byte after the area */
	unsigned long vm_flags;

	/*
	 * Linkage into address_space->i_mmap{,_shared}: a tree node, the
	 * head of a vm_set list, or a member of one.  See vma_prio_tree.h.
	 */
	union {
		struct {
			struct list_head list;
			void *parent;	/* NULL: not a tree node */
			/* tree node <-> head of its vm_set list; else NULL */
			struct vm_area_struct *head;
		} vm_set;

		struct raw_prio_tree_node prio_tree_node;

		struct {
			void *first;
			void *second;
			void *parent;
		} both;
	} shared;

	unsigned long vm_pgoff;		/* offset in the file, in pages */
};

_Static_assert(sizeof(struct vm_area_struct) == 8 * sizeof(long),
	       "compat's vma is one 64-byte cache line on 64-bit");

#endif /* _COMPAT_LINUX_MM_H */
