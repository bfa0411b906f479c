#!/usr/bin/env python3
"""Plots 004 Fig. 4 from selftune result JSONs: the threshold (top) and the
delivered throughput per tuning period (bottom) over time, one line per file.

    /usr/bin/python3 scripts/plot_selftune_trace.py RUN.json... [-o OUT.png]
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("-o", "--out", default=None)
    a = ap.parse_args()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for path in a.runs:
        j = json.load(open(path))
        c = j["congestion"]
        tr = c["trace"]
        nodes = j["config"].get("topology.k", 16) ** j["config"].get("topology.n", 2)
        period = c["tune_period"]
        label = os.path.splitext(os.path.basename(path))[0]
        top.step(tr["cycle"], tr["threshold"], where="post", label=label, linewidth=0.8)
        bottom.plot(tr["cycle"], [d / period / nodes for d in tr["delivered_flits"]], label=label, linewidth=0.6)
    top.set_ylabel("threshold (full VC buffers)")
    bottom.set_ylabel("delivered flits/node/cycle")
    bottom.set_xlabel("cycle")
    top.legend()
    top.grid(alpha=0.3)
    bottom.grid(alpha=0.3)
    out = a.out or os.path.join(os.path.dirname(a.runs[0]) or ".", "selftune_trace.png")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
