#!/usr/bin/env bash
# CTest reproduce_quick_PAPER: ccsim reproduce PAPER at quick scale into a fresh
# directory of the build tree (the committed results are not touched), every claim
# checked at quick scale must hold; then the committed reports must be what the
# committed results regenerate.
set -euo pipefail
ccsim=$1 paper=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
"$ccsim" reproduce "$paper" --scale quick --require --no-plots -j "$(nproc)" -o "$out" --results "$out/quick.jsonl" --raw "$out/runs"
for scale in quick reduced paper; do
  committed="$root/docs/reproduction/$paper-$scale/report.md"
  [ -f "$committed" ] || continue
  "$ccsim" reproduce "$paper" --scale "$scale" --report-only --no-plots -o "$out/$scale-again" >/dev/null
  if ! diff -u "$committed" "$out/$scale-again/report.md"; then
    echo "docs/reproduction/$paper-$scale/report.md differs from what results/papers/$paper/$scale.jsonl" \
         "regenerates: run ccsim reproduce $paper --scale $scale --report-only" >&2
    exit 1
  fi
done
