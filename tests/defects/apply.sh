#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Put one seed defect back into copies of the tree's sources:
#
#   tests/defects/apply.sh PATCH SOURCE OUTPUT [SOURCE OUTPUT]...
#
# Each SOURCE (a file of src/) is copied under its own name into a scratch
# src/, PATCH is applied there with patch -p1 --fuzz=0, and the result is
# written to OUTPUT.  Strict on purpose: a hunk that does not apply, or a
# file of the patch that is not among the SOURCEs, fails the build, so the
# defect list has to follow the code.
set -eu

[ $# -ge 3 ] && [ $(($# % 2)) = 1 ] || {
	echo "usage: apply.sh PATCH SOURCE OUTPUT [SOURCE OUTPUT]..." >&2
	exit 2
}
patch=$1
shift
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/src"

i=0
for arg in "$@"; do
	if [ $((i % 2)) = 0 ]; then
		cp "$arg" "$scratch/src/$(basename "$arg")"
	fi
	i=$((i + 1))
done
if ! patch --quiet -p1 --fuzz=0 --batch --forward --no-backup-if-mismatch \
	--reject-file=- -d "$scratch" <"$patch"; then
	echo "$patch:1: expected to apply with --fuzz=0 to $(cd "$scratch/src" && ls | tr '\n' ' ')" >&2
	exit 1
fi
while [ $# -gt 0 ]; do
	cp "$scratch/src/$(basename "$1")" "$2"
	shift 2
done
