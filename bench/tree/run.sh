#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --all OUTDIR [BUILDDIR]: the whole tree benchmark, one command.
#   1. wall time: every workload, then the scaling series n = 10^3 .. 10^7,
#      each one ptbench process (all subjects interleaved and rotated,
#      medians of RUNS runs; at 10^7 a subject whose run takes longer
#      than CAP seconds stops after that run)              -> OUTDIR/ns.csv
#   2. instructions: the same workloads and n up to 10^6, one ptbench
#      --callgrind process each under callgrind, two at a time
#                                                          -> OUTDIR/ir.csv
#   3. report.py: the tables and the log-log plots          -> OUTDIR/*.md,
#      OUTDIR/*.png; and, when OUTDIR is the source tree's docs/bench-tree,
#      the generated block of docs/benchmarks.md
# Any ptbench failing (subjects disagreeing on hits) fails run.sh.
#
# run.sh BUILDDIR: the quick look, every workload once, 5 runs.
#
# Environment: WORKLOADS, RUNS (5), CAP (10 s), SCALE (1000 ... 10000000),
# CG_SCALE (1000 ... 1000000), JOBS (2 callgrind processes at a time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
workloads=${WORKLOADS:-"itest small rmap mmap3 random manyhits"}

if [ "${1:-}" != --all ]; then
	ptbench=${1:-build}/bench/tree/ptbench
	for w in $workloads; do
		nice "$ptbench" --workload "$w" --runs 5
		echo
	done
	exit 0
fi

out=${2:?usage: run.sh --all OUTDIR [BUILDDIR]}
build=${3:-$src/build}
ptbench=$build/bench/tree/ptbench
RUNS=${RUNS:-5}
CAP=${CAP:-10}
SCALE=${SCALE:-"1000 10000 100000 1000000 10000000"}
CG_SCALE=${CG_SCALE:-"1000 10000 100000 1000000"}
JOBS=${JOBS:-2}

# (the meson run_target has built it already, and holds the build dir)
[ -n "${PTBENCH_BUILT:-}" ] || ninja -C "$build" bench/tree/ptbench >/dev/null
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/run.log
: > "$log"

# what the committed run ran on
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command: bench/tree/run.sh --all ${2} ${3:-build}"
	echo "host: $(uname -srm), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
	echo "compiler: $(cc --version | head -1), meson buildtype $(meson introspect --buildoptions "$build" | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="buildtype"][0])')"
	echo "library: $(git -C "$src" log -1 --format='%h %s' -- src include 2>/dev/null)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "runs: $RUNS, cap at 10^7: $CAP s"
} > "$out/machine.txt"

echo "workload,n,queries,subject,runs,insert_ns,query_ns,remove_ns,hits_per_query,visits_per_query,vhits_per_query,log2n_plus_m" > "$out/ns.csv"

# 1. wall time, one process at a time
for w in $workloads; do
	runs=$RUNS
	[ "$w" = itest ] && runs=$((RUNS > 21 ? RUNS : 21))
	echo "== $w" | tee -a "$log"
	nice "$ptbench" --workload "$w" --runs "$runs" --csv "$out/ns.csv" | tee -a "$log"
done
for n in $SCALE; do
	echo "== scale $n" | tee -a "$log"
	nice "$ptbench" --workload scale --n "$n" --runs "$RUNS" --cap "$CAP" \
		--csv "$out/ns.csv" 2>&1 | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || exit 1
done

# 2. instructions, JOBS processes at a time
cg=$(mktemp -d)
trap 'rm -rf "$cg"' EXIT
cg_one() {	# TAG ARGS...
	local tag=$1
	shift
	mkdir -p "$cg/$tag"
	nice valgrind --tool=callgrind --instr-atstart=no \
		--callgrind-out-file="$cg/$tag/cg.out" \
		"$ptbench" --callgrind "$@" > "$cg/$tag/stdout" 2> "$cg/$tag/stderr" ||
		{ echo "callgrind $tag failed:" >&2; cat "$cg/$tag/stderr" >&2; return 1; }
}
jobs_list=()
for w in $workloads; do
	jobs_list+=("$w --workload $w")
done
for n in $CG_SCALE; do
	jobs_list+=("scale$n --workload scale --n $n")
done
pids=()
for j in "${jobs_list[@]}"; do
	# shellcheck disable=SC2086
	cg_one $j &
	pids+=($!)
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		sleep 1
	done
done
for p in "${pids[@]}"; do
	wait "$p"
done
echo "workload,n,subject,phase,ops,ir" > "$out/ir.csv"
for d in "$cg"/*/; do
	awk '/^desc: Trigger: Client Request: ptbench / {
		w = $6; n = $7; s = $8; p = $9; o = $10 }
	     /^totals:/ { if (w != "") print w "," n "," s "," p "," o "," $2; w = "" }' \
		"$d"/cg.out.*
done | sort -t, -k1,1 -k2,2n -k3,3 -k4,4 >> "$out/ir.csv"
echo "== callgrind: $(($(wc -l < "$out/ir.csv") - 1)) phases" | tee -a "$log"

# 3. tables and plots
doc=
[ "$out" = "$src/docs/bench-tree" ] && doc=$src/docs/benchmarks.md
python3 "$here/report.py" "$out" $doc
