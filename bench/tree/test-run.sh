#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-run.sh BUILDDIR OUTDIR: run.sh --all at its smallest (itest and
# n = 1000, 2 rounds of 1 run), then check what it wrote: a ns.csv row per
# subject, point and round, each pinned to a CPU; the rounds' ratio
# ranges in tables.md; both plots.  Not the figures themselves, which
# this machine's load decides.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2
rm -rf "$out"
WORKLOADS=itest SCALE=1000 CG_SCALE=1000 ROUNDS=2 RUNS=1 \
	"$here/run.sh" --all "$out" "$build"

fail() { echo "test-run.sh: $*" >&2; exit 1; }
header=$(head -1 "$out/ns.csv")
[ "${header##*,cpu,round}" = "" ] || fail "ns.csv header: $header"
for point in itest,100 scale,1000; do
	for round in 1 2; do
		rows=$(grep -c "^$point,.*,[0-9]*,$round\$" "$out/ns.csv" || true)
		[ "$rows" -ge 2 ] ||
			fail "ns.csv: $rows rows for $point round $round, expected every subject"
	done
done
for subject in prio-vma prio-inline prio-node; do
	grep -q "^| itest | $subject | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* ([0-9.]*-[0-9.]*) |" \
		"$out/tables.md" ||
		fail "tables.md: no ratio range for itest's $subject"
done
grep -q '^| scale 1,000 | prio-vma |' "$out/tables.md" ||
	fail "tables.md: no scaling ratio row"
grep -q '^lanes: ' "$out/machine.txt" || fail "machine.txt: no lanes line"
for png in scale-ns.png scale-ir.png; do
	[ -s "$out/$png" ] || fail "$png missing"
done
echo "test-run.sh: ok"
