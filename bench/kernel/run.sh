#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - i_mmap in the real kernel: prio tree against the rbtree
# interval tree of Linux 6.1, measured inside QEMU.
#
#   bench/kernel/run.sh [PTCORPUS]
#
# 1. kernel-port/run-suite.sh boot stock|default PTCORPUS builds both
#    kernels from one patched 6.1 tree (i_mmap on the rbtree, resp. on the
#    prio tree) and proves each correct (KUnit corpus, guest mmapwork).
# 2. kernel-port/guest/immapbench.c is built static and packed with
#    busybox-static and a generated /init into a benchmark initramfs.
# 3. Each kernel boots BENCH_RUNS times (default 3), alternating, under
#    TCG with "-icount shift=0": the guest clock advances one nanosecond
#    per guest instruction, so the ns figures immapbench prints are
#    instruction counts.  "kunit.filter_glob=none" skips the corpus;
#    "mem=1000M" makes max_pfn a multiple of 64, since page_idle cannot
#    reach the pages of a partial last bitmap word (QEMU's -m 1024 ends
#    usable RAM 32 pages short of such a boundary).
# 4. table.py checks every run printed every line and no FAIL, then
#    prints the medians, prio/stock ratios and the boot-to-boot spread,
#    and writes bench/kernel/results.md (or $BENCH_RESULTS).
#
# Knobs: BENCH_RUNS, BENCH_REPS (timed repetitions inside a boot, default
# 3), BENCH_SPECS (immapbench SPECs, see its header), BENCH_TIMEOUT
# (seconds per boot, default 600), BENCH_RESULTS (the table's file,
# default bench/kernel/results.md; the meson test points it into the
# build directory, so a test run leaves the committed table alone),
# PRIOTREE_KBUILD (build area, default
# /var/tmp/libpriotree-kbuild).  Every qemu run holds
# $PRIOTREE_KBUILD/suite.lock, like run-suite.sh's jobs.  Any FAIL line,
# missing line, timeout or build failure ends the script non-zero.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
kbuild=${PRIOTREE_KBUILD:-/var/tmp/libpriotree-kbuild}
ptcorpus=${1:-$repo/build/tests/corpus/ptcorpus}
runs=${BENCH_RUNS:-3}
reps=${BENCH_REPS:-3}
specs=${BENCH_SPECS:-"test-mmap/small:2000:5 rmap-test/small:8:32:64 test-mmap/large:20000:5 rmap-test/large:16:64:128"}
timeout=${BENCH_TIMEOUT:-600}
results=${BENCH_RESULTS:-$here/results.md}
work=$kbuild/bench-kernel
kport=$repo/kernel-port
. "$kport/boot-lib.sh"

die() {
	echo "bench/kernel/run.sh: $*" >&2
	exit 1
}

[ -x "$ptcorpus" ] || die "$ptcorpus missing: build tests/corpus/ptcorpus first (meson, ninja)"
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 missing: install qemu-system-x86"

t_start=$(date +%s)
for flavour in stock default; do
	"$repo/kernel-port/run-suite.sh" boot "$flavour" "$ptcorpus" ||
		die "run-suite.sh boot $flavour failed (above): no benchmark on a kernel that is not proven correct"
done

mkdir -p "$work"
rm -f "$work"/*.log
pt_gen_init_cpio
pt_need_busybox
pt_guest immapbench "$work"
immapbench=$prog

# The guest's /init: nothing but the benchmark, then power off.
cat >"$work/init" <<EOF
#!/bin/sh
bb=/bin/busybox
\$bb mount -t proc proc /proc
\$bb mount -t sysfs sysfs /sys
\$bb mount -t tmpfs tmpfs /tmp || echo "PT-BENCH - - FAIL cannot mount tmpfs"
/bin/immapbench -r $reps -t $timeout $specs
echo "PT-BENCH-EXIT \$?"
\$bb reboot -f
EOF
cat >"$work/initramfs.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
nod /dev/null 0666 0 0 c 1 3
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 01777 0 0
dir /bin 0755 0 0
file /bin/busybox /bin/busybox 0755 0 0
slink /bin/sh busybox 0777 0 0
file /bin/immapbench $immapbench 0755 0 0
file /init $work/init 0755 0 0
EOF
"$gen" "$work/initramfs.list" >"$work/initramfs.cpio" ||
	die "gen_init_cpio failed"

# Alternate the kernels, so a change of host load hits both alike.
run=1
while [ "$run" -le "$runs" ]; do
	for flavour in stock default; do
		log=$work/$flavour-$run.log
		exec 9>"$kbuild/suite.lock"
		flock 9
		t0=$(date +%s.%N)
		pt_qemu "$timeout" "$log" \
			"$kbuild/out-$flavour/arch/x86/boot/bzImage" \
			"$work/initramfs.cpio" "kunit.filter_glob=none mem=1000M" \
			-accel tcg -icount shift=0 -m 1024 -smp 1 \
			>"$work/qemu-$flavour-$run.txt" 2>&1
		t1=$(date +%s.%N)
		flock -u 9
		exec 9>&-
		secs=$(echo "$t1 - $t0" | bc)
		echo "PT-BENCH-WALL $secs" >>"$log"
		echo "bench/kernel/run.sh: $flavour run $run: qemu exited $rc after $secs s" >&2
		[ "$rc" = 124 ] && die "$flavour run $run: qemu killed after the ${timeout} s timeout ($log)"
		[ "$rc" = 0 ] || {
			cat "$work/qemu-$flavour-$run.txt" >&2
			die "$flavour run $run: qemu exited $rc ($log)"
		}
	done
	run=$((run + 1))
done

mkdir -p "$(dirname "$results")"
cmd="bench/kernel/run.sh${1:+ $1}  (BENCH_RUNS=$runs BENCH_REPS=$reps BENCH_SPECS=\"$specs\")"
python3 "$here/table.py" --runs "$runs" --specs "$specs" \
	--command "$cmd" --total-seconds "$(($(date +%s) - t_start))" \
	--results "$results" "$work"
