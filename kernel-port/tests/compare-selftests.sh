#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare.py --selftests-out and compare-selftests.py on made-up consoles:
# the selftest verdicts and failed steps of a prio-tree boot must equal
# stock's, dots of khugepaged's waiting aside.  Then, when busybox is
# there, initramfs/selftests.sh's failed-step filter under the busybox
# awk the guest runs.
#
#   compare-selftests.sh KERNEL-PORT-DIR [BUSYBOX]
set -u

here=$1
busybox=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "compare-selftests.sh:$1: $2" >&2
	fails=$((fails + 1))
}

# console NAME: a boot's selftest lines from stdin, run through
# compare.py, which writes $tmp/NAME.txt (the digests are left out, so
# compare.py itself reports a failed boot: only its output file counts)
console() {
	cat >"$tmp/$1.log"
	: >"$tmp/empty"
	python3 "$here/compare.py" --user "$tmp/empty" \
		--console "$tmp/$1.log" --label "$1" \
		--selftests-out "$tmp/$1.txt" >"$tmp/$1.out" 2>&1
	[ -s "$tmp/$1.txt" ] ||
		fail $LINENO "expected compare.py to write $tmp/$1.txt"
}

# expect RC A B: compare-selftests.py A B exits RC
expect() {
	python3 "$here/compare-selftests.py" "$tmp/$2.txt" "$tmp/$3.txt" \
		>"$tmp/cmp.out" 2>&1
	rc=$?
	if [ "$rc" != "$1" ]; then
		cat "$tmp/cmp.out" >&2
		fail "$4" "expected compare-selftests.py $2 $3 to exit $1, got $rc"
	fi
}

console stock <<'LOG'
PT-SELFTEST stock mremap_test ok
PT-SELFTEST stock khugepaged not ok exit 1: Restore THP and khugepaged settings... OK
PT-SELFTEST-OUT khugepaged: failed: Run test: collapse_full (khugepaged:anon) / Collapse fully populated PTE table.... Fail
PT-SELFTEST-OUT khugepaged: Restore THP and khugepaged settings... OK
PT-SELFTEST stock split_huge_page_test not ok exit 1: No THP is allocated
PT-SELFTEST-END stock
LOG
# the same steps; khugepaged waited longer
console same <<'LOG'
[  12.000001] PT-SELFTEST debug mremap_test ok
PT-SELFTEST debug khugepaged not ok exit 1: Restore THP and khugepaged settings... OK
PT-SELFTEST-OUT khugepaged: failed: Run test: collapse_full (khugepaged:anon) / Collapse fully populated PTE table....... Fail
PT-SELFTEST debug split_huge_page_test not ok exit 1: No THP is allocated
PT-SELFTEST-END debug
LOG
# one more failed step than stock
console extra <<'LOG'
PT-SELFTEST debug mremap_test ok
PT-SELFTEST debug khugepaged not ok exit 1: Restore THP and khugepaged settings... OK
PT-SELFTEST-OUT khugepaged: failed: Run test: collapse_full (khugepaged:anon) / Collapse fully populated PTE table.... Fail
PT-SELFTEST-OUT khugepaged: failed: Run test: collapse_fork (madvise:anon) / Check if parent still has huge page... Fail
PT-SELFTEST debug split_huge_page_test not ok exit 1: No THP is allocated
PT-SELFTEST-END debug
LOG
# a verdict differs
console verdict <<'LOG'
PT-SELFTEST debug mremap_test not ok exit 1: mremap failed
PT-SELFTEST debug khugepaged not ok exit 1: Restore THP and khugepaged settings... OK
PT-SELFTEST-OUT khugepaged: failed: Run test: collapse_full (khugepaged:anon) / Collapse fully populated PTE table.... Fail
PT-SELFTEST debug split_huge_page_test not ok exit 1: No THP is allocated
PT-SELFTEST-END debug
LOG
# a test missing
console missing <<'LOG'
PT-SELFTEST debug mremap_test ok
PT-SELFTEST debug khugepaged not ok exit 1: Restore THP and khugepaged settings... OK
PT-SELFTEST-OUT khugepaged: failed: Run test: collapse_full (khugepaged:anon) / Collapse fully populated PTE table.... Fail
PT-SELFTEST-END debug
LOG

expect 0 stock stock $LINENO
expect 0 stock same $LINENO
expect 1 stock extra $LINENO
grep -q "also fails: Run test: collapse_fork (madvise:anon)" "$tmp/cmp.out" ||
	fail $LINENO "expected the extra failed step named, got: $(cat "$tmp/cmp.out")"
expect 1 extra stock $LINENO
grep -q "to fail as on stock, it passes: Run test: collapse_fork" "$tmp/cmp.out" ||
	fail $LINENO "expected the step that no longer fails named, got: $(cat "$tmp/cmp.out")"
expect 1 stock verdict $LINENO
grep -q "expected selftest mremap_test ok as on stock, found not ok" "$tmp/cmp.out" ||
	fail $LINENO "expected the verdict difference named, got: $(cat "$tmp/cmp.out")"
expect 1 stock missing $LINENO

if [ -n "$busybox" ]; then
	# the guest's filter, taken out of selftests.sh and run under busybox
	sed -n '/^failed_steps()/,/^}/p' \
		"$here/initramfs/selftests.sh" >"$tmp/filters.sh"
	esc=$(printf '\033')
	cat >"$tmp/steps.out" <<-OUT
	Run test: collapse_full (khugepaged:anon)
	Allocate huge page... ${esc}[32mOK${esc}[0m
	Collapse fully populated PTE table......${esc}[31mTimeout${esc}[0m
	Run test: collapse_fork (khugepaged:anon)
	Collapse PTE table... ${esc}[31mTimeout${esc}[0m
	OUT
	# an expected failure is not a failed step
	echo "ok 1 # XFAIL mremap - Source and Destination Regions Overlapping" \
		>>"$tmp/steps.out"
	echo "Run test: collapse_empty (madvise:anon)" >>"$tmp/steps.out"
	echo "Do not collapse empty PTE table... ${esc}[31mFail${esc}[0m" \
		>>"$tmp/steps.out"
	steps=$("$busybox" sh -c '. "$1"; bb=$2; out=$3; failed_steps' \
		sh "$tmp/filters.sh" "$busybox" "$tmp/steps.out")
	want="Run test: collapse_empty (madvise:anon) / Do not collapse empty PTE table... Fail"
	echo "$steps" | grep -qxF "$want" ||
		fail $LINENO "expected failed_steps to print \"$want\", got: $steps"
	[ "$(echo "$steps" | wc -l)" = 3 ] ||
		fail $LINENO "expected 3 failed steps, got: $steps"
	# the counters' deltas printed after a failed khugepaged run
	sed -n '/^thp_delta()/,/^}/p' "$here/initramfs/selftests.sh" \
		>"$tmp/delta.sh"
	delta=$("$busybox" sh -c '. "$1"; bb=$2; thp_delta "$3" "$4"' sh \
		"$tmp/delta.sh" "$busybox" \
		"thp_collapse_alloc 7 thp_collapse_alloc_failed 2 " \
		"thp_collapse_alloc 9 thp_collapse_alloc_failed 5 ")
	[ "$delta" = "thp_collapse_alloc=2 thp_collapse_alloc_failed=3 " ] ||
		fail $LINENO "expected thp_delta to print the two deltas, got \"$delta\""
fi

[ "$fails" = 0 ] || exit 1
echo "compare-selftests.sh: ok${busybox:+ (and the guest filter under busybox)}"
