#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# arch-check.sh - compile-only check of the arch users of the i_mmap API
# with CONFIG_I_MMAP_PRIO_TREE, on architectures the boot suite never
# builds.
#
#   kernel-port/arch-check.sh [arm] [parisc] [nommu]
#
# Patch 0004 turns vma_interval_tree_foreach() into a for-loop that
# declares its own struct prio_tree_iter; every caller must compile
# unchanged, arch code included.  The x86 kernel of run-suite.sh has no
# arch user, so this script compiles them here (default: all three):
#
# arm     make ARCH=arm LLVM=1 (clang, lld, llvm), configs/arch-arm.config:
#         ARMv5 with MMU, the option on.  arch/arm/mm/fault-armv.c and
#         arch/arm/mm/flush.c walk i_mmap under flush_dcache_mmap_lock()
#         (VIVT and aliasing VIPT caches).
# parisc  make ARCH=parisc CROSS_COMPILE=hppa-linux-gnu- (gcc-hppa-linux-gnu),
#         configs/arch-parisc.config: arch/parisc/kernel/cache.c's walk
#         in flush_dcache_page(), the option on.
# nommu   make ARCH=arm LLVM=1, configs/arch-nommu.config: !MMU, where the
#         option cannot be on (it depends on MMU); mm/nommu.c, which uses
#         struct i_mmap_root since patch 0003, must still compile.
#
# Each also compiles mm/interval_tree.c, and arm and parisc the
# lib/priotree objects of CONFIG_PRIO_TREE (as on 32-bit, unlike x86_64).
#
# nios2 (arch/nios2/mm/cacheflush.c walks i_mmap too) is not covered:
# Debian ships no nios2 cross compiler (there is no gcc-nios2-linux-gnu
# package; "apt-cache search nios2" finds only qemu-system-misc), and
# clang has no nios2 backend ("clang --print-targets" lists none), so
# nothing installable here can compile arch/nios2.  Its walk is the
# same vma_interval_tree_foreach() over &mapping->i_mmap as arm's.
#
# Each arch: port.sh (the tree it names with "PORT-TREE"), then in
# $PRIOTREE_KBUILD/arch-<name>/ a .config from tinyconfig, the fragment
# and olddefconfig (once per change of the fragment or make arguments),
# "make prepare", and then W=1 compiles of the files as .s targets: they
# need no kernel image, and W=1's kernel-doc pass runs only for .o
# files.  Any warning or error fails the arch, with the compiler output.
# A user's .s must also call __vma_prio_tree_first(), so a walk that
# the config had compiled out cannot pass as checked.
#
# Prints "PT-ARCH <arch> ok <files>" or "PT-ARCH <arch> FAIL" per arch;
# exits non-zero if any failed.  PRIOTREE_JOBS (default 2) is make's -j.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
kbuild=${PRIOTREE_KBUILD:-/var/tmp/libpriotree-kbuild}
jobs=${PRIOTREE_JOBS:-2}

die() {
	echo "arch-check.sh: $*" >&2
	exit 1
}

stamp() {
	date +%s
}

# need TOOL PACKAGE: die naming the Debian package when TOOL is missing
need() {
	command -v "$1" >/dev/null ||
		die "$1 missing: install $2"
}

port() {
	out=$("$here/port.sh") || die "port.sh failed (see above)"
	tree=$(echo "$out" | sed -n 's/^PORT-TREE //p')
	[ -n "$tree" ] || die "port.sh named no tree"
}

kmake() {
	nice -n 15 make -C "$tree" O="$objdir" $makeargs -j"$jobs" "$@"
}

# Make $objdir/.config from tinyconfig and $frag, once per change of the
# fragment or of the make arguments; then insist that every fragment line
# took effect (the last line naming an option wins).
configure() {
	want=$( (echo "$makeargs"; cat "$frag") | sha256sum | cut -c1-16)
	mkdir -p "$objdir"
	if [ ! -f "$objdir/.config" ] ||
	   [ "$(cat "$objdir/.pt-config-stamp" 2>/dev/null)" != "$want" ]; then
		echo "arch-check.sh: configuring $objdir" >&2
		rm -f "$objdir/.pt-config-stamp"
		kmake tinyconfig >"$objdir/config.log" 2>&1 ||
			die "make tinyconfig failed: $objdir/config.log"
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$objdir" \
			"$objdir/.config" "$frag" >>"$objdir/config.log" 2>&1 ||
			die "merge_config.sh failed: $objdir/config.log"
		kmake olddefconfig >>"$objdir/config.log" 2>&1 ||
			die "make olddefconfig failed: $objdir/config.log"
		echo "$want" >"$objdir/.pt-config-stamp"
	fi
	missing=$(awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { k = $0; sub(/=.*/, "", k) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { k = $2 }
		k != "" { want[k] = $0; if (!(k in seen)) order[n++] = k; seen[k] = 1; k = "" }
		END { for (i = 0; i < n; i++) print want[order[i]] }' "$frag" |
		while read -r line; do
			grep -qx "$line" "$objdir/.config" || echo "$line"
		done)
	[ -z "$missing" ] ||
		die "$name: options did not survive olddefconfig (unmet dependencies?): $missing"
}

# The .c files under lib/priotree that CONFIG_PRIO_TREE builds, as .s
# targets, from the twin src/Makefile itself.
priotree_objs() {
	sed -n 's/^obj-\$(CONFIG_PRIO_TREE)[[:space:]]*+=//p' \
		"$tree/lib/priotree/Makefile" | tr ' \t' '\n\n' |
		sed -n 's|^\(.*\)\.o$|lib/priotree/\1.s|p'
}

# W=1 warnings that Linux 6.1 itself gives in these files, with or
# without the patches (which change no file under arch/), as one
# grep -E pattern per arch, or nothing.  Each names the file, the
# function and the flag, so a new warning in the same file still fails.
#
# arm: asm/cacheflush.h declares __flush_anon_page() inside the inline
# flush_anon_page(), not at file scope, so its definition in flush.c
# has "no previous prototype" (-Wmissing-prototypes is W=1 in 6.1).
known_warnings() {
	case $1 in
	arm)
		printf "%s\n" "arch/arm/mm/flush\\.c:[0-9]+:[0-9]+: warning: no previous prototype for function '__flush_anon_page' \\[-Wmissing-prototypes\\]"
		;;
	esac
}

