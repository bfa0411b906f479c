#!/usr/bin/env bash
# Data races of sim.threads: runs busy configurations whose routers step in
# parallel under a ThreadSanitizer build of ccsim and fails on any report.
#   scripts/tsan_threads.sh build-tsan/ccsim
# (the build: cmake -DCCSIM_BUILD_HW=OFF -DCMAKE_CXX_FLAGS=-fsanitize=thread
#  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread; .ci/run does it)
set -euo pipefail
cd "$(dirname "$0")/.."
ccsim=${1:?usage: tsan_threads.sh CCSIM}
small=tests/results_gate/df_min.toml
w=(-s sim.warmup=300 -s sim.measure=1000)
cases=(
  "$small -s traffic.load=0.5 -s sim.threads=2"
  "$small -s routing.algorithm=\"ugal_l\" -s traffic.pattern=\"adv\" -s traffic.load=0.4 -s sim.threads=3"
  "$small -s routing.algorithm=\"par62\" -s router.voq=true -s router.vcs=6 -s traffic.pattern=\"hotspot\" -s traffic.hotspot_sources=24 -s traffic.hotspot_dests=2 -s traffic.load=0.4 -s sim.threads=2"
  "tests/results_gate/proto_none_acks_hotspot.toml -s sim.threads=2"
  "experiments/torus_16x16.toml -s routing.algorithm=\"dor\" -s congestion.protocol=\"none\" -s topology.k=8 -s traffic.load=0.3 -s sim.threads=2"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086
  out=$(eval TSAN_OPTIONS=halt_on_error=1 "$ccsim" run $c "${w[@]}" 2>&1 >/dev/null) || {
    echo "tsan_threads: FAILED: $ccsim run $c"
    echo "$out" | head -60
    exit 1
  }
  echo "tsan_threads: clean: $c"
done
