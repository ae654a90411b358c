#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The installed pkg-config files and what they point at:
#   - both .pc files validate, carry the project's version, and answer
#     from the staged prefix;
#   - libpriotree: Cflags is exactly -I${includedir}/priotree, which holds
#     priotree.h and no linux/ directory; Libs is -L${libdir} -lpriotree;
#     no Requires, and --static adds nothing (libc is all it needs);
#   - libpriotree-kcompat: Requires libpriotree, adds exactly
#     -I${includedir}/priotree/kcompat and -fno-strict-aliasing, and that
#     directory holds linux/prio_tree.h, prio_tree_walk.h, mm.h, list.h,
#     vma_prio_tree.h and kernel.h; every installed compat header compiles on its own and
#     beside the usual system headers, in either order;
#   - <priotree.h> is plain C: it compiles as C99 with -pedantic, and as
#     C++ when a C++ compiler is there;
#   - the shared library's SONAME follows the major version, and it
#     exports exactly the global: list of src/libpriotree.map;
#   - nothing is installed under ${includedir} outside priotree/.
#
# usage: check_pc_files.sh STAGED_PREFIX_ENV VERSION VERSION_SCRIPT

set -eu
pt_script=tests/install/check_pc_files.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] ||
	fail $LINENO "3 arguments: STAGED_PREFIX_ENV VERSION VERSION_SCRIPT, got $#"
pt_load_prefix "$1"
version=$2
version_script=$3

# words PKG-CONFIG-ARGS...: the answer as one space-separated line
words()
{
	# shellcheck disable=SC2046
	echo $(pkg-config "$@")
}

for pc in libpriotree libpriotree-kcompat; do
	pkg-config --validate "$pc" ||
		fail $LINENO "$pc.pc to pass pkg-config --validate"
	got=$(pkg-config --modversion "$pc")
	[ "$got" = "$version" ] ||
		fail $LINENO "$pc version $version (the project's), got '$got'"
done

includedir=$(pkg-config --variable=includedir libpriotree)
libdir=$pt_libdir
case $includedir in
"$PRIOTREE_PREFIX"/*) ;;
*) fail $LINENO "includedir inside $PRIOTREE_PREFIX, got '$includedir'" ;;
esac
case $libdir in
"$PRIOTREE_PREFIX"/*) ;;
*) fail $LINENO "libdir inside $PRIOTREE_PREFIX, got '$libdir'" ;;
esac

# libpriotree.pc
got=$(words --cflags libpriotree)
[ "$got" = "-I$includedir/priotree" ] ||
	fail $LINENO "libpriotree Cflags '-I$includedir/priotree', got '$got'"
[ -f "$includedir/priotree/priotree.h" ] ||
	fail $LINENO "$includedir/priotree/priotree.h to be installed"
[ ! -e "$includedir/priotree/linux" ] ||
	fail $LINENO "no linux/ in $includedir/priotree, the libpriotree include path"
got=$(words --libs libpriotree)
[ "$got" = "-L$libdir -lpriotree" ] ||
	fail $LINENO "libpriotree Libs '-L$libdir -lpriotree', got '$got'"
got=$(words --static --libs libpriotree)
[ "$got" = "-L$libdir -lpriotree" ] ||
	fail $LINENO "libpriotree static Libs '-L$libdir -lpriotree', got '$got'"
got=$(words --print-requires libpriotree)
[ -z "$got" ] || fail $LINENO "libpriotree to require nothing, got '$got'"
got=$(words --print-requires-private libpriotree)
[ -z "$got" ] ||
	fail $LINENO "libpriotree to require nothing privately, got '$got'"

# libpriotree-kcompat.pc
got=$(words --print-requires libpriotree-kcompat)
[ "$got" = libpriotree ] ||
	fail $LINENO "libpriotree-kcompat to require libpriotree, got '$got'"
got=$(words --cflags libpriotree-kcompat)
for flag in -fno-strict-aliasing "-I$includedir/priotree/kcompat" \
	    "-I$includedir/priotree"; do
	case " $got " in
	*" $flag "*) ;;
	*) fail $LINENO "'$flag' in libpriotree-kcompat Cflags, got '$got'" ;;
	esac
done
[ "$(echo "$got" | wc -w)" -eq 3 ] ||
	fail $LINENO "3 libpriotree-kcompat Cflags, got '$got'"
got=$(words --libs libpriotree-kcompat)
[ "$got" = "-L$libdir -lpriotree" ] ||
	fail $LINENO "libpriotree-kcompat Libs '-L$libdir -lpriotree', got '$got'"
kcompat_dir=$includedir/priotree/kcompat/linux
for h in prio_tree.h prio_tree_walk.h vma_prio_tree.h mm.h list.h kernel.h; do
	[ -f "$kcompat_dir/$h" ] ||
		fail $LINENO "$kcompat_dir/$h to be installed"
done
kcompat_flags=$(pkg-config --cflags libpriotree-kcompat)
for h in "$kcompat_dir"/*.h; do
	# shellcheck disable=SC2086
	printf '#include <linux/%s>\n' "${h##*/}" |
		$CC -x c -fsyntax-only -Wall -Wextra -Werror $kcompat_flags - ||
		fail $LINENO "<linux/${h##*/}> to compile on its own with libpriotree-kcompat"
