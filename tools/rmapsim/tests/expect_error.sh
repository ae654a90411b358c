#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# expect_error.sh RMAPSIM DIR CASE
#
# Runs "rmapsim run CASE.scn" inside DIR (so messages carry the bare file
# name) and checks that the scenario is refused before anything runs:
# exit status 2, nothing on stdout, and stderr exactly as in CASE.err.

. "$(dirname "$0")/lib.sh"
use_rmapsim "$1"
dir=$2
case=$3
subject=$case.scn:1
make_tmp

cd "$dir" || exit 1
$vg "$rmapsim" run --file=prio --anon=anon_vma "$case.scn" \
	>"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || bad "exit status 2, got $status"
if [ -s "$tmp/out" ]; then
	bad "no output before validation, got:"
	cat "$tmp/out"
fi
diff -u "$case.err" "$tmp/err" ||
	bad "the stderr of $case.err (diff above)"
finish
