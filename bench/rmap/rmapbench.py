#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rmapbench: the seeds' benchmark shapes, every scheme on the same work.

Each scenario is generated once by "rmapsim gen" and then run by
"rmapsim run" under every scheme in its table, --runs times each, in one
invocation of this script.  For every row the script prints:

  - the cost counters, which must be the same on every run (the script
    fails if they are not) and are the "node visits": vmas, mms,
    anon_vmas and pte_chain entries visited per rmap walk, reverse-map
    updates done by fork/exit/mremap, peak bytes of rmap metadata;
  - the median over the runs of the wall time spent in rsim_apply();
  - ratios against the table's peer, measured in the same invocation on
    the same scenario file.

Every scheme in a table must also print the same PT-DIGEST line (the
result set of every rmap walk), or the script fails: the rows compare
schemes doing the same work with the same answers.

With --callgrind, one extra run of each row under callgrind counts the
instructions executed running the ops (Ir), beside the wall time.

Usage: rmapbench.py --rmapsim PATH [--runs N] [--size quick|mid|full]
                    [--callgrind] [--workdir DIR]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


class BenchError(Exception):
    pass


def gen(args, rmapsim, workdir, name, gen_args):
    path = os.path.join(workdir, name + ".scn")
    with open(path, "w") as out:
        subprocess.run([rmapsim, "gen"] + gen_args, stdout=out, check=True)
    return path


