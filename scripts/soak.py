#!/usr/bin/env python3
"""Soak test of exactly-once delivery: every protocol that drops packets or
sends control packets from switches, run past saturation with traffic that
stops, over many seeds. Each run must end because every data packet was
delivered (not at the drain cap), every drop's NACK must have arrived, and the
end-of-run accounting (a SimError otherwise) must pass.

  soak.py [--seeds N] [--first S] [-j N] [--ccsim build/ccsim]

Prints one line per protocol with its runs, packets created, drops, and
failures; exits 1 on any failure, naming the protocol, seed and reason.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

BASE = """
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
[router]
vcs = {vcs}
[links]
terminal_latency = 1
local_latency = 5
global_latency = 20
[routing]
algorithm = "{routing}"
[traffic]
stop = 1500
load = 1.0
packet_size = 4
message_size = 4
[congestion]
{congestion}
[sim]
warmup = 0
measure = 1500
drain_cap = {drain_cap}
deadlock_cycles = 5000
"""

# name: (routing, VCs per class, [congestion] lines)
PROTOCOLS = {
    "srp": ("par", 4, 'protocol = "srp"\nsrp_timeout = 30'),
    "smsrp": ("par", 4, 'protocol = "smsrp"\nsrp_timeout = 30'),
    "lhrp": ("par", 4, 'protocol = "lhrp"\nlhrp_threshold = 16'),
    "lhrp_fabric": ("par", 4, 'protocol = "lhrp"\nlhrp_threshold = 16\nlhrp_fabric_timeout = 30'),
    "lhrp_combined": ("par", 4, 'protocol = "lhrp"\nlhrp_threshold = 16\nlhrp_fabric_timeout = 30\n'
                                'lhrp_srp_min_flits = 16'),
    "cbcm": ("min", 4, 'protocol = "cbcm"\ncbcm_dest_epoch = 200'),
    "qcn": ("min", 4, 'protocol = "qcn"\nqcn_cpc = 10\nqcn_min_rate = 0.05'),
}
DRAIN_CAP = 200000


def pattern(seed):
    """Uniform overload on even seeds, a 69:3 hotspot on odd ones."""
    if seed % 2 == 0:
        return ['traffic.pattern=uniform']
    return ['traffic.pattern=hotspot', 'traffic.hotspot_sources=0', 'traffic.hotspot_dests=3',
            'traffic.load=0.3']


def run(ccsim, name, seed, cfg_path):
    sets = [f"sim.seed={seed}"] + pattern(seed)
    cmd = [ccsim, "run", cfg_path] + sum((["-s", s] for s in sets), [])
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if proc.returncode != 0:
        return name, seed, None, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "no output"
    j = json.loads(proc.stdout)
    cc = j["congestion"]
    if j["cycles"] >= 1500 + DRAIN_CAP:
        return name, seed, j, f"drain cap reached in cycle {j['cycles']}: packets were not delivered"
    if "nacks" in cc and cc["nacks"] != cc["drops"]:
        return name, seed, j, f"{cc['drops']} drops but {cc['nacks']} NACKs arrived"
    if j["deadlock"]:
        return name, seed, j, f"deadlock {j['deadlock_info']}"
    return name, seed, j, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--ccsim", default=os.path.join(HERE, "..", "build", "ccsim"))
    ap.add_argument("--protocols", default=",".join(PROTOCOLS))
    ap.add_argument("--tmp", default="/tmp")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    jobs = []
    for name in args.protocols.split(","):
        routing, vcs, congestion = PROTOCOLS[name]
        path = os.path.join(args.tmp, f"ccsim_soak_{os.getpid()}_{name}.toml")
        with open(path, "w") as f:
            f.write(BASE.format(vcs=vcs, routing=routing, congestion=congestion, drain_cap=DRAIN_CAP))
        jobs += [(name, s, path) for s in range(args.first, args.first + args.seeds)]

    totals = {}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        for name, seed, j, err in pool.map(lambda a: run(args.ccsim, *a), jobs):
            t = totals.setdefault(name, {"runs": 0, "packets": 0, "drops": 0, "failed": 0})
            t["runs"] += 1
            if j:
                t["packets"] += j["packets_created"]
                t["drops"] += j["congestion"].get("drops", 0)
            if err:
                t["failed"] += 1
                failures.append(f"{name} seed {seed}: {err}")
    for name, t in totals.items():
        print(f"soak {name:14s} runs {t['runs']:5d}  packets {t['packets']:10d}  drops {t['drops']:9d}  "
              f"failed {t['failed']}")
    for name in {j[2] for j in jobs}:
        os.remove(name)
    if failures:
        print("\n".join(failures[:50]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
