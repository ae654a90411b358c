# SPDX-License-Identifier: GPL-2.0
#
# Shared by the install suite's scripts (sourced, not run).  The scripts
# compile consumers exactly as an outside user would:
#
#	cc prog.c $(pkg-config --cflags --libs NAME)
#
# against the prefix that stage_prefix.sh installed, and run them with
# LD_LIBRARY_PATH pointing at that prefix's libdir.
#
# $CC is the enclosing build's compiler (default: cc).  When
# PRIOTREE_UNDER_VALGRIND=1 the consumers themselves run under valgrind;
# the wrapper of a test setup only reaches the shell, not its children.

: "${CC:=cc}"

# fail LINE MESSAGE: report "script:LINE: expected MESSAGE" and exit 1;
# the sourcing script sets $pt_script to its own name.
fail()
{
	echo "$pt_script:$1: expected $2" >&2
	exit 1
}

# The same for checks made here, in lib.sh.
lib_fail()
{
	echo "tests/install/lib.sh:$1: expected $2" >&2
	exit 1
}

# pt_load_prefix ENV_FILE: read what stage_prefix.sh wrote and check that
# pkg-config really answers from that prefix, not from a system copy.
pt_load_prefix()
{
	[ -r "$1" ] ||
		lib_fail $LINENO "the staged prefix description $1 (build the tests' dependencies, do not use --no-rebuild on a fresh build dir)"
	. "$1"
	pt_pc_prefix=$(pkg-config --variable=prefix libpriotree) ||
		lib_fail $LINENO "pkg-config to find libpriotree with PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
	[ "$pt_pc_prefix" = "$PRIOTREE_PREFIX" ] ||
		lib_fail $LINENO "libpriotree.pc with prefix=$PRIOTREE_PREFIX, got prefix=$pt_pc_prefix"
	pt_libdir=$(pkg-config --variable=libdir libpriotree)
	pt_tmp=$(mktemp -d "${TMPDIR:-/tmp}/priotree-install.XXXXXX")
	trap 'rm -rf "$pt_tmp"' EXIT
}

# pt_compile OUT SRC PKG [--static]: the user's one-line build.
pt_compile()
{
	if [ "${4:-}" = --static ]; then
		# shellcheck disable=SC2046
		$CC -static "$2" $(pkg-config --static --cflags --libs "$3") \
			-o "$1" ||
			lib_fail $LINENO "'$CC -static $2 \$(pkg-config --static --cflags --libs $3)' to build"
	else
		# shellcheck disable=SC2046
		$CC "$2" $(pkg-config --cflags --libs "$3") -o "$1" ||
			lib_fail $LINENO "'$CC $2 \$(pkg-config --cflags --libs $3)' to build"
	fi
}

# pt_run PROGRAM [ARGS...]: run a consumer against the installed library.
pt_run()
{
	if [ "${PRIOTREE_UNDER_VALGRIND:-0}" = 1 ]; then
		LD_LIBRARY_PATH=$pt_libdir valgrind --error-exitcode=99 \
			--leak-check=full \
			--errors-for-leak-kinds=definite,indirect --quiet "$@"
	else
		LD_LIBRARY_PATH=$pt_libdir "$@"
	fi
}

# pt_check_linked_from_prefix PROGRAM: the dynamic loader must resolve
# libpriotree.so.0 inside the staged prefix (and nowhere else).
pt_check_linked_from_prefix()
{
	pt_resolved=$(LD_LIBRARY_PATH=$pt_libdir ldd "$1" |
		sed -n 's/^[[:space:]]*libpriotree\.so\.0 => \([^ ]*\) .*/\1/p')
	case $pt_resolved in
	"$pt_libdir"/libpriotree.so.0)
		;;
	*)
		lib_fail $LINENO "$1 to load $pt_libdir/libpriotree.so.0, ldd says '$pt_resolved'"
		;;
	esac
}
