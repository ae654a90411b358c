#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gen_deterministic.sh RMAPSIM GEN-ARG...
#
# The generators promise one scenario per (kind, parameters, seed):
#  - two runs of "rmapsim gen GEN-ARG..." print the same bytes;
#  - "--seed" with another value prints other ops under another name;
#  - the scenario read from stdin ("run -") gives the PT-DIGEST that the
#    same scenario read from a file gives.
set -u

rmapsim=$1
shift
case $rmapsim in
/*) ;;
*) rmapsim=$PWD/$rmapsim ;;
esac
dir=$(mktemp -d)

fail=0
"$rmapsim" gen "$@" >"$dir/a" && "$rmapsim" gen "$@" >"$dir/b" || fail=1
if ! cmp -s "$dir/a" "$dir/b"; then
	echo "gen $*: expected the same scenario twice"
	fail=1
fi
"$rmapsim" gen "$@" --seed 99 >"$dir/c" || fail=1
if [ "$(grep -v '^#' "$dir/a" | sed 1d)" = \
     "$(grep -v '^#' "$dir/c" | sed 1d)" ]; then
	echo "gen $*: expected other ops with --seed 99"
	fail=1
fi
if [ "$(grep '^scenario' "$dir/a")" = "$(grep '^scenario' "$dir/c")" ]; then
	echo "gen $*: expected another scenario name with --seed 99"
	fail=1
fi
from_file=$("$rmapsim" run "$dir/a" | tail -n 1)
from_stdin=$("$rmapsim" run - <"$dir/a" | tail -n 1)
if [ -z "$from_file" ] || [ "$from_file" != "$from_stdin" ]; then
	echo "gen $*: expected '$from_file' from stdin, got '$from_stdin'"
	fail=1
fi
rm -rf "$dir"
exec sh -c "exit $fail"
