#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare a QEMU serial console log with the userspace corpus run.

    compare.py --user USER-DIGESTS --console CONSOLE-LOG [--label NAME]
               [--qemu-rc RC] [--smp N] [--selftests-out FILE]
               [--vma-size-out FILE]

USER-DIGESTS holds the "PT-DIGEST <scenario> <hex>" lines of
tests/corpus/ptcorpus; CONSOLE-LOG is the kernel's serial console.  Exit 0
only when:
  - the boot reached the end (/init printed PT-INIT-DONE),
  - the console shows no oops, BUG, WARN, panic, KASAN or UBSAN report,
  - every KTAP result is "ok" and the prio_tree_corpus suite itself passed,
  - every userspace digest line appears in the kernel, equal, in the same
    order, and the kernel printed no digest userspace did not,
  - the guest workload (guest/mmapwork.c, run by initramfs/init on tmpfs
    and on ramfs) printed "PT-MMAP <test> ok" for each of its tests on
    each file system, and no FAIL,
  - the kernel brought up --smp CPUs (its "smpboot: Total of N" line),
  - the stress program (guest/stress.c) printed "PT-STRESS <walker> ok"
    for every rmap walker, and guest/mremaprace.c "PT-STRESS mremap ok"
    (the mremap ordering race, provoked), guest/iusers.c "PT-IUSER <user> ok" for
    hwpoison and uprobe, the vm selftests ran to their end, and the
    KUnit suite printed the vma's size (PT-VMA-SIZE).
