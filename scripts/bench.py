#!/usr/bin/env python3
"""`make bench [BASE=other/ccsim] [REPS=5]`: simulation speed on the benchmark networks.

One process at a time (two at once on a small machine distort both). With --base the two
binaries run alternately, REPS times each per case; the table gives medians, and the ratio
new/base as the median of each round's own ratio with their range (a VM's speed drifts). The
result JSON without `perf` must be identical for both (same results; the config echo aside,
which lists every key a binary knows). --threads 1,2 runs the new binary at each thread
count (sim.threads; the base binary runs with its default, one) and requires identical
results at every count; the ratio compares each with the base. With threads it prints
`ccsim cores` before and after: the cores' cache-line round trip, which the speed-up with
threads follows (a VM's cores may move between dies from one hour to the next).

--instructions counts the instructions each run executes (valgrind --tool=callgrind, about 50x
slower: shorten the cases with --set, e.g. sim.warmup=300 --set sim.measure=300) and prints
them per flit-hop, setup included; the ratio is base/new instructions. Unlike wall time the count
is the same from one run to the next, so a change of a few percent shows on a noisy VM.

Cases (experiments/bench_*.toml):
  df1056-ur0.5   1056-node dragonfly (p=4, a=8, h=4), UR 0.5, 1-flit packets, MIN
  df16512-ur0.4  16,512-node dragonfly of 002 (p=8, a=16, h=8), UR 0.4, MIN
  003-hotspot    003's 1056-node network past saturation: 60:4 hot spot, PAR6/2, VOQ
  003-ur0.8      003's network at UR 0.8 with 4-flit messages and ACKs (its Fig. 8)
  003-lhrp       the same with LHRP (theta 250): resends scheduled microseconds ahead
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXP = os.path.join(ROOT, "experiments")
CASES = [
    ("df1056-ur0.5", "bench_dragonfly1056.toml", ["traffic.load=0.5"]),
    ("df16512-ur0.4", "bench_dragonfly16512.toml", []),
    ("003-hotspot", "papers/003/hotspot.toml",
     ["traffic.load=0.2", "sim.warmup=20000", "sim.measure=10000", "sim.series_window=0"]),
    ("003-ur0.3", "papers/003/uniform.toml",
     ["traffic.load=0.3", "sim.warmup=5000", "sim.measure=10000", "sim.series_window=0"]),
    ("003-ur0.8", "papers/003/uniform.toml",
     ["traffic.load=0.8", "sim.warmup=3000", "sim.measure=3000", "sim.series_window=0", "sim.drain_cap=0"]),
    ("003-lhrp", "papers/003/hotspot.toml",
     ["congestion.protocol=\"lhrp\"", "congestion.lhrp_threshold=250", "traffic.load=0.2667", "sim.warmup=30000",
      "sim.measure=20000", "sim.series_window=0", "sim.drain_cap=2000"]),
]


def run(ccsim, config, sets, threads=None, instructions=False):
    cmd = [ccsim, "run", os.path.join(EXP, config)]
    if instructions:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    for s in sets:
        cmd += ["-s", s]
    if threads is not None:
        cmd += ["-s", f"sim.threads={threads}"]
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    result = json.loads(proc.stdout)
    perf = result.pop("perf")
    if instructions:  # callgrind's last words: "==pid== Collected : N"
        perf["instructions"] = int(re.search(r"Collected : (\d+)", proc.stderr).group(1))
    result.pop("config")  # echoes every key, also keys a newer binary added
    result.get("run", {}).pop("config_digest", None)  # a digest of that echo
    result.get("run", {}).pop("threads", None)  # how it ran (sim.threads), like perf
    return perf, json.dumps(result, sort_keys=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ccsim")
    ap.add_argument("--base", help="another ccsim binary to compare with")
    ap.add_argument("--reps", type=int, default=1, help="runs per binary and case (median; default 1)")
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--threads", help="comma-separated sim.threads counts for the new binary (default: its default)")
    ap.add_argument("--set", action="append", default=[],
                    help="an extra key=value for every case, e.g. sim.measure=1500 (repeatable; shorter checks)")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions under callgrind instead of timing (deterministic; one run each)")
    args = ap.parse_args()
    if args.instructions:
        if not shutil.which("valgrind"):
            print("bench.py: --instructions needs valgrind (apt-get install valgrind)", file=sys.stderr)
            return 2
        args.reps = 1
    cases = [(n, c, sets + args.set) for n, c, sets in CASES if not args.cases or n in args.cases.split(",")]
    counts = [int(t) for t in args.threads.split(",")] if args.threads else [None]
    # (label, binary, sim.threads or None); the label names the binary and its thread count.
    bins = [(f"new/{t}t" if t else "new", args.ccsim, t) for t in counts]
    bins += [("base", args.base, None)] if args.base else []
    threaded = any(t and t > 1 for t in counts)
    if threaded:  # the speed-up with threads follows the cores' cache-line round trip: say what it was
        cores(args.ccsim, "before")
    if args.instructions:
        print(f"{'case':<15} {'binary':<7} {'instructions':>14} {'flit-hops':>12} {'instr/flit-hop':>15}"
              f"{'  base/new' if args.base else ''}")
    else:
        print(f"{'case':<15} {'binary':<7} {'cycles/s':>10} {'flit-hops/s':>12} {'ns/flit-hop':>12} {'RSS MB':>7}"
              f"{'  x base' if args.base else ''}")
    failed = False
    for name, config, sets in cases:
        perfs = {b: [] for b, _, _ in bins}
        digests = {}
        for rep in range(args.reps):
            # Alternated, and in reverse order every other round: a machine whose speed drifts
            # (a VM's neighbours) then favours no binary.
            for b, path, threads in (bins if rep % 2 == 0 else bins[::-1]):
                perf, digest = run(path, config, sets, threads, args.instructions)
                perfs[b].append(perf)
                digests.setdefault(b, digest)
        (print_instructions if args.instructions else print_timings)(name, bins, perfs, args.base)
        if len(set(digests.values())) > 1:
            print(f"{name}: RESULTS DIFFER between {', '.join(sorted(digests))}", file=sys.stderr)
            failed = True
    if threaded:
        cores(args.ccsim, "after")
    return 1 if failed else 0


def print_instructions(name, bins, perfs, base):
    for b, _, _ in bins:
        p = perfs[b][0]
        ratio = f"  {perfs['base'][0]['instructions'] / p['instructions']:8.3f}x" if base and b != "base" else ""
        print(f"{name:<15} {b:<7} {p['instructions']:>14,} {p['flit_hops']:>12,} "
              f"{p['instructions'] / max(p['flit_hops'], 1):>15.0f}{ratio}", flush=True)


def print_timings(name, bins, perfs, base):
    med = {b: {k: statistics.median(p[k] for p in perfs[b])
               for k in ("cycles_per_second", "flit_hops_per_second", "peak_rss_mb")} for b in perfs}
    for b, _, _ in bins:
        m = med[b]
        ratio = ""
        if base and b != "base":
            # The median of the rounds' own ratios: each compares two runs minutes apart, so
            # the machine's drift over the whole benchmark cancels; the range shows the noise.
            pairs = sorted(n["flit_hops_per_second"] / o["flit_hops_per_second"]
                           for n, o in zip(perfs[b], perfs["base"]))
            ratio = f"  {statistics.median(pairs):6.2f}x"
            if len(pairs) > 1:
                ratio += f" ({pairs[0]:.2f}-{pairs[-1]:.2f})"
        print(f"{name:<15} {b:<7} {m['cycles_per_second']:>10.0f} {m['flit_hops_per_second']:>12.3g} "
              f"{1e9 / m['flit_hops_per_second']:>12.0f} {m['peak_rss_mb']:>7.0f}{ratio}", flush=True)


def cores(ccsim, when):
    out = subprocess.run([ccsim, "cores", "--rounds", "100000"], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "round trip" in line or " - cpu " in line:
            print(f"ccsim cores, {when}: {line}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
