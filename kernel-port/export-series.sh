#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# export-series.sh - the kernel port as a patch series for Linux 6.1.
#
#   kernel-port/export-series.sh OUTDIR
#
# Writes OUTDIR/0000-cover-letter.patch and OUTDIR/00NN-*.patch, a
# "git format-patch" series that applies with "git am" to a pristine
# linux-source-6.1 tree:
#
#   1  mm: give vm_area_struct the prio tree linkage
#        kernel-port/patches/0001 + include/linux/prio_tree.h
#   2  lib: add lib/priotree, the radix priority search tree
#        kernel-port/patches/0002 + include/linux/vma_prio_tree.h,
#        include/linux/prio_tree_walk.h and every other twin
#        (port.sh --twins): the library is generated
#        from src/ and include/linux/, never kept as a copy
#   3  mm: reach address_space->i_mmap only through struct i_mmap_root
#        kernel-port/patches/0003
#   4  mm: CONFIG_I_MMAP_PRIO_TREE: index i_mmap with the prio tree
#        kernel-port/patches/0004
#
# Every patch carries "Signed-off-by:" from $PRIOTREE_SIGNOFF ("Name
# <email>") or, without it, git config user.name and user.email.
#
# Checks, each fatal:
#   - bisectability: after each patch, the .c files it touches (and, for
#     a header, a few objects that include it) compile with W=1 in a
#     tinyconfig + configs/base.config build, reconfigured per patch;
#   - scripts/checkpatch.pl --strict reports no ERROR on any patch, and
#     every WARNING type left has a justification below, which the cover
#     letter quotes;
#   - the series applied with "git am" to a fresh pristine tree gives
#     the very tree port.sh makes (PRIOTREE_EXPORT_COMPARE=0 skips this).
#
# The pristine tree and its git history are kept in
# $PRIOTREE_KBUILD/export/ (default /var/tmp/libpriotree-kbuild), so a
# second run starts from the same commit without extracting again.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
kbuild=${PRIOTREE_KBUILD:-/var/tmp/libpriotree-kbuild}
tarball=${PRIOTREE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${PRIOTREE_JOBS:-2}
work=$kbuild/export

die() {
	echo "export-series.sh: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: export-series.sh OUTDIR"
out=$1
[ -f "$tarball" ] || die "$tarball missing: install linux-source-6.1"
command -v git >/dev/null || die "git missing"

signoff=${PRIOTREE_SIGNOFF:-}
if [ -z "$signoff" ]; then
	name=$(git -C "$repo" config user.name || true)
	email=$(git -C "$repo" config user.email || true)
	[ -n "$name" ] && [ -n "$email" ] ||
		die "no Signed-off-by identity: set PRIOTREE_SIGNOFF=\"Name <email>\" or git config user.name and user.email"
	signoff="$name <$email>"
fi
case $signoff in
*" <"*@*">") ;;
*) die "PRIOTREE_SIGNOFF must read \"Name <email>\", got \"$signoff\"" ;;
esac
author_name=${signoff% <*}
author_email=${signoff##*<}
author_email=${author_email%>}

# Why each checkpatch WARNING type that may remain is acceptable.  A
# type not listed here fails the export: justify it or fix the code.
justify() {
	case $1 in
	FILE_PATH_CHANGES)
		echo "new files under lib/priotree/ and include/linux/: patch 2 adds their MAINTAINERS entry" ;;
	AVOID_BUG)
		echo "in prio_tree.c, vma_prio_tree.c and prio_tree_walk.h every BUG_ON() and BUG() is under IS_ENABLED(CONFIG_PRIO_TREE_DEBUG), an option that exists to stop at the first broken invariant, and every VM_BUG_ON() compiles to nothing without CONFIG_DEBUG_VM, as elsewhere in mm/; the others are in rsim/, the reverse-mapping model that only the KUnit suite (CONFIG_PRIO_TREE_KUNIT_TEST) builds, where a broken model invariant must stop the test; no production config contains one" ;;
	MACRO_ARG_REUSE)
		echo "RADIX_INDEX/HEAP_INDEX-style accessors and the seed's INIT_ macros take a vma or node pointer that callers never give with side effects, as in the 2.6 original" ;;
	MACRO_WITH_FLOW_CONTROL)
		echo "vma_interval_tree_foreach() is an iterator macro like list_for_each_entry()" ;;
	SUSPECT_CODE_INDENT)
		echo "the for-loop macro body of vma_interval_tree_foreach(): checkpatch reads the macro continuation as misindented code" ;;
	CONFIG_DESCRIPTION)
		echo "the help texts are complete; checkpatch counts lines, and the debug and KUnit options are short by design" ;;
	*) return 1 ;;
	esac
}

