#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-suite.sh - build, boot and compare: the kernel half of libpriotree's
# "identical behaviour" suite.
#
#   kernel-port/run-suite.sh identity [TREE]
#   kernel-port/run-suite.sh w1 [TREE]
#   kernel-port/run-suite.sh config|build FLAVOUR [TREE]
#   kernel-port/run-suite.sh boot default|debug|kasan|stock PTCORPUS [TREE]
#   kernel-port/run-suite.sh race [BOOTS] [TREE]
#
# identity  port the sources (port.sh) and prove byte identity.
# w1        build the debug and the stock kernel, then compile the ported
#           files and every kernel .c file the patches change (that each
#           config builds) with W=1; fail on any warning from them.
# config    configure one flavour (fails naming the fragment lines that
#           did not survive olddefconfig); build: and build its bzImage.
# boot      configure (tinyconfig + configs/base.config, + debug.config
#           for "debug" (KFENCE, UBSAN, DEBUG_LIST, DEBUG_VM), + that and
#           kasan.config for "kasan", + stock.config for "stock": i_mmap
#           left on the rbtree, for bench/), build bzImage, build the busybox
#           initramfs with the static guest programs guest/mmapwork and
#           guest/stress and the kernel's vm selftests (build-selftests.sh),
#           make an ext2 and a swap disk image, boot qemu-system-x86_64
#           under multi-threaded TCG (-smp 2, numa=fake=2, hugepages) with
#           a timeout, and let compare.py check the console against
#           "PTCORPUS" (tests/corpus/ptcorpus) run here; a flavour other
#           than stock must pass and fail the same selftests as stock
#           (compare-selftests.py against out-stock/selftests.txt).
# race      the debug kernel with the mremap fix reverted
#           (race/*.patch), booted BOOTS times with the stress program
#           alone: does stress catch the race the fix closes?
#
# Build directories live in $PRIOTREE_KBUILD (default
# /var/tmp/libpriotree-kbuild): out-<flavour>/.  They are
# kept, so a second run rebuilds only what changed.  PRIOTREE_QEMU_TIMEOUT
# (seconds, default 2400) bounds each boot; PRIOTREE_QEMU_ACCEL=kvm uses
# KVM where it works (the default is TCG); PRIOTREE_QEMU_SMP (default 2)
# sets the CPUs; PRIOTREE_STRESS_SECS (default 8) each stress walker's
# time.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
kbuild=${PRIOTREE_KBUILD:-/var/tmp/libpriotree-kbuild}
jobs=${PRIOTREE_JOBS:-2}

die() {
	echo "run-suite.sh: $*" >&2
	exit 1
}

stamp() {
	date +%s
}

kport=$here
. "$kport/boot-lib.sh"

port() {
	out=$("$here/port.sh" "$@") || die "port.sh failed (see above)"
	tree=$(echo "$out" | sed -n 's/^PORT-TREE //p')
	[ -n "$tree" ] || die "port.sh named no tree"
}

kmake() {
	nice -n 10 make -C "$tree" O="$objdir" ARCH=x86_64 -j"$jobs" "$@"
}

# Make $objdir/.config from tinyconfig and the fragments, once per change
# of the fragments; then insist that every fragment line took effect.
configure() {
	flavour=$1
	objdir=$kbuild/out-$flavour
	frags="$here/configs/base.config"
	case $flavour in
	debug|stock) frags="$frags $here/configs/$flavour.config" ;;
	race) frags="$frags $here/configs/debug.config" ;;
	kasan) frags="$frags $here/configs/debug.config $here/configs/kasan.config" ;;
	esac
	want=$(cat $frags | sha256sum | cut -c1-16)
	mkdir -p "$objdir"
	if [ ! -f "$objdir/.config" ] ||
	   [ "$(cat "$objdir/.pt-config-stamp" 2>/dev/null)" != "$want" ]; then
		echo "run-suite.sh: configuring $objdir" >&2
		kmake tinyconfig >"$objdir/config.log" 2>&1 ||
			die "make tinyconfig failed: $objdir/config.log"
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$objdir" \
			"$objdir/.config" $frags >>"$objdir/config.log" 2>&1 ||
			die "merge_config.sh failed: $objdir/config.log"
		kmake olddefconfig >>"$objdir/config.log" 2>&1 ||
			die "make olddefconfig failed: $objdir/config.log"
		echo "$want" >"$objdir/.pt-config-stamp"
	fi
	# The last fragment to name an option wins, as in merge_config.sh;
	# "# CONFIG_X is not set" lines count too.
	missing=$(cat $frags | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { k = $0; sub(/=.*/, "", k) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { k = $2 }
		k != "" { want[k] = $0; if (!(k in seen)) order[n++] = k; seen[k] = 1; k = "" }
		END { for (i = 0; i < n; i++) print want[order[i]] }' |
		while read -r line; do
			grep -qx "$line" "$objdir/.config" || echo "$line"
		done)
	[ -z "$missing" ] || die "options did not survive olddefconfig (unmet dependencies?): $missing"
}

