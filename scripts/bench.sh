#!/usr/bin/env bash
# `make bench`: the 1056-node dragonfly (p=4, a=8, h=4, 33 groups), UR,
# 1-flit packets, 3 VCs, MIN and UGAL-L at loads 0.3 and 0.5, 10,000 measured
# cycles, one core. Prints simulated cycles/s and flit-hops/s.
set -euo pipefail
CCSIM=${1:-build/ccsim}
CONFIG=$(dirname "$0")/../experiments/bench_dragonfly1056.toml
printf "%-8s %-5s %12s %14s %10s %9s\n" routing load "cycles/s" "flit-hops/s" "wall (s)" "RSS (MB)"
for alg in min ugal_l; do
  for load in 0.3 0.5; do
    "$CCSIM" run "$CONFIG" -s routing.algorithm=$alg -s traffic.load=$load |
      /usr/bin/env python3 -c "import json,sys; j=json.load(sys.stdin); p=j['perf']; print('%-8s %-5s %12.0f %14.3g %10.1f %9.0f' % ('$alg', '$load', p['cycles_per_second'], p['flit_hops_per_second'], p['wall_seconds'], p['peak_rss_mb']))"
  done
done
