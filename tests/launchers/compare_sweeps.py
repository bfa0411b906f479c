#!/usr/bin/env python3
"""Two sweep directories hold the same results: summary.csv without its
cycles_per_second column, and every point's JSON without "perf" (speed) and
"run" (where it ran). Exits 1 naming the first difference.
  compare_sweeps.py DIR_A DIR_B"""
import csv
import json
import os
import sys


def summary(d):
    with open(os.path.join(d, "summary.csv")) as f:
        rows = list(csv.reader(f))
    drop = rows[0].index("cycles_per_second")
    return [r[:drop] + r[drop + 1:] for r in rows]


def point(path):
    with open(path) as f:
        j = json.load(f)
    j.pop("perf", None)
    j.pop("run", None)
    return j


def main(a, b):
    if summary(a) != summary(b):
        print(f"compare_sweeps: {a}/summary.csv and {b}/summary.csv differ")
        return 1
    names = sorted(n for n in os.listdir(a) if n.endswith(".json") and n != "sweep.json" and "jobs" not in n)
    if not names or names != sorted(n for n in os.listdir(b) if n in names):
        print(f"compare_sweeps: the points differ: {names}")
        return 1
    for n in names:
        if point(os.path.join(a, n)) != point(os.path.join(b, n)):
            print(f"compare_sweeps: {n} differs between {a} and {b}")
            return 1
    print(f"compare_sweeps: {len(names)} points identical in {a} and {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
