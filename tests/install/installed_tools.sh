#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The installed tools run from the staged prefix as a user would run them
# from any --prefix: straight from PREFIX/bin, with no LD_LIBRARY_PATH.
# ptquery needs libpriotree.so.0 and finds it through its install rpath
# (PREFIX/LIBDIR); rmapsim links the simulator and the tree statically.
#
# usage: installed_tools.sh STAGED_PREFIX_ENV EXAMPLES_DIR

set -eu
pt_script=tests/install/installed_tools.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] ||
	fail $LINENO "2 arguments: STAGED_PREFIX_ENV EXAMPLES_DIR, got $#"
pt_load_prefix "$1"
examples=$2
bin=$PRIOTREE_PREFIX/bin

for tool in ptquery rmapsim; do
	[ -x "$bin/$tool" ] || fail $LINENO "$bin/$tool to be installed"
done

# the loader alone, no LD_LIBRARY_PATH, must find the prefix's library
resolved=$(env -u LD_LIBRARY_PATH ldd "$bin/ptquery" |
	sed -n 's/^[[:space:]]*libpriotree\.so\.0 => \([^ ]*\) .*/\1/p')
[ "$resolved" = "$pt_libdir/libpriotree.so.0" ] ||
	fail $LINENO "ptquery to load $pt_libdir/libpriotree.so.0 without LD_LIBRARY_PATH, ldd says '$resolved'"

# (ptquery --help prints its usage whatever its exit status says; the
# loader, when it fails, prints "error while loading shared libraries")
env -u LD_LIBRARY_PATH "$bin/ptquery" --help >"$pt_tmp/help" 2>&1 || true
grep -q '^usage: ptquery' "$pt_tmp/help" ||
	fail $LINENO "'ptquery --help' to print its usage, got: $(head -3 "$pt_tmp/help")"

env -u LD_LIBRARY_PATH "$bin/ptquery" intervals "$examples/intervals.txt" 5 \
	>"$pt_tmp/query" 2>&1 ||
	fail $LINENO "'ptquery intervals intervals.txt 5' to run without LD_LIBRARY_PATH: $(head -3 "$pt_tmp/query")"
grep -q '^query \[5, 5\]: [1-9][0-9]* intervals' "$pt_tmp/query" ||
	fail $LINENO "a point query to find intervals, got: $(head -3 "$pt_tmp/query")"

env -u LD_LIBRARY_PATH "$bin/rmapsim" --help >"$pt_tmp/rhelp" 2>&1 ||
	fail $LINENO "'rmapsim --help' to run without LD_LIBRARY_PATH: $(head -3 "$pt_tmp/rhelp")"

# and their manual pages, with the library's
for page in man1/ptquery.1 man1/rmapsim.1 man3/priotree.3; do
	[ -f "$PRIOTREE_PREFIX/share/man/$page" ] ||
		fail $LINENO "$PRIOTREE_PREFIX/share/man/$page to be installed"
done

echo "installed_tools: ptquery and rmapsim run from $bin without LD_LIBRARY_PATH: ok"
