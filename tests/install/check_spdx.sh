#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check_spdx.sh SOURCE_ROOT
#
# Every source and build file of the tree names its licence in its first
# five lines, "SPDX-License-Identifier: GPL-2.0" (the LICENSE file's):
# C, headers, scripts (by ending or by a #! line), meson files, linker
# maps, manual pages, kernel configs and Makefiles.  Data, fixtures and
# prose are not sources.  The files are git's list, so a build directory
# or a stray file is not checked; without git (a release tarball) the
# test is skipped.

root=$1
if ! command -v git >/dev/null ||
   ! git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
	echo "check_spdx.sh: skipped: $root is not a git checkout"
	exit 77
fi

bad=0
checked=0
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
git -C "$root" ls-files >"$list" || exit 1
while IFS= read -r f; do
	path=$root/$f
	[ -f "$path" ] || continue	# deleted in the work tree
	case ${f##*/} in
	*.c | *.h | *.S | *.py | *.sh | *.pl | *.awk | *.1 | *.3 | *.9 | \
	*.map | *.config | meson.build | meson_options.txt | Makefile) ;;
	*)
		head -c 2 "$path" | grep -q '^#!' || continue
		;;
	esac
	checked=$((checked + 1))
	if ! head -n 5 "$path" |
	     grep -q 'SPDX-License-Identifier: GPL-2\.0\($\| \)'; then
		echo "$f:1: expected 'SPDX-License-Identifier: GPL-2.0' in the first 5 lines"
		bad=1
	fi
done <"$list"

[ $checked -gt 0 ] || {
	echo "check_spdx.sh: expected source files in $root, found none"
	exit 1
}
[ $bad -eq 0 ] && echo "check_spdx.sh: $checked source and build files name GPL-2.0"
exit $bad
