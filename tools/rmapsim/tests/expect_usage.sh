#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# expect_usage.sh RMAPSIM 'FIRST LINE OF STDERR' ARG...
#
# Runs "rmapsim ARG..." and checks a usage error: exit status 2, nothing
# on stdout, and the first line of stderr exactly as given.
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
want=$2
shift 2
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

$vg "$rmapsim" "$@" >"$out" 2>"$err"
status=$?
got=$(head -n 1 "$err")
fail=0
if [ "$status" -ne 2 ]; then
	echo "rmapsim $*: expected exit status 2, got $status"
	fail=1
fi
if [ -s "$out" ]; then
	echo "rmapsim $*: expected nothing on stdout"
	fail=1
fi
if [ "$got" != "$want" ]; then
	echo "rmapsim $*: expected '$want'"
	echo "rmapsim $*: got      '$got'"
	fail=1
fi
rm -f "$out" "$err"
exec sh -c "exit $fail"