# check_one NAME: configure, prepare and compile one arch
check_one() {
	name=$1
	objdir=$kbuild/arch-$name
	frag=$here/configs/arch-$name.config
	[ -f "$frag" ] || die "$frag missing"
	case $name in
	arm|nommu)
		for t in clang ld.lld llvm-ar llvm-nm llvm-objcopy llvm-strip \
			 llvm-readelf llvm-objdump; do
			case $t in
			clang) need $t clang ;;
			ld.lld) need $t lld ;;
			*) need $t llvm ;;
			esac
		done
		makeargs="ARCH=arm LLVM=1"
		;;
	parisc)
		for t in gcc as ld; do
			need hppa-linux-gnu-$t gcc-hppa-linux-gnu
		done
		makeargs="ARCH=parisc CROSS_COMPILE=hppa-linux-gnu-"
		;;
	*)
		die "unknown arch $name (arm, parisc or nommu)"
		;;
	esac
	pt=$(priotree_objs)
	[ -n "$pt" ] ||
		die "no obj-\$(CONFIG_PRIO_TREE) objects in $tree/lib/priotree/Makefile"
	# users: the .s files that must walk i_mmap on the prio tree
	case $name in
	arm)
		users="arch/arm/mm/fault-armv.s arch/arm/mm/flush.s"
		files="$users mm/interval_tree.s $pt"
		;;
	parisc)
		users="arch/parisc/kernel/cache.s"
		files="$users mm/interval_tree.s $pt"
		;;
	nommu)
		users=
		files="mm/nommu.s mm/interval_tree.s"
		;;
	esac

	t0=$(stamp)
	configure
	case $name in
	nommu)
		grep -qx '# CONFIG_MMU is not set' "$objdir/.config" ||
			die "nommu: CONFIG_MMU is set in $objdir/.config"
		! grep -q '^CONFIG_I_MMAP_PRIO_TREE=y' "$objdir/.config" ||
			die "nommu: CONFIG_I_MMAP_PRIO_TREE=y without MMU"
		;;
	esac
	kmake prepare >"$objdir/prepare.log" 2>&1 || {
		tail -30 "$objdir/prepare.log" >&2
		die "$name: make prepare failed: $objdir/prepare.log"
	}
	# always recompile: make would keep an up-to-date .s and its
	# warnings would go unseen
	for f in $files; do
		rm -f "$objdir/$f"
	done
	kmake W=1 $files >"$objdir/w1.log" 2>&1 || {
		cat "$objdir/w1.log" >&2
		die "$name: W=1 compile failed: $objdir/w1.log"
	}
	# warnings of stock 6.1 that the patches do not cause (known_warnings)
	# are shown, not counted; any other warning or error fails
	known=$(known_warnings "$name")
	grep -E 'warning:|error:' "$objdir/w1.log" >"$objdir/w1.warnings" || true
	if [ -n "$known" ]; then
		grep -E "$known" "$objdir/w1.warnings" | sed 's/^/arch-check.sh: stock 6.1, ignored: /' >&2 || true
		grep -vE "$known" "$objdir/w1.warnings" >"$objdir/w1.new" || true
	else
		cp "$objdir/w1.warnings" "$objdir/w1.new"
	fi
	if [ -s "$objdir/w1.new" ]; then
		cat "$objdir/w1.log" >&2
		die "$name: W=1 warnings (above): $(cat "$objdir/w1.new" | tr '\n' ' ')"
	fi
	for f in $files; do
		[ -s "$objdir/$f" ] || die "$name: the W=1 build did not compile $f"
	done
	for f in $users; do
		grep -q '__vma_prio_tree_first' "$objdir/$f" ||
			die "$name: $f has no i_mmap prio tree walk (__vma_prio_tree_first): compiled out by the config?"
	done
	case $name in
	nommu)
		! grep -q '__vma_prio_tree_first' "$objdir/mm/nommu.s" ||
			die "nommu: mm/nommu.s walks a prio tree without MMU"
		grep -q 'vma_interval_tree_insert' "$objdir/mm/nommu.s" ||
			die "nommu: mm/nommu.s does not use the i_mmap API"
		;;
	esac
	echo "arch-check.sh: $name compiled in $(($(stamp) - t0)) s" >&2
	echo "PT-ARCH $name ok $(echo $files)"
}

if [ "${1:-}" = --one ]; then
	shift
	tree=$1
	check_one "$2"
	exit 0
fi

arches=${*:-arm parisc nommu}
for a in $arches; do
	case $a in
	arm|parisc|nommu) ;;
	*) die "usage: arch-check.sh [arm] [parisc] [nommu]" ;;
	esac
done
# one kernel job at a time per $PRIOTREE_KBUILD, as run-suite.sh
mkdir -p "$kbuild"
exec 8>"$kbuild/suite.lock"
flock 8
port
failed=
# each arch in its own shell, so that set -e and die() end only that
# arch and the others still run
for a in $arches; do
	if ! sh "$0" --one "$tree" "$a" 8>&-; then
		echo "PT-ARCH $a FAIL"
		failed="$failed $a"
	fi
done
[ -z "$failed" ] || die "failed:$failed"
