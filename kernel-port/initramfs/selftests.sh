#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's own vm selftests (tools/testing/selftests/vm and memfd, built
# statically by kernel-port/build-selftests.sh), run by /init after the
# stress program.  One line per test on the console:
#
#   PT-SELFTEST <flavour> <name> ok
#   PT-SELFTEST <flavour> <name> not ok <reason>
#   PT-SELFTEST <flavour> <name> skip <reason>
#
# The exit code decides (0 ok, 4 = KSFT_SKIP skip, else not ok; killed by
# the per-test timeout: not ok); the reason is the test's last line of
# output.  A test's own output goes to the console only when it did not
# pass, each line prefixed (so its "ok N" lines never read as KTAP).
# Sizes are the small ones of run_vmtests.sh or smaller: TCG is slow.
bb=/bin/busybox
dir=/selftests
flavour=$($bb sed -n 's/.*pt\.flavour=\([^ ]*\).*/\1/p' /proc/cmdline)
flavour=${flavour:-unknown}
out=/tmp/selftest.out

report() {	# name verdict reason
	echo "PT-SELFTEST $flavour $1 $2${3:+ $3}"
}

run() {	# timeout label program [args...]
	t=$1
	name=$2
	prog=$3
	shift 3
	if [ ! -x "$dir/$prog" ]; then
		why=$($bb grep "^$prog " $dir/BUILD-FAILED 2>/dev/null | $bb head -1)
		report "$name" skip "not built: ${why:-missing from the initramfs}"
		return
	fi
	if [ "$prog" = khugepaged ]; then
		settle_memory
		thp_before=$(thp_counters)
	fi
	$bb timeout -s KILL "$t" "$dir/$prog" "$@" >$out 2>&1 </dev/null
	rc=$?
	if [ "$prog" = khugepaged ] && [ $rc != 0 ] && [ $rc != 4 ] &&
		[ $rc != 137 ]; then
		# khugepaged's steps give khugepaged 3 s for two full scans
		# (wait_for_scan()), and MADV_COLLAPSE fails with EAGAIN while
		# a page sits off the LRU in another CPU's batch: a lockdep
		# kernel under TCG on a loaded host meets both with nothing
		# wrong (the debug boots of two runs did, on anonymous memory,
		# which no i_mmap walk touches).  One rerun, and the console
		# says what failed the first time; a step failing in the rerun
		# fails the test.
		echo "PT-SELFTEST-INFO $name: rerun; the first run failed: $(failed_steps | $bb tr '\n' ';')"
		# which collapse failures the kernel counted in that run
		echo "PT-SELFTEST-INFO $name: first run's THP counters: $(thp_delta "$thp_before" "$(thp_counters)")$(free_memory)"
		settle_memory
		$bb timeout -s KILL "$t" "$dir/$prog" "$@" >$out 2>&1 </dev/null
		rc=$?
	fi
	last=$($bb grep -v '^[[:space:]]*$' $out | $bb tail -1 | $bb tr -d '\r' | $bb cut -c1-150)
	case $rc in
	0) report "$name" ok ;;
	4) report "$name" skip "${last:-exit 4}" ;;
	137) report "$name" "not ok" "killed after the ${t} s timeout" ;;
	*) report "$name" "not ok" "exit $rc: $last" ;;
	esac
	if [ $rc != 0 ]; then
		# the failing steps first (a long test's tail may not show
		# them), then the tail
		failed_steps | $bb head -20 | $bb sed "s/^/PT-SELFTEST-OUT $name: failed: /"
		$bb tail -15 $out | $bb sed "s/^/PT-SELFTEST-OUT $name: /"
	fi
}