# ---- the pristine tree, once, with a git history of one commit -------
pristine=$work/pristine
if [ ! -d "$pristine/.git" ]; then
	echo "export-series.sh: extracting $tarball into $pristine" >&2
	rm -rf "$pristine" "$work/extract"
	mkdir -p "$work/extract"
	tar -C "$work/extract" -xf "$tarball" || die "cannot extract $tarball"
	mv "$work/extract"/* "$pristine"
	rmdir "$work/extract"
	git -C "$pristine" init -q
	git -C "$pristine" add -A -f .
	git -C "$pristine" -c user.name=Linux -c user.email=linux@localhost \
		commit -q -m "Linux 6.1 (Debian linux-source-6.1)"
fi
base=$(git -C "$pristine" rev-list --max-parents=0 HEAD)
tree=$work/series
rm -rf "$tree"
git clone -q --shared "$pristine" "$tree"
git -C "$tree" config user.name "$author_name"
git -C "$tree" config user.email "$author_email"

# The commit message of kernel-port/patches/NNNN: its subject without
# "[PATCH n/m]", then the body down to the "---" line.
patch_message() {
	sed -n '/^Subject:/,/^$/{s/^Subject: *\(\[PATCH[^]]*\] *\)*//;/^$/!p}' "$1" |
		tr '\n' ' ' | sed 's/  */ /g; s/ $//'
	echo
	echo
	awk 'h == 0 && /^$/ { h = 1; next } h == 1 && /^---$/ { exit }
	     h == 1 { print }' "$1"
}

# Copy the twins whose repository path matches the awk pattern $1.
copy_twins() {
	"$here/port.sh" --twins | awk -v re="$1" '$1 ~ re' |
		while read -r from to; do
			mkdir -p "$tree/$(dirname "$to")"
			cp "$repo/$from" "$tree/$to"
		done
}

commit() {
	git -C "$tree" add -A -f .
	git -C "$tree" commit -q -s -F - ||
		die "committing \"$1\" failed"
}

# 1: the vma linkage needs struct raw_prio_tree_node
p1=$(ls "$here"/patches/0001-*.patch)
patch -d "$tree" -p1 -s -f --no-backup-if-mismatch <"$p1" ||
	die "$p1 does not apply to a pristine tree"
copy_twins '^include/linux/prio_tree\.h$'
patch_message "$p1" | commit "patch 1"

# 2: the library, from src/ and include/linux/, hooked into lib/
p2=$(ls "$here"/patches/0002-*.patch)
patch -d "$tree" -p1 -s -f --no-backup-if-mismatch <"$p2" ||
	die "$p2 does not apply after patch 1"
copy_twins '^(src/|include/linux/)'
# a MAINTAINERS entry, in its alphabetical place
awk -v m="$signoff" 'done == 0 && /^PROC FILESYSTEM$/ {
	print "PRIO TREE (RADIX PRIORITY SEARCH TREE)"
	print "M:\t" m
	print "L:\tlinux-mm@kvack.org"
	print "S:\tMaintained"
	print "F:\tinclude/linux/prio_tree.h"
	print "F:\tinclude/linux/prio_tree_walk.h"
	print "F:\tinclude/linux/vma_prio_tree.h"
	print "F:\tlib/priotree/"
	print ""
	done = 1 }
	{ print }
	END { if (!done) exit 1 }' "$tree/MAINTAINERS" >"$tree/MAINTAINERS.new" ||
	die "no PROC FILESYSTEM entry in MAINTAINERS to place the new entry before"
