#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# variants.sh - the corpus digests must not depend on how it was compiled.
#
#   tests/corpus/variants.sh SRCROOT REFERENCE-PTCORPUS CC [FLAG...] -- SOURCE...
#
# SOURCEs are the runner, the corpus, the simulator and the library's .c
# files, as meson lists them (tests/corpus/meson.build).
# Builds the corpus and the library once more with CC and FLAGS, outside
# meson, runs both builds and fails naming the first scenario whose
# digest differs.  The kernel builds the same files with other compilers
# and sanitizers, so any digest that depends on unspecified behaviour (the
# order in which C evaluates the operands of one expression, say) would
# show up there as a userspace/kernel mismatch that is not the library's.
# It did: "x = draw() >> draw()" came out differently under the debug
# kernel's UBSAN, and gcc -fsanitize=shift reproduces that here.

set -eu

usage="usage: variants.sh SRCROOT PTCORPUS CC [FLAG...] -- SOURCE..."
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
src=$1
ref=$2
cc=$3
shift 3
flags=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	flags="$flags $1"
	shift
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
shift
command -v "$cc" >/dev/null || {
	echo "variants.sh: compiler $cc not found (install it: scripts/deps.sh)" >&2
	exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# shellcheck disable=SC2086
"$cc" -std=gnu11 -fno-strict-aliasing -w $flags \
	-I"$src/include" -I"$src/compat" -I"$src/src/rsim" \
	-I"$src/src/corpus" "$@" -o "$tmp/ptcorpus" || {
	echo "variants.sh: building the corpus with $cc$flags failed" >&2
	exit 1
}

"$ref" >"$tmp/ref.txt" || {
	echo "variants.sh: the reference corpus failed" >&2
	exit 1
}
"$tmp/ptcorpus" >"$tmp/variant.txt" || {
	echo "variants.sh: the corpus built with $cc$flags failed" >&2
	exit 1
}

python3 - "$tmp/ref.txt" "$tmp/variant.txt" "$cc$flags" <<'PY'
import sys

def digests(path):
    out = []
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] == "PT-DIGEST":
            out.append((f[1], f[2]))
    return out

ref, var, label = digests(sys.argv[1]), digests(sys.argv[2]), sys.argv[3]
if not ref:
    sys.exit("variants.sh: the reference printed no PT-DIGEST line")
if [n for n, _ in ref] != [n for n, _ in var]:
    sys.exit("variants.sh: %s ran other scenarios (%d vs %d)"
             % (label, len(var), len(ref)))
diff = [(n, a, b) for (n, a), (_, b) in zip(ref, var) if a != b]
for n, a, b in diff[:5]:
    print("variants.sh: scenario %s: digest %s, but %s built with %s"
          % (n, a, b, label))
if diff:
    sys.exit("variants.sh: %d of %d scenarios differ; first: %s"
             % (len(diff), len(ref), diff[0][0]))
print("variants.sh: %d scenarios, every digest equal with %s"
      % (len(ref), label))
PY
