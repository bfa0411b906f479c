#!/usr/bin/env python3
"""Plots ccsim results.
  plot.py DIR        a sweep: latency and accepted throughput vs offered load, one
                     line per value of every swept key other than the load
                     (DIR/latency.png, DIR/throughput.png); with several traffic
                     classes also per class (DIR/latency_classes.png,
                     DIR/throughput_classes.png); every point with a time series
                     also gets DIR/<point>_series.png.
  plot.py RUN.json   one run: accepted throughput of every source node, per class
                     (RUN_nodes.png, fairness), its time series if it has one
                     (RUN_series.png, with the queue series and the chosen
                     routers' ports when recorded) and its channel heatmaps if it has channel
                     statistics (RUN_channels.png and RUN_channels.csv,
                     sim.channel_stats = true)."""
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from plot_common import legend_outside, network, run_title, save, seeds  # noqa: E402


def load_points(d):
    pts = []
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        with open(f) as fh:
            try:
                j = json.load(fh)
            except json.JSONDecodeError:
                continue
        if "offered_load" in j:
            j["_name"] = os.path.splitext(os.path.basename(f))[0]
            pts.append(j)
    return pts


def series_key(j, varying):
    return ", ".join(f"{k.split('.')[-1]}={j['config'][k]}" for k in varying)


def finish(fig, ax, out):
    """Grid, legend outside the data; writes `out`."""
    ax.grid(True, alpha=0.3)
    legend_outside(ax)
    save(fig, out)