build_kernel() {
	t0=$(stamp)
	kmake bzImage >"$objdir/build.log" 2>&1 || {
		grep -E 'error|Error' "$objdir/build.log" | head -20 >&2
		die "kernel build failed: $objdir/build.log"
	}
	echo "run-suite.sh: bzImage ($1) built in $(($(stamp) - t0)) s" >&2
}

build_initramfs() {
	pt_gen_init_cpio "$tree"
	pt_need_busybox
	pt_guest mmapwork "$objdir"
	mmapwork=$prog
	pt_guest stress "$objdir"
	stress=$prog
	pt_guest mremaprace "$objdir"
	mremaprace=$prog
	pt_guest iusers "$objdir"
	iusers=$prog
	pt_guest daxclean "$objdir"
	daxclean=$prog
	# the kernel's own vm selftests, static, from the same tree
	selftests=$kbuild/selftests
	"$here/build-selftests.sh" "$tree" "$selftests" ||
		die "building the vm selftests failed"
	{
		sed "s|@BUSYBOX@|/bin/busybox|; s|@INIT@|$here/initramfs/init|; s|@MMAPWORK@|$mmapwork|; s|@STRESS@|$stress|; s|@MREMAPRACE@|$mremaprace|; s|@IUSERS@|$iusers|; s|@DAXCLEAN@|$daxclean|; s|@SELFTESTS_SH@|$here/initramfs/selftests.sh|" \
			"$here/initramfs/initramfs.list"
		for t in "$selftests"/bin/*; do
			case $t in *.log) continue ;; esac
			echo "file /selftests/${t##*/} $t 0755 0 0"
		done
	} >"$objdir/initramfs.list"
	"$gen" "$objdir/initramfs.list" >"$objdir/initramfs.cpio.new" ||
		die "gen_init_cpio failed"
	mv "$objdir/initramfs.cpio.new" "$objdir/initramfs.cpio"
}

# Two virtio disks made fresh for each boot: an ext2 file system
# (writeback, truncate) and a swap device (mkswap in the guest).
make_disks() {
	# mkfs.ext2 lives in sbin, which a user's PATH may lack
	PATH=$PATH:/usr/sbin:/sbin
	command -v mkfs.ext2 >/dev/null || die "mkfs.ext2 missing: install e2fsprogs"
	rm -f "$objdir/disk.img" "$objdir/swap.img"
	truncate -s 64M "$objdir/disk.img"
	mkfs.ext2 -q -F -b 4096 "$objdir/disk.img" >/dev/null 2>&1 ||
		die "mkfs.ext2 $objdir/disk.img failed"
	truncate -s 128M "$objdir/swap.img"
}

