#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Use libpriotree as a meson subproject: in a scratch directory, make a
# consumer project from tests/subproject/meson.build and the consumer
# sources of tests/install/, link the source tree in as
# subprojects/libpriotree, then configure (with the fallback forced, so no
# installed libpriotree can stand in), check that the plain dependency
# reaches no linux/ directory, build and run its tests.
#
# usage: run_subproject.sh MESON SOURCE_ROOT SUBPROJECT_DIR CONSUMER_DIR

set -eu

fail()
{
	echo "tests/subproject/run_subproject.sh:$1: expected $2" >&2
	exit 1
}

[ $# -eq 4 ] ||
	fail $LINENO "4 arguments: MESON SOURCE_ROOT SUBPROJECT_DIR CONSUMER_DIR, got $#"
meson=$1
source_root=$2
subproject_dir=$3
consumer_dir=$4

scratch=$(mktemp -d "${TMPDIR:-/tmp}/priotree-subproject.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
project=$scratch/consumer
mkdir -p "$project/subprojects"
cp "$subproject_dir/meson.build" "$subproject_dir/meson_options.txt" \
	"$project/"
for prog in plain_consumer uapi_consumer kcompat_consumer \
	    unseen_vma_program; do
	cp "$consumer_dir/$prog.c" "$project/"
done
ln -s "$source_root" "$project/subprojects/libpriotree"

# Under valgrind: fewer operations, each consumer run by valgrind.
wrapper=
ops=
if [ "${PRIOTREE_UNDER_VALGRIND:-0}" = 1 ]; then
	wrapper="--wrapper=valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --quiet"
	ops=-Dops=3000
fi

log=$scratch/log
if ! "$meson" setup "$scratch/build" "$project" \
	--force-fallback-for=libpriotree,libpriotree-kcompat \
	--wrap-mode=nodownload ${ops:+"$ops"} >"$log" 2>&1; then
	cat "$log" >&2
	fail $LINENO "the consumer project to configure with libpriotree as a subproject"
fi
grep -q "Executing subproject libpriotree" "$log" ||
	fail $LINENO "meson to configure subprojects/libpriotree, log: $(cat "$log")"
# The plain dependency must not reach a linux/ directory, as the installed
# libpriotree.pc does not: a consumer's <linux/...> is the system's.
linux_dirs=$(python3 - "$scratch/build/compile_commands.json" <<'PY'
import json, os, shlex, sys
for unit in json.load(open(sys.argv[1])):
    if not unit['file'].endswith(('plain_consumer.c', 'uapi_consumer.c')):
        continue
    for arg in shlex.split(unit['command']):
        path = os.path.join(unit['directory'], arg[2:])
        if arg.startswith('-I') and os.path.isdir(os.path.join(path, 'linux')):
            print(os.path.normpath(path))
PY
) || fail $LINENO "compile_commands.json to list the consumers' flags"
[ -z "$linux_dirs" ] ||
	fail $LINENO "no linux/ directory on the include path of libpriotree's subproject dependency, got: $linux_dirs"

# Only the consumers and what they link: a subproject's other targets
# (its tools) are no business of the consumer's.
"$meson" compile -C "$scratch/build" plain_consumer uapi_consumer \
	kcompat_consumer unseen_vma_program >"$log" 2>&1 || {
	cat "$log" >&2
	fail $LINENO "the consumer project to build"
}
# shellcheck disable=SC2086
"$meson" test -C "$scratch/build" --no-rebuild --print-errorlogs \
	${wrapper:+"$wrapper"} >"$log" 2>&1 || {
	cat "$log" >&2
	fail $LINENO "the consumer project's tests to pass"
}
grep -E '^Ok: +4 *$' "$log" >/dev/null ||
	fail $LINENO "4 consumer tests to pass, log: $(cat "$log")"
echo "run_subproject: 4 consumers built and passed against subprojects/libpriotree"
