# SPDX-License-Identifier: GPL-2.0
"""The command that runs ptquery, under valgrind when the tests are.

meson's valgrind setup wraps a test's executable, which for these tests
is sh (run.sh) exec'ing python3: valgrind does not follow the exec, so
python runs natively, and ptquery itself is put under valgrind here,
with the setup's options.
"""
import os
import shutil

VALGRIND = ['valgrind', '--error-exitcode=99', '--leak-check=full',
            '--errors-for-leak-kinds=definite,indirect', '--quiet']


def command(ptquery):
    if os.environ.get('PRIOTREE_UNDER_VALGRIND') and shutil.which('valgrind'):
        return VALGRIND + [ptquery]
    return [ptquery]
