#!/usr/bin/env bash
# The launchers of `ccsim sweep` (tests/CMakeLists.txt runs one part per test):
#   launcher_test.sh CCSIM resume   # SIGINT and rerun; unwritable output; a failed run
#   launcher_test.sh CCSIM mpi      # --launcher mpi under mpirun -np 3 = local
#   launcher_test.sh CCSIM slurm    # --launcher slurm on a real one-node Slurm = local
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ccsim=$(realpath "${1:?usage: launcher_test.sh CCSIM resume|mpi|slurm}")
part=${2:?usage: launcher_test.sh CCSIM resume|mpi|slurm}
work=$(mktemp -d)
trap 'rm -rf "$work" || true' EXIT
cd "$work"
fail() { echo "launcher_test ($part): FAILED: $*"; exit 1; }

config="$root/experiments/demo.toml"
short=(-s sim.warmup=200 -s sim.measure=600)
loads=traffic.load=0.1,0.2,0.3,0.4
# A small piece of a paper pack: 004 Fig. 3a, one series, one seed (5 points).
repro=(004 3a --scale quick --seeds 1 --series avoidance/base --no-plots)
same_metrics() {
  python3 - "$1" "$2" <<'PY' || fail "the reproductions' metrics differ: $1 $2"
import json, sys
rows = [{json.loads(l)["key"]: json.loads(l)["metrics"] for l in open(p)} for p in sys.argv[1:]]
sys.exit(0 if rows[0] == rows[1] and len(rows[0]) == 5 else 1)
PY
}

