#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The whole test suite, from a fresh Debian 12 machine: installs what is
# missing, builds, and runs every suite (unit, models, install, fuzz,
# kernel: a real Linux 6.1 boot in QEMU), then the unit suite under
# valgrind and unit+models under AddressSanitizer/UBSan.
#
# Build directories (build-test, build-valgrind use the same; build-asan)
# are kept, so a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh test

step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "configure and build"
if [ -d build-test ]; then
	meson setup --reconfigure build-test >/dev/null
else
	meson setup build-test -Dfuzz=enabled -Dkernel=enabled
fi
meson compile -C build-test

step "every suite: plain meson test's, then fuzz and kernel (--setup full)"
meson test -C build-test --setup full --print-errorlogs

step "unit suite under valgrind"
meson test -C build-test --setup valgrind --suite unit --print-errorlogs

step "unit and models suites under ASan+UBSan"
if [ ! -d build-asan ]; then
	meson setup build-asan -Db_sanitize=address,undefined \
		-Db_lundef=false -Dchecker=true
fi
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite unit --suite models --print-errorlogs

step "done"
