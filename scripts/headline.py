#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""headline: the seed's benchmark table, replayed on the simulator.

The prio tree patch of March 2004 timed rmap-test 1-3 and test-mmap2/3
on three kernels: 2.6.5-rc2 (pte_chain), objrmap over the linear i_mmap
list, and objrmap over the prio tree.  This script generates the same
workload shapes with "rmapsim gen" (scaled down so the whole table runs
in seconds), runs each once under the three file schemes with "rmapsim
compare --format=json" (all schemes in one process, on one scenario),
and prints, beside the 2004 system times, the ratios list/prio and
pte_chain/prio of the work per rmap walk (vmas or pte_chain entries
visited) and of the wall time.

Usage: headline.py RMAPSIM
"""

import json
import subprocess
import sys

# (name, seed's command line, "rmapsim gen" arguments scaled down,
#  2004 system seconds: pte_chain, prio, list; None = not run, and a
#  "+" = killed before it finished)
ROWS = [
    ("rmap-test 1", "-l -i 10 -n 100 -s 600 -t 100",
     ["rmap-test", "-l", "-i", "1", "-n", "100", "-s", "60", "-t", "20"],
     ("277.1", "203.9", "19834+")),
    ("rmap-test 2", "-r -i 1 -n 100 -s 600 -t 100 -V 2",
     ["rmap-test", "-r", "-i", "1", "-n", "100", "-s", "60", "-t", "20",
      "-V", "2"],
     ("212.5", "101.8", "606.0")),
    ("rmap-test 3", "-l -i 10 -n 10000 -s 7 -t 1",
     ["rmap-test", "-l", "-i", "1", "-n", "5000", "-s", "7", "-t", "1"],
     ("31.1", "31.4", "1588+")),
    ("test-mmap2", "", ["test-mmap2"], ("0.34", "0.35", None)),
    ("test-mmap3", "", ["test-mmap3", "-s", "2000", "-t", "2"],
     ("3.38", "3.65", None)),
]

FILE_SCHEMES = ("list", "prio", "pte_chain")


def run(rmapsim, gen_args):
    scn = subprocess.run([rmapsim, "gen"] + gen_args, check=True,
                         capture_output=True, text=True).stdout
    out = subprocess.run([rmapsim, "compare", "--format=json", "-"],
                         input=scn, check=True, capture_output=True,
                         text=True).stdout
    rows = {}
    for r in json.loads(out)["results"]:
        # one anonymous scheme for all three: the file side is compared
        if r["anon"] == "anon_vma" and r["file"] in FILE_SCHEMES:
            rows[r["file"]] = r
    missing = [f for f in FILE_SCHEMES if f not in rows]
    if missing:
        sys.exit("headline.py: rmapsim compare gave no row for %s"
                 % ", ".join(missing))
    return rows


def per_walk(r):
    """File-side rmap work per walk: vmas visited, or chain entries."""
    walks = max(r["f.walks"], 1)
    return (r["f.vmas"] + r["f.chain"]) / walks


def ratio(a, b):
    return "%.2f" % (a / b) if b else "-"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: headline.py RMAPSIM")
    rmapsim = sys.argv[1]
    print("The seed's table (March 2004, PII 200 MHz, system seconds) beside")
    print("the same shapes on the simulator now, scaled down, one run each:")
    print("work = vmas or pte_chain entries visited per rmap walk.\n")
    print("%-12s %22s | %-19s | %-19s"
          % ("workload", "2004 s: pte/prio/list", "list / prio",
             "pte_chain / prio"))
    print("%-12s %22s | %9s %9s | %9s %9s"
          % ("", "", "work", "time", "work", "time"))
    for name, _, gen_args, seed in ROWS:
        rows = run(rmapsim, gen_args)
        w = {f: per_walk(rows[f]) for f in FILE_SCHEMES}
        t = {f: rows[f]["wall_seconds"] for f in FILE_SCHEMES}
        seed_txt = "/".join(s if s else "-" for s in seed)
        print("%-12s %22s | %9s %9s | %9s %9s"
              % (name, seed_txt, ratio(w["list"], w["prio"]),
                 ratio(t["list"], t["prio"]),
                 ratio(w["pte_chain"], w["prio"]),
                 ratio(t["pte_chain"], t["prio"])))
    print("\n2004: '+' = killed before it finished; '-' = not run (known to")
    print("lock the machine).  Every scheme returned the same walk results")
    print("(rmapsim compare checks each against the others and the page tables).")


if __name__ == "__main__":
    main()
