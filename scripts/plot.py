#!/usr/bin/env python3
"""Plots a ccsim sweep directory: latency vs offered load and accepted vs
offered load, one line per value of every swept key other than the load.
Usage: plot.py DIR  (reads DIR/*.json, writes DIR/latency.png, DIR/throughput.png)"""
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load_points(d):
    pts = []
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        with open(f) as fh:
            try:
                j = json.load(fh)
            except json.JSONDecodeError:
                continue
        if "offered_load" in j:
            pts.append(j)
    return pts


def series_key(j, varying):
    return ", ".join(f"{k.split('.')[-1]}={j['config'][k]}" for k in varying)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot.py DIR")
    d = sys.argv[1]
    pts = load_points(d)
    if not pts:
        sys.exit(f"plot: no result JSON in {d}")
    keys = [k for k in pts[0]["config"] if k != "traffic.load"]
    varying = [k for k in keys if len({json.dumps(p["config"].get(k)) for p in pts}) > 1]
    series = {}
    for p in pts:
        series.setdefault(series_key(p, varying), []).append(p)
    cfg = pts[0]["config"]
    title = (f"{cfg.get('topology.kind')} {cfg.get('routing.algorithm') if 'routing.algorithm' not in varying else ''} "
             f"{cfg.get('traffic.pattern')}, seed {pts[0]['seed']}").replace("  ", " ")
    for name, ykey, ylabel, fname, log in [
        ("latency", "avg_packet_latency", "average packet latency (cycles)", "latency.png", True),
        ("throughput", "accepted_throughput", "accepted throughput (flits/node/cycle)", "throughput.png", False),
    ]:
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for label, ps in sorted(series.items()):
            ps = sorted(ps, key=lambda p: p["offered_load"])
            xs = [p["offered_load"] for p in ps]
            ys = [p[ykey] for p in ps]
            ax.plot(xs, ys, marker="o", label=label or cfg.get("routing.algorithm"))
            sat = [(x, y) for x, y, p in zip(xs, ys, ps) if p.get("saturated")]
            if sat and ykey == "avg_packet_latency":
                ax.scatter(*zip(*sat), marker="x", color="red", zorder=5)
        if ykey == "accepted_throughput":
            lim = max(p["offered_load"] for p in pts)
            ax.plot([0, lim], [0, lim], ls=":", color="gray", label="accepted = offered")
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("offered load (flits/node/cycle)")
        ax.set_ylabel(ylabel)
        ax.set_title(title + ("  (x: saturated)" if ykey == "avg_packet_latency" else ""), fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        out = os.path.join(d, fname)
        fig.savefig(out, dpi=120)
        print(f"plot: wrote {out}")


if __name__ == "__main__":
    main()
