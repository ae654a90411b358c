# SPDX-License-Identifier: GPL-2.0
#
# boot-lib.sh - what run-suite.sh and bench/kernel/run.sh share to boot a
# kernel of $PRIOTREE_KBUILD in QEMU.  Sourced, never run: the caller
# sets $kport (this directory, kernel-port/) and $kbuild, and defines
# die().
#
#   pt_need_busybox            fail unless /bin/busybox is static
#   pt_gen_init_cpio [TREE]    $gen: the kernel's gen_init_cpio, built
#                              from TREE when missing or older
#   pt_guest NAME OUTDIR       $prog: guest/NAME.c, static
#   pt_qemu SECS LOG KERNEL INITRD APPEND [QEMU-ARG...]
#                              boot, the serial console into LOG; qemu's
#                              exit status in $rc (124: timed out)

pt_need_busybox() {
	[ -x /bin/busybox ] || die "/bin/busybox missing: install busybox-static"
	# the guest has no libc: a dynamic busybox would not even start
	file /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
		die "/bin/busybox is not static: install busybox-static"
}

pt_gen_init_cpio() {
	gen=$kbuild/gen_init_cpio
	if [ $# -ge 1 ] &&
	   { [ ! -x "$gen" ] || [ "$1/usr/gen_init_cpio.c" -nt "$gen" ]; }; then
		${HOSTCC:-cc} -O2 -o "$gen" "$1/usr/gen_init_cpio.c" ||
			die "cannot build gen_init_cpio"
	fi
	[ -x "$gen" ] || die "$gen missing: run kernel-port/run-suite.sh boot first"
}

# The guest programs are meson targets (kernel-port/meson.build: static,
# with the project's warning flags), and meson's kernel tests point
# $PRIOTREE_GUEST_DIR at them.  Run by hand, without meson, the script
# compiles the program itself, with warnings as errors; both ways the
# guest runs a program that built without a warning.
pt_guest() {
	if [ -n "${PRIOTREE_GUEST_DIR:-}" ]; then
		prog=$PRIOTREE_GUEST_DIR/guest-$1
		[ -x "$prog" ] || die "$prog missing: meson builds it (kernel-port/meson.build)"
		return 0
	fi
	prog=$2/$1
	if [ ! -x "$prog" ] || [ "$kport/guest/$1.c" -nt "$prog" ] ||
	   [ "$kport/guest/guest.h" -nt "$prog" ]; then
		${HOSTCC:-cc} -static -O2 -Wall -Wextra -Werror -o "$prog.new" \
			"$kport/guest/$1.c" ||
			die "cannot build guest/$1.c statically (libc6-dev has libc.a)"
		mv "$prog.new" "$prog"
	fi
}

pt_qemu() {
	secs=$1
	log=$2
	kernel=$3
	initrd=$4
	append=$5
	shift 5
	rm -f "$log"
	set +e
	timeout "$secs" qemu-system-x86_64 -nographic -no-reboot \
		-monitor none -serial "file:$log" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 no_timer_check $append" \
		"$@" </dev/null
	rc=$?
	set -e
}