Otherwise it prints one line per problem, naming the first scenario that
differs, and exits 1.
"""

import argparse
import re
import sys

SUITE = "prio_tree_corpus"

# Prefixes the kernel uses for reports that must never appear.
REPORT = re.compile(
    r"(BUG: |kernel BUG at|Oops|WARNING: |------------\[ cut here \]"
    r"|Kernel panic|general protection fault|UBSAN: |KASAN: "
    r"|list_(add|del) corruption|Call Trace:|RIP: "
    r"|possible circular locking|possible recursive locking"
    r"|inconsistent lock state|suspicious RCU usage|DEBUG_LOCKS_WARN_ON"
    r"|KFENCE: |Out of memory:|INFO: task .* blocked)")
# Console lines that are test output, not kernel reports.
QUOTED = re.compile(r"^PT-SELFTEST-OUT ")
VMA_SIZE = re.compile(r"PT-VMA-SIZE i_mmap=(\S+) vm_area_struct=(\d+) "
                      r"shared=(\d+)")
SMPBOOT = re.compile(r"smpboot: Total of (\d+) processors? activated.*")
STRESS = re.compile(r"PT-STRESS (\S+) (ok|FAIL)(.*)$")
IUSER = re.compile(r"PT-IUSER (\S+) (ok|FAIL)(.*)$")
IUSER_WANT = ["hwpoison", "uprobe", "dax"]
STRESS_WANT = ["idle", "truncate", "punch", "migrate", "pageout", "writeback",
               "mremap"]
SELFTEST = re.compile(r"PT-SELFTEST (\S+) (\S+) (ok|not ok|skip)(?: (.*))?$")
# A failed step of a failed selftest, quoted by initramfs/selftests.sh.
SELFTEST_STEP = re.compile(r"^PT-SELFTEST-OUT (\S+): failed: (.*)$")
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")
DIGEST = re.compile(r"PT-DIGEST (\S+) ([0-9a-f]{16})$")
KTAP = re.compile(r"^\s*(not ok|ok) (\d+)(?: -)? ?(\S*)(.*)$")
MMAP_FS = re.compile(r"PT-MMAP-FS (\S+)(.*)$")
MMAP = re.compile(r"PT-MMAP (\S+) (ok|FAIL)(.*)$")
# What initramfs/init runs: each test of mmapwork on each file system.
MMAP_WANT = [(fs, t) for fs in ("tmpfs", "ramfs") for t in ("truncate", "idle")]


def read_lines(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return [TIMESTAMP.sub("", l.rstrip("\r")) for l in text.split("\n")]


def parse_digests(lines):
    found = []
    for line in lines:
        m = DIGEST.search(line.strip())
        if m:
            found.append((m.group(1), m.group(2)))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--user", required=True)
    ap.add_argument("--console", required=True)
    ap.add_argument("--label", default="kernel")
    ap.add_argument("--qemu-rc", type=int, default=0)
    ap.add_argument("--smp", type=int, default=1)
    ap.add_argument("--selftests-out")
    ap.add_argument("--vma-size-out")
    args = ap.parse_args()

    problems = []
    user = parse_digests(read_lines(args.user))
    try:
        console = read_lines(args.console)
    except OSError as e:
        print(f"{args.console}:1: expected a console log: {e}")
        return 1
    kern = parse_digests(console)

    if not user:
        problems.append(f"{args.user}:1: expected PT-DIGEST lines from "
                        "the userspace run, found none")

    # Reports: name the scenario that was running when one appeared.
    running = None
    for n, line in enumerate(console, 1):
        m = DIGEST.search(line.strip())
        if m:
            running = m.group(1)
        if REPORT.search(line) and not QUOTED.match(line):
            after = f"after scenario {running}" if running else \
                "before the first scenario finished"
            problems.append(f"{args.console}:{n}: expected no kernel "
                            f"report, found ({after}): {line.strip()}")
            break

    # KTAP: every result ok; the suite's own line must be there and ok.
    suite_seen = False
    ktap_ok = ktap_bad = 0
    for n, line in enumerate(console, 1):
        m = KTAP.match(line)
        if not m:
            continue
        status, name = m.group(1), m.group(3)
        if status == "ok":
            ktap_ok += 1
        else:
            ktap_bad += 1
            why = [l.strip().lstrip("# ") for l in console[max(0, n - 8):n - 1]
                   if "scenario " in l and ":" in l]
            problems.append(f"{args.console}:{n}: expected KTAP ok, "
                            f"found: {line.strip()}"
                            + (f" ({why[-1]})" if why else ""))
        if name == SUITE:
            suite_seen = True
    if not suite_seen:
        problems.append(f"{args.console}:1: expected a KTAP result line "
                        f"for suite {SUITE}, found none")

    # Digests: same scenarios, same order, same values.
    kmap = dict(kern)
    umap = dict(user)
    first = None
    for name, value in user:
        if name not in kmap:
            first = first or f"scenario {name}: missing from the " \
                             f"{args.label} console"
        elif kmap[name] != value:
            first = first or f"scenario {name}: userspace {value}, " \
                             f"{args.label} {kmap[name]}"
    for name, _ in kern:
        if name not in umap:
            first = first or f"scenario {name}: printed by the " \
                             f"{args.label} but not by userspace"
    if first is None and [n for n, _ in kern] != [n for n, _ in user]:
        first = "scenarios came in a different order"
    if first:
        problems.append(f"{args.console}:1: expected identical digests, "
                        f"first difference: {first}")

    # Guest workload: every (file system, test) ok, nothing else.
    fs = None
    mmap = {}
    for n, line in enumerate(console, 1):
        m = MMAP_FS.search(line)
        if m:
            fs = m.group(1)
            if m.group(2).strip():
                problems.append(f"{args.console}:{n}: expected the guest "
                                f"workload to start on {fs}, found: "
                                f"{line.strip()}")
            continue
        m = MMAP.search(line)
        if not m:
            continue
        test, verdict, rest = m.group(1), m.group(2), m.group(3).strip()
        mmap[(fs, test)] = (verdict, rest)
        if verdict != "ok":
            problems.append(f"{args.console}:{n}: expected guest workload "
                            f"{test} on {fs} ok, found: FAIL {rest}")
    for key in MMAP_WANT:
        if key not in mmap:
            problems.append(f"{args.console}:1: expected a PT-MMAP {key[1]} "
                            f"line for {key[0]}, found none")

    # The vma's size, into the test log and, with --vma-size-out, a file
    # for run-suite.sh to hold the prio-tree kernel's against stock's.
    sizes = [m for m in map(VMA_SIZE.search, console) if m]
    if sizes:
        print(f"{args.label}: {sizes[-1].group(0)}")
        if args.vma_size_out:
            with open(args.vma_size_out, "w") as f:
                f.write(sizes[-1].group(0) + "\n")
    else:
        problems.append(f"{args.console}:1: expected a PT-VMA-SIZE line, "
                        f"found none")

    # CPUs: the kernel's own count, into the test log.
    cpus = [(n, SMPBOOT.search(l)) for n, l in enumerate(console, 1)
            if SMPBOOT.search(l)]
    if cpus:
        n, m = cpus[-1]
        print(f"{args.label}: {m.group(0).strip()}")
        if int(m.group(1)) < args.smp:
            problems.append(f"{args.console}:{n}: expected {args.smp} CPUs "
                            f"(-smp {args.smp}), found: {m.group(0).strip()}")
    elif args.smp > 1:
        problems.append(f"{args.console}:1: expected an 'smpboot: Total of "
                        f"{args.smp} processors activated' line, found none")

    # The stress program: every walker ok.
    stress = {}
    for n, line in enumerate(console, 1):
        m = STRESS.search(line)
        if not m:
            continue
        walker, verdict, rest = m.group(1), m.group(2), m.group(3).strip()
        stress[walker] = (verdict, rest)
        if verdict != "ok":
            problems.append(f"{args.console}:{n}: expected PT-STRESS {walker} "
                            f"ok, found: FAIL {rest}")
    for walker in STRESS_WANT:
        if walker not in stress:
            problems.append(f"{args.console}:1: expected a PT-STRESS {walker} "
                            f"line, found none")

    # Two more i_mmap users (guest/iusers.c): every one ok.
    iusers = {}
    for n, line in enumerate(console, 1):
        m = IUSER.search(line)
        if not m:
            continue
        name, verdict, rest = m.group(1), m.group(2), m.group(3).strip()
        iusers[name] = (verdict, rest)
        if verdict != "ok":
            problems.append(f"{args.console}:{n}: expected PT-IUSER {name} "
                            f"ok, found: FAIL {rest}")
    for name in IUSER_WANT:
        if name not in iusers:
            problems.append(f"{args.console}:1: expected a PT-IUSER {name} "
                            f"line, found none")

    # The vm selftests: listed here; stock vs. prio in compare-selftests.py.
    selftests = []
    steps = {}
    for line in console:
        m = SELFTEST.search(line)
        if m:
            selftests.append((m.group(2), m.group(3),
                              (m.group(4) or "").replace("\t", " ")))
        m = SELFTEST_STEP.search(line)
        if m:
            # khugepaged prints a dot per half second it waits: the
            # count is timing, not a result
            step = re.sub(r"\.{3,}", "...", m.group(2).strip())
            steps.setdefault(m.group(1), []).append(step.replace("\t", " "))
    if not any("PT-SELFTEST-END" in l for l in console):
        problems.append(f"{args.console}:1: expected the vm selftests to "
                        f"finish (PT-SELFTEST-END), they did not")
    if args.selftests_out:
        with open(args.selftests_out, "w") as f:
            for name, verdict, why in selftests:
                failed = " | ".join(steps.get(name, []))
                f.write(f"{name}\t{verdict}\t{why}\t{failed}\n")

    if not any("PT-INIT-DONE" in l for l in console):
        why = "qemu timed out" if args.qemu_rc == 124 else \
            f"qemu exited {args.qemu_rc}"
        problems.append(f"{args.console}:{len(console)}: expected the boot "
                        f"to reach PT-INIT-DONE, it did not ({why})")

    totals = [l.strip() for l in console if "PT-TOTAL" in l]
    for walker in STRESS_WANT:
        if walker in stress:
            print(f"PT-STRESS {args.label} {walker} {stress[walker][0]} "
                  f"{stress[walker][1]}")
    for name in IUSER_WANT:
        if name in iusers:
            print(f"PT-IUSER {args.label} {name} {iusers[name][0]} "
                  f"{iusers[name][1]}")
    for name, verdict, why in selftests:
        print(f"PT-SELFTEST {args.label} {name} {verdict}"
              + (f" {why}" if why else ""))
    # the selftests' notes (a khugepaged rerun and its first run's THP
    # counters, the huge pages reserved) go into the test log too
    for line in console:
        if line.startswith("PT-SELFTEST-INFO"):
            print(f"{args.label}: {line.strip()}")
    if problems:
        for p in problems:
            print(p)
        print(f"FAIL {args.label}: {len(problems)} problem(s); "
              f"{len(kern)}/{len(user)} digests seen, "
              f"KTAP ok={ktap_ok} not-ok={ktap_bad}")
        return 1
    print(f"PASS {args.label}: {len(user)}/{len(user)} digests equal, "
          f"KTAP ok={ktap_ok} not-ok=0, no reports, boot reached the end")
    if totals:
        print(totals[-1][totals[-1].index("PT-TOTAL"):])
    for key in MMAP_WANT:
        print(f"PT-MMAP {key[0]} {key[1]} ok {mmap[key][1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
