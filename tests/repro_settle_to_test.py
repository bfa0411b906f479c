#!/usr/bin/env python3
"""settle_to() in the claim language: a transient lasts until the end of the last window, from the onset on,
whose value is off the later steady level by more than the tolerance (002's response times, C10/C12)."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from repro import aggregate, manifest  # noqa: E402


def main():
    exp = manifest.Experiment(id="e", config="c.toml", series_key="s", series=["a"], x_key="", x=[], sets=[],
                              series_sets={}, x_per_series={}, seeds=1)
    fig = manifest.Figure(id="f", title="t", experiment="e", metric="series_latency_ns", xlabel="x", ylabel="y",
                          kind="series")
    t_us = [round(0.01 * i, 2) for i in range(800)]  # 10-cycle windows at 1 GHz, 0-8 us
    # 100 before the change at 5 us, a peak (200, then 400) for 200 cycles, 300 from then on, and one window
    # 10% off the level (within the 15% band) later.
    lat = [100.0 if t < 5.0 else 200.0 if t < 5.1 else 400.0 if t < 5.2 else 330.0 if t == 6.0 else 300.0 for t in t_us]
    rows = [{"series": "a", "x": None, "seed": 1, "t_us": t_us, "metrics": {"series_latency_ns": lat}}]
    data = aggregate.FigureData(fig, exp, rows)
    got = aggregate.evaluate("1000 * settle_to('a', 5.0, 7.0, 8.0)", aggregate.ClaimContext(data))
    flat = aggregate.evaluate("settle_to('a', 6.5, 7.0, 8.0)", aggregate.ClaimContext(data))
    if not (math.isclose(got, 200.0) and flat == 0.0):
        print(f"repro_settle_to: FAILED: {got} cycles (want 200), {flat} after the transient (want 0)")
        return 1
    print("repro_settle_to: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
