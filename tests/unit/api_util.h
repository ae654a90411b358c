/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the tests that see <priotree.h> only, as a tool does (no
 * kernel headers, unlike unit_util.h).  Include after <cmocka.h>.
 */
#ifndef PRIOTREE_TESTS_API_UTIL_H
#define PRIOTREE_TESTS_API_UTIL_H

#include <priotree.h>

/* Fails the current test with what priotree_check() found broken. */
#define assert_index_valid(pt)						\
do {									\
	char __msg[256];						\
									\
	if (priotree_check((pt), __msg, sizeof(__msg)))			\
		fail_msg("%s:%d: expected a valid index: %s",		\
			 __FILE__, __LINE__, __msg);			\
} while (0)

#endif /* PRIOTREE_TESTS_API_UTIL_H */