mv "$tree/MAINTAINERS.new" "$tree/MAINTAINERS"
{
	echo "lib: add lib/priotree, the radix priority search tree"
	echo
	cat <<'EOF'
The radix priority search tree (E. M. McCreight, "Priority Search
Trees", SIAM J. Computing 14(2), 1985) indexed address_space->i_mmap
from 2.6.7 until 3.7 replaced it with an augmented rbtree.  This adds
it back as a library under lib/priotree/, with the fixes the kernel
made to it after its first posting (size levels always use
BITS_PER_LONG bits; the query walk resets the stale bit it kept when
leaving the size levels) and the 2.6.10 generalisation to nodes that
carry their own start and last:

  prio_tree.c        insert, remove, replace, lookup, bulk build and
                     the stabbing query in O(log n + m)
  prio_tree_check.c  prio_tree_check(), which names the first of the
                     invariants (1)-(6) of <linux/prio_tree.h> that a
                     tree breaks
  vma_prio_tree.c    the vm_set vma layer of <linux/vma_prio_tree.h>:
                     vmas of an identical range share one tree node
  rsim/, corpus/     KUnit only (PRIO_TREE_KUNIT_TEST): a scenario
                     corpus and the reverse-mapping models it drives,
                     which print one PT-DIGEST line per scenario for
                     comparison with the userspace build of the same
                     files
  priotree.c         the userspace library's plain C API; never built
                     here

These files are the libpriotree sources, byte for byte: the same files
build and are tested in userspace.  Nothing uses the library yet.

Also give the library a MAINTAINERS entry.
EOF
} | commit "patch 2"

# 3 and 4: the mm patches as they are
for n in 0003 0004; do
	p=$(ls "$here"/patches/$n-*.patch)
	patch -d "$tree" -p1 -s -f --no-backup-if-mismatch <"$p" ||
		die "$p does not apply"
	patch_message "$p" | commit "patch $n"
done

# ---- bisectability: each patch compiles on its own --------------------
objdir=$work/out
mkdir -p "$objdir"
kmake() {
	nice -n 10 make -C "$tree" O="$objdir" ARCH=x86_64 -j"$jobs" "$@"
}
# Objects every header change is tried against: users of the vma
# linkage, of i_mmap and of the tree.
# The .s targets compile with every flag and W=1 warning of the .o build
# but skip W=1's kernel-doc pass, which flags comments in Debian's own
# 6.1 kernel/fork.c that this series does not touch.
probes="mm/mmap.s mm/memory.s mm/interval_tree.s kernel/fork.s fs/inode.s"
commits=$(git -C "$tree" rev-list --reverse "$base..HEAD")
i=0
for c in $commits; do
	i=$((i + 1))
	git -C "$tree" checkout -q "$c"
	kmake tinyconfig >"$objdir/config.log" 2>&1 ||
		die "patch $i: make tinyconfig failed ($objdir/config.log)"
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$objdir" \
		"$objdir/.config" "$here/configs/base.config" \
		>>"$objdir/config.log" 2>&1 ||
		die "patch $i: merge_config.sh failed ($objdir/config.log)"
	kmake olddefconfig >>"$objdir/config.log" 2>&1 ||
		die "patch $i: olddefconfig failed"
	objs=$probes
	for f in $(git -C "$tree" diff --name-only "$c~1" "$c" -- '*.c'); do
		case $f in
		lib/priotree/priotree.c) continue ;;	# userspace only
		lib/priotree/*/*.c)
			grep -q '^CONFIG_PRIO_TREE_KUNIT_TEST=y' "$objdir/.config" ||
				continue ;;
		esac
		objs="$objs ${f%.c}.s"
	done
	for o in $objs; do
		rm -f "$objdir/$o"
	done
	# shellcheck disable=SC2086
	if ! kmake W=1 $objs >"$objdir/bisect-$i.log" 2>&1; then
		grep -E 'error|Error' "$objdir/bisect-$i.log" | head -20 >&2
		die "patch $i does not build on its own: $objdir/bisect-$i.log"
	fi
	if grep -E 'warning:' "$objdir/bisect-$i.log" >&2; then
		die "patch $i: W=1 warnings (above)"
	fi
	echo "export-series.sh: patch $i builds:$(echo " $objs" | tr -s ' ')" >&2
done
git -C "$tree" checkout -q "$c"

# ---- the series -----------------------------------------------------
rm -rf "$out"
mkdir -p "$out"
git -C "$tree" format-patch -q --cover-letter --no-signature \
	--base="$base" -o "$(cd "$out" && pwd)" "$base..HEAD" ||
	die "git format-patch failed"

# checkpatch: no ERROR; every WARNING type justified
report=$out/.checkpatch.txt
: >"$report"
errors=0
for p in "$out"/00*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	(cd "$tree" && perl scripts/checkpatch.pl --strict --show-types \
		--no-summary --terse "$p") >>"$report" 2>&1 || true
done
errors=$(grep -c ': ERROR:' "$report" || true)
if [ "$errors" != 0 ]; then
	grep ': ERROR:' "$report" >&2
	die "checkpatch --strict: $errors errors (above)"
fi
types=$(sed -n 's/.*: WARNING:\([A-Z_]*\):.*/\1/p' "$report" | sort | uniq -c)
just=
unjustified=
for t in $(echo "$types" | awk '{ print $2 }'); do
	why=$(justify "$t") || { unjustified="$unjustified $t"; continue; }
	count=$(echo "$types" | awk -v t="$t" '$2 == t { print $1 }')
	just="$just
  $t ($count): $why"
