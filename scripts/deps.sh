#!/bin/bash
# Install the Debian 12 packages libpriotree needs, if any are missing.
# Safe to run again: it only calls apt-get when something is absent.
set -euo pipefail

packages=(
	meson ninja-build pkg-config gcc libc6-dev libcmocka-dev libbsd-dev valgrind
	patch gcovr
	clang llvm afl++
	linux-source-6.1 qemu-system-x86 busybox-static
	bc flex bison libelf-dev libssl-dev cpio xz-utils
)

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
