#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check_deps_build.sh MESON SOURCE_ROOT WORK_DIR
#
# scripts/deps.sh build installs what the demonstration needs, and no
# more: the toolchain (meson, ninja-build, gcc, libc6-dev) and pkg-config
# (for programs built against the installed library), plus the package
# of each external dependency that the demo's build (meson setup
# -Dtests=false, as scripts/demo.sh does) finds.  A package of the set
# that no such dependency comes from fails the test, and so does a
# dependency whose package is missing from the set.  Off Debian (no
# dpkg) the test is skipped.

set -u

meson=$1
source_root=$2
work=$3
toolchain="meson ninja-build gcc libc6-dev pkg-config"

if ! command -v dpkg >/dev/null || ! command -v pkg-config >/dev/null; then
	echo "check_deps_build.sh: skipped: needs dpkg and pkg-config"
	exit 77
fi

bad=0
build_set=$(bash "$source_root/scripts/deps.sh" --list build) || exit 1

rm -rf "$work"
mkdir -p "$work" || exit 1
if ! "$meson" setup "$work/demo" "$source_root" -Dtests=false \
	--wrap-mode=nodownload >"$work/setup.log" 2>&1; then
	cat "$work/setup.log"
	echo "check_deps_build.sh: expected the demo's meson setup to succeed"
	exit 1
fi

# the Debian package of each external dependency found, by its .pc file
needed=
for dep in $("$meson" introspect --dependencies "$work/demo" |
	     python3 -c 'import json, sys
for d in json.load(sys.stdin):
    print(d["name"])'); do
	pc=$(pkg-config --path "$dep") || {
		echo "check_deps_build.sh: expected a .pc file for $dep"
		bad=1
		continue
	}
	pkg=$(dpkg -S "$(readlink -f "$pc")" 2>/dev/null | sed -n '1s/:.*//p')
	if [ -z "$pkg" ]; then
		echo "check_deps_build.sh: expected a Debian package owning $pc ($dep)"
		bad=1
		continue
	fi
	needed="$needed $pkg"
	case " $build_set " in
	*[[:space:]]$pkg[[:space:]]*) ;;
	*)
		echo "scripts/deps.sh: expected $pkg (for $dep, which the demo's build uses) in the build set"
		bad=1
		;;
	esac
done

for pkg in $build_set; do
	case " $toolchain $needed " in
	*" $pkg "*) ;;
	*)
		echo "scripts/deps.sh: expected the build set to hold only what the demo's build uses, but $pkg is neither the toolchain ($toolchain) nor the package of a dependency it finds (found:${needed:- none})"
		bad=1
		;;
	esac
done

rm -rf "$work"
[ $bad -eq 0 ] && echo "check_deps_build.sh: deps.sh build is the toolchain${needed:+ and$needed}"
exit $bad
