#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gen_compare.sh RMAPSIM WORKDIR NAME GEN-ARG...
#
# Generates a scenario with "rmapsim gen GEN-ARG...", then checks that
#  - "rmapsim compare" finds all twelve scheme combinations in agreement
#    with ground truth and with each other (exit 0), and
#  - "rmapsim run" under every combination prints the same PT-DIGEST
#    line, with the scenario's own name, as compare does.
set -u

rmapsim=$1
# meson passes a path relative to the build directory
case $rmapsim in
/*) ;;
*) rmapsim=$PWD/$rmapsim ;;
esac

# Under meson's valgrind setup the wrapper sees only this shell: check
# rmapsim itself instead, and leave through exec so that the shell's own
# leaks are not reported as ours.
vg=
if [ -n "${PRIOTREE_UNDER_VALGRIND:-}" ] && command -v valgrind >/dev/null
then
	vg="valgrind --error-exitcode=99 --leak-check=full"
	vg="$vg --errors-for-leak-kinds=definite,indirect --quiet"
fi
workdir=$2
name=$3
shift 3
scn="$workdir/$name.scn"

mkdir -p "$workdir" || exit 1
if ! "$rmapsim" gen "$@" >"$scn"; then
	echo "$scn:1: expected 'rmapsim gen $*' to succeed"
	exit 1
fi
header=$(grep -m 1 '^scenario ' "$scn" | cut -d' ' -f2)

if ! $vg "$rmapsim" compare "$scn" >"$scn.compare"; then
	cat "$scn.compare"
	echo "$scn:1: expected every scheme to agree (table above)"
	exit 1
fi
want=$(tail -n 1 "$scn.compare")
case "$want" in
"PT-DIGEST $header "????????????????) ;;
*)
	echo "$scn:1: expected 'PT-DIGEST $header <16 hex>' last, got '$want'"
	exit 1
	;;
esac

fail=0
for file in pte_chain list prio; do
	for anon in pte_chain anon_vma anonmm anon_vma_chain; do
		got=$("$rmapsim" run --file=$file --anon=$anon "$scn" |
		      tail -n 1)
		if [ "$got" != "$want" ]; then
			echo "$scn:1: expected '$want' from run --file=$file --anon=$anon, got '$got'"
			fail=1
		fi
	done
done
[ $fail -eq 0 ] && echo "$name: 12 combinations agree, $want"
exec sh -c "exit $fail"
