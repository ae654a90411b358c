#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Line and branch coverage of src/ from the unit, models and corpus suites
# and the fuzz corpus replays (docs/coverage.md explains the figures).
#
#   tests/coverage.sh [BUILDDIR]       (default: build-coverage)
#
# Configures BUILDDIR with -Db_coverage=true --buildtype=debug (-O0, so
# that lines and branches are the source's, not the optimiser's), runs
#   meson test --suite unit --suite models --suite corpus
#                                      (corpus: the scenarios of src/corpus/,
#                                       which the kernel runs as KUnit too)
#   meson test replay-<harness>...     (gcc builds of the fuzz harnesses
#                                       replaying tests/fuzz/corpus and
#                                       tests/fuzz/regressions)
# and reports with gcovr, restricted to src/:
#   BUILDDIR/coverage.txt          per-file line coverage
#   BUILDDIR/coverage-branch.txt   per-file branch coverage
#   BUILDDIR/coverage/index.html   annotated sources
# The libFuzzer runs are left out: they are clang builds without gcov
# instrumentation, and their random inputs would make the figures vary.
#
# A failing test still gets its coverage counted, and the report is made;
# the script then exits non-zero, naming the failure.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-coverage}
case $build in
/*) ;;
*) build=$src/$build ;;
esac

command -v gcovr > /dev/null || {
	echo "$0: expected gcovr (Debian: apt-get install gcovr)" >&2
	exit 2
}

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$src" -Db_coverage=true --buildtype=debug
fi
ninja -C "$build" -j2
# stale counters from an earlier run would inflate the figures
find "$build" -name '*.gcda' -delete

failed=
meson test -C "$build" --suite unit --suite models --suite corpus \
	--num-processes 2 || failed="$failed unit/models/corpus"
replays=$(meson test -C "$build" --suite fuzz --list 2>/dev/null |
	sed -n 's/.*\(replay-[a-z_]*\).*/\1/p')
if [ -z "$replays" ]; then
	echo "$0: expected the fuzz corpus replays (replay-*) in $build;" \
		"none are defined (-Dfuzz=disabled?)" >&2
	exit 1
fi
# The default test setup leaves the fuzz suite out, and asked for tests
# it leaves out, meson runs none and still exits 0: name the setup that
# has them.
# shellcheck disable=SC2086
meson test -C "$build" --setup full --num-processes 2 $replays ||
	failed="$failed fuzz"

cd "$src"
mkdir -p "$build/coverage"
gcovr --root "$src" --object-directory "$build" --filter "$src/src/" \
	--txt "$build/coverage.txt" \
	--html-details "$build/coverage/index.html" --print-summary
gcovr --root "$src" --object-directory "$build" --filter "$src/src/" \
	--branches --txt "$build/coverage-branch.txt"
cat "$build/coverage.txt" "$build/coverage-branch.txt"
if [ -n "$failed" ]; then
	echo "$0: expected every test to pass; failures in:$failed" \
		"(see $build/meson-logs/testlog.txt)" >&2
	exit 1
fi
