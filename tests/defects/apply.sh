#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Put one seed defect back into copies of the tree's sources:
#
#   tests/defects/apply.sh PATCH SOURCE OUTPUT [SOURCE OUTPUT]...
#
# Each SOURCE (a file of the repository: src/prio_tree.c, or the walk's
# header include/linux/prio_tree_walk.h) is copied under its path in the
# repository into a scratch tree, PATCH is applied there with patch -p1
# --fuzz=0, and the result is written to OUTPUT.  Strict on purpose: a
# hunk that does not apply, or a file of the patch that is not among the
# SOURCEs, fails the build, so the defect list has to follow the code.
set -eu

[ $# -ge 3 ] && [ $(($# % 2)) = 1 ] || {
	echo "usage: apply.sh PATCH SOURCE OUTPUT [SOURCE OUTPUT]..." >&2
	exit 2
}
patch=$1
shift
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# SOURCE's path in the repository, which is the patch's name for it
repo_path() {
	abs=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
	case $abs in
	"$repo"/*) echo "${abs#"$repo"/}" ;;
	*)
		echo "apply.sh: expected $1 to be a file of $repo" >&2
		exit 2 ;;
	esac
}

i=0
names=
for arg in "$@"; do
	if [ $((i % 2)) = 0 ]; then
		rel=$(repo_path "$arg")
		mkdir -p "$scratch/$(dirname "$rel")"
		cp "$arg" "$scratch/$rel"
		names="$names $rel"
	fi
	i=$((i + 1))
done
if ! patch --quiet -p1 --fuzz=0 --batch --forward --no-backup-if-mismatch \
	--reject-file=- -d "$scratch" <"$patch"; then
	echo "$patch:1: expected to apply with --fuzz=0 to$names" >&2
	exit 1
fi
while [ $# -gt 0 ]; do
	cp "$scratch/$(repo_path "$1")" "$2"
	shift 2
done
