// SPDX-License-Identifier: GPL-2.0
/*
 * State of the test-only allocation fault injection: a countdown of the
 * allocations still allowed before the chosen one fails; -1 when none is
 * chosen.
 */

#include "failslab.h"

static long failslab_countdown = -1;

void failslab_fail_nth(unsigned long nth)
{
	failslab_countdown = (long)nth;
}

void failslab_off(void)
{
	failslab_countdown = -1;
}

int failslab_pending(void)
{
	return failslab_countdown >= 0;
}

bool failslab_should_fail(void)
{
	if (failslab_countdown < 0)
		return false;
	if (failslab_countdown-- > 0)
		return false;
	return true;
}
