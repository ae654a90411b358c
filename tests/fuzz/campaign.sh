#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A measured fuzzing campaign on one harness, outside meson, reproducible:
#
#   tests/fuzz/campaign.sh libfuzzer HARNESS SECONDS OUTDIR [JOBS]
#   tests/fuzz/campaign.sh afl       HARNESS SECONDS OUTDIR
#
# HARNESS is prio_tree, priotree_api, rmap, rmapsim_parser or maps_parse.
# The harness is built into OUTDIR (clang -fsanitize=fuzzer,address,undefined
# for libFuzzer; afl-clang-fast with AFL_USE_ASAN/UBSAN for AFL++), seeded
# from tests/fuzz/corpus/HARNESS, and run under nice -n 15 on one core:
# libFuzzer runs JOBS (default 2) jobs of SECONDS each one after another
# (-jobs=JOBS -workers=1), AFL++ one afl-fuzz instance for SECONDS.  The
# statistics docs/fuzzing.md quotes are in OUTDIR/fuzz-*.log and
# OUTDIR/afl/default/fuzzer_stats.  Findings land in OUTDIR/crashes
# (libFuzzer) or OUTDIR/afl/default/crashes (AFL++).  OUTDIR/time.txt has
# the CPU time the run got (GNU time; on a shared machine it is much less
# than the wall time).
set -eu

usage() {
	echo "usage: $0 libfuzzer|afl HARNESS SECONDS OUTDIR [JOBS]" >&2
	exit 2
}

[ $# -ge 4 ] || usage
engine=$1 harness=$2 seconds=$3 out=$4 jobs=${5:-2}
src=$(cd "$(dirname "$0")/../.." && pwd)
fuzz=$src/tests/fuzz

case $harness in
prio_tree|priotree_api|rmap|rmapsim_parser|maps_parse) ;;
*) echo "$0: expected a harness name, got '$harness'" >&2; exit 2 ;;
esac
[ -f "$fuzz/fuzz_$harness.c" ] || {
	echo "$fuzz/fuzz_$harness.c: expected the harness source" >&2
	exit 2
}

# Sources of a harness besides its own file, and extra link flags:
# sources.txt lists them.
lib_sources() {
	sed -n "s/^$harness: //p" "$fuzz/sources.txt" | tr ' ' '\n' |
		sed "s|^|$src/|"
	sed -n "s/^$harness.ldflags: //p" "$fuzz/sources.txt"
}

cflags="-g -O1 -DCONFIG_PRIO_TREE_DEBUG=1 -fno-strict-aliasing
	-I$src/include -I$src/compat -I$src/src/rsim -I$fuzz"
mkdir -p "$out"
out=$(cd "$out" && pwd)

case $engine in
libfuzzer)
	bin=$out/fuzz_$harness
	# shellcheck disable=SC2046
	clang $cflags -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all "$fuzz/fuzz_$harness.c" \
		$(lib_sources) -o "$bin"
	mkdir -p "$out/corpus" "$out/crashes"
	cd "$out"
	/usr/bin/time -f "cpu: user %U s, sys %S s, wall %e s" -o "$out/time.txt" \
	nice -n 15 "$bin" -jobs="$jobs" -workers=1 \
		-max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$out/crashes/" -timeout=10 -rss_limit_mb=1024 \
		"$out/corpus" "$fuzz/corpus/$harness" || true
	grep -h "stat::\|^Done\|#[0-9]*.*DONE" "$out"/fuzz-*.log || true
	cat "$out/time.txt"
	;;
afl)
	bin=$out/afl_$harness
	# shellcheck disable=SC2046
	AFL_USE_ASAN=1 AFL_USE_UBSAN=1 afl-clang-fast $cflags \
		"$fuzz/fuzz_$harness.c" "$fuzz/replay_main.c" \
		$(lib_sources) -o "$bin"
	cd "$out"
	AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
		/usr/bin/time -f "cpu: user %U s, sys %S s, wall %e s" \
		-o "$out/time.txt" nice -n 15 \
		afl-fuzz -i "$fuzz/corpus/$harness" -o "$out/afl" \
		-V "$seconds" -t 1000 -m none -- "$bin" > "$out/afl.log" 2>&1 ||
		{ tail -20 "$out/afl.log" >&2; exit 1; }
	cat "$out/afl/default/fuzzer_stats" "$out/time.txt"
	;;
*)
	usage
	;;
esac
