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
#  gen-oom      gen under ever larger limits, from too small to start to
#               enough: each run that runs out of memory says so and
#               exits 3, as run and compare do
#  fork-chain   avc-fork-chain -t 20000: validation replays it under
#               cheap schemes, so validating and running it under
#               pte_chain fits in 1.5 GB and 90 s (it took 6 GB and
#               minutes)

. "$(dirname "$0")/lib.sh"
use_rmapsim "$1"
case=$2
subject=$case

# Limits mean nothing under valgrind, which needs more of both.
if [ -n "${PRIOTREE_UNDER_VALGRIND:-}" ]; then
	echo "$case: skipped under valgrind"
	exit 77
fi

# AddressSanitizer reserves terabytes of shadow address space at start,
# so under it a ulimit -v kills every run before main(). There the time
# bounds still hold, and only the out-of-memory case cannot be made.
sanitized=${PRIOTREE_SANITIZED:-}
if [ -n "$sanitized" ] && [ "$case" != sparse-file ] &&
   [ "$case" != fork-chain ]; then
	echo "$case: skipped under AddressSanitizer (needs ulimit -v)"
	exit 77
fi

# gcov writes its counters from an exit handler that allocates, and
# crashes when that fails: under gen-oom's few megabytes a coverage build
# said "out of memory", exited 3 and died in gcov_do_dump() (SIGSEGV).
if [ -n "${PRIOTREE_COVERAGE:-}" ] && [ "$case" = gen-oom ]; then
	echo "$case: skipped in a coverage build (gcov needs memory at exit)"
	exit 77
fi

make_tmp
scn=$tmp/$case.scn

# bounded SECONDS KBYTES CMD...: run CMD with both limits, output to
# $tmp/out and $tmp/err; leaves its exit status in $status.
bounded() {
	secs=$1
	kbytes=$2
	shift 2
	if [ -n "$sanitized" ]; then
		(exec timeout "$secs" "$@") >"$tmp/out" 2>"$tmp/err"
	else
		(ulimit -v "$kbytes" && exec timeout "$secs" "$@") \
			>"$tmp/out" 2>"$tmp/err"
	fi
	status=$?
}

expect_ok() {
	what=$1
	if [ "$status" -eq 124 ]; then
		bad "'$what' within its time bound, timed out"
	elif [ "$status" -ne 0 ]; then
		bad "'$what' to exit 0, got $status:"
		cat "$tmp/err"
	elif ! grep -q '^PT-DIGEST ' "$tmp/out"; then
		bad "a PT-DIGEST line from '$what'"
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
		bad "'rmapsim compare' to exit 0 in 30 s, got $status:"
		cat "$tmp/err"
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
		bad "exit status 3 (out of memory), got $status:"
		cat "$tmp/err"
	fi
	if [ -s "$tmp/out" ]; then
		bad "nothing on stdout, got:"
		cat "$tmp/out"
	fi
	if ! grep -q 'out of memory' "$tmp/err" ||
	   grep -q 'expected' "$tmp/err"; then
		bad "'out of memory' and no 'expected ...', got:"
		cat "$tmp/err"
	fi
	;;
gen-oom)
	# From a limit too small for the loader (exit 127) up to one that
	# fits, in 20 KB steps: in between, gen's allocations fail.
	seen=0
	kbytes=2000
	while [ $kbytes -le 8000 ]; do
		bounded 10 $kbytes "$rmapsim" gen random -n 64 -s 4096 -i 1000
		case $status in
		0)
			break
			;;
		127)
			;;
		*)
			if grep -q 'out of memory' "$tmp/err"; then
				seen=$((seen + 1))
				[ "$status" -eq 3 ] ||
					bad "exit status 3 from gen out of memory under ulimit -v $kbytes, got $status: $(cat "$tmp/err")"
			elif ! grep -q 'error while loading\|cannot allocate TLS' \
				"$tmp/err"; then
				bad "gen under ulimit -v $kbytes to succeed or run out of memory, got $status: $(cat "$tmp/err")"
			fi
			;;
		esac
		kbytes=$((kbytes + 20))
	done
	[ "$status" -eq 0 ] ||
		bad "gen to succeed under ulimit -v 8000, got $status"
	[ "$seen" -gt 0 ] ||
		bad "gen to run out of memory under some ulimit -v below $kbytes"
	;;
fork-chain)
	if ! "$rmapsim" gen avc-fork-chain -t 20000 >"$scn"; then
		bad "'rmapsim gen avc-fork-chain' to succeed"
		finish
	fi
	# about 5 s of CPU and 450 MB; validation under anon_vma_chain
	# took over 6 GB and minutes
	bounded 90 1500000 "$rmapsim" run --file=pte_chain \
		--anon=pte_chain "$scn"
	expect_ok "rmapsim run --anon=pte_chain"
	;;
*)
	bad "a case of sparse-file, oom, gen-oom or fork-chain"
	finish
	;;
esac
finish
