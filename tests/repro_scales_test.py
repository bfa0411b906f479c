#!/usr/bin/env python3
"""The reduced scale: a manifest offers it with [scale.reduced] (001 does; 003 does not, and asking
for it names the scales 003 offers); a claim without `scales` is checked at every scale, one with
`scales` only at those; 001's per-scale figure settings apply (S_out's router on the reduced network)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from repro import aggregate, manifest  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def verdict(claim, scale):
    exp = manifest.Experiment(id="e", config="c.toml", series_key="s", series=["a"], x_key="traffic.load",
                              x=[0.1], sets=[], series_sets={}, x_per_series={}, seeds=1)
    fig = manifest.Figure(id="f", title="t", experiment="e", metric="accepted_flits", xlabel="x", ylabel="y")
    data = aggregate.FigureData(fig, exp, [{"series": "a", "x": 0.1, "seed": 1, "metrics": {"accepted_flits": 0.1}}])
    return aggregate.judge(dict(claim, id="c"), data, scale)["verdict"]


def main():
    fails = []
    m = manifest.load(ROOT, "001", "reduced")
    if not any(s.startswith("topology.a=8") for s in next(m.experiments["un"].points()).sets):
        fails.append("001 reduced: the un experiment does not run on the 1,056-node network")
    fig7 = next(f for f in m.figures if f.id == "7")
    if fig7.metric != "router_accepted_flits:7":
        fails.append(f"001 reduced: figure 7 reads {fig7.metric}, not S_out's router 7")
    if m.experiments["size_un"].series:
        fails.append("001 reduced: Fig. 17's network sizes would run")
    try:
        manifest.load(ROOT, "003", "reduced")
        fails.append("003 --scale reduced: no error")
    except manifest.ManifestError as e:
        if "offers: quick, paper" not in str(e):
            fails.append(f"003 --scale reduced: {e}")
    holds = {"check": "y('a', 0.1) > 0.05"}
    if verdict(holds, "reduced") != "reproduced":
        fails.append("a claim without scales is not checked at reduced scale")
    if verdict(dict(holds, scales=["paper"]), "reduced") != "not reproducible at this scale":
        fails.append("a paper-only claim is checked at reduced scale")
    if verdict(dict(holds, scales=["reduced", "paper"]), "reduced") != "reproduced":
        fails.append("a claim of the reduced and paper scales is not checked at reduced scale")
    if fails:
        print("repro_scales: FAILED:\n  " + "\n  ".join(fails))
        return 1
    print("repro_scales: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
