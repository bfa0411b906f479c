#!/bin/bash
# Slowdown of RTL in the loop against the C++ references (rtl/README.md "Cost"): simulated cycles
# per second of the same run with [hardware] <block> = "ref" and "rtl", alternated for ROUNDS rounds
# (take the better figure of each: the machine may be shared), then short lock-step runs.
# Needs a Release build with CCSIM_BUILD_HW=ON.  Usage: scripts/rtl_slowdown.sh [ROUNDS] [CCSIM]
set -eu
ROUNDS=${1:-2}
CCSIM=${2:-build/ccsim}
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT

run() {  # label, then ccsim run arguments
  local label=$1; shift
  if ! "$CCSIM" run "$@" -o "$OUT" >/dev/null 2>"$OUT.err"; then
    echo "$label: FAILED: $(tail -1 "$OUT.err")"; return
  fi
  python3 - "$label" "$OUT" <<'EOF'
import json, sys
label, path = sys.argv[1], sys.argv[2]
j = json.load(open(path)); p = j["perf"]
print(f"{label}: {p['cycles_per_second']:.1f} cycles/s, {p['flit_hops_per_second'] / 1e6:.3f} M flit-hops/s, "
      f"accepted {j['accepted_throughput']:.4f}, latency {j['avg_packet_latency']:.2f}, hardware {j['hardware']}")
EOF
}

DF="experiments/bench_dragonfly1056.toml -s sim.warmup=1000 -s sim.measure=2000 -s traffic.load=0.2"
FB="experiments/papers/000/fb512_ur_hotspot.toml -s sim.warmup=2000 -s sim.measure=2000"
LHRP="-s congestion.protocol=lhrp -s congestion.acks=true"
for round in $(seq "$ROUNDS"); do
  for hw in ref rtl; do
    run "df1056 base, contention_counters=$hw" $DF -s routing.algorithm=base -s router.vcs=6 -s hardware.contention_counters=$hw
    run "df1056 ectn, contention_counters=$hw" $DF -s routing.algorithm=ectn -s router.vcs=6 -s hardware.contention_counters=$hw
    run "df1056 lhrp, lhrp_scheduler=$hw" $DF $LHRP -s hardware.lhrp_scheduler=$hw
    run "df1056 ectn+lhrp, all=$hw" $DF -s routing.algorithm=ectn -s router.vcs=6 $LHRP -s hardware.all=$hw
    run "fb512 cbcm, contention_degree=$hw" $FB -s hardware.contention_degree=$hw
    run "fb512 cbcm, token_throttler=$hw" $FB -s hardware.token_throttler=$hw
    run "fb512 cbcm, all=$hw" $FB -s hardware.all=$hw
  done
done
LOCK="-s hardware.all=rtl -s hardware.lockstep=true"
run "df1056 ectn+lhrp, lock step" $DF -s routing.algorithm=ectn -s router.vcs=6 $LHRP $LOCK
run "fb512 cbcm, lock step" $FB $LOCK