done
if [ -n "$unjustified" ]; then
	grep -E ": WARNING:($(echo $unjustified | tr ' ' '|')):" "$report" >&2
	die "checkpatch --strict warnings without a justification:$unjustified"
fi
checks=$(grep -c ': CHECK:' "$report" || true)

cover=$out/0000-cover-letter.patch
python3 - "$cover" "$just" "$checks" <<'PY'
import sys
path, just, checks = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
blurb = """This series gives address_space->i_mmap back the radix priority search
tree that indexed it from 2.6.7 to 3.6, as an option
(CONFIG_I_MMAP_PRIO_TREE), to measure and test it under today's mm.

Patch 1 gives vm_area_struct the tree's linkage inside the existing
"shared" union, so the vma does not grow.  Patch 2 adds the tree and
its vm_set vma layer as lib/priotree/, generated byte for byte from the
libpriotree sources, with a KUnit scenario corpus.  Patch 3 puts i_mmap
behind struct i_mmap_root and the vma_interval_tree_*() API, with no
functional change.  Patch 4 adds the option.

The prio tree does not visit vmas in vm_pgoff order, which mremap's
lockless pte move relied on: with the option, copy_vma() always asks
for the rmap locks when a file vma moves, as 2.6.7-3.6 did.

Each patch builds on its own (the touched objects, W=1, tinyconfig
plus the port's base.config).  checkpatch.pl --strict reports no
error; %s CHECK notes remain (alignment and style notes on code kept
as the userspace library has it), and these warnings, each justified:
%s
""" % (checks, just if just else "\n  (none)")
text = text.replace("*** SUBJECT HERE ***",
                    "mm: i_mmap on the radix priority search tree again")
text = text.replace("*** BLURB HERE ***", blurb.rstrip())
open(path, "w").write(text)
PY

# ---- the series applies to pristine 6.1 and gives port.sh's tree ------
check=$work/applied
rm -rf "$check"
git clone -q --shared "$pristine" "$check"
# every patch but the cover letter, which git am takes for an empty one
set --
for p in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ "${p##*/}" = 0000-cover-letter.patch ] || set -- "$@" "$p"
done
git -C "$check" -c user.name=check -c user.email=check@localhost \
	am -q "$@" ||
	die "the series does not apply with git am to pristine 6.1"
if [ "${PRIOTREE_EXPORT_COMPARE:-1}" != 0 ]; then
	port=$("$here/port.sh" | sed -n 's/^PORT-TREE //p') ||
		die "port.sh failed"
	# the port leaves the twins and patched files; the series must
	# too, and nothing else may differ (MAINTAINERS aside)
	diffs=$(diff -rq -x .git -x .libpriotree-patches -x MAINTAINERS \
		"$check" "$port" 2>&1 || true)
	[ -z "$diffs" ] || {
		echo "$diffs" >&2
		die "the series and port.sh give different trees (above)"
	}
	echo "export-series.sh: the series gives port.sh's tree ($port)" >&2
fi

echo "export-series.sh: $(ls "$out"/00*.patch | wc -l) files in $out; checkpatch: 0 errors, $(grep -c ': WARNING:' "$report" || true) warnings, $checks checks"
