#!/usr/bin/env python3
"""Cycles from a traffic switch until the misrouted fraction of a result's
time series (sim.series_window) is half way from its level before the switch
to its level at the end of the run (mean of the last 20 windows).

    scripts/response_time.py RESULT.json SWITCH_CYCLE [--latency]

With --latency (001's definition: "the time spent from the traffic change to
the moment in which average latency approximately converges to the new
value"): cycles from the switch to the first window after which the mean
packet latency stays within 10% of its final level (mean of the last 20
windows). Times are also given in us when the result has sim.clock_ghz.

A series by delivery time (the default) makes the figure include the latency of
the first packets routed after the switch; with sim.series_by = "creation" it
does not."""
import json
import sys


def main():
    result, switch = sys.argv[1], int(sys.argv[2])
    latency_mode = "--latency" in sys.argv[3:]
    with open(result) as f:
        res = json.load(f)
    series = res["series"]
    us = 1e-3 / res.get("config", {}).get("sim.clock_ghz", 1.0)
    t = series["t"]
    overall = series["overall"]
    key = "avg_packet_latency" if latency_mode else "misrouted_fraction"
    points = [(ti, m) for ti, m, n in zip(t, overall[key], overall["packets"]) if n > 0]
    before = [m for ti, m in points if ti < switch][-20:]
    after = [m for ti, m in points if ti >= switch][-20:]
    level_before = sum(before) / max(1, len(before))
    level_after = sum(after) / max(1, len(after))
    if latency_mode:
        late = [(ti, m) for ti, m in points if ti >= switch]
        response = None
        for i, (ti, _) in enumerate(late):
            if all(abs(m - level_after) <= 0.1 * level_after for _, m in late[i:]):
                response = ti - switch
                break
        print(f"latency before {level_before:.1f} after {level_after:.1f} cycles; converged after "
              f"{response} cycles" + (f" = {response * us:.1f} us" if response is not None else ""))
        return
    half = (level_before + level_after) / 2
    rising = level_after >= level_before
    response = next((ti - switch for ti, m in points if ti >= switch and (m >= half if rising else m <= half)), None)
    print(f"misrouted before {level_before:.3f} after {level_after:.3f} response {response} cycles"
          + (f" = {response * us:.1f} us" if response is not None else ""))


if __name__ == "__main__":
    main()
