#!/usr/bin/env python3
"""Determinism over a sample of random valid configurations: the results-gate
configs (every topology, routing algorithm, protocol and pattern) with a random
seed, load and message size each. For every sample, the same config run twice
gives byte-identical results (all but "perf" and "run"), and sim.kernel = "systemc"
gives the same results as "direct", and so do sim.threads = 2 and 3.

  determinism.py [--samples N] [--seed S] [--ccsim build/ccsim] [--no-rtl] [-j N]

Exits 1 naming every sample that differs, with its command line.
"""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GATE_DIR = os.path.normpath(os.path.join(HERE, "..", "tests", "results_gate"))


def run(ccsim, cfg, sets):
    cmd = [ccsim, "run", cfg] + sum((["-s", s] for s in sets), [])
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if proc.returncode != 0:
        return None, " ".join(cmd), proc.stderr.strip()
    j = json.loads(proc.stdout)
    j.pop("perf", None)
    j.pop("run", None)  # where and how it ran: the thread count among them
    j["config"].pop("sim.kernel", None)
    j["config"].pop("sim.threads", None)
    return json.dumps(j, sort_keys=True), " ".join(cmd), None


def check(ccsim, cfg, sets):
    a, cmd, err = run(ccsim, cfg, sets)
    if err:
        return f"{cmd}: failed: {err}"
    b, _, err = run(ccsim, cfg, sets)
    if err or a != b:
        return f"{cmd}: a second run gave different results"
    c, _, err = run(ccsim, cfg, sets + ["sim.kernel=systemc"])
    if err or a != c:
        return f"{cmd}: sim.kernel=systemc differs from direct" + (f" ({err})" if err else "")
    for threads in (2, 3):
        t, _, err = run(ccsim, cfg, sets + [f"sim.threads={threads}"])
        if err or a != t:
            return f"{cmd}: sim.threads={threads} differs from one thread" + (f" ({err})" if err else "")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=0, help="0: one per gate config")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ccsim", default=os.path.join(HERE, "..", "build", "ccsim"))
    ap.add_argument("--no-rtl", action="store_true")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    configs = sorted(os.path.join(GATE_DIR, f) for f in os.listdir(GATE_DIR)
                     if f.endswith(".toml") and not (args.no_rtl and f.startswith("rtl_")))
    rng = random.Random(args.seed)
    n = args.samples or len(configs)
    cases = []
    for i in range(n):
        cfg = configs[i % len(configs)]
        sets = [f"sim.seed={rng.randrange(1, 1 << 31)}", f"traffic.load={rng.choice([0.05, 0.2, 0.4, 0.7])}"]
        # The gate's messages keep their size; classes keep their own loads.
        cases.append((cfg, sets))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        failures = [f for f in pool.map(lambda c: check(args.ccsim, *c), cases) if f]
    print(f"determinism: {len(cases)} samples, {len(failures)} differ")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
