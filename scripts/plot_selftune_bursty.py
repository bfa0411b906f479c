#!/usr/bin/env python3
"""Plots 004 Fig. 7: delivered throughput over time under the bursty load, one
line per result JSON (needs sim.series_window).

    /usr/bin/python3 scripts/plot_selftune_bursty.py RUN.json... [-o OUT.png]
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
    fig, ax = plt.subplots(figsize=(9, 4))
    for path in a.runs:
        s = json.load(open(path))["series"]
        label = os.path.splitext(os.path.basename(path))[0]
        ax.plot(s["t"], s["overall"]["accepted_throughput"], label=label, linewidth=0.8)
    ax.set_xlabel("cycle")
    ax.set_ylabel("delivered flits/node/cycle")
    ax.grid(alpha=0.3)
    ax.legend()
    out = a.out or os.path.join(os.path.dirname(a.runs[0]) or ".", "bursty.png")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
