#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --all OUTDIR [BUILDDIR]: the whole tree benchmark, one command.
#   1. time: every workload, and the scaling series n = 10^3 .. 10^7,
#      each one ptbench process (all subjects interleaved and rotated,
#      medians of RUNS runs of thread CPU time; a subject whose run takes
#      longer than CAP seconds stops after that run, which only happens
#      at 10^7), ROUNDS times over the run       -> OUTDIR/ns.csv
#   2. instructions: the same workloads and n up to 10^6, one ptbench
#      --callgrind process each under callgrind           -> OUTDIR/ir.csv
#   Steps 1 and 2 run in one lane per CPU: a lane runs its jobs one after
#   another, pinned to its CPU, so no two measured threads share a core.
#   3. report.py: the tables and the log-log plots          -> OUTDIR/*.md,
#      OUTDIR/*.png; and, when OUTDIR is the source tree's
#      bench/tree/results, the generated block of docs/benchmarks.md
# Any ptbench failing (subjects disagreeing on hits) fails run.sh.
#
# Why rounds: the vCPUs of these machines change speed with the host's
# load, for minutes at a time, and the ratios between subjects change with
# it (the same itest process has measured prio-vma's query at 0.84 and at
# 1.17 times itree's, minutes apart).  Round r of a job runs on the lane
# after round r - 1's, after every other job's round r - 1, so its rounds
# sample different CPUs and moments; report.py gives the median over the
# rounds and their range.
#
# run.sh BUILDDIR: the quick look, every workload once, 5 runs.
#
# Environment: WORKLOADS, RUNS (5), ROUNDS (3), CAP (10 s), SCALE (1000
# ... 10000000), CG_SCALE (1000 ... 1000000), JOBS (lanes: one per CPU
# this process may run on, at most).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
workloads=${WORKLOADS:-"itest small rmap mmap3 random manyhits shrink"}

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
ROUNDS=${ROUNDS:-3}
CAP=${CAP:-10}
SCALE=${SCALE:-"1000 10000 100000 1000000 10000000"}
CG_SCALE=${CG_SCALE:-"1000 10000 100000 1000000"}
# the CPUs this process may use, one lane each (JOBS: fewer lanes)
read -r -a cpus <<< "$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')"
JOBS=${JOBS:-${#cpus[@]}}
if ! [[ "$JOBS" =~ ^[0-9]+$ ]] || [ "$JOBS" -lt 1 ] || [ "$JOBS" -gt "${#cpus[@]}" ]; then
	echo "run.sh: JOBS=$JOBS: expected 1 to ${#cpus[@]} (the CPUs here)" >&2
	exit 2
fi
cpus=("${cpus[@]:0:$JOBS}")

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
	echo "library: $(git -C "$src" log -1 --format='%h %s' -- src include compat 2>/dev/null)"
	echo "library build: $("$ptbench" --build-info)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "node arrays: 64-byte aligned; 2 MiB and larger on transparent huge pages by madvise() (THP setting: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown))"
	echo "runs: $RUNS per point (medians of thread CPU time) in each of $ROUNDS rounds, cap per run: $CAP s"
	echo "lanes: $JOBS, pinned to CPUs ${cpus[*]}, one job at a time each"
} > "$out/machine.txt"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One job: wall time (ns) or callgrind (cg) of one workload or scale point,
# on CPU CPU.  A job killed by a signal (an n = 10^7 point given up on) is
# left out of the report with a warning; a job that fails (subjects
# disagreeing on the hits) fails run.sh.
job() {	# KIND TAG CPU PTBENCH-ARGS...
	local kind=$1 tag=$2 cpu=$3 rc=0
	shift 3
	if [ "$kind" = ns ]; then
		nice "$ptbench" "$@" --runs "$RUNS" --cap "$CAP" --cpu "$cpu" \
			--csv "$tmp/ns-$tag.csv" > "$tmp/ns-$tag.log" 2>&1 || rc=$?
	else
		mkdir -p "$tmp/cg-$tag"
		nice taskset -c "$cpu" valgrind --tool=callgrind --instr-atstart=no \
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

# specs SCALES...: a job spec ("TAG ARGS...") per line, the scale points
# biggest first, so that they are not the last ones running, then the
# workloads
specs() {
	printf '%s\n' "$@" | sort -rn |
		while read -r n; do
			[ -z "$n" ] || echo "scale$n --workload scale --n $n"
		done
	for w in $workloads; do
		echo "$w --workload $w"
	done
}
# The timed jobs of one round; the callgrind jobs, run once.
# shellcheck disable=SC2086
mapfile -t ns_jobs < <(specs $SCALE)
# shellcheck disable=SC2086
mapfile -t cg_jobs < <(specs $CG_SCALE)

# Lane l's job list: round 1, the callgrind jobs, then rounds 2 ...;
# round r's job j goes to lane (j + r) mod JOBS.
for ((l = 0; l < JOBS; l++)); do
	: > "$tmp/lane$l"
done
# queue KIND SUFFIX OFFSET SPEC...: job j of the SPECs ("TAG ARGS...")
# goes to lane (j + OFFSET) mod JOBS, tagged TAG + SUFFIX
queue() {
	local kind=$1 suffix=$2 offset=$3 j=0 spec tag args
	shift 3
	for spec in "$@"; do
		read -r tag args <<< "$spec"
		echo "$kind $tag$suffix $args" >> "$tmp/lane$(((j + offset) % JOBS))"
		j=$((j + 1))
	done
}
for ((r = 1; r <= ROUNDS; r++)); do
	queue ns "-r$r" "$r" "${ns_jobs[@]}"
	if [ "$r" = 1 ]; then
		queue cg "" 0 "${cg_jobs[@]}"
	fi
done
for ((l = 0; l < JOBS; l++)); do
	(
		while read -r kind tag args; do
			# shellcheck disable=SC2086
			job "$kind" "$tag" "${cpus[$l]}" $args < /dev/null
		done < "$tmp/lane$l"
	) &
done
wait
[ ! -e "$tmp/failed" ] || exit 1

echo "workload,n,queries,subject,runs,insert_ns,query_ns,remove_ns,hits_per_query,visits_per_query,vhits_per_query,log2n_plus_m,cpu,round" > "$out/ns.csv"
echo "workload,n,subject,phase,ops,ir" > "$out/ir.csv"
for spec in "${ns_jobs[@]}"; do
	tag=${spec%% *}
	for ((r = 1; r <= ROUNDS; r++)); do
		[ -e "$tmp/ns-$tag-r$r.csv" ] &&
			sed "s/\$/,$r/" "$tmp/ns-$tag-r$r.csv" >> "$out/ns.csv"
		echo "== $tag, round $r" >> "$log"
		cat "$tmp/ns-$tag-r$r.log" >> "$log"
	done
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
