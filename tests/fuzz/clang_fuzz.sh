#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# clang_fuzz.sh DEPFILE OUTPUT CLANG ARGS...: build one fuzz harness,
# `CLANG ARGS... -o OUTPUT`, then list in DEPFILE, for ninja, every file
# that the build read.
#
# A harness #includes library sources (fuzz_priotree_api.c takes in all
# of src/priotree.c) and, through them, headers no list in meson.build
# kept complete; a libFuzzer binary that outlived a change to one of them
# tested the old code.  The preprocessor's own list cannot miss one.
# One `-M` run over all the sources gives a line per source, each for
# OUTPUT, which ninja merges.
set -u

[ $# -ge 4 ] || {
	echo "usage: $0 DEPFILE OUTPUT CLANG ARGS..." >&2
	exit 2
}
depfile=$1 output=$2
shift 2

"$@" -o "$output" || exit
# (link flags mean nothing to the preprocessor: no warning for them)
"$@" -M -MT "$output" -Wno-unused-command-line-argument > "$depfile" || {
	rm -f "$output" "$depfile"
	exit 1
}