def plot_series(j, out):
    """Latency, accepted throughput and misrouted fraction per window, per class; with
    sim.queue_series also the mean flits queued per router port of each kind, and the
    flits of every port of the routers sim.queue_routers chose (up to four)."""
    s = j["series"]
    ghz = j["config"].get("sim.clock_ghz", 1.0)
    us = ghz != 1.0
    t = s["t_us"] if us else s["t"]
    unit = "us" if us else "cycles"
    queues = dict(s.get("queue_flits", {}))
    chosen = queues.pop("routers", [])[:4]
    by = j["config"].get("sim.series_by", "delivery")  # the window a packet's latency counts in
    rows = [("avg_packet_latency", f"avg packet latency (cycles)\nby {by}"),
            ("accepted_throughput", "accepted throughput\n(flits/node/cycle)"),
            ("misrouted_fraction", f"misrouted fraction\nby {by}")]
    n = len(rows) + (1 if queues else 0) + len(chosen)
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.5 * n), sharex=True)
    lines = [("overall", s["overall"])] + sorted(s.get("classes", {}).items())
    if len(lines) == 2:
        lines = lines[:1]  # one class: it is the overall
    start = s["measure_start"] / (ghz * 1000.0) if us else s["measure_start"]
    for ax, (key, label) in zip(axes, rows):
        for name, data in lines:
            ax.plot(t, data[key], label=name, drawstyle="steps-post")
        ax.set_ylabel(label)
    legend_outside(axes[0])
    row = len(rows)
    if queues:
        for kind, v in sorted(queues.items()):
            axes[row].plot(t, v, label=f"{kind} ports", drawstyle="steps-post")
        axes[row].set_ylabel("flits queued per port\n(end of window)")
        legend_outside(axes[row])
        row += 1
    for r in chosen:
        for p in r["ports"]:
            axes[row].plot(t, p["flits"], label=f"port {p['port']} ({p['kind']})", drawstyle="steps-post")
        axes[row].set_ylabel(f"router {r['router']}:\nflits queued per port")
        legend_outside(axes[row], ncol=1 + len(r["ports"]) // 12)
        row += 1
    for ax in axes:
        ax.axvline(start, color="gray", ls=":", lw=1)
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel(f"time ({unit}; dotted: end of warm-up; windows of {s['window_cycles']} cycles)")
    axes[0].set_title(run_title(j), fontsize=9)
    save(fig, out)


def plot_nodes(j, out):
    """Accepted throughput of every source node, one colour per class (fairness)."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    classes = sorted(j.get("classes", {}).items()) or [("all", j)]
    for name, c in classes:
        nodes = [n for n, v in enumerate(c["node_accepted"]) if v is not None]  # the class's sources
        ax.bar(nodes, [c["node_accepted"][n] for n in nodes], width=1.0, label=name)
    ax.set_xlabel("source node")
    ax.set_ylabel("accepted throughput\n(flits/cycle)")
    ax.set_title(f"accepted throughput per source node in the window\n{run_title(j)}", fontsize=9)
    finish(fig, ax, out)


def plot_classes(d, series, title):
    """Per-class latency and throughput (per source node of the class) vs offered load."""
    for ykey, ylabel, fname, log in [
        ("avg_packet_latency", "average packet latency (cycles)", "latency_classes.png", True),
        ("accepted_throughput", "accepted throughput per class source\n(flits/node/cycle)",
         "throughput_classes.png", False),
    ]:
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for label, ps in sorted(series.items()):
            ps = sorted(ps, key=lambda p: p["offered_load"])
            for cls in sorted(ps[0]["classes"]):
                xs = [p["offered_load"] for p in ps]
                ys = [p["classes"][cls][ykey] for p in ps]
                ax.plot(xs, ys, marker="o", label=f"{label + ' ' if label else ''}{cls}")
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("offered load of [traffic] (flits/node/cycle)")
        ax.set_ylabel(ylabel)
        ax.set_title(title + " per class", fontsize=9)
        finish(fig, ax, os.path.join(d, fname))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot.py DIR | RUN.json")
    d = sys.argv[1]
    if os.path.isfile(d):
        with open(d) as fh:
            j = json.load(fh)
        plot_nodes(j, os.path.splitext(d)[0] + "_nodes.png")
        if "series" in j:
            plot_series(j, os.path.splitext(d)[0] + "_series.png")
        if "channels" in j:
            from plot_channels import plot_channels, write_csv
            plot_channels(j, os.path.splitext(d)[0] + "_channels.png")
            write_csv(j, os.path.splitext(d)[0] + "_channels.csv")
        return
    pts = load_points(d)
    if not pts:
        sys.exit(f"plot: no result JSON in {d}")
    # Keys every point has (a protocol's own keys vary with the protocol).
    keys = [k for k in pts[0]["config"] if k != "traffic.load" and all(k in p["config"] for p in pts)]
    varying = [k for k in keys if len({json.dumps(p["config"].get(k)) for p in pts}) > 1]
    series = {}
    for p in pts:
        series.setdefault(series_key(p, varying), []).append(p)
    cfg = pts[0]["config"]
    title = network(cfg)
    for key, name in [("routing.algorithm", "routing"), ("congestion.protocol", "protocol"),
                      ("traffic.pattern", "pattern")]:
        if key not in varying and cfg.get(key, "none") != "none":
            title += f", {name} {cfg.get(key)}"
    title += f", {seeds(pts[0])}"
    for name, ykey, ylabel, fname, log in [
        ("latency", "avg_packet_latency", "average packet latency (cycles)", "latency.png", True),
        ("throughput", "accepted_throughput", "accepted throughput (flits/node/cycle)", "throughput.png", False),
        # Packets delivered in the window, whenever created: the fabric's
        # queuing under inadmissible load (003 Fig. 5a).
        ("network latency", "avg_network_latency_delivered", "network latency, packets delivered in the window\n"
         "(cycles)", "network_latency.png", True),
    ]:
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for label, ps in sorted(series.items()):
            ps = sorted(ps, key=lambda p: p["offered_load"])
            xs = [p["offered_load"] for p in ps]
            ys = [p.get(ykey, 0) for p in ps]
            if log:  # nothing delivered: no point on a log axis
                ps, xs, ys = zip(*[(p, x, y) for p, x, y in zip(ps, xs, ys) if y > 0]) or ((), (), ())
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
        finish(fig, ax, os.path.join(d, fname))
    if len(pts[0].get("classes", {})) > 1:
        plot_classes(d, series, title)
    for p in pts:
        if "series" in p:
            plot_series(p, os.path.join(d, p["_name"] + "_series.png"))


if __name__ == "__main__":
    main()
