#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demonstration, from a fresh Debian 12 machine: installs what is
# missing, builds libpriotree and its tools, then
#  1. asks the live machine "who maps page 0 of libc?" through a prio tree
#     built from /proc/*/maps (the question objrmap asks of i_mmap);
#  2. answers stabbing queries over an interval file;
#  3. replays the seeds' benchmark shapes under every reverse-mapping
#     scheme, checks them against each other and against ground truth,
#     and prints the costs side by side.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh build >&2
if [ ! -d build-demo ]; then
	meson setup build-demo -Dtests=false >/dev/null
fi
meson compile -C build-demo >/dev/null

bin=build-demo/tools
libc=$(ldd /bin/sh | awk '/libc\.so/ { print $3 }')

echo "== 1. who maps the first page of $libc, right now?"
"$bin/ptquery" maps "$libc" 0 | head -n 12

echo
echo "== 2. stabbing queries over examples/intervals.txt"
"$bin/ptquery" intervals examples/intervals.txt 5 100-120 18446744073709551615

if [ -x "$bin/rmapsim/rmapsim" ]; then
	rmapsim=$bin/rmapsim/rmapsim
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo
	echo "== 3. the seeds' workloads under every rmap scheme"
	for kind in "rmap-test -l -i 1 -n 100 -s 30 -t 10" "test-mmap2" \
		    "fork-exec-mix -i 200" "avc-fork-chain -t 32" \
		    "random --seed 1"; do
		# shellcheck disable=SC2086
		"$rmapsim" gen $kind > "$tmp/s.txt"
		echo
		echo "-- rmapsim gen $kind | rmapsim compare"
		"$rmapsim" compare "$tmp/s.txt"
	done
fi
