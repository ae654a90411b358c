#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# expect_error.sh RMAPSIM DIR CASE
#
# Runs "rmapsim run CASE.scn" inside DIR (so messages carry the bare file
# name) and checks that the scenario is refused before anything runs:
# exit status 2, nothing on stdout, and stderr exactly as in CASE.err.
set -u

rmapsim=$1
# meson passes a path relative to the build directory
case $rmapsim in
/*) ;;
*) rmapsim=$PWD/$rmapsim ;;
esac

# Under meson's valgrind setup the wrapper sees only this shell: check
# rmapsim itself instead, and leave through exec so that the shell's own
# leaks are not reported as ours.
vg=
if [ -n "${PRIOTREE_UNDER_VALGRIND:-}" ] && command -v valgrind >/dev/null
then
	vg="valgrind --error-exitcode=99 --leak-check=full"
	vg="$vg --errors-for-leak-kinds=definite,indirect --quiet"
fi
dir=$2
case=$3
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

cd "$dir" || exit 1
$vg "$rmapsim" run --file=prio --anon=anon_vma "$case.scn" >"$out" 2>"$err"
status=$?
fail=0
if [ "$status" -ne 2 ]; then
	echo "$case.scn:1: expected exit status 2, got $status"
	fail=1
fi
if [ -s "$out" ]; then
	echo "$case.scn:1: expected no output before validation, got:"
	cat "$out"
	fail=1
fi
if ! diff -u "$case.err" "$err"; then
	echo "$case.scn:1: expected the stderr of $case.err (diff above)"
	fail=1
fi
rm -f "$out" "$err"
exec sh -c "exit $fail"
