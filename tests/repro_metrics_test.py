#!/usr/bin/env python3
"""Derived metrics on hand-made results: hot_switch_input_pct averages the channels into the hot
destinations' switches only."""
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
    print("repro_metrics: ok" if ok else f"repro_metrics: FAILED (hot_switch_input_pct = {got})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
