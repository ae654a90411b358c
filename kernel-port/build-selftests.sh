#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-selftests.sh - build the kernel's own vm selftests (and memfd_test)
# of a Linux tree statically, for the busybox initramfs of run-suite.sh.
#
#   kernel-port/build-selftests.sh TREE OUTDIR
#
# "make headers_install" of TREE goes to OUTDIR/hdr (an O= directory, so
# the source tree stays clean); the tests are built against those headers
# with -static into OUTDIR/bin.  A test that fails to build is listed in
# OUTDIR/bin/BUILD-FAILED (the guest then reports it as a skip with that
# reason) instead of failing the whole step.  Rebuilds nothing that is
# newer than its sources.

set -eu

[ $# -eq 2 ] || { echo "usage: build-selftests.sh TREE OUTDIR" >&2; exit 2; }
tree=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
jobs=${PRIOTREE_JOBS:-2}
vm=$tree/tools/testing/selftests/vm
memfd=$tree/tools/testing/selftests/memfd

# The tests the guest runs (initramfs/selftests.sh); see README.md.
VM_TESTS="mremap_test mremap_dontunmap map_populate map_fixed_noreplace
mlock2-tests madv_populate hugepage-mmap hugepage-shm map_hugetlb
hugepage-mremap userfaultfd khugepaged split_huge_page_test ksm_tests"

hdr=$out/hdr
if [ ! -f "$hdr/usr/include/linux/mman.h" ] ||
   [ "$tree/Makefile" -nt "$hdr/usr/include/linux/mman.h" ]; then
	nice -n 10 make -s -j"$jobs" -C "$tree" O="$hdr/obj" ARCH=x86_64 \
		INSTALL_HDR_PATH="$hdr/usr" headers_install >"$out/headers.log" 2>&1 || {
		cat "$out/headers.log" >&2
		echo "build-selftests.sh: headers_install failed" >&2
		exit 1
	}
fi

bin=$out/bin
mkdir -p "$bin"
: >"$bin/BUILD-FAILED.new"
for t in $VM_TESTS; do
	[ -x "$bin/$t" ] && [ "$bin/$t" -nt "$vm/$t.c" ] &&
		[ "$bin/$t" -nt "$vm/vm_util.c" ] && continue
	# EXTRA_CFLAGS reaches both the compile and the link of lib.mk's
	# rules; KHDR_INCLUDES points at the installed headers.
	if nice -n 10 make -C "$vm" -j"$jobs" OUTPUT="$bin" \
		KHDR_INCLUDES="-isystem $hdr/usr/include" \
		EXTRA_CFLAGS="-static -O2" "$bin/$t" >"$bin/$t.log" 2>&1 &&
	   file "$bin/$t" | grep -q 'statically linked'; then
		rm -f "$bin/$t.log"
	else
		rm -f "$bin/$t"
		why=$(grep -m1 -E 'error|undefined' "$bin/$t.log" | cut -c1-160)
		echo "$t build failed: ${why:-see $bin/$t.log}" >>"$bin/BUILD-FAILED.new"
	fi
done

# migration.c runs each of its three tests for RUNTIME (60) seconds; a
# copy with 5 keeps the boot short under TCG (the only change).
t=migration
if [ ! -x "$bin/$t" ] || [ "$vm/$t.c" -nt "$bin/$t" ]; then
	mkdir -p "$out/src"
	sed 's/^#define RUNTIME (60)$/#define RUNTIME (5)/' "$vm/$t.c" >"$out/src/$t.c"
	grep -q '^#define RUNTIME (5)$' "$out/src/$t.c" || {
		echo "build-selftests.sh: migration.c has no '#define RUNTIME (60)'" >&2
		exit 1
	}
	if nice -n 10 ${CC:-cc} -static -O2 -Wall -isystem "$hdr/usr/include" \
		-I "$vm" -I "$tree" -o "$bin/$t" "$out/src/$t.c" \
		-lnuma -lrt -lpthread >"$bin/$t.log" 2>&1; then
		rm -f "$bin/$t.log"
	else
		rm -f "$bin/$t"
		why=$(grep -m1 -E 'error|undefined' "$bin/$t.log" | cut -c1-160)
		echo "$t build failed: ${why:-see $bin/$t.log}" >>"$bin/BUILD-FAILED.new"
	fi
fi

t=memfd_test
if [ ! -x "$bin/$t" ] || [ "$memfd/$t.c" -nt "$bin/$t" ]; then
	if nice -n 10 ${CC:-cc} -static -O2 -D_FILE_OFFSET_BITS=64 \
		-isystem "$hdr/usr/include" -o "$bin/$t" \
		"$memfd/memfd_test.c" "$memfd/common.c" >"$bin/$t.log" 2>&1; then
		rm -f "$bin/$t.log"
	else
		rm -f "$bin/$t"
		why=$(grep -m1 -E 'error|undefined' "$bin/$t.log" | cut -c1-160)
		echo "$t build failed: ${why:-see $bin/$t.log}" >>"$bin/BUILD-FAILED.new"
	fi
fi
mv "$bin/BUILD-FAILED.new" "$bin/BUILD-FAILED"
n=$(ls "$bin" | grep -cv -e '\.log$' -e '^BUILD-FAILED$' || true)
echo "build-selftests.sh: $n static test programs in $bin" >&2
if [ -s "$bin/BUILD-FAILED" ]; then
	sed 's/^/build-selftests.sh: /' "$bin/BUILD-FAILED" >&2
fi
exit 0
