#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check and tabulate the consoles of bench/kernel/run.sh.

Reads WORKDIR/{stock,default}-RUN.log (serial consoles of immapbench
boots), insists that every run printed every PT-BENCH line of every SPEC
and no FAIL, then prints per shape and op the median guest instructions
per op on the stock kernel (i_mmap on the rbtree) and on the prio tree
kernel, the ratio prio/stock, and the boot-to-boot spread, plus the
median host wall seconds per boot; with --results, also writes that
table as markdown.  Exits 1 with "LOG:LINE: expected ..." on any problem.
"""

import argparse
import datetime
import re
import statistics
import subprocess
import sys

OPS = ("idle", "trunc-page", "trunc-half", "mmap", "fork")
FLAVOURS = (("stock", "rbtree"), ("default", "prio tree"))
LINE = re.compile(r"PT-BENCH (\S+) (\S+) n=(\d+) reps=(\d+) ns=(\d+) "
                  r"ns_per_op=([0-9.]+)")


def fail(msg):
    print(msg, file=sys.stderr)
    print("FAIL", file=sys.stderr)
    sys.exit(1)


def parse_log(path, shapes):
    """Return ({(shape, op): (n, ns_per_op)}, wall seconds) of one boot."""
    got, wall, exit_rc, done = {}, None, None, False
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    for no, line in enumerate(lines, 1):
        if "PT-BENCH" in line and " FAIL" in line:
            fail(f"{path}:{no}: expected no FAIL, found: {line.strip()}")
        m = LINE.search(line)
        if m:
            got[(m.group(1), m.group(2))] = (int(m.group(3)),
                                             float(m.group(6)))
        m = re.search(r"PT-BENCH-EXIT (\d+)", line)
        if m:
            exit_rc = int(m.group(1))
        if "PT-BENCH-DONE" in line:
            done = True
        m = re.match(r"PT-BENCH-WALL ([0-9.]+)", line)
        if m:
            wall = float(m.group(1))
    end = f"{path}:{len(lines)}"
    for shape in shapes:
        for op in OPS:
            if (shape, op) not in got:
                fail(f"{end}: expected a PT-BENCH {shape} {op} line, "
                     "found none (crash, timeout?)")
    if not done or exit_rc != 0:
        fail(f"{end}: expected PT-BENCH-DONE and PT-BENCH-EXIT 0, "
             f"found done={done} exit={exit_rc}")
    if wall is None:
        fail(f"{end}: expected a PT-BENCH-WALL line")
    return got, wall


def spread(values):
    med = statistics.median(values)
    return 100.0 * (max(values) - min(values)) / med if med else 0.0


def qemu_version():
    try:
        out = subprocess.run(["qemu-system-x86_64", "--version"],
                             capture_output=True, text=True).stdout
        return out.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workdir")
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--specs", required=True)
    ap.add_argument("--command", default="bench/kernel/run.sh")
    ap.add_argument("--total-seconds", default="?")
    ap.add_argument("--results")
    args = ap.parse_args()
    shapes = [s.split(":")[0] for s in args.specs.split()]

    per = {}    # flavour -> (shape, op) -> [ns_per_op per run]
    walls = {}
    nvmas = {}
    for flavour, _ in FLAVOURS:
        per[flavour] = {k: [] for k in
                        ((s, o) for s in shapes for o in OPS)}
        walls[flavour] = []
        for run in range(1, args.runs + 1):
            path = f"{args.workdir}/{flavour}-{run}.log"
            got, wall = parse_log(path, shapes)
            walls[flavour].append(wall)
            for key, (n, nspo) in got.items():
                if key not in per[flavour]:
                    continue
                if nvmas.setdefault(key, n) != n:
                    fail(f"{path}: {key[0]} {key[1]}: expected "
                         f"n={nvmas[key]} as in the other runs, found {n}")
                per[flavour][key].append(nspo)

    head = ("| shape | op | vmas | rbtree insns/op | prio insns/op "
            "| prio/rbtree | spread rbtree | spread prio |")
    rows = [head, "|" + "---|" * 8]
    for shape in shapes:
        for op in OPS:
            key = (shape, op)
            st = per["stock"][key]
            pt = per["default"][key]
            ms, mp = statistics.median(st), statistics.median(pt)
            rows.append(f"| {shape} | {op} | {nvmas[key]} | {ms:,.0f} | "
                        f"{mp:,.0f} | {mp / ms:.3f} | {spread(st):.2f}% | "
                        f"{spread(pt):.2f}% |")
    ws, wp = statistics.median(walls["stock"]), \
        statistics.median(walls["default"])
    wall_line = (f"Host wall seconds per boot (median of {args.runs}): "
                 f"rbtree kernel {ws:.1f} s, prio tree kernel {wp:.1f} s; "
                 f"whole script {args.total_seconds} s.")
    table = "\n".join(rows)
    print(table)
    print()
    print(wall_line)

    if args.results:
        date = datetime.datetime.now(datetime.timezone.utc)
        raw = []
        for flavour, label in FLAVOURS:
            for shape in shapes:
                for op in OPS:
                    vals = " ".join(f"{v:.1f}"
                                    for v in per[flavour][(shape, op)])
                    raw.append(f"    {label:9} {shape:18} {op:10} {vals}")
        with open(args.results, "w") as f:
            f.write(f"""# i_mmap in the guest kernel: prio tree vs rbtree

Generated by `bench/kernel/table.py` on {date:%Y-%m-%d %H:%M} UTC.
Command (from the repository root):

    {args.command}

Two Linux 6.1 kernels from one patched tree (kernel-port/): "rbtree" is
the stock interval tree (configs/stock.config), "prio tree" is
CONFIG_I_MMAP_PRIO_TREE=y.  {qemu_version()}, TCG, `-icount shift=0`:
one guest nanosecond per guest instruction, so each figure is guest
instructions (kernel and user) per op, median of {args.runs} boots per
kernel, booted alternately.  Spread: (max - min) / median over the boots.
idle is per page (one i_mmap stabbing query + a pte check per vma
found); trunc-* are per ftruncate down and back up (unmap_mapping_range:
range queries); mmap is per mmap and munmap of two pages, a range new
to i_mmap (one insert, one remove); fork is per fork, exit and wait of
a process holding the shape's mappings (test-mmap: the N vmas of the
parent, rmap-test: the M windows of one child), each of whose file vmas
is added to i_mmap beside its original and removed again.  See
kernel-port/guest/immapbench.c for the shapes.

{table}

{wall_line}

Per-boot instructions per op, in boot order:

{chr(10).join(raw)}
""")


if __name__ == "__main__":
    main()
