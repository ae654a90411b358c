#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one kind of outside program against the staged install prefix,
# with nothing but its pkg-config file, and run it:
#
#   plain    plain_consumer.c, <priotree.h>, libpriotree
#   uapi     uapi_consumer.c, <priotree.h> beside the UAPI <linux/kernel.h>;
#            also: no libpriotree Cflag names or reaches a linux/ directory,
#            <linux/prio_tree.h> is out of reach with libpriotree alone,
#            and the same program refuses to build with the kcompat flags
#            (so its own check is live)
#   kcompat  kcompat_consumer.c, the kernel API, libpriotree-kcompat
#   static   plain and kcompat consumers linked with -static and
#            pkg-config --static; no dynamic section, run without
#            LD_LIBRARY_PATH
#   unseen   unseen_vma_program.c, the seed's vma API only, 2,000,000 ops
#
# usage: consumers.sh STAGED_PREFIX_ENV SOURCE_DIR MODE

set -eu
pt_script=tests/install/consumers.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] ||
	fail $LINENO "3 arguments: STAGED_PREFIX_ENV SOURCE_DIR MODE, got $#"
pt_load_prefix "$1"
src=$2
mode=$3

# Under valgrind the consumers run shorter: they still check every answer.
valgrind_ops()
{
	if [ "${PRIOTREE_UNDER_VALGRIND:-0}" = 1 ]; then
		echo "$1"
	fi
}

# needs_priotree_so PROGRAM: linked dynamically, to the prefix's library
needs_priotree_so()
{
	readelf -d "$1" | grep -q 'NEEDED.*\[libpriotree\.so\.0\]' ||
		fail $LINENO "$1 to need libpriotree.so.0"
	pt_check_linked_from_prefix "$1"
}

case $mode in
plain)
	pt_compile "$pt_tmp/plain" "$src/plain_consumer.c" libpriotree
	needs_priotree_so "$pt_tmp/plain"
	# shellcheck disable=SC2046
	pt_run "$pt_tmp/plain" $(valgrind_ops 5000) ||
		fail $LINENO "plain_consumer to pass"
	;;
uapi)
	for flag in $(pkg-config --cflags libpriotree); do
		case $flag in
		*linux*)
			fail $LINENO "no libpriotree Cflag to name a linux directory, got '$flag'"
			;;
		-I*)
			[ ! -e "${flag#-I}/linux" ] ||
				fail $LINENO "no linux/ in the include directory ${flag#-I}"
			;;
		esac
	done
	pt_compile "$pt_tmp/uapi" "$src/uapi_consumer.c" libpriotree
	needs_priotree_so "$pt_tmp/uapi"
	pt_run "$pt_tmp/uapi" || fail $LINENO "uapi_consumer to pass"

	# shellcheck disable=SC2046
	if echo '#include <linux/prio_tree.h>' |
		$CC -x c -fsyntax-only $(pkg-config --cflags libpriotree) - \
			2>/dev/null; then
		fail $LINENO "<linux/prio_tree.h> not to be found with libpriotree's Cflags"
	fi
	# shellcheck disable=SC2046
	if $CC -fsyntax-only "$src/uapi_consumer.c" \
		$(pkg-config --cflags libpriotree-kcompat) \
		>"$pt_tmp/kcompat.log" 2>&1; then
		fail $LINENO "uapi_consumer.c to detect the compat <linux/kernel.h> under libpriotree-kcompat"
	fi
	grep -q 'put the compat <linux/kernel.h>' "$pt_tmp/kcompat.log" ||
		fail $LINENO "uapi_consumer.c's own #error, got: $(cat "$pt_tmp/kcompat.log")"
	;;
kcompat)
	pt_compile "$pt_tmp/kcompat" "$src/kcompat_consumer.c" \
		libpriotree-kcompat
	needs_priotree_so "$pt_tmp/kcompat"
	# shellcheck disable=SC2046
	pt_run "$pt_tmp/kcompat" $(valgrind_ops 5000) ||
		fail $LINENO "kcompat_consumer to pass"
	;;
static)
	for prog in plain:libpriotree kcompat:libpriotree-kcompat; do
		name=${prog%%:*}
		pt_compile "$pt_tmp/$name-static" "$src/${name}_consumer.c" \
			"${prog#*:}" --static
		if readelf -d "$pt_tmp/$name-static" | grep -q NEEDED; then
			fail $LINENO "$name-static to need no shared library, got: $(readelf -d "$pt_tmp/$name-static" | grep NEEDED)"
		fi
		# no LD_LIBRARY_PATH: nothing is loaded at run time (and
		# not under valgrind, which cannot follow a static malloc)
		env -u LD_LIBRARY_PATH "$pt_tmp/$name-static" ||
			fail $LINENO "the static ${name}_consumer to pass"
	done
	;;
unseen)
	pt_compile "$pt_tmp/unseen" "$src/unseen_vma_program.c" \
		libpriotree-kcompat
	needs_priotree_so "$pt_tmp/unseen"
	# the seed's API only: no symbol newer than the 2004 patch
	nm -u "$pt_tmp/unseen" | grep -E \
		'prio_tree_(check|lookup|replace)|vma_prio_tree_check|priotree_' \
		>"$pt_tmp/newer" && \
		fail $LINENO "unseen_vma_program to use the seed's API only, got: $(cat "$pt_tmp/newer")"
	# shellcheck disable=SC2046
	pt_run "$pt_tmp/unseen" $(valgrind_ops 20000) ||
		fail $LINENO "unseen_vma_program to pass"
	;;
*)
	fail $LINENO "MODE plain, uapi, kcompat, static or unseen, got '$mode'"
	;;
esac
