#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ptquery maps on the live /proc, checked against brute.py.

    live.py PTQUERY CASE

Processes come and go between two scans, so each case starts processes
of its own, which stay put, and compares their entries in ptquery's
answer with brute.py's scan of their maps, taken before and after
ptquery ran (and equal); the machine case compares every other process
that held still as well.

  libc      two sleep processes and libc (its path from our own maps)
  longpath  a process mapping a file whose path is 4050 bytes long: its
            maps line is longer than 4096 bytes
  forged    a process mapping a file whose name makes its maps line, from
            byte 4095 on, read as a mapping of libc at 0x7f0000100000;
            no such mapping may be reported
  machine   every process of the machine, while one of ours maps a file
            whose path is 4050 bytes: for each process that held still
            between two brute.py scans, one before ptquery and one after,
            ptquery's hits of that file and of libc are brute.py's
  nonroot   ptquery run as nobody: the processes it cannot read are
            counted on stderr, and it still answers (skipped when not
            root, as it needs setpriv)

Exit status 0 pass, 1 fail, 77 skip.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import brute
import wrap

PAGE = os.sysconf('SC_PAGESIZE')
ALL_PAGES = '0-0xfffffffffffff'
MAPPER = '''
import mmap, sys
f = open(sys.argv[1], 'rb')
m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
print('ready', flush=True)
sys.stdin.read()
'''


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def libc_path():
    with open('/proc/self/maps') as f:
        for line in f:
            m = re.search(r'(/\S*/libc[.-]\S*\.so\S*|/\S*/libc\.so\.\d+)$',
                          line.strip())
            if m:
                return m.group(1)
    print('SKIP: no libc in /proc/self/maps (a static python?)')
    sys.exit(77)


def dev_ino(path):
    st = os.stat(path)
    return '%02x:%02x' % (os.major(st.st_dev), os.minor(st.st_dev)), \
        st.st_ino


def wait_mapped(pid, path, timeout=10):
    """Until @pid maps @path and is asleep with its maps settled.

    The dynamic loader maps a library in several steps (reserve, map,
    mprotect), so seeing the path is not enough: the process must be
    sleeping ('S') with the same maps twice, 100 ms apart.
    """
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            with open('/proc/%d/maps' % pid, 'rb') as f:
                maps = f.read()
            with open('/proc/%d/stat' % pid) as f:
                state = f.read().rsplit(')', 1)[1].split()[0]
        except OSError:
            maps, state = None, None
        if maps and path.encode() in maps and state == 'S' and \
           maps == last:
            return
        last = maps
        time.sleep(0.1)
    fail('process %d did not map %s within %d s' % (pid, path, timeout))


