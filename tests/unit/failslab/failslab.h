/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control of the test-only allocation fault injection (linux/slab.h in
 * this directory).  Allocations are counted from the last call of
 * failslab_fail_nth(); only the chosen one fails.
 */
#ifndef _UNIT_FAILSLAB_H
#define _UNIT_FAILSLAB_H

#include <stdbool.h>

/**
 * failslab_fail_nth() - make the @nth next allocation fail (0: the next)
 * @nth: how many allocations to let through first
 *
 * Cost: O(1).
 *
 * Example:
 *	failslab_fail_nth(1);
 *	assert(priotree_insert(pt, 3, 3, NULL) == -ENOMEM);
 */
void failslab_fail_nth(unsigned long nth);

/**
 * failslab_off() - let every allocation through again
 *
 * Cost: O(1).  Example: failslab_off();
 */
void failslab_off(void);

/**
 * failslab_pending() - is a failure still armed?
 *
 * Cost: O(1).  Example: assert(!failslab_pending());
 *
 * Return: 1 if the chosen allocation has not happened yet, else 0.
 */
int failslab_pending(void);

/**
 * failslab_should_fail() - called by each allocator of the shim
 *
 * Cost: O(1).  Example: p = failslab_should_fail() ? NULL : malloc(n);
 *
 * Return: true for the allocation failslab_fail_nth() chose, which also
 * disarms the failure.
 */
bool failslab_should_fail(void);

#endif /* _UNIT_FAILSLAB_H */
