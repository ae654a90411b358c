#!/bin/bash
# run.sh BUILDDIR: the tree benchmark as reported in docs/tree-benchmark.md.
# Wall time: medians of 7 runs of each structure in one process.
# Instructions: callgrind's count for one process running one structure
# once; it includes generating the data, which is the same for all.
set -euo pipefail
ptbench=${1:-build}/bench/tree/ptbench
for w in rmap-test1 rmap-test3 test-mmap3 random; do
	"$ptbench" --workload "$w" --runs 7
	for s in prio itree list; do
		[ "$s" = list ] && [ "$w" != rmap-test1 ] && [ "$w" != rmap-test3 ] && continue
		ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$ptbench" --workload "$w" --runs 1 --only "$s" 2>&1 >/dev/null |
			awk '/Collected/ { print $4 }')
		printf '  %-6s %14s instructions (1 run: build + all queries + teardown + data)\n' "$s" "$ir"
	done
	echo
done