# The steps of $out that failed, each with the "Run test:" header above
# it: khugepaged prints "<step>... Fail" or "<step>... Timeout", the
# other vm tests "[FAIL]" or "not ok" (and "ok N # XFAIL" for a failure
# they expect, which is none).
failed_steps() {
	$bb tr -d '\r' <$out | $bb awk '
		{ gsub(/\033\[[0-9;]*m/, "") }
		/^Run test:/ { test = $0; next }
		/XFAIL/ { next }
		/Fail|Timeout|FAIL|^not ok/ {
			print (test != "" ? test " / " : "") $0
		}'
}

# The THP allocation and collapse counters of /proc/vmstat, one line.
thp_counters() {
	$bb grep -E '^(thp_collapse_alloc|thp_collapse_alloc_failed|compact_fail|compact_success|thp_split_page) ' \
		/proc/vmstat | $bb tr '\n' ' '
}

# Every khugepaged run starts from the same memory: page cache dropped
# and free memory compacted, so its huge page allocations do not depend
# on what the tests before it left fragmented.
settle_memory() {
	$bb sync
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
}

# MemFree and the free huge-page-sized blocks (order 9 and 10 of
# /proc/buddyinfo, summed over zones), for the rerun note.
free_memory() {
	echo " $($bb grep '^MemFree:' /proc/meminfo | $bb tr -s ' ')" \
		"free order>=9 blocks: $($bb awk '{ n += $(5 + 9) + $(5 + 10) } END { print n + 0 }' /proc/buddyinfo)"
}

# "name=after-before" for each counter of two thp_counters lines.
thp_delta() {
	echo "$1 $2" | $bb awk '{
		for (i = 1; i < NF; i += 2) {
			if ($i in seen) printf "%s=%d ", $i, $(i + 1) - seen[$i]
			else seen[$i] = $(i + 1)
		}
	}'
}

cd /tmp || exit 1
echo 3 >/proc/sys/vm/drop_caches
run 120 mremap_test mremap_test -t 4
run 60 mremap_dontunmap mremap_dontunmap
run 60 map_populate map_populate
run 60 map_fixed_noreplace map_fixed_noreplace
run 60 mlock2-tests mlock2-tests
run 60 madv_populate madv_populate
run 60 memfd_test memfd_test
run 240 userfaultfd-shmem userfaultfd shmem 8 4
run 300 khugepaged khugepaged
# File collapse retracts the page tables of every vma that maps the file
# (retract_page_tables(), an i_mmap walk under trylock).  Not all:shmem:
# on stock 6.1 in this guest every MADV_COLLAPSE of its memfd fails with
# EINVAL, so it would stop at its first step on both kernels.
if [ -d /mnt/disk ] && $bb grep -q ' /mnt/disk ' /proc/mounts; then
	$bb mkdir -p /mnt/disk/khugepaged
	run 300 khugepaged-file khugepaged all:file /mnt/disk/khugepaged
	$bb rm -rf /mnt/disk/khugepaged
else
	report khugepaged-file skip "no block-backed filesystem on /mnt/disk"
fi
run 120 split_huge_page_test split_huge_page_test
run 120 ksm_tests ksm_tests -M -p 10
run 180 migration migration

# hugetlb: the pages were reserved with hugepages= on the command line
$bb mkdir -p /huge
if $bb mount -t hugetlbfs none /huge; then
	echo "PT-SELFTEST-INFO hugetlb: $($bb grep -E 'HugePages_(Total|Free)' /proc/meminfo | $bb tr -s ' \n' ' ')"
	(cd / && run 120 hugepage-mmap hugepage-mmap)
	run 120 hugepage-shm hugepage-shm
	run 120 map_hugetlb map_hugetlb 32
	run 120 hugepage-mremap hugepage-mremap 8 /huge/huge_mremap
	$bb rm -f /huge/huge_mremap
	run 240 userfaultfd-hugetlb_shared userfaultfd hugetlb_shared 16 4 /huge/uffd-test
	$bb rm -f /huge/uffd-test
	$bb umount /huge
else
	for t in hugepage-mmap hugepage-shm map_hugetlb hugepage-mremap userfaultfd-hugetlb_shared; do
		report $t skip "cannot mount hugetlbfs on /huge"
	done
fi
echo "PT-SELFTEST-END $flavour"
