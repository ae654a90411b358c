#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# limits.sh RMAPSIM CASE
#
# Scenarios that must stay within a memory limit (ulimit -v) and a time
# bound, or that must run out of memory and say so:
#
#  sparse-file  a file of 2^27 pages touched at its last page: the page
#               cache costs what is cached, not the largest offset, so
#               run and compare fit in 200 MB and a few seconds
#  oom          20,000 page tables in 40 MB: "out of memory", exit 3,
#               nothing on stdout; not the exit 2 of a bad scenario
#  fork-chain   avc-fork-chain -t 20000: validation replays it under
#               cheap schemes, so validating and running it under
#               pte_chain fits in 1.5 GB and 90 s (it took 6 GB and
#               minutes)
set -u

rmapsim=$1
# meson passes a path relative to the build directory
case $rmapsim in
/*) ;;
*) rmapsim=$PWD/$rmapsim ;;
esac
case=$2

# Limits mean nothing under valgrind, which needs more of both.
if [ -n "${PRIOTREE_UNDER_VALGRIND:-}" ]; then
	echo "$case: skipped under valgrind"
	exit 77
fi

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
scn=$dir/$case.scn
fail=0

# bounded SECONDS KBYTES CMD...: run CMD with both limits, output to
# $dir/out and $dir/err; leaves its exit status in $status.
bounded() {
	secs=$1
	kbytes=$2
	shift 2
	(ulimit -v "$kbytes" && exec timeout "$secs" "$@") \
		>"$dir/out" 2>"$dir/err"
	status=$?
}

expect_ok() {
	what=$1
	if [ "$status" -eq 124 ]; then
		echo "$case: expected '$what' within its time bound, timed out"
		fail=1
	elif [ "$status" -ne 0 ]; then
		echo "$case: expected '$what' to exit 0, got $status:"
		cat "$dir/err"
		fail=1
	elif ! grep -q '^PT-DIGEST ' "$dir/out"; then
		echo "$case: expected a PT-DIGEST line from '$what'"
		fail=1
	fi
}

case $case in
sparse-file)
	cat >"$scn" <<-EOF
	scenario sparse-file
	file 1 134217728
	exec 1
	mmap-shared 1 0 134217728 r 1 0
	read 1 134217727
	walk-file 1 134217727
	EOF
	bounded 10 200000 "$rmapsim" run "$scn"
	expect_ok "rmapsim run"
	bounded 30 200000 "$rmapsim" compare "$scn"
	if [ "$status" -ne 0 ]; then
		echo "$case: expected 'rmapsim compare' to exit 0 in 30 s, got $status:"
		cat "$dir/err"
		fail=1
	fi
	;;
oom)
	# one pte table (8 KB) per write: about 160 MB of them
	awk 'BEGIN {
		print "scenario oom"
		print "exec 1"
		print "mmap-anon 1 0 10240000 rw"
		for (i = 0; i < 20000; i++)
			print "write 1 " i * 512
	}' >"$scn"
	bounded 30 40000 "$rmapsim" run "$scn"
	if [ "$status" -ne 3 ]; then
		echo "$case: expected exit status 3 (out of memory), got $status:"
		cat "$dir/err"
		fail=1
	fi
	if [ -s "$dir/out" ]; then
		echo "$case: expected nothing on stdout, got:"
		cat "$dir/out"
		fail=1
	fi
	if ! grep -q 'out of memory' "$dir/err" ||
	   grep -q 'expected' "$dir/err"; then
		echo "$case: expected 'out of memory' and no 'expected ...', got:"
		cat "$dir/err"
		fail=1
	fi
	;;
fork-chain)
	if ! "$rmapsim" gen avc-fork-chain -t 20000 >"$scn"; then
		echo "$case: expected 'rmapsim gen avc-fork-chain' to succeed"
		exit 1
	fi
	# about 5 s of CPU and 450 MB; validation under anon_vma_chain
	# took over 6 GB and minutes
	bounded 90 1500000 "$rmapsim" run --file=pte_chain \
		--anon=pte_chain "$scn"
	expect_ok "rmapsim run --anon=pte_chain"
	;;
*)
	echo "limits.sh: unknown case '$case'"
	exit 1
	;;
esac
exit $fail
