#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The answer ptquery maps --json should give, by brute force.

Written apart from ptquery and its maps parser, to check them: every
line of DIR/PID/maps is split on blanks into its six fields, every
mapping of the file is tested against every query, no index.  A line
that does not split, or whose numbers do not read, is skipped, as
ptquery skips it.

    brute.py DIR MAJOR:MINOR INODE PAGE_SIZE [--pids PID,...] QUERY...

prints one JSON object per hit, in ptquery's schema, sorted.
"""
import json
import os
import sys

ULONG_MAX = 2**64 - 1


def query_range(q):
    a, _, b = q.partition('-')
    first = int(a, 0) if a.startswith('0x') else int(a, 10)
    if not b:
        return first, first
    return first, (int(b, 0) if b.startswith('0x') else int(b, 10))


def comm_of(procdir, pid):
    try:
        with open(os.path.join(procdir, pid, 'comm'), 'rb') as f:
            data = f.read()
    except OSError:
        return '?'
    line = data.split(b'\n', 1)[0]
    # the same reading of odd bytes as ptquery's: UTF-8 where valid,
    # Latin-1 otherwise
    out = []
    i = 0
    while i < len(line):
        for n in (4, 3, 2, 1):
            chunk = line[i:i + n]
            try:
                s = chunk.decode('utf-8')
            except UnicodeDecodeError:
                continue
            if len(s) == 1:
                out.append(s)
                i += n
                break
        else:
            out.append(chr(line[i]))
            i += 1
    return ''.join(out)


def hits(procdir, dev, inode, page_size, queries, pids=None):
    found = []
    for pid in os.listdir(procdir):
        if not pid.isdigit() or (pids is not None and pid not in pids):
            continue
        try:
            with open(os.path.join(procdir, pid, 'maps'), 'rb') as f:
                lines = f.read().split(b'\n')
        except OSError:
            continue
        comm = None
        for line in lines:
            fields = line.split(b' ', 5)
            if len(fields) < 5:
                continue
            try:
                start, end = (int(x, 16) for x in fields[0].split(b'-'))
                perms = fields[1].decode()
                offset = int(fields[2], 16)
                ino = int(fields[4], 10)
            except ValueError:
                continue
            if fields[3].decode() != dev or ino != inode:
                continue
            if start % page_size or end % page_size or \
               offset % page_size or start >= end:
                continue
            pgoff = offset // page_size
            last = pgoff + (end - start) // page_size - 1
            for qf, ql in queries:
                if ql < pgoff or qf > last:
                    continue
                if comm is None:
                    comm = comm_of(procdir, pid)
                first = max(qf, pgoff)
                found.append({
                    'query': [qf, ql], 'pid': int(pid), 'comm': comm,
                    'start': hex(start), 'end': hex(end), 'perms': perms,
                    'pgoff': pgoff, 'pages': [first, min(ql, last)],
                    'addr': hex(start + (first - pgoff) * page_size),
                })
    return found


def canonical(objs):
    return sorted(json.dumps(o, sort_keys=True) for o in objs)


def main(argv):
    procdir, dev, inode, page_size = argv[1], argv[2], int(argv[3]), \
        int(argv[4])
    rest = argv[5:]
    pids = None
    if rest[:1] == ['--pids']:
        pids = set(rest[1].split(','))
        rest = rest[2:]
    queries = [query_range(q) for q in rest] or [(0, 0)]
    for line in canonical(hits(procdir, dev, int(inode), page_size,
                               queries, pids)):
        print(line)


if __name__ == '__main__':
    main(sys.argv)