# run_qemu EXTRA: boot out-$flavour's bzImage and initramfs on fresh disk
# images, the serial console into $objdir/console.log; EXTRA is appended
# to the kernel command line.  Leaves qemu's exit status in $rc (124:
# killed by the timeout).
run_qemu() {
	make_disks
	# numa=fake=2: two nodes for migration; hugepages: the hugetlb
	# selftests; memmap: 128 MiB of guest RAM at 1.5 GiB (one memory
	# section, aligned) as a legacy pmem device, /dev/pmem0, for the DAX
	# test; pt.*: read by /init.  3 GiB of RAM besides: mremap_test maps
	# 2 GiB, which the overcommit heuristic refuses with less, and
	# khugepaged's collapse_compound_extreme leaves 512 huge pages
	# PTE-mapped by one page each (1 GiB until the deferred split
	# shrinker frees them) before it asks for one more.  With 2 GiB a
	# debug boot failed that step twice in a row on anonymous memory,
	# compaction failing every time (compact_success=0): not a result.
	smp=${PRIOTREE_QEMU_SMP:-2}
	stress_secs=${PRIOTREE_STRESS_SECS:-8}
	cmdline=" numa=fake=2 hugepages=160 memmap=128M!1536M pt.flavour=$flavour pt.stress=$stress_secs$1"
	case $flavour in
	debug|kasan) cmdline="$cmdline kfence.sample_interval=1" ;;
	esac
	accel=${PRIOTREE_QEMU_ACCEL:-tcg}
	# multi-threaded TCG: one host thread per vCPU, real SMP races
	case $accel in
	tcg) accel=tcg,thread=multi ;;
	esac
	timeout=${PRIOTREE_QEMU_TIMEOUT:-2400}
	t0=$(stamp)
	pt_qemu "$timeout" "$objdir/console.log" \
		"$objdir/arch/x86/boot/bzImage" "$objdir/initramfs.cpio" \
		"kunit.stats_enabled=1$cmdline" \
		-accel "$accel" -m 3200 -smp "$smp" \
		-drive "file=$objdir/disk.img,if=virtio,format=raw" \
		-drive "file=$objdir/swap.img,if=virtio,format=raw" \
		>"$objdir/qemu.log" 2>&1
	secs=$(($(stamp) - t0))
	echo "run-suite.sh: qemu ($flavour, $accel) exited $rc after $secs s" >&2
	[ "$rc" = 124 ] && echo "run-suite.sh: qemu killed after the ${timeout} s timeout" >&2
	[ "$rc" = 0 ] || [ "$rc" = 124 ] || cat "$objdir/qemu.log" >&2
}

boot() {
	flavour=$1
	ptcorpus=$2
	[ -x "$ptcorpus" ] || die "userspace corpus program $ptcorpus missing"
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 missing: install qemu-system-x86"
	configure "$flavour"
	build_kernel "$flavour"
	"$here/check-identity.sh" "$tree" "$objdir" >"$objdir/identity.txt" || {
		cat "$objdir/identity.txt" >&2
		die "identity check against the built objects failed"
	}
	tail -1 "$objdir/identity.txt" >&2
	build_initramfs

	# A failing userspace scenario does not stop the boot: the kernel
	# must catch the same failure, and compare.py shows both.
	user_rc=0
	"$ptcorpus" >"$objdir/user-digests.txt" 2>"$objdir/user-stderr.txt" ||
		user_rc=$?
	if [ "$user_rc" != 0 ]; then
		grep -v '^PT-' "$objdir/user-stderr.txt" >&2 || true
		echo "run-suite.sh: the userspace corpus run failed (exit $user_rc); booting anyway" >&2
	fi

	run_qemu ""
	cmp_rc=0
	python3 "$here/compare.py" --user "$objdir/user-digests.txt" \
		--console "$objdir/console.log" --label "$flavour kernel" \
		--qemu-rc "$rc" --smp "$smp" \
		--selftests-out "$objdir/selftests.txt" \
		--vma-size-out "$objdir/vma-size.txt" \
		>"$objdir/compare.txt" || cmp_rc=$?
	cat "$objdir/compare.txt"
	# The prio-tree kernels must pass and fail the same vm selftests
	# as stock (i_mmap on the rbtree), which runs first in meson.
	if [ "$flavour" != stock ]; then
		if [ -s "$kbuild/out-stock/selftests.txt" ]; then
			python3 "$here/compare-selftests.py" \
				"$kbuild/out-stock/selftests.txt" \
				"$objdir/selftests.txt" \
				>>"$objdir/compare.txt" || cmp_rc=$?
			sed -n '/^selftest /,$p' "$objdir/compare.txt"
		else
			echo "run-suite.sh: no stock selftest results to compare with (run boot stock first)" >&2
		fi
		# the vma must not grow: same size as with i_mmap on the rbtree
		stock_size=$(sed -n 's/.* vm_area_struct=\([0-9]*\).*/\1/p' \
			"$kbuild/out-stock/vma-size.txt" 2>/dev/null)
		size=$(sed -n 's/.* vm_area_struct=\([0-9]*\).*/\1/p' \
			"$objdir/vma-size.txt" 2>/dev/null)
		if [ -z "$stock_size" ]; then
			echo "run-suite.sh: no stock vma size to compare with (run boot stock first)" >&2
		elif [ "$size" != "$stock_size" ]; then
			echo "run-suite.sh: expected sizeof(struct vm_area_struct) $stock_size as on stock, the $flavour kernel has ${size:-none}" >&2
			cmp_rc=1
		else
			echo "run-suite.sh: sizeof(struct vm_area_struct): stock $stock_size, $flavour $size"
		fi
	fi
	[ "$user_rc" = 0 ] || die "the userspace corpus run failed (above)"
	if [ "$cmp_rc" != 0 ]; then
		# meson's error log shows the last lines of stderr only:
		# repeat the differences and the selftests' notes there
		grep -a -E '^PT-SELFTEST-INFO|^PT-SELFTEST-OUT [^:]*: failed:' \
			"$objdir/console.log" >&2 || true
		grep -E 'expected|^FAIL' "$objdir/compare.txt" >&2 || true
		die "the $flavour kernel run differs (above)"
	fi
}

