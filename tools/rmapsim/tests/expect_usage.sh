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
want=$2
shift 2
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

"$rmapsim" "$@" >"$out" 2>"$err"
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
exit $fail
