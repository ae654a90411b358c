#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# variants.sh - the corpus digests must not depend on how it was compiled.
#
#   tests/corpus/variants.sh SRCROOT REFERENCE-PTCORPUS CC [FLAG...]
#
# Builds the corpus and the library once more with CC and FLAGS, outside
# meson, runs both builds and fails naming the first scenario whose
# digest differs.  The kernel builds the same files with other compilers
# and sanitizers, so any digest that depends on unspecified behaviour (the
# order in which C evaluates the operands of one expression, say) would
# show up there as a userspace/kernel mismatch that is not the library's.
# It did: "x = draw() >> draw()" came out differently under the debug
# kernel's UBSAN, and gcc -fsanitize=shift reproduces that here.

set -eu

[ $# -ge 3 ] || { echo "usage: variants.sh SRCROOT PTCORPUS CC [FLAG...]" >&2; exit 2; }
src=$1
ref=$2
cc=$3
shift 3
command -v "$cc" >/dev/null || {
	echo "variants.sh: compiler $cc not found (install it: scripts/deps.sh)" >&2
	exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

lib="prio_tree.c vma_prio_tree.c rmap/rsim_core.c rmap/rsim_file.c
     rmap/rsim_anon.c rmap/rsim_pte_chain.c rmap/gen_core.c
     rmap/gen_workloads.c rmap/gen_random.c"
files=
for f in $lib; do
	files="$files $src/src/$f"
done
for f in ptcorpus.c pt_corpus.c pt_corpus_rmap.c; do
	files="$files $src/tests/corpus/$f"
done

# shellcheck disable=SC2086
"$cc" -std=gnu11 -fno-strict-aliasing -w "$@" \
	-I"$src/include" -I"$src/compat" -I"$src/src/rmap" \
	-I"$src/tests/corpus" $files -o "$tmp/ptcorpus" || {
	echo "variants.sh: building the corpus with $cc $* failed" >&2
	exit 1
}

"$ref" >"$tmp/ref.txt" || {
	echo "variants.sh: the reference corpus failed" >&2
	exit 1
}
"$tmp/ptcorpus" >"$tmp/variant.txt" || {
	echo "variants.sh: the corpus built with $cc $* failed" >&2
	exit 1
}

python3 - "$tmp/ref.txt" "$tmp/variant.txt" "$cc $*" <<'PY'
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
