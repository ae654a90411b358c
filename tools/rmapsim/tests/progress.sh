#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# progress.sh RMAPSIM
#
# The progress that run and compare show on a terminal, under a pty of
# util-linux script(1):
#  - run of a fork-heavy test-mmap3 (twenty forks of an mm of 25,000
#    vmas after 50,000 cheap ops): the share of work never goes down,
#    runs from 0 to 100, is below half when half the ops are done, and
#    the line is cleared at the end;
#  - compare: the share of all twelve runs' work never goes down and
#    reaches 100, and each run's own share runs from 0 to 100;
#  - with stderr not a terminal, nothing at all.

. "$(dirname "$0")/lib.sh"
use_rmapsim "$1"

if [ -n "${PRIOTREE_CHECKER:-}" ]; then
	echo "progress.sh: skipped, -Dchecker=true makes the 25,000-vma scenario take minutes"
	exit 77
fi
if ! script -V 2>/dev/null | grep -q util-linux ||
   ! script -qec 'test -t 2' /dev/null >/dev/null 2>&1; then
	echo "progress.sh: skipped, no util-linux script(1) with a pty"
	exit 77
fi
make_tmp

# on_tty OUT ARG...: "rmapsim ARG..." with stderr, as typed, in OUT
on_tty()
{
	out=$1
	shift
	cmd="'$rmapsim'"
	for arg in "$@"; do
		cmd="$cmd '$arg'"
	done
	script -qec "$cmd >/dev/null" /dev/null >"$out" ||
		bad "'rmapsim $*' on a terminal to succeed"
}

# numbers FILE: the lines of progress in FILE, all but digits blanked
numbers()
{
	tr '\r' '\n' <"$1" | grep '% of work' | tr -c '0-9\n' ' '
}

# report WHAT <FILE: each line of FILE is a failed check of WHAT
report()
{
	while read -r line; do
		bad "in $1: $line"
	done
}

"$rmapsim" gen test-mmap3 -s 25000 -t 20 -V 1000 >"$tmp/fork.scn" ||
	bad "'rmapsim gen test-mmap3' to succeed"
on_tty "$tmp/run.tty" run "$tmp/fork.scn"
# "WORK OP NR" of "rmapsim: prio/anon_vma WORK% of work (op OP/NR)"
numbers "$tmp/run.tty" >"$tmp/run.pct"
awk '
	NR == 1 && ($1 != 0 || $2 != 0) { print "0% at op 0 first" }
	$1 < work || $2 < op {
		print "no step back, got " $1 "% at op " $2 \
		      " after " work "% at op " op
	}
	half == "" && 2 * $2 >= $3 { half = $1 }
	{ work = $1; op = $2; nr = $3 }
	END {
		if (!NR)
			print "lines of progress"
		else if (work != 100 || op != nr)
			print "100% at op " nr " last, got " work "% at op " op
		else if (half >= 50)
			print "under half the work at half the ops, got " \
			      half "%"
	}' "$tmp/run.pct" >"$tmp/run.bad"
report "run's progress" <"$tmp/run.bad"
[ "$(tail -c 4 "$tmp/run.tty" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
	bad "run's progress line cleared at the end"

"$rmapsim" gen fork-exec-mix -i 800 >"$tmp/mix.scn" ||
	bad "'rmapsim gen fork-exec-mix' to succeed"
on_tty "$tmp/compare.tty" compare "$tmp/mix.scn"
# "ALL RUN 12 THIS OP NR" of
# "rmapsim: compare ALL% of work, RUN/12 FILE/ANON THIS% (op OP/NR)"
numbers "$tmp/compare.tty" >"$tmp/compare.pct"
awk '
	NR == 1 && ($1 != 0 || $2 != 1 || $4 != 0) {
		print "0% of run 1 first, got " $0
	}
	$1 < all { print "no step back overall, got " $1 "% after " all "%" }
	NR > 1 && $2 != run && (this != 100 || $4 != 0 || $2 != run + 1) {
		print "run " run " at 100%, then run " run + 1 " at 0%," \
		      " got run " $2 " at " $4 "% after " this "%"
	}
	$2 == run && $4 < this {
		print "no step back in run " run ", got " $4 "% after " \
		      this "%"
	}
	{ all = $1; run = $2; this = $4 }
	END {
		if (all != 100 || run != 12 || this != 100)
			print "100% of all work in run 12 last, got " all \
			      "% in run " run
	}' "$tmp/compare.pct" >"$tmp/compare.bad"
report "compare's progress" <"$tmp/compare.bad"

"$rmapsim" run "$tmp/fork.scn" >/dev/null 2>"$tmp/err" ||
	bad "'rmapsim run' to succeed"
[ -s "$tmp/err" ] && bad "no progress when stderr is no terminal"
[ $fail -eq 0 ] && echo "progress.sh: $(wc -l <"$tmp/run.pct") and" \
	"$(wc -l <"$tmp/compare.pct") updates, by work"
finish
