#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh ABIDW ABIDIFF BASELINE LIBRARY HEADERS_DIR...
#
# Describe LIBRARY with abidw exactly as "meson compile abi-update" does,
# and abidiff the description against BASELINE.  Comparing two
# descriptions, not the baseline against the ELF file, makes both sides go
# through the same header filter (abidiff applied to the ELF file lets a
# changed size of a type that reaches the API through a pointer pass).
# Exit status: abidiff's, 0 when nothing changed.
set -eu

if [ $# -lt 5 ]; then
	echo "check.sh:$LINENO: expected ABIDW ABIDIFF BASELINE LIBRARY HEADERS_DIR..., got $# arguments" >&2
	exit 2
fi
abidw=$1
abidiff=$2
baseline=$3
library=$4
shift 4

headers=
for dir in "$@"; do
	headers="$headers --headers-dir $dir"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2086
"$abidw" --drop-private-types --no-corpus-path --no-comp-dir-path \
	--no-show-locs $headers --out-file "$tmp/fresh.abi" "$library"

status=0
"$abidiff" "$baseline" "$tmp/fresh.abi" || status=$?
if [ "$status" -ne 0 ]; then
	echo "check.sh: the ABI of $library differs from $baseline (abidiff status $status)." >&2
	echo "check.sh: if the change is intended, run 'meson compile -C BUILD abi-update' and commit abi/libpriotree.abi with it." >&2
	exit "$status"
fi
echo "check.sh: $library has the ABI of $baseline"
