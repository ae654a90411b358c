#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check_man.sh GROFF PAGE...
#
# Each page must render with groff's man macros and every warning on
# (-ww) without a single diagnostic: what man(1) shows a reader.
set -eu

if [ $# -lt 2 ]; then
	echo "check_man.sh:$LINENO: expected GROFF PAGE..., got $# arguments" >&2
	exit 2
fi
groff=$1
shift

bad=0
for page in "$@"; do
	if ! out=$("$groff" -man -Tutf8 -ww -z "$page" 2>&1) || [ -n "$out" ]; then
		printf '%s\n' "$out" >&2
		echo "check_man.sh: expected $page to render without warnings" >&2
		bad=1
		continue
	fi
	# a page that renders to nothing is no page
	if [ "$("$groff" -man -Tutf8 "$page" 2>/dev/null | grep -c .)" -lt 5 ]; then
		echo "check_man.sh: expected $page to render to some text" >&2
		bad=1
		continue
	fi
	echo "check_man.sh: $page: ok"
done
exit $bad
