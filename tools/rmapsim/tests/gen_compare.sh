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

. "$(dirname "$0")/lib.sh"
use_rmapsim "$1"
workdir=$2
name=$3
shift 3
scn="$workdir/$name.scn"
subject=$scn:1

mkdir -p "$workdir" || exit 1
if ! "$rmapsim" gen "$@" >"$scn"; then
	bad "'rmapsim gen $*' to succeed"
	finish
fi
header=$(grep -m 1 '^scenario ' "$scn" | cut -d' ' -f2)

if ! $vg "$rmapsim" compare "$scn" >"$scn.compare"; then
	cat "$scn.compare"
	bad "every scheme to agree (table above)"
	finish
fi
want=$(tail -n 1 "$scn.compare")
case "$want" in
"PT-DIGEST $header "????????????????) ;;
*)
	bad "'PT-DIGEST $header <16 hex>' last, got '$want'"
	finish
	;;
esac

for file in pte_chain list prio; do
	for anon in pte_chain anon_vma anonmm anon_vma_chain; do
		got=$("$rmapsim" run --file=$file --anon=$anon "$scn" |
		      tail -n 1)
		[ "$got" = "$want" ] ||
			bad "'$want' from run --file=$file --anon=$anon, got '$got'"
	done
done
[ $fail -eq 0 ] && echo "$name: 12 combinations agree, $want"
finish
