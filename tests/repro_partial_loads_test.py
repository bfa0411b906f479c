#!/usr/bin/env python3
"""A saturation point is read from the highest load down, so a paper pack run only near saturation
(`--x`) gets its verdict: the loads below the first one carried need not be run, the ones above it must
be; `last` and `first` read their one load. The answer is the one the full sweep gives."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from repro import aggregate, manifest  # noqa: E402


def figure_data(points):
    exp = manifest.Experiment(id="e", config="c.toml", series_key="s", series=["a"], x_key="traffic.load",
                              x=[0.2, 0.4, 0.6, 0.8], sets=[], series_sets={}, x_per_series={}, seeds=1)
    fig = manifest.Figure(id="f", title="t", experiment="e", metric="accepted", xlabel="x", ylabel="y")
    rows = [{"series": "a", "x": x, "seed": 1, "metrics": {"accepted": v}} for x, v in points]
    return aggregate.ClaimContext(aggregate.FigureData(fig, exp, rows))


def value(f):
    try:
        return f()
    except aggregate.Missing:
        return "missing"


def main():
    full = figure_data([(0.2, 0.2), (0.4, 0.4), (0.6, 0.5), (0.8, 0.45)])
    top = figure_data([(0.4, 0.4), (0.6, 0.5), (0.8, 0.45)])  # 0.2 not run
    gap = figure_data([(0.2, 0.2), (0.4, 0.4), (0.8, 0.45)])  # 0.6 not run: above the knee
    cases = [("full sweep", value(lambda: full.sat("a")), 0.4),
             ("loads below the knee not run", value(lambda: top.sat("a")), 0.4),
             ("a load above the knee not run", value(lambda: gap.sat("a")), "missing"),
             ("last without the others", value(lambda: top.last("a")), 0.45),
             ("first not run", value(lambda: top.first("a")), "missing")]
    bad = [f"{name}: {got} (want {want})" for name, got, want in cases if got != want]
    if bad:
        print("repro_partial_loads: FAILED: " + "; ".join(bad))
        return 1
    print("repro_partial_loads: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