def run_once(rmapsim, path, file_scheme, anon_scheme, wrapper=()):
    proc = subprocess.run(list(wrapper) + [
        rmapsim, "run", "--file=" + file_scheme, "--anon=" + anon_scheme,
        path], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError("%s: run --file=%s --anon=%s failed (%d): %s" % (
            path, file_scheme, anon_scheme, proc.returncode,
            proc.stderr.strip()))
    counters = {}
    digest = None
    for line in proc.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key == "PT-DIGEST":
            digest = value
        elif key in ("scenario", "schemes"):
            continue
        else:
            counters[key] = float(value) if "." in value else int(value)
    if digest is None:
        raise BenchError("%s: no PT-DIGEST line" % path)
    return counters, digest


def callgrind_ir(rmapsim, path, file_scheme, anon_scheme, workdir):
    """Instructions executed running the ops (not parsing, not validating)."""
    out = os.path.join(workdir, "callgrind.out")
    run_once(rmapsim, path, file_scheme, anon_scheme, wrapper=(
        "valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
        "--toggle-collect=run_scenario"))
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise BenchError("%s: no callgrind summary" % out)


def measure(args, path, file_scheme, anon_scheme, want_ir=True):
    """Median wall time of --runs runs; the counters must not vary."""
    walls = []
    first = None
    digest = None
    for _ in range(args.runs):
        counters, dig = run_once(args.rmapsim, path, file_scheme,
                                 anon_scheme)
        walls.append(counters.pop("wall_seconds"))
        if first is None:
            first, digest = counters, dig
        elif counters != first or dig != digest:
            raise BenchError("%s: counters differ between two runs of "
                             "--file=%s --anon=%s" % (path, file_scheme,
                                                      anon_scheme))
    row = dict(first)
    row["wall_ms"] = statistics.median(walls) * 1000.0
    row["digest"] = digest
    row["file"] = file_scheme
    row["anon"] = anon_scheme
    if args.callgrind and want_ir:
        row["ir"] = callgrind_ir(args.rmapsim, path, file_scheme,
                                 anon_scheme, args.workdir)
    return row


def per(a, b):
    return a / b if b else 0.0


def ratio(a, b):
    if not b:
        return "-"
    return "%.2f" % (a / b)


def check_digests(name, rows):
    digests = {r["digest"] for r in rows}
    if len(digests) != 1:
        raise BenchError("%s: the schemes disagree: %s" % (
            name, ", ".join("%s/%s %s" % (r["file"], r["anon"], r["digest"])
                            for r in rows)))


def print_table(title, header, lines, note=None):
    print("\n### " + title + "\n")
    if note:
        print(note + "\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for line in lines:
        print("| " + " | ".join(str(c) for c in line) + " |")
    sys.stdout.flush()


def ir_cols(args, row, peer):
    if not args.callgrind:
        return []
    return ["%d" % row["ir"], ratio(row["ir"], peer["ir"])]


def pair_ir(args, row, peer):
    if not args.callgrind:
        return []
    return [row["ir"], peer["ir"], ratio(row["ir"], peer["ir"])]


def ir_head(args):
    return ["Ir", "Ir/peer"] if args.callgrind else []


# ---- table 1: file schemes on the seed's workloads ----------------------

def file_table(args, workloads):
    header = ["workload", "file scheme", "walks", "vmas/walk",
              "chain/walk", "ptes/walk", "visits/walk", "visits/prio",
              "fork upd", "meta peak KiB", "wall ms", "wall/prio"] + \
        ir_head(args)
    lines = []
    for name, gen_args in workloads:
        path = gen(args, args.rmapsim, args.workdir, name, gen_args)
        rows = [measure(args, path, f, "anon_vma")
                for f in ("list", "prio", "pte_chain")]
        check_digests(name, rows)
        peer = rows[1]
        for r in rows:
            walks = r["file_walk.walks"]
            visits = r["file_walk.vmas"] + r["file_walk.chain_entries"]
            peer_visits = peer["file_walk.vmas"] + \
                peer["file_walk.chain_entries"]
            lines.append([
                name, r["file"], walks,
                "%.1f" % per(r["file_walk.vmas"], walks),
                "%.1f" % per(r["file_walk.chain_entries"], walks),
                "%.1f" % per(r["file_walk.ptes"], walks),
                "%.1f" % per(visits, walks),
                ratio(visits, peer_visits),
                r["fork.rmap_updates"],
                "%.1f" % (r["meta_bytes_peak"] / 1024.0),
                "%.2f" % r["wall_ms"], ratio(r["wall_ms"], peer["wall_ms"]),
            ] + ir_cols(args, r, peer))
    print_table("File pages: objrmap list vs prio tree vs pte_chain",
                header, lines,
                "Peer: prio.  visits = vmas + pte_chain entries read per "
                "rmap walk (page_referenced and try_to_unmap each walk "
                "once).")


# ---- table 2: list walks grow with the vmas, prio walks do not ----------

def sweep_table(args, sizes):
    header = ["mappings (-n)", "vmas", "list vmas/walk", "prio vmas/walk",
              "list/prio visits", "list wall ms", "prio wall ms",
              "list/prio wall"] + \
        (["list Ir", "prio Ir", "list/prio Ir"] if args.callgrind else [])
    lines = []
    for n in sizes:
        name = "rmap-test3-n%d" % n
        path = gen(args, args.rmapsim, args.workdir, name,
                   ["rmap-test", "-l", "-i", "1", "-n", str(n), "-s", "7",
                    "-t", "1"])
        lst = measure(args, path, "list", "anon_vma")
        prio = measure(args, path, "prio", "anon_vma")
        check_digests(name, [lst, prio])
        lines.append([
            n, lst["vmas"],
            "%.1f" % per(lst["file_walk.vmas"], lst["file_walk.walks"]),
            "%.1f" % per(prio["file_walk.vmas"], prio["file_walk.walks"]),
            ratio(lst["file_walk.vmas"], prio["file_walk.vmas"]),
            "%.2f" % lst["wall_ms"], "%.2f" % prio["wall_ms"],
            ratio(lst["wall_ms"], prio["wall_ms"]),
        ] + pair_ir(args, lst, prio))
    print_table("rmap-test 3 shape (-l -i 1 -s 7 -t 1), growing -n", header,
                lines, "Peer: prio on the same scenario.")


# ---- table 3: pte_chain memory grows with mapped ptes --------------------

def memory_table(args, sizes):
    header = ["pages per mapping (-s)", "ptes mapped at peak",
              "pte_chain meta peak KiB", "list meta peak KiB",
              "prio meta peak KiB", "pte_chain/prio",
              "pte_chain bytes per pte"]
    lines = []
    for s in sizes:
        name = "rmap-test-mem-s%d" % s
        n, t = 100, 10
        path = gen(args, args.rmapsim, args.workdir, name,
                   ["rmap-test", "-l", "-i", "1", "-n", str(n), "-s", str(s),
                    "-t", str(t)])
        rows = [measure(args, path, f, "anon_vma", want_ir=False)
                for f in ("pte_chain", "list", "prio")]
        check_digests(name, rows)
        ptes = n * s * t
        lines.append([
            s, ptes,
            "%.1f" % (rows[0]["meta_bytes_peak"] / 1024.0),
            "%.1f" % (rows[1]["meta_bytes_peak"] / 1024.0),
            "%.1f" % (rows[2]["meta_bytes_peak"] / 1024.0),
            ratio(rows[0]["meta_bytes_peak"], rows[2]["meta_bytes_peak"]),
            "%.1f" % per(rows[0]["meta_bytes_peak"], ptes),
        ])
    print_table("Reverse-map metadata: rmap-test -l -i 1 -n 100 -t 10, "
                "growing -s", header, lines,
                "Every page of every mapping of every task is touched, so "
                "n * s * t ptes are mapped before the first reclaim pass; "
                "the vmas stay at n * t = 1000.")


# ---- table 4: anonymous schemes on fork-exec-mix -------------------------

def anon_table(args, gen_args):
    name = "fork-exec-mix"
    path = gen(args, args.rmapsim, args.workdir, name, gen_args)
    combos = [("pte_chain", "pte_chain"), ("prio", "pte_chain"),
              ("prio", "anon_vma"), ("prio", "anonmm"),
              ("prio", "anon_vma_chain")]
    rows = [measure(args, path, f, a) for f, a in combos]
    check_digests(name, rows)
    peer = rows[2]
    header = ["file/anon", "fork upd", "fork/anon_vma", "exit upd",
              "exit/anon_vma", "mremap upd", "early COW copies",
              "anon walks", "objects/walk", "meta peak KiB", "wall ms",
              "wall/anon_vma"] + ir_head(args)
    lines = []
    for r in rows:
        walks = r["anon_walk.walks"]
        objects = r["anon_walk.vmas"] + r["anon_walk.mms"] + \
            r["anon_walk.chain_entries"]
        lines.append([
            "%s/%s" % (r["file"], r["anon"]),
            r["fork.rmap_updates"],
            ratio(r["fork.rmap_updates"], peer["fork.rmap_updates"]),
            r["exit.rmap_updates"],
            ratio(r["exit.rmap_updates"], peer["exit.rmap_updates"]),
            r["mremap.rmap_updates"], r["cow_early"], walks,
            "%.2f" % per(objects, walks),
            "%.1f" % (r["meta_bytes_peak"] / 1024.0),
            "%.2f" % r["wall_ms"], ratio(r["wall_ms"], peer["wall_ms"]),
        ] + ir_cols(args, r, peer))
    print_table("fork-exec-mix (%s)" % " ".join(gen_args[1:]), header,
                lines,
                "Peer: prio/anon_vma.  objects/walk = vmas (anon_vma, "
                "anon_vma_chain) or mms (anonmm) or pte_chain entries "
                "visited per anonymous-page walk.  pte_chain/pte_chain "
                "is 2.6.5 mainline.")


# ---- table 5: avc-fork-chain --------------------------------------------

def avc_table(args, lengths):
    header = ["chain (-t)", "live processes", "anon_vma vmas/walk",
              "avc vmas/walk", "anon_vma/avc visits", "anon_vma wall ms",
              "avc wall ms", "anon_vma/avc wall", "anon_vma meta KiB",
              "avc meta KiB", "avc fork upd"] + \
        (["anon_vma Ir", "avc Ir", "anon_vma/avc Ir"] if args.callgrind
         else [])
    lines = []
    for t in lengths:
        name = "avc-fork-chain-t%d" % t
        path = gen(args, args.rmapsim, args.workdir, name,
                   ["avc-fork-chain", "-t", str(t), "-w", "1", "-s", "16"])
        av = measure(args, path, "prio", "anon_vma")
        avc = measure(args, path, "prio", "anon_vma_chain")
        check_digests(name, [av, avc])
        lines.append([
            t, t + 1,  # the workers of -w 1, and the last server
            "%.1f" % per(av["anon_walk.vmas"], av["anon_walk.walks"]),
            "%.1f" % per(avc["anon_walk.vmas"], avc["anon_walk.walks"]),
            ratio(av["anon_walk.vmas"], avc["anon_walk.vmas"]),
            "%.2f" % av["wall_ms"], "%.2f" % avc["wall_ms"],
            ratio(av["wall_ms"], avc["wall_ms"]),
            "%.1f" % (av["meta_bytes_peak"] / 1024.0),
            "%.1f" % (avc["meta_bytes_peak"] / 1024.0),
            avc["fork.rmap_updates"],
        ] + pair_ir(args, av, avc))
    print_table("avc-fork-chain (-w 1 -s 16), growing chain", header, lines,
                "Peer: anon_vma_chain on the same scenario.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rmapsim", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", choices=("quick", "mid", "full"),
                        default="full",
                        help="quick: a smoke test; mid: sizes that "
                        "callgrind runs in minutes; full (default): the "
                        "sizes of docs/benchmarks.md")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--workdir")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.callgrind and not shutil.which("valgrind"):
        parser.error("--callgrind needs valgrind")

    tmp = None
    if not args.workdir:
        tmp = tempfile.mkdtemp(prefix="rmapbench.")
        args.workdir = tmp
    os.makedirs(args.workdir, exist_ok=True)

    if args.size == "quick":
        workloads = [
            ("rmap-test-1", ["rmap-test", "-l", "-i", "1", "-n", "20",
                             "-s", "12", "-t", "4"]),
            ("test-mmap2", ["test-mmap2", "-s", "200"]),
        ]
        sweep, mem, chains = [100, 200], [4, 8], [8, 16]
        mix = ["fork-exec-mix", "-i", "100", "-t", "8", "-s", "16"]
    elif args.size == "mid":
        workloads = [
            ("rmap-test-1", ["rmap-test", "-l", "-i", "1", "-n", "100",
                             "-s", "30", "-t", "10"]),
            ("rmap-test-2", ["rmap-test", "-V", "2", "-r", "-i", "1",
                             "-n", "100", "-s", "30", "-t", "10"]),
            ("rmap-test-3", ["rmap-test", "-l", "-i", "1", "-n", "2000",
                             "-s", "7", "-t", "1"]),
            ("test-mmap2", ["test-mmap2", "-V", "10"]),
            ("test-mmap3", ["test-mmap3", "-V", "2000"]),
        ]
        sweep, mem, chains = [250, 500, 1000, 2000], [15, 30, 60], \
            [16, 32, 64, 128]
        mix = ["fork-exec-mix", "-i", "300", "-t", "16", "-s", "32"]
    else:
        # The seed's command lines, scaled where noted in
        # docs/benchmarks.md so that every row runs in seconds.
        workloads = [
            ("rmap-test-1", ["rmap-test", "-l", "-i", "2", "-n", "100",
                             "-s", "60", "-t", "10"]),
            ("rmap-test-2", ["rmap-test", "-V", "2", "-r", "-i", "1",
                             "-n", "100", "-s", "60", "-t", "10"]),
            ("rmap-test-3", ["rmap-test", "-l", "-i", "1", "-n", "5000",
                             "-s", "7", "-t", "1"]),
            ("test-mmap2", ["test-mmap2"]),
            ("test-mmap3", ["test-mmap3", "-V", "200"]),
        ]
        sweep, mem, chains = [625, 1250, 2500, 5000], [15, 30, 60, 120], \
            [16, 32, 64, 128]
        mix = ["fork-exec-mix", "-i", "1000", "-t", "16", "-s", "64"]

    print("rmapbench: sizes '%s', %d runs per row, wall time = median, "
          "counters identical in every run%s" % (
              args.size, args.runs,
              ", Ir = instructions running the ops (callgrind)"
              if args.callgrind else ""))
    try:
        file_table(args, workloads)
        sweep_table(args, sweep)
        memory_table(args, mem)
        anon_table(args, mix)
        avc_table(args, chains)
    except (BenchError, subprocess.CalledProcessError) as e:
        print("rmapbench: %s" % e, file=sys.stderr)
        return 1
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
