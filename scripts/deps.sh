#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages libpriotree needs, if any are missing.
#
#   scripts/deps.sh build   what building the library and tools and running
#                           the demonstration (scripts/demo.sh) need: the
#                           compiler and meson, and pkg-config for the
#                           programs that use the installed library
#   scripts/deps.sh test    that, and what every test suite needs: the
#                           kernel source, QEMU and the guest tools, the
#                           fuzzers, the cross compilers of the arch
#                           check, abigail, gnuplot, libbsd for bench/tree
#                           (the default)
#   scripts/deps.sh --list build|test
#                           print the set, one package a line, and install
#                           nothing (the test deps-build checks the build
#                           set against what the demo's build finds)
#
# Safe to run again: it only calls apt-get when something is absent.
set -euo pipefail

build=(
	meson ninja-build pkg-config gcc libc6-dev
)
test=(
	"${build[@]}"
	libcmocka-dev libbsd-dev valgrind patch gcovr python3 abigail-tools
	groff-base
	clang llvm lld afl++
	linux-source-6.1 qemu-system-x86 busybox-static e2fsprogs
	bc flex bison libelf-dev libssl-dev cpio xz-utils rsync git
	libnuma-dev gcc-hppa-linux-gnu
	gnuplot-nox
)

list=false
if [ "${1:-}" = --list ]; then
	list=true
	shift
fi
case ${1:-test} in
build) packages=("${build[@]}") ;;
test) packages=("${test[@]}") ;;
*) echo "usage: deps.sh [--list] [build|test]" >&2; exit 2 ;;
esac
if $list; then
	printf '%s\n' "${packages[@]}"
	exit 0
fi

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		SUDO=sudo
	else
		echo "deps.sh: missing packages (${missing[*]}) and not root" >&2
		exit 1
	fi
fi
echo "deps.sh: installing ${missing[*]}" >&2
${SUDO:-} apt-get update -q
DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -q --no-install-recommends "${missing[@]}"
