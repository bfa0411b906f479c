#!/usr/bin/env python3
"""Tables of the paper-001 (QCN-Switch) runs of scripts/qcn_001.sh.

    scripts/qcn_summary.py RESULT_DIR [PREFIX]

One line per result: pattern, load, accepted throughput (flits/node/cycle),
average packet latency (us, from sim.clock_ghz), misrouted fraction, CNMs,
and the mean minimal-routing probability of the ports ADV+1 congests (each
group's global channel to the next group; the local ports towards that
channel's switch) and of the other ports. For ADV runs also the accepted
throughput of each switch of group 0 (mean per node, by source: 001 Figs. 7
and 9; the last switch holds the bottleneck channel, S_out)."""
import glob
import json
import os
import sys


def main():
    d = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    print(f"{'run':34s} {'thr':>6s} {'lat_us':>7s} {'mis':>5s} {'cnms':>6s} {'Pglob':>6s} {'Ploc':>6s} {'Poth':>6s} sat")
    for f in sorted(glob.glob(os.path.join(d, prefix + "*.json"))):
        j = json.load(open(f))
        c = j["config"]
        us = 1e-3 / c["sim.clock_ghz"]
        r = j.get("routing", {})
        def p(k):
            return f"{r[k]:6.1f}" if k in r else "     -"
        line = (f"{os.path.basename(f)[:-5]:34s} {j['accepted_throughput']:6.3f} "
                f"{j['avg_packet_latency'] * us:7.2f} {j['misrouted_fraction']:5.2f} {r.get('cnms', 0):6d} "
                f"{p('p_adv1_global')} {p('p_adv1_local_to_exit')} {p('p_other')} {'S' if j['saturated'] else ''}")
        if c["traffic.pattern"] == "adv" and "topology.p" in c:
            pp, a = c["topology.p"], c["topology.a"]
            na = j["node_accepted"]
            sw = [sum(na[s * pp:(s + 1) * pp]) / pp for s in range(a)]
            line += "  g0 switches: " + " ".join(f"{x:.2f}" for x in sw)
        print(line)


if __name__ == "__main__":
    main()
