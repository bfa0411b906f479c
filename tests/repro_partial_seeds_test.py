#!/usr/bin/env python3
"""A claim's per-seed value skips seeds not run at the points it reads (a paper pack filled in by a
resumable run has seeds 2-3 at some points only): seed 1's value, never "nothing delivered" (inf/inf);
the report's claims table says it is the mean of 1 seed of the 3 asked for."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from repro import aggregate, manifest, report  # noqa: E402


def main():
    exp = manifest.Experiment(id="e", config="c.toml", series_key="s", series=["a", "b"], x_key="traffic.load",
                              x=[0.1, 0.3], sets=[], series_sets={}, x_per_series={}, seeds=3)
    fig = manifest.Figure(id="f", title="t", experiment="e", metric="packet_latency_cycles", xlabel="x", ylabel="y")
    rows = [{"series": s, "x": x, "seed": seed, "metrics": {"packet_latency_cycles": v}}
            for s, x, seed, v in [("a", 0.1, 1, 10.0), ("b", 0.1, 1, 20.0), ("a", 0.3, 1, 30.0), ("b", 0.3, 1, 60.0),
                                  ("a", 0.1, 2, 11.0), ("b", 0.1, 2, 21.0)]]  # seed 2 at 0.1 only
    data = aggregate.FigureData(fig, exp, rows)
    claim = {"id": "c", "ours": "y('a', 0.3) / y('b', 0.3)", "check": "y('a', 0.3) < y('b', 0.3)"}
    j = aggregate.judge(claim, data, "paper")
    mean, _, n = j["ours"]
    if not (math.isclose(mean, 0.5) and n == 1 and j["verdict"] == "reproduced"):
        print(f"repro_partial_seeds: FAILED: ours {j['ours']}, verdict {j['verdict']} (want 0.5 from seed 1)")
        return 1
    if report._seeds(j, exp) != "1 of 3":
        print(f"repro_partial_seeds: FAILED: the seeds column reads {report._seeds(j, exp)!r}, not '1 of 3'")
        return 1
    print("repro_partial_seeds: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
