#!/usr/bin/env python3
"""Cycles from a traffic switch until the misrouted fraction of a result's
time series (sim.series_window) is half way from its level before the switch
to its level at the end of the run (mean of the last 20 windows).

    scripts/response_time.py RESULT.json SWITCH_CYCLE

The series is by delivery time, so the figure includes the latency of the
first packets routed after the switch."""
import json
import sys


def main():
    result, switch = sys.argv[1], int(sys.argv[2])
    with open(result) as f:
        series = json.load(f)["series"]
    t = series["t"]
    overall = series["overall"]
    points = [(ti, m) for ti, m, n in zip(t, overall["misrouted_fraction"], overall["packets"]) if n > 0]
    before = [m for ti, m in points if ti < switch][-20:]
    after = [m for ti, m in points if ti >= switch][-20:]
    level_before = sum(before) / max(1, len(before))
    level_after = sum(after) / max(1, len(after))
    half = (level_before + level_after) / 2
    rising = level_after >= level_before
    response = next((ti - switch for ti, m in points if ti >= switch and (m >= half if rising else m <= half)), None)
    print(f"misrouted before {level_before:.3f} after {level_after:.3f} response {response} cycles")


if __name__ == "__main__":
    main()