def start_mapper(path):
    child = subprocess.Popen([sys.executable, '-c', MAPPER, path],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    if child.stdout.readline().strip() != b'ready':
        fail('the mapping process did not start')
    return child


def maps_line_of(pid, path):
    with open('/proc/%d/maps' % pid, 'rb') as f:
        for line in f.read().split(b'\n'):
            if line.endswith(path.encode()):
                return line
    fail('process %d does not map %s' % (pid, path))


def ptquery_json(ptquery, path, queries):
    r = subprocess.run(wrap.command(ptquery) + ['maps', '--json', path] +
                       queries,
                       capture_output=True)
    if r.returncode != 0:
        fail('ptquery maps --json %s: exit status %d, stderr:\n%s' %
             (path, r.returncode, r.stderr.decode()))
    # The kernel prints no malformed line: one "malformed" here is a line
    # that ptquery split, such as the tail of a long one, which it skipped
    # (and so answered without it, when that tail was a long path's).
    if 'malformed' in r.stderr.decode():
        fail('ptquery maps --json: the live /proc has no malformed lines, '
             'but stderr says:\n%s' % r.stderr.decode())
    try:
        objs = [json.loads(line) for line in r.stdout.decode().splitlines()]
    except ValueError as e:
        fail('ptquery maps --json %s: not JSON Lines: %s' % (path, e))
    return objs, r


def compare(ptquery, path, pids, queries):
    """ptquery's hits in @pids against brute.py's, before and after."""
    dev, ino = dev_ino(path)
    qs = [brute.query_range(q) for q in queries]
    keep = set(str(p) for p in pids)
    before = brute.canonical(brute.hits('/proc', dev, ino, PAGE, qs, keep))
    objs, _ = ptquery_json(ptquery, path, queries)
    after = brute.canonical(brute.hits('/proc', dev, ino, PAGE, qs, keep))
    if before != after:
        fail('the test processes changed their mappings during the test')
    got = brute.canonical(o for o in objs if o['pid'] in pids)
    if got != before:
        fail('ptquery maps --json %s, for pids %s:\n%s\nbrute.py:\n%s' % (
            path, sorted(pids), '\n'.join(got), '\n'.join(before)))
    if not before:
        fail('brute.py found no mapping of %s in %s' % (path, sorted(pids)))
    return objs, before


def case_libc(ptquery):
    libc = libc_path()
    sleeps = [subprocess.Popen(['sleep', '300']) for _ in range(2)]
    try:
        for s in sleeps:
            wait_mapped(s.pid, libc)
        pids = {s.pid for s in sleeps}
        objs, want = compare(ptquery, libc, pids, [ALL_PAGES, '0'])
        # ptquery itself maps libc; it must have left itself out
        child = subprocess.Popen(wrap.command(ptquery) +
                                 ['maps', '--json', libc],
                                 stdout=subprocess.PIPE)
        out, _ = child.communicate()
        if any(json.loads(l)['pid'] == child.pid
               for l in out.decode().splitlines()):
            fail('ptquery reported its own mapping of libc')
        print('libc: %d entries of the sleeps as brute.py, %d hits in all'
              % (len(want), len(objs)))
    finally:
        for s in sleeps:
            s.kill()
            s.wait()


def deep_dir(base, length):
    """A directory under @base whose path is @length bytes, with a '/'."""
    d = base
    while length - len(d) > 201:
        d += '/' + 'd' * 200
    d += '/' + 'd' * (length - len(d) - 2) + '/'
    assert len(d) == length
    os.makedirs(d)
    return d


def case_longpath(ptquery):
    base = tempfile.mkdtemp(prefix='ptquery-live-')
    try:
        path = deep_dir(base, 4040) + 'f' * 10
        assert len(path) == 4050
        with open(path, 'wb') as f:
            f.write(b'x' * 3 * PAGE)
        child = start_mapper(path)
        try:
            line = maps_line_of(child.pid, path)
            if len(line) < 4096:
                fail('the maps line is %d bytes, expected more than 4096'
                     % len(line))
            compare(ptquery, path, {child.pid}, [ALL_PAGES, '2'])
            print('longpath: a %d-byte maps line, read whole' % len(line))
        finally:
            child.kill()
            child.wait()
    finally:
        shutil.rmtree(base)


def forge(base, tail):
    """Map a file named so that @tail starts at byte 4095 of its line."""
    prefix = 73    # start-end perms offset dev inode, padded: see below
    d = deep_dir(base, 4095 - prefix)
    path = d + tail
    with open(path, 'wb') as f:
        f.write(b'x' * PAGE)
    child = start_mapper(path)
    line = maps_line_of(child.pid, path)
    shift = 4095 - line.index(tail.encode())
    if shift:
        # the kernel pads the fields to 73 bytes on 64-bit machines; if
        # this one does not, resize the first component, which maps shows
        first = d[len(base) + 1:].split('/')[0]
        resized = first[:len(first) + shift] if shift < 0 else \
            first + 'd' * shift
        os.rename(os.path.join(base, first), os.path.join(base, resized))
        path = os.path.join(base, resized) + \
            d[len(base) + 1 + len(first):] + tail
        line = maps_line_of(child.pid, path)
    if line.index(tail.encode()) != 4095:
        child.kill()
        fail('could not place the forged tail at byte 4095')
    return child, path


def case_forged(ptquery):
    libc = libc_path()
    dev, ino = dev_ino(libc)
    tail = '7f0000100000-7f0000101000 r-xp 00000000 %s %d forged' % (dev,
                                                                      ino)
    base = tempfile.mkdtemp(prefix='ptquery-live-')
    try:
        child, path = forge(base, tail)
        try:
            objs, want = compare(ptquery, libc, {child.pid}, [ALL_PAGES])
            for o in objs:
                if o['start'] == '0x7f0000100000' and o['pid'] == child.pid:
                    fail('ptquery reported the forged mapping: %r' % o)
            compare(ptquery, path, {child.pid}, ['0'])
            print('forged: the tail of a %d-byte path is not a mapping'
                  % len(path))
        finally:
            child.kill()
            child.wait()
    finally:
        shutil.rmtree(base)


def case_nonroot(ptquery):
    if os.geteuid() != 0 or not shutil.which('setpriv'):
        print('SKIP: needs root and setpriv, to run ptquery as nobody')
        sys.exit(77)
    nobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
    # a private build directory is no failure of ptquery's
    if subprocess.run(nobody + ['test', '-x', ptquery]).returncode != 0:
        print('SKIP: nobody cannot run %s (its directory is private)'
              % ptquery)
        sys.exit(77)
    libc = libc_path()
    r = subprocess.run(nobody + wrap.command(ptquery) + ['maps', libc],
                       capture_output=True)
    err = r.stderr.decode()
    # this very process is root's, so at least one is unreadable
    if r.returncode != 0 or not re.search(
            r'^ptquery: \d+ process(es)? unreadable: run as root for all$',
            err, re.M):
        fail('as nobody: exit status %d, stderr:\n%s' % (r.returncode, err))
    if not r.stdout.decode().startswith(libc + ': '):
        fail('as nobody: no answer:\n%s' % r.stdout.decode())
    print('nonroot: ' + err.splitlines()[0])


def by_pid(objs):
    pids = {}
    for o in objs:
        pids.setdefault(o['pid'], []).append(json.dumps(o, sort_keys=True))
    return {pid: sorted(hits) for pid, hits in pids.items()}


def machine_agrees(ptquery, path, queries):
    """ptquery's answer for @path against brute.py's over every process.

    Two scans of the whole /proc, before and after ptquery: the processes
    whose hits are the same in both (and were readable) held still while
    ptquery ran, and for each of them ptquery must say exactly what brute.py
    says.  Processes that came, went or changed in between are left out:
    on a shared machine compilers start and exit all the time.
    Return: how many processes were compared, and how many hits.
    """
    dev, ino = dev_ino(path)
    qs = [brute.query_range(q) for q in queries]
    alive = set(os.listdir('/proc'))
    before = by_pid(brute.hits('/proc', dev, ino, PAGE, qs))
    objs, _ = ptquery_json(ptquery, path, queries)
    after = by_pid(brute.hits('/proc', dev, ino, PAGE, qs))
    alive &= set(os.listdir('/proc'))
    got = by_pid(objs)
    still = [pid for pid in before if after.get(pid) == before[pid]]
    # a process there throughout that maps nothing of @path in either
    # scan must map nothing in ptquery's answer either (a forged mapping)
    for pid in got:
        if str(pid) in alive and pid not in before and pid not in after:
            fail('ptquery maps --json %s: pid %d maps none of it, but '
                 'ptquery says:\n%s' % (path, pid, '\n'.join(got[pid])))
    for pid in still:
        if got.get(pid, []) != before[pid]:
            fail('ptquery maps --json %s, pid %d:\n%s\nbrute.py:\n%s' % (
                path, pid, '\n'.join(got.get(pid, [])),
                '\n'.join(before[pid])))
    return still, sum(len(before[pid]) for pid in still)


def case_machine(ptquery):
    libc = libc_path()
    base = tempfile.mkdtemp(prefix='ptquery-live-')
    try:
        path = deep_dir(base, 4040) + 'f' * 10
        with open(path, 'wb') as f:
            f.write(b'x' * 3 * PAGE)
        child = start_mapper(path)
        try:
            wait_mapped(child.pid, path)
            for target, queries in ((path, [ALL_PAGES]),
                                    (libc, [ALL_PAGES, '0'])):
                still, nr = machine_agrees(ptquery, target, queries)
                if child.pid not in still:
                    fail('the process mapping %s was not compared' %
                         target[-20:])
                print('machine: %s: as brute.py in %d processes (%d hits)'
                      % (os.path.basename(target), len(still), nr))
        finally:
            child.kill()
            child.wait()
    finally:
        shutil.rmtree(base)


CASES = {'machine': case_machine, 'libc': case_libc,
         'longpath': case_longpath,
         'forged': case_forged, 'nonroot': case_nonroot}

if __name__ == '__main__':
    CASES[sys.argv[2]](sys.argv[1])
