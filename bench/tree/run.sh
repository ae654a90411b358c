#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --all OUTDIR [BUILDDIR]: the whole tree benchmark, one command.
#   1. time: every workload, and the scaling series n = 10^3 .. 10^7,
#      each one ptbench process (all subjects interleaved and rotated,
#      medians of RUNS runs of thread CPU time; a subject whose run takes
#      longer than CAP seconds stops after that run, which only happens
#      at 10^7)                                            -> OUTDIR/ns.csv
#   2. instructions: the same workloads and n up to 10^6, one ptbench
#      --callgrind process each under callgrind           -> OUTDIR/ir.csv
#   Steps 1 and 2 run as JOBS processes at a time.
#   3. report.py: the tables and the log-log plots          -> OUTDIR/*.md,
#      OUTDIR/*.png; and, when OUTDIR is the source tree's
#      bench/tree/results, the generated block of docs/benchmarks.md
# Any ptbench failing (subjects disagreeing on hits) fails run.sh.
#
# run.sh BUILDDIR: the quick look, every workload once, 5 runs.
#
# Environment: WORKLOADS, RUNS (5), CAP (10 s), SCALE (1000 ... 10000000),
# CG_SCALE (1000 ... 1000000), JOBS (processes at a time: one per core,
# so that no measured thread shares its core).
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
JOBS=${JOBS:-$(nproc)}

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
	echo "library build: $("$ptbench" --build-info)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "runs: $RUNS per point (medians of thread CPU time), cap per run: $CAP s, $JOBS jobs at a time"
} > "$out/machine.txt"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One job: wall time (ns) or callgrind (cg) of one workload or scale point.
# A job killed by a signal (an n = 10^7 point given up on) is left out of
# the report with a warning; a job that fails (subjects disagreeing on the
# hits) fails run.sh.
job() {	# KIND TAG PTBENCH-ARGS...
	local kind=$1 tag=$2 rc=0
	shift 2
	if [ "$kind" = ns ]; then
		nice "$ptbench" "$@" --runs "$RUNS" --cap "$CAP" \
			--csv "$tmp/ns-$tag.csv" > "$tmp/ns-$tag.log" 2>&1 || rc=$?
	else
		mkdir -p "$tmp/cg-$tag"
		nice valgrind --tool=callgrind --instr-atstart=no \
			--callgrind-out-file="$tmp/cg-$tag/cg.out" \
			"$ptbench" --callgrind "$@" > "$tmp/cg-$tag.log" 2>&1 || rc=$?
	fi
	if [ "$rc" -gt 128 ]; then
		echo "run.sh: $kind $tag killed (signal $((rc - 128))): left out" >&2
		rm -rf "$tmp/ns-$tag.csv" "$tmp/cg-$tag"
	elif [ "$rc" != 0 ]; then
		echo "run.sh: $kind $tag FAILED:" >&2
		cat "$tmp/$kind-$tag.log" >&2
		touch "$tmp/failed"
	fi
}

# the biggest first, so they are not the last ones running
list=()
for n in $SCALE; do
	list=("ns scale$n --workload scale --n $n" "${list[@]}")
done
for n in $CG_SCALE; do
	list=("cg scale$n --workload scale --n $n" "${list[@]}")
done
for w in $workloads; do
	list+=("cg $w --workload $w")
	list+=("ns $w --workload $w")
done
for j in "${list[@]}"; do
	# shellcheck disable=SC2086
	job $j &
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		sleep 1
	done
done
wait
[ ! -e "$tmp/failed" ] || exit 1

echo "workload,n,queries,subject,runs,insert_ns,query_ns,remove_ns,hits_per_query,visits_per_query,vhits_per_query,log2n_plus_m" > "$out/ns.csv"
echo "workload,n,subject,phase,ops,ir" > "$out/ir.csv"
for w in $workloads; do
	[ -e "$tmp/ns-$w.csv" ] && cat "$tmp/ns-$w.csv" >> "$out/ns.csv"
	cat "$tmp/ns-$w.log" >> "$log"
done
for n in $SCALE; do
	[ -e "$tmp/ns-scale$n.csv" ] && cat "$tmp/ns-scale$n.csv" >> "$out/ns.csv"
	cat "$tmp/ns-scale$n.log" >> "$log"
done
for d in "$tmp"/cg-*/; do
	[ -d "$d" ] || continue
	awk '/^desc: Trigger: Client Request: ptbench / {
		w = $6; n = $7; s = $8; p = $9; o = $10 }
	     /^totals:/ { if (w != "") print w "," n "," s "," p "," o "," $2; w = "" }' \
		"$d"/cg.out.*
done | sort -t, -k1,1 -k2,2n -k3,3 -k4,4 >> "$out/ir.csv"
echo "callgrind: $(($(wc -l < "$out/ir.csv") - 1)) phases" >> "$log"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

# 3. tables and plots
doc=
[ "$out" = "$src/bench/tree/results" ] && doc=$src/docs/benchmarks.md
python3 "$here/report.py" "$out" $doc
