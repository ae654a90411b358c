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

. "$(dirname "$0")/lib.sh"
use_rmapsim "$1"
shift
subject="gen $*"
make_tmp

if ! "$rmapsim" gen "$@" >"$tmp/a" || ! "$rmapsim" gen "$@" >"$tmp/b"
then
	bad "'rmapsim gen $*' to succeed twice"
fi
cmp -s "$tmp/a" "$tmp/b" || bad "the same scenario twice"
"$rmapsim" gen "$@" --seed 99 >"$tmp/c" ||
	bad "'rmapsim gen $* --seed 99' to succeed"
[ "$(grep -v '^#' "$tmp/a" | sed 1d)" = \
  "$(grep -v '^#' "$tmp/c" | sed 1d)" ] &&
	bad "other ops with --seed 99"
[ "$(grep '^scenario' "$tmp/a")" = "$(grep '^scenario' "$tmp/c")" ] &&
	bad "another scenario name with --seed 99"
from_file=$("$rmapsim" run "$tmp/a" | tail -n 1)
from_stdin=$("$rmapsim" run - <"$tmp/a" | tail -n 1)
if [ -z "$from_file" ] || [ "$from_file" != "$from_stdin" ]; then
	bad "'$from_file' from stdin, got '$from_stdin'"
fi
finish
