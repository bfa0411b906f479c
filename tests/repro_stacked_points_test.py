#!/usr/bin/env python3
"""`ccsim reproduce P FIG` for a stacked figure (one x of its experiment, at_x) runs only that x; a
figure that plots the whole sweep, named beside it, keeps every x; `--x` keeps the x values given, in
every series that has them."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from repro import manifest  # noqa: E402


def pack():
    exp = manifest.Experiment(id="e", config="c.toml", series_key="s", series=["a", "b"], x_key="traffic.load",
                              x=[0.1, 0.5, 0.8], sets=[], series_sets={}, x_per_series={"b": [0.5, 0.8]}, seeds=1)
    curve = manifest.Figure(id="curve", title="t", experiment="e", metric="m", xlabel="x", ylabel="y")
    stack = manifest.Figure(id="stack", title="t", experiment="e", metric="m", xlabel="x", ylabel="y", at_x=0.8)
    return manifest.Manifest(paper="p", title="", dir="", scale="paper", scale_describe="", full_run="",
                             departures=[], experiments={"e": exp}, figures=[curve, stack])


def xs(wanted, only_x=None):
    m = manifest.select(pack(), wanted)
    if only_x:
        manifest.keep_x(m, only_x)
    return sorted({(p.series, p.x) for p in m.experiments["e"].points()})


def main():
    got = {"stack": xs(["stack"]), "both": xs(["stack", "curve"]), "x": xs(["curve"], [0.1, 0.8])}
    want = {"stack": [("a", 0.8), ("b", 0.8)], "both": [("a", 0.1), ("a", 0.5), ("a", 0.8), ("b", 0.5), ("b", 0.8)],
            "x": [("a", 0.1), ("a", 0.8), ("b", 0.8)]}
    if got != want:
        print(f"repro_stacked_points: FAILED: {got}, want {want}")
        return 1
    print("repro_stacked_points: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
