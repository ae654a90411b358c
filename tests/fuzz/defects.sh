#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Can the prio tree harness catch the seed's defects?  Each patch in
# tests/defects/ (README, "Defects in the posted algorithm") puts one of
# them back into a copy of src/:
#
#   01  size levels use index_bits size bits, so prio_tree_expand()
#       misplaces old subtrees
#   02  the query walk keeps bit 0 of iter->value when it climbs out of
#       the size levels
#   03  index_bits_to_maxindex is filled only by prio_tree_init(), which
#       nobody calls
#
#   tests/fuzz/defects.sh [SECONDS] [OUTDIR]
#
# builds fuzz_prio_tree against each defective copy and fuzzes it from an
# empty corpus (-seed=1) until the first finding or SECONDS (default 300).
# A defect that survives fails the script.  Prints one line per defect:
# the executions to the finding and the message that caught it.
set -u

seconds=${1:-300}
out=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
survivors=0

for patch in "$src"/tests/defects/*.patch; do
	name=$(basename "$patch" .patch)
	tree=$out/$name
	rm -rf "$tree"
	mkdir -p "$tree/corpus" "$tree/findings"
	cp -r "$src/src" "$src/include" "$src/compat" "$tree/"
	patch -s -p1 -d "$tree" < "$patch" || {
		echo "$patch: expected to apply to src/" >&2
		exit 2
	}
	# shellcheck disable=SC2046
	clang -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -DCONFIG_PRIO_TREE_DEBUG=1 \
		-fno-strict-aliasing -I"$tree/include" -I"$tree/compat" \
		"$here/fuzz_prio_tree.c" $(sed -n 's/^prio_tree: //p' \
		"$here/sources.txt" | tr ' ' '\n' | sed "s|^|$tree/|") \
		-o "$tree/fuzz_prio_tree" || exit 2
	nice -n 15 "$tree/fuzz_prio_tree" -max_total_time="$seconds" \
		-seed=1 -artifact_prefix="$tree/findings/" \
		"$tree/corpus" > "$tree/fuzz.log" 2>&1
	if [ -z "$(ls "$tree/findings")" ]; then
		echo "$name: SURVIVED $seconds s"
		survivors=$((survivors + 1))
		continue
	fi
	execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$tree/fuzz.log" | tail -1)
	why=$(grep -m1 "expected \|prio_tree: \|ERROR: AddressSanitizer\|runtime error" \
		"$tree/fuzz.log")
	echo "$name: caught after ${execs:-a handful of} executions: $why"
done
[ "$survivors" -eq 0 ]
