#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# expect_usage.sh RMAPSIM 'FIRST LINE OF STDERR' ARG...
#
# Runs "rmapsim ARG..." and checks a usage error: exit status 2, nothing
# on stdout, and the first line of stderr exactly as given.

. "$(dirname "$0")/lib.sh"
use_rmapsim "$1"
want=$2
shift 2
subject="rmapsim $*"
make_tmp

$vg "$rmapsim" "$@" >"$tmp/out" 2>"$tmp/err"
status=$?
got=$(head -n 1 "$tmp/err")
[ "$status" -eq 2 ] || bad "exit status 2, got $status"
[ -s "$tmp/out" ] && bad "nothing on stdout"
if [ "$got" != "$want" ]; then
	bad "'$want'"
	echo "$subject: got      '$got'"
fi
finish
