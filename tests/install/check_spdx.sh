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

list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
git -C "$root" ls-files >"$list" || exit 1

# One awk over every file, not a head and a grep per file: with about a
# thousand files, forks made this take 30 s on a loaded machine.  awk never
# sees an empty file's line 1, so the empty ones go to it by name.
files=
empty=
while IFS= read -r f; do
	path=$root/$f
	if [ ! -f "$path" ]; then
		continue	# deleted in the work tree
	elif [ -s "$path" ]; then
		files="$files$path
"
	else
		empty="$empty$f
"
	fi
done <"$list"

# A file is a source by name, or by a #! first line; a source names its
# licence within its first 5 lines.
# The empty files are one more awk, so that xargs running awk more than
# once does not report them twice.
# shellcheck disable=SC2016
prog='
	function source_name(path,	name) {
		name = path
		sub(/.*\//, "", name)
		return name ~ /\.(c|h|S|py|sh|pl|awk|1|3|9|map|config)$/ ||
		       name == "meson.build" || name == "meson_options.txt" ||
		       name == "Makefile"
	}
	function report(path) {
		print path ":1: expected \047SPDX-License-Identifier: " \
		      "GPL-2.0\047 in the first 5 lines"
		bad++
	}
	function finish() {
		if (cur == "" || !source)
			return
		checked++
		if (!found)
			report(substr(cur, length(root) + 1))
	}
	BEGIN {
		n = split(empty, e, "\n")
		for (i = 1; i <= n; i++)
			if (e[i] != "" && source_name(e[i])) {
				checked++
				report(e[i])
			}
	}
	FNR == 1 {
		finish()
		cur = FILENAME
		found = 0
		source = source_name(FILENAME) || $0 ~ /^#!/
	}
	FNR <= 5 && /SPDX-License-Identifier: GPL-2\.0($| )/ { found = 1 }
	FNR == 5 { finish(); cur = ""; nextfile }
	END { finish(); print "checked " checked + 0 " " bad + 0 }
'
result=$(awk -v root="$root/" -v empty="$empty" "$prog" </dev/null
	 printf '%s' "$files" | tr '\n' '\0' |
		xargs -0 awk -v root="$root/" -v empty= "$prog")
bad=0
checked=0
# xargs may run awk more than once: a "checked N BAD" line each
printf '%s\n' "$result" | grep -v '^checked '
for n in $(printf '%s\n' "$result" | sed -n 's/^checked \([0-9]*\) [0-9]*$/\1/p'); do
	checked=$((checked + n))
done
printf '%s\n' "$result" | grep -q '^checked [0-9]* [1-9]' && bad=1

[ $checked -gt 0 ] || {
	echo "check_spdx.sh: expected source files in $root, found none"
	exit 1
}
[ $bad -eq 0 ] && echo "check_spdx.sh: $checked source and build files name GPL-2.0"
exit $bad
