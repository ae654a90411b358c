#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel-doc-man.sh TARBALL WORK_DIR SOURCE_ROOT OUT_PRIO_TREE OUT_VMA
#
# Section 9 pages of the kernel API, made by the kernel's own
# scripts/kernel-doc (-man) from the kernel-doc comments of the headers and
# sources: prio_tree(9) from include/linux/prio_tree.h and src/prio_tree.c,
# with the plain-node inline query from include/linux/prio_tree_walk.h,
# vma_prio_tree(9) from include/linux/vma_prio_tree.h and
# src/vma_prio_tree.c, and the vma layer's query, which src/prio_tree.c
# holds beside the walk it inlines, with its inline form from
# include/linux/prio_tree_walk.h.  Only scripts/kernel-doc is taken out
# of TARBALL (the Debian linux-source-6.1 one), into WORK_DIR.
set -eu

if [ $# -ne 5 ]; then
	echo "kernel-doc-man.sh:$LINENO: expected TARBALL WORK_DIR SOURCE_ROOT OUT_PRIO_TREE OUT_VMA, got $# arguments" >&2
	exit 2
fi
tarball=$1
work=$2
src=$3
out_prio=$4
out_vma=$5

member=linux-source-6.1/scripts/kernel-doc
mkdir -p "$work"
if [ ! -f "$work/$member" ]; then
	tar -xJf "$tarball" -C "$work" "$member"
fi

# kernel-doc warns on stderr about what it cannot parse: a warning is a
# comment to fix, so it fails the build.  The one exception: a header
# whose functions are documented where they are defined (vma_prio_tree.h)
# has "no structured comments" of its own.
man()
{
	out=$1
	shift
	perl "$work/$member" -man "$@" >"$out.tmp" 2>"$out.all"
	grep -v ': warning: no structured comments found$' "$out.all" \
		>"$out.err" || true
	rm -f "$out.all"
	if [ -s "$out.err" ]; then
		cat "$out.err" >&2
		echo "kernel-doc-man.sh:$LINENO: expected kernel-doc to read $* without warnings" >&2
		exit 1
	fi
	rm -f "$out.err"
	mv "$out.tmp" "$out"
}

man "$out_prio" -nosymbol __vma_prio_tree_first \
	-nosymbol __vma_prio_tree_next "$src/include/linux/prio_tree.h" \
	"$src/src/prio_tree.c" "$src/src/prio_tree_check.c"
man "$out_prio.inline" -function prio_tree_first_inline \
	-function prio_tree_next_inline "$src/include/linux/prio_tree_walk.h"
cat "$out_prio.inline" >>"$out_prio"
rm -f "$out_prio.inline"
man "$out_vma" "$src/include/linux/vma_prio_tree.h" "$src/src/vma_prio_tree.c"
man "$out_vma.query" -function __vma_prio_tree_first \
	-function __vma_prio_tree_next "$src/src/prio_tree.c"
man "$out_vma.inline" -function __vma_prio_tree_first_inline \
	-function __vma_prio_tree_next_inline \
	"$src/include/linux/prio_tree_walk.h"
cat "$out_vma.query" "$out_vma.inline" >>"$out_vma"
rm -f "$out_vma.query" "$out_vma.inline"