case "$part" in
resume)
  # Points long enough (a few seconds each) to interrupt the sweep between two.
  slow=(-s sim.warmup=2000 -s sim.measure=30000 -s traffic.load=0.3)
  "$ccsim" sweep "$config" --param sim.seed=1,2,3,4 "${slow[@]}" -j 1 -o a 2>a.err &
  pid=$!
  for _ in $(seq 1 600); do [ -f a/seed-1.json ] && break; sleep 0.1; done
  [ -f a/seed-1.json ] || fail "the first point never finished"
  kill -INT "$pid"
  if wait "$pid"; then fail "an interrupted sweep exited 0"; fi
  grep -q "interrupted: .* run the same command again" a.err || fail "no resume hint: $(cat a.err)"
  ls a/*.part* 2>/dev/null && fail "a partial result was left"
  finished=$(ls a/seed-*.json | wc -l)
  [ "$finished" -lt 4 ] || fail "every point finished before the interrupt: make the points longer"
  before=$(stat -c %Y:%i a/seed-1.json)
  "$ccsim" sweep "$config" --param sim.seed=1,2,3,4 "${slow[@]}" -j 2 -o a 2>b.err || fail "the rerun failed: $(cat b.err)"
  grep -q "$finished of 4 runs done already" b.err || fail "the rerun did not skip the finished points: $(cat b.err)"
  [ "$(stat -c %Y:%i a/seed-1.json)" = "$before" ] || fail "a finished point was run again"
  [ "$(grep -c '^seed-' a/summary.csv)" = 4 ] || fail "summary.csv lacks points"
  # A changed config is a different point: it runs again.
  "$ccsim" sweep "$config" --param sim.seed=1 "${slow[@]}" -s sim.measure=29000 -j 1 -o a 2>c.err
  [ "$(stat -c %Y:%i a/seed-1.json)" != "$before" ] || fail "a point whose config changed was not rerun"
  # An unwritable output directory: one line naming -o.
  touch file
  if "$ccsim" sweep "$config" --param "$loads" -o file/x 2>d.err; then fail "an unwritable -o was accepted"; fi
  [ "$(wc -l <d.err)" = 1 ] && grep -q "^error: -o: cannot create the output directory" d.err || fail "$(cat d.err)"
  # A failed run is reported with its error, and the others still run.
  python3 - "$config" <<'PY'
import json, sys
jobs = [{"name": "bad", "args": ["run", "missing.toml"], "output": "j/bad.json"},
        {"name": "good", "args": ["run", sys.argv[1], "-s", "sim.measure=300"], "output": "j/good.json"}]
import os; os.makedirs("j", exist_ok=True)
json.dump({"jobs": jobs}, open("jobs.json", "w"))
PY
  if "$ccsim" jobs jobs.json -j 1 2>e.err; then fail "a failed run did not fail the job list"; fi
  grep -q "bad FAILED (exit .*missing.toml" e.err || fail "the failure does not say why: $(cat e.err)"
  [ -f j/good.json ] || fail "the run after a failed one did not run"
  ;;
mpi)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  "$ccsim" sweep "$config" --param "$loads" "${short[@]}" -j 2 -o local 2>/dev/null
  mpirun --oversubscribe -np 3 "$ccsim" sweep "$config" --param "$loads" "${short[@]}" --launcher mpi -o mpi \
    2>mpi.err || fail "mpirun: $(tail -5 mpi.err)"
  python3 "$here/compare_sweeps.py" local mpi
  ranks=$(python3 -c "import glob,json;print(len({json.load(open(f))['run']['rank'] for f in glob.glob('mpi/load-*.json')}))")
  [ "$ranks" -ge 2 ] || fail "the points ran on $ranks rank(s), not shared"
  # ccsim reproduce: the ranks run the points, then the first rank writes the report.
  "$ccsim" reproduce "${repro[@]}" --results local.jsonl --raw local-raw -o local-report >/dev/null 2>&1
  mpirun --oversubscribe -np 3 "$ccsim" reproduce "${repro[@]}" --launcher mpi --results mpi.jsonl --raw mpi-raw \
    -o mpi-report >/dev/null 2>mpi-repro.err || fail "mpirun reproduce: $(tail -5 mpi-repro.err)"
  [ -f mpi-report/report.md ] || fail "no report after the MPI reproduction"
  same_metrics local.jsonl mpi.jsonl
  ;;
slurm)
  [ "$(id -u)" = 0 ] || { echo "launcher_test (slurm): skipped: slurmd needs root"; exit 77; }
  conf=$("$here/slurm_cluster.sh" start "$work/slurm") || fail "the Slurm cluster did not start"
  trap '"$here/slurm_cluster.sh" stop "$work/slurm"; rm -rf "$work" || true' EXIT
  export SLURM_CONF=$conf
  "$ccsim" sweep "$config" --param "$loads" "${short[@]}" -j 2 -o local 2>/dev/null
  id=$("$ccsim" sweep "$config" --param "$loads" "${short[@]}" --launcher slurm --array-tasks 3 -o slurm 2>slurm.err) ||
    fail "$(cat slurm.err)"
  for _ in $(seq 1 600); do [ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break; sleep 0.2; done
  [ -z "$(squeue -h -j "$id")" ] || fail "job array $id did not end"
  "$ccsim" sweep --collect slurm 2>collect.err || fail "collect: $(cat collect.err) $(cat slurm/slurm-*.out)"
  python3 "$here/compare_sweeps.py" local slurm
  # ccsim reproduce: submits, refuses a second submission while the array runs, then collects.
  "$ccsim" reproduce "${repro[@]}" --results local.jsonl --raw local-raw -o local-report >/dev/null 2>&1
  slurm_repro=("$ccsim" reproduce "${repro[@]}" --launcher slurm --results sl.jsonl --raw sl-raw -o sl-report)
  "${slurm_repro[@]}" >/dev/null 2>sl1.err || fail "reproduce --launcher slurm: $(cat sl1.err)"
  if "${slurm_repro[@]}" >/dev/null 2>sl2.err; then fail "a second submission while the array ran was accepted"; fi
  grep -q "still queued or running" sl2.err || fail "$(cat sl2.err)"
  for _ in $(seq 1 600); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  "${slurm_repro[@]}" >/dev/null 2>sl3.err || fail "collecting the reproduction: $(cat sl3.err)"
  same_metrics local.jsonl sl.jsonl
  tasks=$(python3 -c "import glob,json;print(len({json.load(open(f))['run']['array_task'] for f in glob.glob('slurm/load-*.json')}))")
  [ "$tasks" = 3 ] || fail "the points ran in $tasks array tasks, not 3"
  ;;
*) fail "unknown part $part" ;;
esac
echo "launcher_test ($part): passed"
