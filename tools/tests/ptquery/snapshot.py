#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ptquery maps on a saved /proc: tools/tests/ptquery/NAME/.

    snapshot.py PTQUERY FIXTURES NAME

NAME/proc/ is a small fake /proc (PID/maps, PID/comm).  Its maps files
say @DEV@ and @INO@ where they map "the file": a scratch file whose
device and inode are written in when the tree is copied to a scratch
directory, since a snapshot cannot know them in advance.

Checks, with the queries of NAME/args:
 - --json output equals brute.py's scan of the same tree, as sets;
 - the text output and stderr equal NAME/expected.out and expected.err
   (@FILE@ and @PROC@ stand for the scratch paths), exit status 0;
 - -p DIR, -pDIR, --proc DIR and --proc=DIR give the same output.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import brute
import wrap


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(cmd):
    return subprocess.run(cmd, capture_output=True)


def main(ptquery, fixtures, name):
    src = os.path.join(fixtures, name)
    with open(os.path.join(src, 'args')) as f:
        queries = f.read().split()
    tmp = tempfile.mkdtemp(prefix='ptquery-snapshot-')
    try:
        target = os.path.join(tmp, 'file')
        with open(target, 'w') as f:
            f.write('the mapped file\n')
        st = os.stat(target)
        dev = '%02x:%02x' % (os.major(st.st_dev), os.minor(st.st_dev))
        proc = os.path.join(tmp, 'proc')

        def copy(s, d):
            with open(s, 'rb') as f:
                data = f.read()
            if os.path.basename(s) == 'maps':
                data = data.replace(b'@DEV@', dev.encode())
                data = data.replace(b'@INO@', str(st.st_ino).encode())
            with open(d, 'wb') as f:
                f.write(data)
        shutil.copytree(os.path.join(src, 'proc'), proc,
                        copy_function=copy)

        ptq = wrap.command(ptquery)
        r = run(ptq + ['maps', '--json', '--proc', proc, target] + queries)
        if r.returncode != 0:
            fail('--json: exit status %d, stderr:\n%s' %
                 (r.returncode, r.stderr.decode()))
        got = sorted(json.dumps(json.loads(line), sort_keys=True)
                     for line in r.stdout.decode().splitlines())
        want = brute.canonical(brute.hits(
            proc, dev, st.st_ino, os.sysconf('SC_PAGESIZE'),
            [brute.query_range(q) for q in queries] or [(0, 0)]))
        if got != want:
            fail('--json differs from the brute-force scan\nptquery:\n%s\n'
                 'brute.py:\n%s' % ('\n'.join(got), '\n'.join(want)))

        outs = set()
        for opt in (['-p', proc], ['-p' + proc], ['--proc', proc],
                    ['--proc=' + proc]):
            r = run(ptq + ['maps'] + opt + [target] + queries)
            outs.add((r.returncode, r.stdout, r.stderr))
        if len(outs) != 1:
            fail('the spellings of --proc differ: %r' % outs)
        status, out, err = outs.pop()

        def expected(what):
            with open(os.path.join(src, what), 'rb') as f:
                text = f.read()
            return text.replace(b'@FILE@', target.encode()).replace(
                b'@PROC@', proc.encode())
        if status != 0:
            fail('exit status %d, stderr:\n%s' % (status, err.decode()))
        for what, data in (('expected.out', out), ('expected.err', err)):
            if data != expected(what):
                fail('%s differs:\ngot:\n%s\nwant:\n%s' % (
                    what, data.decode(errors='replace'),
                    expected(what).decode(errors='replace')))
        print('%s: %d hits, as brute.py and %s/expected.*' % (
            name, len(want), name))
    finally:
        shutil.rmtree(tmp)


if __name__ == '__main__':
    main(*sys.argv[1:4])
