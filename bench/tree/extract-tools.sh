#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# extract-tools.sh TARBALL OUTDIR: take the kernel's own userspace copy of
# the rbtree and interval tree (tools/include, tools/lib/rbtree.c) out of
# the installed linux-source tarball, for the peer in ptbench.  Nothing of
# it is ever copied into this repository.
set -euo pipefail
tarball=$1 out=$2
if [ ! -r "$tarball" ]; then
	echo "extract-tools.sh: $tarball not found: install linux-source-6.1 (scripts/deps.sh)" >&2
	exit 1
fi
top=$(basename "$tarball" .tar.xz)
rm -rf "$out/src"
mkdir -p "$out/src"
tar xf "$tarball" -C "$out/src" "$top/tools/include" "$top/tools/arch/x86/include" \
	"$top/tools/lib/rbtree.c"
rm -rf "$out/tools"
mv "$out/src/$top/tools" "$out/tools"
rm -rf "$out/src"
cp "$out/tools/lib/rbtree.c" "$out/rbtree.c"
echo "/* tools/include extracted from $tarball */" > "$out/linux-tools.h"
