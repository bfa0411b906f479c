#!/usr/bin/env python3
"""Derived metrics on hand-made results: hot_switch_input_pct averages the channels into the hot
destinations' switches only; wc_hot_accepted_pct scales a node's data to a hot node's share; hops and
packet_latency_p50_cycles read a class's window, and say nothing (None) of a class that delivered nothing;
throughput_backlog is how far the accepted throughput lies above the offered load (a warm-up's backlog draining)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from repro import metrics  # noqa: E402


def main():
    # Three switches in a line, node n on switch n; node 2 is the hot destination. Peers: a router id,
    # or -1 - node for a terminal port. Into switch 2: switch 1's port 2 (0.8) and switch 0's port 2 (0.4).
    channels = {"hot_nodes": [2],
                "peers": [[-1, 1, 2], [-2, 0, 2], [-3, 0, 1]],
                "routers": [[0.5, 0.9, 0.4], [0.5, 0.1, 0.8], [1.0, 0.3, 0.3]]}
    got = metrics.compute("hot_switch_input_pct", {"channels": channels})
    ok = got is not None and abs(got - 60.0) < 1e-9
    ok = ok and metrics.compute("hot_switch_input_pct", {}) is None  # a run without channel statistics
    # WC-Hot 2 on groups of 4 x 8 nodes: a hot node takes 16 nodes' data.
    wc = {"config": {"topology.p": 4, "topology.a": 8, "traffic.hot_nodes": 2}, "accepted_throughput": 0.05}
    wc_got = metrics.compute("wc_hot_accepted_pct", wc)
    ok = ok and wc_got is not None and abs(wc_got - 80.0) < 1e-9
    classes = {"classes": {"app": {"packets_measured": 10, "avg_hops": 2.5, "latency_p50": 140},
                           "idle": {"packets_measured": 0, "avg_hops": 0.0, "latency_p50": 0}}}
    ok = ok and metrics.compute("hops:app", classes) == 2.5 and metrics.compute("hops:idle", classes) is None
    ok = ok and metrics.compute("packet_latency_p50_cycles:app", classes) == 140
    ok = ok and metrics.compute("packet_latency_p50_cycles:idle", classes) is None
    # A backlog draining: 0.43 carried of 0.4 offered is 7.5% above; at or below the offered load, none.
    ok = ok and abs(metrics.throughput_backlog({"offered_load": 0.4, "accepted_throughput": 0.43}) - 0.075) < 1e-9
    ok = ok and metrics.throughput_backlog({"offered_load": 0.4, "accepted_throughput": 0.39}) == 0.0
    ok = ok and metrics.throughput_backlog({"accepted_throughput": 0.39}) is None
    print("repro_metrics: ok" if ok else f"repro_metrics: FAILED (hot_switch_input_pct = {got})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