done

# a kcompat program still includes the usual system headers, before or
# after the compat ones (only <linux/kernel.h> exists in both worlds)
system_headers='#include <sys/sysinfo.h>
#include <sys/param.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <signal.h>'
compat_headers='#include <linux/mm.h>
#include <linux/list.h>
#include <linux/prio_tree.h>'
for order in compat-first system-first; do
	if [ $order = compat-first ]; then
		printf '%s\n%s\n' "$compat_headers" "$system_headers"
	else
		printf '%s\n%s\n' "$system_headers" "$compat_headers"
	fi >"$pt_tmp/$order.c"
	# shellcheck disable=SC2086
	$CC -fsyntax-only -Wall -Wextra -Werror $kcompat_flags \
		"$pt_tmp/$order.c" ||
		fail $LINENO "compat and system headers to mix ($order) with libpriotree-kcompat"
done

# <priotree.h> is plain C, and C++-safe
plain_flags=$(pkg-config --cflags libpriotree)
# shellcheck disable=SC2086
echo '#include <priotree.h>' |
	$CC -x c -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only \
		$plain_flags - ||
	fail $LINENO "<priotree.h> to compile as C99 with -pedantic -Werror"
if command -v c++ >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	echo '#include <priotree.h>' |
		c++ -x c++ -Wall -Wextra -Werror -fsyntax-only $plain_flags - ||
		fail $LINENO "<priotree.h> to compile as C++"
fi

# only priotree/ under includedir
stray=$(find "$includedir" -type f ! -path "$includedir/priotree/*")
[ -z "$stray" ] ||
	fail $LINENO "no headers outside $includedir/priotree, got: $stray"

# the libraries
[ -f "$libdir/libpriotree.a" ] ||
	fail $LINENO "$libdir/libpriotree.a to be installed"
[ -f "$libdir/libpriotree.so.$version" ] ||
	fail $LINENO "$libdir/libpriotree.so.$version to be installed"
major=${version%%.*}
for link in libpriotree.so libpriotree.so.$major; do
	[ -L "$libdir/$link" ] && [ -e "$libdir/$link" ] ||
		fail $LINENO "$libdir/$link to be a symlink to the library"
done
soname=$(readelf -d "$libdir/libpriotree.so.$version" |
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libpriotree.so.$major" ] ||
	fail $LINENO "SONAME libpriotree.so.$major, got '$soname'"

# exported symbols: exactly the version script's global: list
sed -n '/global:/,/local:/p' "$version_script" |
	sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' |
	sort >"$pt_tmp/wanted"
[ -s "$pt_tmp/wanted" ] ||
	fail $LINENO "symbols in the global: list of $version_script"
nm -D --defined-only "$libdir/libpriotree.so.$version" |
	awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' |
	sort >"$pt_tmp/exported"
if ! cmp -s "$pt_tmp/wanted" "$pt_tmp/exported"; then
	diff "$pt_tmp/wanted" "$pt_tmp/exported" >&2 || true
	fail $LINENO "the installed library to export exactly the symbols of $version_script (< wanted, > exported)"
fi

# the installed libraries hold the tree, the vma layer and <priotree.h>
# only: no symbol of the rmap simulator (rsim_, gen_) or of the scenario
# corpus (pt_), exported, hidden or static, in either of them
for lib in "$libdir/libpriotree.a" "$libdir/libpriotree.so.$version"; do
	foreign=$(nm "$lib" 2>/dev/null |
		awk '$NF ~ /^(rsim_|gen_|pt_)/ { print $NF }' | sort -u)
	[ -z "$foreign" ] ||
		fail $LINENO "no simulator or corpus symbol in $lib, got: $(echo $foreign)"
done

echo "check_pc_files: libpriotree $version and libpriotree-kcompat in $PRIOTREE_PREFIX: $(wc -l <"$pt_tmp/exported") exported symbols, $(ls "$kcompat_dir" | wc -l) compat headers: ok"
