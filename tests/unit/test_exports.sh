#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_exports.sh LIBRARY.so VERSION-SCRIPT
#
# The shared library must export exactly the symbols that the version
# script lists as global: nothing more (a helper leaking out of src/),
# nothing less (an API function that lost its EXPORT_SYMBOL).  Prints the
# difference and exits 1 when they disagree.

set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 LIBRARY.so VERSION-SCRIPT" >&2
	exit 2
fi
lib=$1
map=$2
for f in "$lib" "$map"; do
	if [ ! -r "$f" ]; then
		echo "$0: $f: expected a readable file" >&2
		exit 2
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Defined dynamic symbols; the version node itself (type A) is no export.
nm -D --defined-only "$lib" |
	awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
	sort -u >"$tmp/exported"

# The names between "global:" and "local:" in the version script.
awk '
	/global:/ { on = 1; next }
	/local:/ { on = 0 }
	on && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ {
		gsub(/[ \t;]/, ""); print
	}
' "$map" | sort -u >"$tmp/listed"

if [ ! -s "$tmp/listed" ]; then
	echo "$map: expected a global: section listing symbols" >&2
	exit 1
fi

if ! diff -u "$tmp/listed" "$tmp/exported" >"$tmp/diff"; then
	echo "$lib: exports differ from $map (- listed only, + exported only):"
	tail -n +3 "$tmp/diff" | grep '^[-+]'
	exit 1
fi
echo "$lib: exports exactly the $(wc -l <"$tmp/listed") symbols of $map"
