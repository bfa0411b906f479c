#!/usr/bin/env python3
"""Where traced packets waited: from a packet trace's CSV (sim.trace = "packets"), the mean
wait_cycles (beyond the router pipeline) of the delivered data packets at each router, by its
distance from the packet's last router (0 = the router the packet left the network from).

  trace_waits.py TRACE.csv

A hot spot's tree saturation shows as long waits a few hops before the last router."""
import csv
import sys
from collections import defaultdict


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    events = defaultdict(list)
    with open(sys.argv[1]) as f:
        for row in csv.DictReader(f):
            if row["kind"] == "data":
                events[row["packet"]].append(row)
    delivered = [ev for ev in events.values() if ev[-1]["event"] == "delivered"]
    waits = defaultdict(list)
    for ev in delivered:
        departures = [int(e["wait_cycles"]) for e in ev if e["event"] == "departed"]
        for distance, wait in enumerate(reversed(departures)):
            waits[distance].append(wait)
    print(f"trace_waits: {len(events)} data packets traced, {len(delivered)} delivered")
    print("hops before the last router  routers  mean wait (cycles)")
    for d in sorted(waits):
        print(f"{d:>26}  {len(waits[d]):>7}  {sum(waits[d]) / len(waits[d]):>18.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
