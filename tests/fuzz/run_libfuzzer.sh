#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run_libfuzzer.sh FUZZER SECONDS SCRATCH CORPUS [MORE_INPUT_DIRS...]
#
# The `fuzz` suite's bounded libFuzzer run of one harness:
#  1. replay CORPUS and the other directories once under the sanitizers
#     FUZZER was built with (ASan and UBSan, or MSan)
#     (-runs=0 only executes the inputs already there);
#  2. fuzz for SECONDS (PRIOTREE_FUZZ_SECONDS overrides it), writing new
#     inputs and any crash into SCRATCH, never into the committed corpus.
# A finding fails the test and names the input file to keep as a
# regression (see docs/fuzzing.md).
set -u

[ $# -ge 4 ] || {
	echo "usage: $0 FUZZER SECONDS SCRATCH CORPUS [DIRS...]" >&2
	exit 2
}
fuzzer=$1 seconds=${PRIOTREE_FUZZ_SECONDS:-$2} scratch=$3
shift 3

for dir in "$@"; do
	[ -d "$dir" ] || {
		echo "$dir: expected a corpus directory" >&2
		exit 2
	}
done
rm -rf "$scratch"
mkdir -p "$scratch/new" "$scratch/findings" || exit 2

# 1. every committed input, under the sanitizers
"$fuzzer" -runs=0 -timeout=10 "$@" > "$scratch/replay.log" 2>&1 || {
	cat "$scratch/replay.log"
	echo "$fuzzer: expected every committed input to pass" >&2
	exit 1
}
grep -h "INITED\|DONE" "$scratch/replay.log"

# 2. bounded fuzzing, seeded with the same inputs
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
	-print_final_stats=1 -artifact_prefix="$scratch/findings/" \
	"$scratch/new" "$@" > "$scratch/fuzz.log" 2>&1
status=$?
if [ $status -ne 0 ] || [ -n "$(ls "$scratch/findings")" ]; then
	tail -60 "$scratch/fuzz.log"
	echo "$fuzzer: expected no finding in $seconds s; kept in:" >&2
	ls "$scratch/findings"/* >&2
	exit 1
fi
grep -h "^Done\|stat::" "$scratch/fuzz.log"
exit 0
