#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One ptquery command line and what it must do.

    cli.py PTQUERY VERSION CASE

Each case of CASES runs ptquery once, in a scratch directory holding
"file" (the case's interval file, when it has one) and an empty
directory "dir", and checks the exit status, stdout (exactly, or its
first line when the case says 'first'), and the first line of stderr.
A case named full-* writes its stdout to /dev/full, and expects nothing.
@FILE@ and @DIR@ in arguments and expectations are those paths.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import wrap

MAX = '18446744073709551615'
EIGHT_TEN = b'8 8 eight\n10 10 ten\n'
LONG_LABEL = 'x' * 4091
NUMBERS = 'expected a number from 0 to ' + MAX

# name: (interval file, args, status, stdout, stderr's first line)
CASES = {
    # numbers: decimal (a leading 0 is not octal), 0x-hex, nothing else
    'leading-zero': (EIGHT_TEN, ['intervals', '@FILE@', '010'], 0,
                     'query [10, 10]: 1 interval\n  [10, 10] ten\n', ''),
    'zero-eight': (EIGHT_TEN, ['intervals', '@FILE@', '08'], 0,
                   'query [8, 8]: 1 interval\n  [8, 8] eight\n', ''),
    'hex': (EIGHT_TEN, ['intervals', '@FILE@', '0xA-0x0a'], 0,
            'query [10, 10]: 1 interval\n  [10, 10] ten\n', ''),
    'hex-range': (EIGHT_TEN, ['intervals', '@FILE@', '0X8-10'], 0,
                  'query [8, 10]: 2 intervals\n  [8, 8] eight\n'
                  '  [10, 10] ten\n', ''),
    'max': (b'0 ' + MAX.encode() + b' all\n',
            ['intervals', '@FILE@', MAX], 0,
            'query [%s, %s]: 1 interval\n  [0, %s] all\n' % (MAX, MAX, MAX),
            ''),
    'blank-minus-one': (EIGHT_TEN, ['intervals', '@FILE@', ' -1'], 2, '',
                        "ptquery: query ' -1': expected FIRST-LAST, each a "
                        "number from 0 to " + MAX),
    'minus-one': (EIGHT_TEN, ['intervals', '@FILE@', '--', '-1'], 2, '',
                  "ptquery: query '-1': expected FIRST-LAST, each a "
                  "number from 0 to " + MAX),
    'plus-one': (EIGHT_TEN, ['intervals', '@FILE@', '+1'], 2, '',
                 "ptquery: query '+1': " + NUMBERS),
    'overflow': (EIGHT_TEN, ['intervals', '@FILE@', '18446744073709551616'],
                 2, '', "ptquery: query '18446744073709551616': " + NUMBERS),
    'hex-overflow': (EIGHT_TEN, ['intervals', '@FILE@',
                                 '0x10000000000000000'], 2, '',
                     "ptquery: query '0x10000000000000000': " + NUMBERS),
    'bare-0x': (EIGHT_TEN, ['intervals', '@FILE@', '0x'], 2, '',
                "ptquery: query '0x': " + NUMBERS),
    'reversed': (EIGHT_TEN, ['intervals', '@FILE@', '9-8'], 2, '',
                 "ptquery: query '9-8': expected FIRST <= LAST"),
    'page-overflow': (None, ['maps', '@FILE@', '18446744073709551616'], 2,
                      '', "ptquery: page '18446744073709551616': " + NUMBERS),
    'file-octal': (b'010 010 ten\n', ['intervals', '@FILE@', '10'], 0,
                   'query [10, 10]: 1 interval\n  [10, 10] ten\n', ''),
    'file-overflow': (b'# comment\n18446744073709551616 1\n',
                      ['intervals', '@FILE@', '1'], 1, '',
                      '@FILE@:2: expected START, a number from 0 to ' + MAX +
                      ", got '18446744073709551616'"),
    'file-no-last': (b'5 # five\n', ['intervals', '@FILE@', '1'], 1, '',
                     '@FILE@:1: expected LAST after START, a number from 0 '
                     'to ' + MAX),
    # messages about the input file
    'nul-byte': (b'1 2 a\0b\n', ['intervals', '@FILE@', '1'], 1, '',
                 '@FILE@:1: expected text, got a NUL byte'),
    'directory': (None, ['intervals', '@DIR@', '1'], 1, '',
                  '@DIR@: Is a directory'),
    'missing-file': (None, ['intervals', '@DIR@/none', '1'], 1, '',
                     '@DIR@/none: No such file or directory'),
    'long-line': (('1 2 ' + LONG_LABEL + '\n').encode(),
                  ['intervals', '@FILE@', '1'], 0,
                  'query [1, 1]: 1 interval\n  [1, 2] ' + LONG_LABEL + '\n',
                  ''),
    'no-hits': (EIGHT_TEN, ['intervals', '@FILE@', '9'], 0,
                'query [9, 9]: 0 intervals\n', ''),
    # maps input
    'maps-missing-file': (None, ['maps', '@DIR@/none'], 1, '',
                          '@DIR@/none: No such file or directory'),
    'maps-missing-proc': (b'', ['maps', '--proc', '@DIR@/none', '@FILE@'],
                          1, '', '@DIR@/none: No such file or directory'),
    'maps-nothing-readable': (b'', ['maps', '--proc=@DIR@', '@FILE@'], 1,
                              '', 'ptquery: @DIR@: expected at least one '
                              'readable PID/maps'),
    # the command line
    'help': (None, ['--help'], 0, 'usage: ptquery intervals FILE QUERY...',
             ''),
    'help-short': (None, ['-h'], 0, 'usage: ptquery intervals FILE QUERY...',
                   ''),
    'intervals-help': (None, ['intervals', '--help'], 0,
                       'usage: ptquery intervals FILE QUERY...', ''),
    'maps-help': (None, ['maps', '--help'], 0,
                  'usage: ptquery maps [--proc DIR] [--json] PATH '
                  '[PAGE | FIRST-LAST]...', ''),
    'version': (None, ['--version'], 0, 'ptquery @VERSION@\n', ''),
    'maps-version': (None, ['maps', '-V'], 0, 'ptquery @VERSION@\n', ''),
    'no-command': (None, [], 2, '', "ptquery: expected a command, intervals "
                   "or maps; see 'ptquery --help'"),
    'unknown-command': (None, ['map'], 2, '', "ptquery: expected a command, "
                        "intervals or maps, got 'map'; see 'ptquery --help'"),
    'unknown-option': (None, ['maps', '--jsno', '@FILE@'], 2, '',
                       "ptquery maps: unrecognized option '--jsno'"),
    'proc-needs-dir': (None, ['maps', '@FILE@', '--proc'], 2, '',
                       "ptquery maps: option '--proc' requires an argument"),
    'maps-no-path': (None, ['maps', '--json'], 2, '', "ptquery maps: expected "
                     "PATH, see 'ptquery maps --help'"),
    'intervals-no-query': (EIGHT_TEN, ['intervals', '@FILE@'], 2, '',
                           "ptquery intervals: expected FILE QUERY..., see "
                           "'ptquery intervals --help'"),
    # standard output on /dev/full: what was not written was not answered
    'full-intervals': (EIGHT_TEN, ['intervals', '@FILE@', '8'], 1, '',
                       'ptquery: standard output: No space left on device'),
    'full-help': (None, ['--help'], 1, '',
                  'ptquery: standard output: No space left on device'),
    'full-maps-help': (None, ['maps', '--help'], 1, '',
                       'ptquery: standard output: No space left on device'),
    'full-version': (None, ['--version'], 1, '',
                     'ptquery: standard output: No space left on device'),
}

FIRST_LINE_ONLY = {'help', 'help-short', 'intervals-help', 'maps-help'}


def main(ptquery, version, name):
    content, args, status, out, err = CASES[name]
    tmp = tempfile.mkdtemp(prefix='ptquery-cli-')
    try:
        path = os.path.join(tmp, 'file')
        d = os.path.join(tmp, 'dir')
        os.mkdir(d)
        with open(path, 'wb') as f:
            f.write(content or b'')

        def fill(s):
            return s.replace('@FILE@', path).replace('@DIR@', d).replace(
                '@VERSION@', version)
        if name.startswith('full-'):
            if not os.path.exists('/dev/full'):
                print('SKIP: no /dev/full')
                return 77
            with open('/dev/full', 'wb') as full:
                r = subprocess.run(wrap.command(ptquery) +
                                   [fill(a) for a in args],
                                   stdout=full, stderr=subprocess.PIPE)
            r.stdout = b''
        else:
            r = subprocess.run(wrap.command(ptquery) +
                               [fill(a) for a in args], capture_output=True)
        got_out = r.stdout.decode(errors='replace')
        got_err = (r.stderr.decode(errors='replace').splitlines() or [''])[0]
        if name in FIRST_LINE_ONLY:
            got_out = (got_out.splitlines() or [''])[0]
            if 'Exit status' not in r.stdout.decode():
                print('FAIL: --help does not describe the exit status')
                return 1
        fails = []
        if r.returncode != status:
            fails.append('exit status %d, expected %d' % (r.returncode,
                                                         status))
        if got_out != fill(out):
            fails.append('stdout:\n%s\nexpected:\n%s' % (got_out, fill(out)))
        if got_err != fill(err):
            fails.append('stderr: %s\nexpected: %s' % (got_err, fill(err)))
        for f in fails:
            print('FAIL: ptquery %s: %s' % (' '.join(args), f))
        return 1 if fails else 0
    finally:
        shutil.rmtree(tmp)


if __name__ == '__main__':
    if sys.argv[1:2] == ['--list']:
        print('\n'.join(CASES))
        sys.exit(0)
    sys.exit(main(*sys.argv[1:4]))
