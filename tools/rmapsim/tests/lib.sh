# SPDX-License-Identifier: GPL-2.0
#
# Shared by the rmapsim test scripts (sourced, not run).  Each begins
#
#	. "$(dirname "$0")/lib.sh"
#	use_rmapsim "$1"
#
# which works from any directory: meson runs "sh SCRIPT" with the
# script's own path and the build directory as working directory.
#
# A script reports each failed check with bad(), which prints
# "$subject: expected ..." and fails the test without stopping it, so
# that one run shows every check that failed.  It ends with finish().

set -u

fail=0
subject=${0##*/}

# Under meson's valgrind setup the wrapper sees only the shell that runs
# the script: a script checks rmapsim itself by running
# '$vg "$rmapsim" ...', and finish() leaves through exec so that the
# shell's own leaks are not reported as rmapsim's.
vg=
if [ -n "${PRIOTREE_UNDER_VALGRIND:-}" ] && command -v valgrind >/dev/null
then
	vg="valgrind --error-exitcode=99 --leak-check=full"
	vg="$vg --errors-for-leak-kinds=definite,indirect --quiet"
fi

# use_rmapsim PATH: $rmapsim is PATH made absolute; meson passes it
# relative to the build directory, which a script may leave.
use_rmapsim()
{
	# shellcheck disable=SC2034 # for the script that sources this
	case $1 in
	/*) rmapsim=$1 ;;
	*) rmapsim=$PWD/$1 ;;
	esac
}

# make_tmp: $tmp is a new directory, removed when the script exits.
tmp=
make_tmp()
{
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
}

# bad WHAT: report "$subject: expected WHAT"; the test fails.
bad()
{
	echo "$subject: expected $*"
	fail=1
}

# finish: exit with status 1 if any check failed, else 0.  The EXIT trap
# does not run across exec, so $tmp goes first.
finish()
{
	[ -n "$tmp" ] && rm -rf "$tmp"
	exec sh -c "exit $fail"
}
