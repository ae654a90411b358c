#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the vm selftest results of two kernels.

    compare-selftests.py STOCK-RESULTS PRIO-RESULTS

Each file holds "name<TAB>verdict<TAB>reason<TAB>failed steps" lines
(verdict ok, not ok or skip; the failed steps of a test that runs many,
such as khugepaged, joined by " | "), written by compare.py
--selftests-out from a boot's PT-SELFTEST lines.  Exit 0 only when every
test has the same verdict on both kernels and a test that fails on both
fails the same steps: i_mmap on the prio tree must pass and fail exactly
what i_mmap on the rbtree (stock) passes and fails.  Prints a table, the
skips with their reasons, and one line per difference.
"""

import sys


def load(path):
    res = {}
    order = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2:
                continue
            name, verdict = parts[0], parts[1]
            why = parts[2] if len(parts) > 2 else ""
            steps = [s for s in parts[3].split(" | ") if s] \
                if len(parts) > 3 else []
            if name not in res:
                order.append(name)
            res[name] = (verdict, why, steps)
    return res, order


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n")[2].strip())
        return 2
    stock, order = load(sys.argv[1])
    prio, prio_order = load(sys.argv[2])
    for name in prio_order:
        if name not in stock:
            order.append(name)
    diffs = []
    print(f"{'selftest':28} {'stock':8} {'prio':8}")
    for name in order:
        s = stock.get(name, ("missing", "", []))
        p = prio.get(name, ("missing", "", []))
        print(f"{name:28} {s[0]:8} {p[0]:8}")
        if s[0] != p[0]:
            diffs.append(f"{sys.argv[2]}:1: expected selftest {name} "
                         f"{s[0]} as on stock, found {p[0]}"
                         + (f" ({p[1]})" if p[1] else ""))
        elif set(s[2]) != set(p[2]):
            for step in sorted(set(p[2]) - set(s[2])):
                diffs.append(f"{sys.argv[2]}:1: expected selftest {name} "
                             f"to fail only the steps it fails on stock, "
                             f"it also fails: {step}")
            for step in sorted(set(s[2]) - set(p[2])):
                diffs.append(f"{sys.argv[2]}:1: expected selftest {name} "
                             f"to fail as on stock, it passes: {step}")
    for label, res in (("stock", stock), ("prio", prio)):
        for name in order:
            v, why, _ = res.get(name, ("missing", "", []))
            if v == "skip":
                print(f"skip on {label}: {name}: {why}")
            elif v == "not ok":
                print(f"not ok on {label}: {name}: {why}")
    if diffs:
        for d in diffs:
            print(d)
        print(f"FAIL selftests: {len(diffs)} difference(s) from stock")
        return 1
    n_ok = sum(1 for v, _, _ in prio.values() if v == "ok")
    print(f"PASS selftests: {len(order)} tests, same verdicts as stock "
          f"({n_ok} ok)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
