#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# port.sh - drop libpriotree into a Linux 6.1 tree, byte for byte.
#
#   kernel-port/port.sh [TREE-DIR | TARBALL]
#   kernel-port/port.sh --twins
#
# The twin rule.  These files go into the kernel byte for byte, and
# nothing else from this repository does:
#
#   include/linux/NAME.h            -> include/linux/NAME.h, for every
#                                      header under include/linux/ (the
#                                      API: prio_tree.h, vma_prio_tree.h
#                                      and the inline walk prio_tree_walk.h)
#   src/PATH                        -> lib/priotree/PATH, for every file
#                                      under src/ but the userspace
#                                      build's own: meson.build files and
#                                      libpriotree.map
#
# "--twins" prints the pairs the rule gives, one "REPO-PATH TREE-PATH"
# per line; check-identity.sh and run-suite.sh take them from here, so
# no list of files is kept anywhere.
#
# Without an argument the tree is Debian's linux-source-6.1 tarball,
# extracted once into $PRIOTREE_KBUILD (default /var/tmp/libpriotree-kbuild)
# and kept there, so later runs are incremental.  A directory argument is
# ported in place; a tarball argument is extracted into $PRIOTREE_KBUILD.
#
# Steps: install missing Debian packages (as root only), extract, apply
# kernel-port/patches/*.patch (each once; a changed patch is reversed and
# re-applied), copy the twins (only files whose bytes changed, so make
# sees unchanged mtimes; a file of lib/priotree/ that is no longer a twin
# is deleted), then
# run check-identity.sh.  Prints "PORT-TREE <dir>" last.  Any failure
# exits non-zero with a line that says what is missing and why.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
kbuild=${PRIOTREE_KBUILD:-/var/tmp/libpriotree-kbuild}
tarball=/usr/src/linux-source-6.1.tar.xz

die() {
	echo "port.sh: $*" >&2
	exit 1
}

# The twin rule (above), as "REPO-PATH TREE-PATH" lines, sorted.
twins() {
	(cd "$repo" && find include/linux -type f -name '*.h' |
		LC_ALL=C sort) |
		while read -r from; do
			echo "$from $from"
		done
	(cd "$repo" && find src -type f ! -name meson.build \
		! -name libpriotree.map ! -name '.*' ! -name '*~' | LC_ALL=C sort) |
		while read -r from; do
			echo "$from lib/priotree/${from#src/}"
		done
}

# Debian packages the kernel suite needs, with the file that proves each.
need_packages() {
	missing=
	for pair in linux-source-6.1:$tarball \
		    qemu-system-x86:/usr/bin/qemu-system-x86_64 \
		    busybox-static:/bin/busybox \
		    bc:/usr/bin/bc flex:/usr/bin/flex bison:/usr/bin/bison \
		    libelf-dev:/usr/include/libelf.h \
		    libssl-dev:/usr/include/openssl/ssl.h \
		    cpio:/usr/bin/cpio; do
		[ -e "${pair#*:}" ] || missing="$missing ${pair%%:*}"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		die "missing Debian packages:$missing (not root, so cannot apt-get install them; run as root or install them)"
	fi
	echo "port.sh: installing$missing" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y $missing >&2 ||
		die "apt-get install$missing failed"
}

extract() {
	src=$1
	name=$(basename "$src")
	name=${name%.tar.*}
	tree=$kbuild/$name
	[ -f "$tree/Makefile" ] && return 0
	echo "port.sh: extracting $src into $kbuild" >&2
	mkdir -p "$kbuild"
	rm -rf "$tree.partial"
	mkdir "$tree.partial"
	tar -C "$tree.partial" -xf "$src" || die "cannot extract $src"
	# the tarball holds one top directory; keep only its contents
	top=$(ls "$tree.partial")
	[ -f "$tree.partial/$top/Makefile" ] ||
		die "$src does not look like a kernel tree"
	mv "$tree.partial/$top" "$tree"
	rmdir "$tree.partial"
}

# Each applied patch is kept in $tree/.libpriotree-patches/, so when a
# patch in kernel-port/patches/ changes, the old version is reversed
# (with every later one) and the series re-applied from there: a kept
# tree follows the series without a new extraction.  A tree ported
# before the copies were kept counts a patch as applied when it reverses
# cleanly.
apply_patches() {
	kept=$tree/.libpriotree-patches
	mkdir -p "$kept"
	# the first patch (by name) whose kept copy is missing or differs
	stale=
	for p in "$here"/patches/*.patch "$kept"/*.patch; do
		[ -f "$p" ] || continue
		n=$(basename "$p")
		cmp -s "$here/patches/$n" "$kept/$n" && continue
		if [ ! -f "$kept/$n" ] &&
		   patch -d "$tree" -p1 -R -s -f --dry-run <"$p" >/dev/null 2>&1; then
			cp "$p" "$kept/$n"	# applied before copies were kept
			continue
		fi
		[ -z "$stale" ] || [ "$n" \< "$stale" ] && stale=$n
	done
	[ -n "$stale" ] || return 0

	for p in $(ls -r "$kept"/*.patch 2>/dev/null); do
		n=$(basename "$p")
		[ "$n" \< "$stale" ] && continue
		patch -d "$tree" -p1 -R -s -f --no-backup-if-mismatch <"$p" >/dev/null ||
			die "reversing the old $n failed: delete $tree and port again"
		rm "$p"
		echo "port.sh: reversed the old $n" >&2
	done
	for p in "$here"/patches/*.patch; do
		n=$(basename "$p")
		[ "$n" \< "$stale" ] && continue
		patch -d "$tree" -p1 -N -s -f --dry-run <"$p" >/dev/null 2>&1 ||
			die "$n does not apply to $tree"
		patch -d "$tree" -p1 -N -s -f --no-backup-if-mismatch <"$p" >/dev/null ||
			die "applying $n failed"
		cp "$p" "$kept/$n"
		echo "port.sh: applied $n" >&2
	done
}

copy_files() {
	twins | while read -r from to; do
		if ! cmp -s "$repo/$from" "$tree/$to"; then
			mkdir -p "$(dirname "$tree/$to")"
			cp "$repo/$from" "$tree/$to.new"
			mv "$tree/$to.new" "$tree/$to"
			echo "port.sh: copied $from -> $to" >&2
		fi
	done
	# lib/priotree/ holds twins only: drop what src/ no longer has
	pairs=$(twins)
	(cd "$tree" && find lib/priotree -type f) | while read -r to; do
		echo "$pairs" | awk -v t="$to" '$2 == t { f = 1 } END { exit !f }' &&
			continue
		rm -f "$tree/$to"
		echo "port.sh: removed $to, no longer in src/" >&2
	done
}

if [ "${1:-}" = --twins ]; then
	twins
	exit 0
fi
[ $# -le 1 ] || die "usage: port.sh [TREE-DIR | TARBALL]"
need_packages
if [ $# -eq 1 ] && [ -d "$1" ]; then
	tree=$(cd "$1" && pwd)
	[ -f "$tree/Makefile" ] && [ -d "$tree/mm" ] || die "$1 is not a kernel tree"
else
	extract "${1:-$tarball}"
fi

# one port at a time per tree: meson may start several kernel tests
mkdir -p "$kbuild"
exec 9>"$kbuild/port.lock"
flock 9
apply_patches
copy_files
"$here/check-identity.sh" "$tree" >&2
echo "PORT-TREE $tree"
