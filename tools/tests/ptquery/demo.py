#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/demo.sh on a machine where many processes map libc.

    demo.py SOURCE_ROOT PTQUERY RMAPSIM

The demo runs on a build directory of its own making, with this build's
rmapsim and, in place of ptquery, a wrapper that runs this build's
ptquery with --proc on a fake /proc of 2000 processes mapping libc's
first page: about 170 KB of answer, more than a pipe holds, as on a busy
desktop.  The demo must finish (exit 0), print the seed's table first,
and show the first hits of libc and how many more there are.

Exit status 0 pass, 1 fail.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import wrap

NR_PROCS = 2000
PAGE = os.sysconf('SC_PAGESIZE')


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def libc_of_sh():
    """libc as the demo finds it: ldd /bin/sh."""
    out = subprocess.run(['ldd', '/bin/sh'], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if 'libc.so' in line and '=>' in line:
            return line.split('=>')[1].split()[0]
    print('SKIP: no libc in ldd /bin/sh')
    sys.exit(77)


def fake_proc(proc, libc):
    st = os.stat(libc)
    dev = '%02x:%02x' % (os.major(st.st_dev), os.minor(st.st_dev))
    for pid in range(1000, 1000 + NR_PROCS):
        os.makedirs('%s/%d' % (proc, pid))
        with open('%s/%d/comm' % (proc, pid), 'w') as f:
            f.write('busy\n')
        with open('%s/%d/maps' % (proc, pid), 'w') as f:
            f.write('7f0000000000-7f0000026000 r--p 00000000 %s %d'
                    '                    %s\n' % (dev, st.st_ino, libc))


def main(source_root, ptquery, rmapsim):
    libc = libc_of_sh()
    tmp = tempfile.mkdtemp(prefix='ptquery-demo-')
    try:
        proc = os.path.join(tmp, 'proc')
        fake_proc(proc, libc)
        tools = os.path.join(tmp, 'build', 'tools')
        os.makedirs(os.path.join(tools, 'rmapsim'))
        os.symlink(os.path.abspath(rmapsim),
                   os.path.join(tools, 'rmapsim', 'rmapsim'))
        # "maps" gets --proc; getopt_long takes options after PATH too
        wrapper = os.path.join(tools, 'ptquery')
        with open(wrapper, 'w') as f:
            f.write('#!/bin/sh\n'
                    'if [ "$1" = maps ]; then\n'
                    '\tshift\n'
                    '\texec %s maps --proc=%s "$@"\n'
                    'fi\n'
                    'exec %s "$@"\n' % (
                        ' '.join(wrap.command(os.path.abspath(ptquery))),
                        proc,
                        ' '.join(wrap.command(os.path.abspath(ptquery)))))
        os.chmod(wrapper, 0o755)
        r = subprocess.run(['bash', os.path.join(source_root, 'scripts',
                                                 'demo.sh'),
                            os.path.join(tmp, 'build')],
                           capture_output=True, text=True)
        out = r.stdout.splitlines()
        if r.returncode != 0:
            fail('demo.sh: exit status %d; its last lines:\n%s\nstderr:\n%s'
                 % (r.returncode, '\n'.join(out[-5:]), r.stderr))
        if not out or not out[0].startswith("== 1. the seed's table"):
            fail("demo.sh: expected the seed's table first, got %r"
                 % out[:1])
        want = ['%s: %d mappings in %d processes' % (libc, NR_PROCS,
                                                     NR_PROCS),
                '  ... and %d more' % (NR_PROCS + 2 - 12)]
        for line in want:
            if line not in out:
                fail('demo.sh: expected the line %r in step 2' % line)
        if not any(line.startswith('== 4.') for line in out):
            fail('demo.sh: expected step 4')
        print('demo: %d lines, step 2 of %d processes cut to 12 lines'
              % (len(out), NR_PROCS))
    finally:
        shutil.rmtree(tmp)


if __name__ == '__main__':
    main(*sys.argv[1:4])
