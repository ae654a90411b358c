#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build target of the install suite: configure a fresh build of the source
# tree with a private --prefix, build it and run `meson install`, the way a
# user or a distribution package would.  A fresh build (not the enclosing
# one) keeps the consumers independent of how the enclosing build is
# configured: a -Db_sanitize or -Dchecker build still installs the plain
# library that outside programs link against.  --buildtype=plain (no -O,
# no -g) because this build is about what gets installed and where, and
# it is rebuilt on every run of the suite; -j 2 because the machines it
# runs on are shared.  -Dkernel_doc=disabled: the section 9 pages would
# decompress the kernel tarball on every run; the enclosing build makes
# and checks them.
#
# Writes @OUTPUT@, a shell fragment that the test scripts source:
#   PRIOTREE_PREFIX   the install prefix
#   PKG_CONFIG_PATH   the prefix's pkgconfig directory, found after install
#                     (its libdir is whatever meson's default is here)
#
# usage: stage_prefix.sh MESON SOURCE_ROOT WORK_DIR OUTPUT
# The compiler comes from $CC, set by tests/install/meson.build to the
# enclosing build's C compiler.

set -eu

if [ $# -ne 4 ]; then
	echo "stage_prefix.sh:$LINENO: expected 4 arguments: MESON SOURCE_ROOT WORK_DIR OUTPUT, got $#" >&2
	exit 2
fi
# (paths relative to the enclosing build directory, which is left below)
absolute() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$PWD/$1" ;;
	esac
}
meson=$1
source_root=$(absolute "$2")
work_dir=$(absolute "$3")
output=$(absolute "$4")

build_dir=$work_dir/stage-build
prefix=$work_dir/stage-prefix
log=$work_dir/stage.log

# Start from nothing: a stale prefix could hide a file that is no longer
# installed.
rm -rf "$build_dir" "$prefix" "$output"
mkdir -p "$work_dir"
# Out of the enclosing build directory, which ninja is building this in.
# meson setup (1.0.1) runs `ninja -t restat` and `ninja -t cleandead` in
# its working directory if that has a .ninja_deps: there they rewrote the
# enclosing build's .ninja_log under the running ninja, whose later
# entries went to the replaced file, so the next build ran all those
# commands again (76 of them after a full build).
cd "$work_dir"

if ! {
	"$meson" setup "$build_dir" "$source_root" \
		--prefix="$prefix" --buildtype=plain -Dtests=false \
		-Dkernel_doc=disabled \
		--wrap-mode=nodownload &&
	"$meson" compile -C "$build_dir" -j 2 &&
	"$meson" install -C "$build_dir" --no-rebuild
} >"$log" 2>&1; then
	cat "$log" >&2
	echo "stage_prefix.sh:$LINENO: expected meson setup/compile/install of $source_root into $prefix to succeed (log: $log)" >&2
	exit 1
fi

pc_files=$(find "$prefix" -name libpriotree.pc)
if [ "$(printf '%s\n' "$pc_files" | grep -c .)" -ne 1 ]; then
	echo "stage_prefix.sh:$LINENO: expected exactly one installed libpriotree.pc under $prefix, found: '$pc_files'" >&2
	exit 1
fi

{
	echo "PRIOTREE_PREFIX='$prefix'"
	echo "PKG_CONFIG_PATH='$(dirname "$pc_files")'"
	echo "export PKG_CONFIG_PATH"
} >"$output.tmp"
mv "$output.tmp" "$output"