[ $# -ge 1 ] || die "usage: run-suite.sh identity|w1|boot ..."
# One kernel job at a time on this machine: several checkouts (and meson
# runs) share $PRIOTREE_KBUILD, its tree and its build directories.
mkdir -p "$kbuild"
exec 8>"$kbuild/suite.lock"
flock 8
mode=$1
shift
case $mode in
identity)
	port "$@"
	;;
w1)
	port "$@"
	# The two kernels CI boots: debug (i_mmap on the prio tree, lockdep)
	# and stock (i_mmap on the rbtree); both compile the twins and the
	# patched kernel files, each down its own #ifdef branches.
	for flavour in ${PRIOTREE_W1_FLAVOURS:-debug stock}; do
		configure "$flavour"
		# the whole kernel first (the boot step reuses it): its .o files
		# say which of the patched files this configuration compiles
		build_kernel "$flavour"
		# The .s targets run the compiler with every flag and warning of
		# the .o build but leave the .o files alone, so W=1 here never
		# forces a rebuild of the boot kernel.  Delete them first: always
		# recompile.  Every twin .c file (port.sh --twins) that this
		# configuration compiles: the .o files say which.
		objs=
		for c in $("$here/port.sh" --twins | awk '$2 ~ /\.c$/ { print $2 }'); do
			[ -f "$objdir/${c%.c}.o" ] && objs="$objs ${c%.c}.s"
		done
		[ -n "$objs" ] || die "the $flavour kernel build compiled none of the twins"
		# and every kernel .c file the patches change that this
		# configuration builds
		for s in $(sed -n 's|^+++ b/\(.*\)\.c$|\1.s|p' "$here"/patches/*.patch |
			   sort -u); do
			[ -f "$objdir/${s%.s}.o" ] && objs="$objs $s"
		done
		for o in $objs; do
			rm -f "$objdir/$o"
		done
		kmake W=1 $objs >"$objdir/w1.log" 2>&1 || {
			cat "$objdir/w1.log" >&2
			die "W=1 build ($flavour) failed"
		}
		for o in $objs; do
			[ -s "$objdir/$o" ] || die "W=1 build ($flavour) did not compile $o"
		done
		grep -E '^  CC ' "$objdir/w1.log" || true
		if grep -E 'warning:|error:' "$objdir/w1.log" >&2; then
			die "W=1 warnings in the ported files ($flavour kernel, above)"
		fi
		echo "run-suite.sh: W=1 compile ($flavour) of $objs: no warnings"
	done
	;;
config|build)
	# configure (and build) one flavour only: "config" checks that every
	# fragment line survives olddefconfig in seconds; "build" prepares a
	# kernel for a later boot.
	[ $# -ge 1 ] || die "usage: run-suite.sh $mode FLAVOUR [TREE]"
	flavour=$1
	shift
	port "$@"
	configure "$flavour"
	[ "$mode" = config ] || build_kernel "$flavour"
	;;
boot)
	[ $# -ge 2 ] || die "usage: run-suite.sh boot default|debug|kasan|stock PTCORPUS [TREE]"
	flavour=$1
	ptcorpus=$2
	shift 2
	case $flavour in
	default|debug|kasan|stock) ;;
	*) die "unknown kernel flavour $flavour" ;;
	esac
	port "$@"
	boot "$flavour" "$ptcorpus"
	;;
race)
	# race [BOOTS] [TREE]: the debug kernel with race/revert-*.patch, in
	# out-race/, first made as a copy of out-debug/ (its configuration;
	# objtool's command lines name out-debug by its absolute path, so
	# that first build still rebuilds objtool and then every object it
	# checks: a cold build; later runs rebuild mm/mmap.o and the link),
	# booted BOOTS times (default 3) with the stress programs alone
	# (guest/stress.c, guest/mremaprace.c).  A measurement, not a test:
	# it prints per boot each PT-STRESS line and the kernel's reports
	# (a caught race can end in a BUG, which oops=panic turns into the
	# end of the boot; a hang ends at the timeout, 300 s here), then in
	# how many boots a program
	# failed or the kernel reported; it fails only when a build does.
	boots=${1:-3}
	[ $# -ge 1 ] && shift
	case $boots in
	''|*[!0-9]*) die "usage: run-suite.sh race [BOOTS] [TREE]" ;;
	esac
	port "$@"
	flavour=race
	objdir=$kbuild/out-race
	if [ ! -d "$objdir" ]; then
		[ -f "$kbuild/out-debug/vmlinux" ] ||
			die "build the debug kernel first: run-suite.sh build debug"
		cp -a "$kbuild/out-debug" "$objdir"
	fi
	configure race
	# Revert in the shared tree only while this kernel builds; the
	# fixed file returns with its old mtime, so out-debug's mmap.o stays
	# valid and out-race's (newer) keeps the revert.
	cp -p "$tree/mm/mmap.c" "$kbuild/mmap.c.fixed"
	trap 'cp -p "$kbuild/mmap.c.fixed" "$tree/mm/mmap.c"' EXIT
	for p in "$here"/race/*.patch; do
		patch -s -p1 -d "$tree" <"$p" || die "cannot apply $p"
	done
	build_kernel race
	cp -p "$kbuild/mmap.c.fixed" "$tree/mm/mmap.c"
	trap - EXIT
	build_initramfs
	# A caught race may also hang the guest without a BUG: these boots
	# need about two minutes, so a short bound.
	PRIOTREE_QEMU_TIMEOUT=${PRIOTREE_QEMU_TIMEOUT:-300}
	b=1
	caught=0
	while [ "$b" -le "$boots" ]; do
		# pt.seed: another random sequence of mutations each boot
		# oops=panic: a BUG from a caught race ends the boot at once
		# (panic=-1 reboots, -no-reboot exits) instead of leaving the
		# other CPU spinning on the lock the dead task held
		run_qemu " pt.mode=race pt.seed=$b kunit.filter_glob=pt-race-none oops=panic"
		log=$objdir/console-$b.log
		cp "$objdir/console.log" "$log"
		sed -n "s/.*\(PT-STRESS [a-z]* \(ok\|FAIL\).*\)/PT-RACE boot=$b \1/p" \
			"$log" | cut -c1-300
		reports=$(grep -aE "BUG: |kernel BUG at|invalid opcode|RIP: 0010:|WARNING: |Oops|INFO: task .* blocked|rcu.*stall" \
			"$log" | head -5)
		[ -z "$reports" ] ||
			echo "$reports" | sed "s/^/PT-RACE boot=$b report: /"
		grep -q PT-INIT-DONE "$log" ||
			echo "PT-RACE boot=$b did not reach PT-INIT-DONE (qemu exit $rc): $log"
		if [ -n "$reports" ] || grep -q "PT-STRESS [a-z]* FAIL" "$log"; then
			caught=$((caught + 1))
		fi
		b=$((b + 1))
	done
	echo "PT-RACE caught in $caught of $boots boots"
	;;
*)
	die "unknown mode $mode"
	;;
esac
