#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-identity.sh - prove the port copied and did not edit, and that the
# two worlds differ only in their seam headers.
#
#   kernel-port/check-identity.sh TREE [OBJDIR]
#
# 1. Every twin (the rule at the top of port.sh: the headers under
#    include/linux/ and src/ minus its meson files) is byte-identical in
#    TREE (cmp), printed with its sha256.
# 2. Userspace side: the compiler's own dependency list (cc -M) of each
#    ported C file, classified.  Every header is a ported twin, a compat/
#    seam header, a system (libc/UAPI) header or, for the userspace-only
#    priotree.c, <priotree.h>; anything else fails.
#    KUnit wrappers (*_kunit.c) are kernel-only and skipped here.
# 3. Kernel side (when OBJDIR holds a build): the dependency lists kbuild
#    recorded for the same objects (.*.o.cmd; a twin this configuration
#    does not build, such as priotree.c, is named and skipped),
#    classified the same way:
#    a ported twin, a kernel header that a kernel-port patch changes (the
#    kernel's seam), or an untouched kernel header.  A dependency inside
#    the repository that is not a twin fails.
# Exit 0 only when every check holds.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || {
	echo "usage: check-identity.sh TREE [OBJDIR]" >&2
	exit 2
}
tree=$(cd "$1" && pwd)
objdir=${2:-}
fail=0

pairs=$("$here/port.sh" --twins)

echo "== byte identity (repo file -> kernel tree file)"
identity=$(echo "$pairs" | while read -r from to; do
	if cmp -s "$repo/$from" "$tree/$to"; then
		sum=$(sha256sum <"$repo/$from" | cut -c1-16)
		printf 'IDENTICAL %-34s %-34s %s\n' "$from" "$to" "$sum"
	else
		printf 'DIFFERENT %-34s %-34s\n' "$from" "$to"
	fi
done)
echo "$identity"
if echo "$identity" | grep -q '^DIFFERENT'; then
	echo "check-identity: a ported file differs from its twin" >&2
	exit 1
fi

# the kernel files the patches change: the kernel side of the seam
patched=$(sed -n 's|^+++ b/||p' "$here"/patches/*.patch | sort -u)

is_twin_repo() {
	echo "$pairs" | awk -v f="$1" '$1 == f { found = 1 } END { exit !found }'
}

is_twin_tree() {
	echo "$pairs" | awk -v f="$1" '$2 == f { found = 1 } END { exit !found }'
}

echo "== userspace dependencies of the ported C files (cc -M)"
for from in $(echo "$pairs" | awk '$1 ~ /\.c$/ && $1 !~ /_kunit\.c$/ { print $1 }'); do
	deps=$(cd "$repo" && ${CC:-cc} -M -Icompat -Iinclude \
		"$from" | sed 's/^[^:]*://; s/\\$//' | tr ' ' '\n' | grep -v '^$')
	for dep in $deps; do
		abs=$(cd "$repo" && realpath "$dep")
		rel=${abs#"$repo"/}
		if [ "$rel" = "$from" ]; then
			continue
		elif is_twin_repo "$rel"; then
			kind=twin
		elif [ "${rel#compat/}" != "$rel" ]; then
			kind=seam-userspace
		elif [ "$rel" = include/priotree.h ]; then
			# the userspace API, for priotree.c, which the
			# kernel never builds
			kind=userspace-api
		elif [ "$rel" = "$abs" ] && [ "${abs#/usr/}" != "$abs" ]; then
			kind=system
		else
			kind=UNEXPECTED
			fail=1
		fi
		printf '%-16s %-30s %s\n' "$kind" "$from" "$rel"
	done
done | sort | uniq | awk '$1 == "system" { sys++; next }
	{ print } $1 == "UNEXPECTED" { bad = 1 }
	END { printf "(%d system libc/UAPI header uses not listed)\n", sys; exit bad }' ||
	fail=1

if [ -n "$objdir" ]; then
	echo "== kernel dependencies of the ported objects (kbuild .cmd files)"
	twins_tree=$(echo "$pairs" | awk '{ print $2 }' | tr '\n' ' ')
	for to in $(echo "$pairs" | awk '$2 ~ /\.c$/ { print $2 }'); do
		obj=${to%.c}.o
		cmd=$objdir/$(dirname "$obj")/.$(basename "$obj").cmd
		if [ ! -f "$cmd" ]; then
			echo "check-identity: $to is not built in this configuration" >&2
			continue
		fi
		# one awk over the object's dependency list: a shell loop
		# with a realpath and two greps per header took minutes
		sed -n "/^deps_/,/^\$/p" "$cmd" | grep -v 'wildcard\|^deps_' |
			sed 's/\\$//; s/^ *//' | grep -v '^$' |
			awk -v tree="$tree/" -v to="$to" -v twins="$twins_tree" \
			    -v patched="$(echo $patched)" '
			# "lib/priotree/corpus/../rsim/gen.h" is lib/priotree/rsim/gen.h
			function norm(path,   parts, st, n, i, k, out) {
				n = split(path, parts, "/")
				k = 0
				for (i = 1; i <= n; i++)
					if (parts[i] == "..") {
						if (k > 0)
							k--
					} else if (parts[i] != "." && parts[i] != "")
						st[++k] = parts[i]
				out = st[1]
				for (i = 2; i <= k; i++)
					out = out "/" st[i]
				return out
			}
			BEGIN {
				n = split(twins, t, " ")
				for (i = 1; i <= n; i++)
					twin[t[i]] = 1
				n = split(patched, p, " ")
				for (i = 1; i <= n; i++)
					seam[p[i]] = 1
			}
			{
				sub(/[ \t]+$/, "")
				if (index($0, tree) == 1)
					rel = norm(substr($0, length(tree) + 1))
				else {
					rel = $0
					sub(/^\.\//, "", rel)
					rel = "objdir:" rel
				}
				if (rel == to)
					next
				kind = (rel in twin) ? "twin" : \
				       (rel in seam) ? "seam-kernel" : "kernel"
				printf "%-16s %-30s %s\n", kind, to, rel
			}'
	done | sort | uniq >"$objdir/identity-deps.txt"
	grep -v '^kernel ' "$objdir/identity-deps.txt" || true
	echo "($(grep -c '^kernel ' "$objdir/identity-deps.txt") unmodified kernel headers; full list in $objdir/identity-deps.txt)"
fi

if [ "$fail" != 0 ]; then
	echo "check-identity: a ported file depends on something that is neither a twin nor a seam header" >&2
	exit 1
fi
echo "check-identity: every ported file is identical; the worlds differ only in compat/ and in: $(echo $patched)"
