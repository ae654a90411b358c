#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demonstration, from a fresh Debian 12 machine: installs what the
# build needs (deps.sh build), builds libpriotree and its tools, then
#  1. prints the headline: the seed's benchmark table (rmap-test 1-3,
#     test-mmap2/3) replayed under objrmap over a list, over the prio
#     tree and under pte_chain, as ratios from one run, beside the 2004
#     times (scripts/headline.py);
#  2. asks the live machine "who maps page 0 of libc?" through a prio tree
#     built from /proc/*/maps (the question objrmap asks of i_mmap);
#  3. answers stabbing queries over an interval file;
#  4. replays the seeds' shapes under every reverse-mapping scheme,
#     checked against each other and against ground truth.
#
# usage: scripts/demo.sh [BUILD_DIR]
# With BUILD_DIR, an existing build's tools are used, and nothing is
# installed or built.
set -euo pipefail
build=
if [ $# -gt 0 ]; then
	build=$(cd "$1" && pwd)
fi
cd "$(dirname "$0")/.."

if [ -z "$build" ]; then
	build=build-demo
	bash scripts/deps.sh build >&2
	if [ ! -d "$build" ]; then
		meson setup "$build" -Dtests=false >/dev/null
	fi
	meson compile -C "$build" >/dev/null
fi

bin=$build/tools
rmapsim=$bin/rmapsim/rmapsim
libc=$(ldd /bin/sh | awk '/libc\.so/ { print $3 }')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== 1. the seed's table, replayed: objrmap over a list, over the prio tree, and pte_chain"
python3 scripts/headline.py "$rmapsim"

echo
echo "== 2. who maps the first page of $libc, right now?"
# Whole into a file, not through head: on a machine where many processes
# map libc, head would exit first, and ptquery die of SIGPIPE, which
# pipefail makes the demo's end.
"$bin/ptquery" maps "$libc" 0 >"$tmp/maps"
awk 'NR <= 12; END { if (NR > 12) print "  ... and " NR - 12 " more" }' \
	"$tmp/maps"

echo
echo "== 3. stabbing queries over examples/intervals.txt"
"$bin/ptquery" intervals examples/intervals.txt 5 100-120 18446744073709551615

echo
echo "== 4. the seeds' workloads under every rmap scheme"
for kind in "rmap-test -l -i 1 -n 100 -s 30 -t 10" "test-mmap2" \
	    "fork-exec-mix -i 200" "avc-fork-chain -t 32"; do
	# shellcheck disable=SC2086
	"$rmapsim" gen $kind > "$tmp/s.txt"
	echo
	echo "-- rmapsim gen $kind | rmapsim compare"
	"$rmapsim" compare "$tmp/s.txt"
done
