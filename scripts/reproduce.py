#!/usr/bin/env python3
"""Reproduces a paper's figures and claims: `ccsim reproduce PAPER [FIG...]`.

  reproduce.py 003 [5a 5b ...] [--scale quick|reduced|paper] [--seeds N] [-j N] [-o DIR]
  reproduce.py 003 --report-only [-o DIR]     # from the committed results, no run

Runs every point of experiments/papers/PAPER/manifest.toml not already on
record in results/papers/PAPER/SCALE.jsonl (same config, seed and model
version: see scripts/repro/runner.py), appends each finished run there, then
writes DIR/report.md (default DIR: docs/reproduction/PAPER-SCALE; the paper's
claims beside ours, with verdicts; all of the paper's figures, at the scale's seeds, even when
only some were run) and one PNG per figure. Exits 1 if a run failed or, with --require, if a claim that is
checked at this scale does not hold."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from repro import aggregate, manifest, report, runner  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIFT_LIMIT = 0.05


def main(argv):
    ap = argparse.ArgumentParser(prog="ccsim reproduce", description=__doc__.split("\n")[0])
    ap.add_argument("paper")
    ap.add_argument("figures", nargs="*", help="figure ids (default: all)")
    ap.add_argument("--scale", default="quick", choices=manifest.SCALES,
                    help="quick: small networks, minutes; reduced: what one machine affords of the paper's figures"
                         " (where the manifest offers it; its report says how it differs); paper: the paper's own")
    ap.add_argument("--seeds", type=int, help="seeds per point (default: the manifest's per scale)")
    ap.add_argument("--series", help="run only these series values, comma-separated (e.g. lhrp,srp): a partial run")
    ap.add_argument("--x", help="run only these x values (config units, e.g. loads 0.9,1.0), comma-separated: a partial run")
    ap.add_argument("-j", "--jobs", type=int, help="runs at once (default: all cores; under --launcher mpi, per rank: 1)")
    ap.add_argument("--launcher", default="local", choices=["local", "mpi", "slurm"],
                    help="local: processes here; mpi: the ranks of mpirun/srun share the runs; slurm: a job array"
                         " (run the same command again when it is done)")
    for opt in ("--partition", "--time", "--account", "--cpus-per-task", "--array-tasks", "--max-running"):
        ap.add_argument(opt, help="slurm: see ccsim sweep --help")
    ap.add_argument("--dry-run", action="store_true",
                    help="list the runs to do and run none (slurm: write the job script without submitting it)")
    ap.add_argument("--threads", type=int, default=1,
                    help="sim.threads of every run (identical results; helps when runs are fewer than cores)")
    ap.add_argument("-o", "--output", help="report directory (default: docs/reproduction/PAPER-SCALE)")
    ap.add_argument("--results", help="compact results file (default: results/papers/PAPER/SCALE.jsonl)")
    ap.add_argument("--raw", help="directory of the runs' result JSONs (default: results/runs/PAPER-SCALE)")
    ap.add_argument("--report-only", action="store_true", help="regenerate the report from the results on record")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--require", action="store_true",
                    help="exit 1 unless every claim checked at this scale is reproduced (the quick pack's test)")
    ap.add_argument("--ccsim", default=os.path.join(ROOT, "build", "ccsim"))
    a = ap.parse_intermixed_args(argv)  # figure ids after options too
    m = manifest.select(manifest.load(ROOT, a.paper, a.scale, a.seeds), a.figures)
    if a.series:
        manifest.keep_series(m, a.series.split(","))
    if a.x:
        try:
            manifest.keep_x(m, [float(v) for v in a.x.split(",")])
        except ValueError:
            print(f"error: --x: {a.x!r} is not a comma-separated list of numbers", file=sys.stderr)
            return 2
    results = os.path.abspath(a.results or os.path.join(ROOT, "results", "papers", a.paper, f"{a.scale}.jsonl"))
    out = os.path.abspath(a.output or os.path.join(ROOT, "docs", "reproduction", f"{a.paper}-{a.scale}"))
    os.makedirs(out, exist_ok=True)
    failed = []
    if a.report_only:
        rows = runner.rows_on_record(m, results)
    else:
        if not os.access(a.ccsim, os.X_OK):
            print(f"error: --ccsim: {a.ccsim} is not an executable (build first: make build)", file=sys.stderr)
            return 2
        # Raw result JSONs: a cache beside the compact results, never committed (results/ is ignored but for papers/).
        raw = os.path.abspath(a.raw or os.path.join(ROOT, "results", "runs", f"{a.paper}-{a.scale}"))
        if a.dry_run and a.launcher == "local":
            return runner.list_todo(m, ROOT, results, raw)
        if a.launcher != "local":
            jobs = runner.job_list(m, ROOT, results, raw, a.threads)
            if jobs:
                return hand_off(a, argv, jobs, raw)
        rows, failed = runner.run_all(m, ROOT, a.ccsim, results, raw, a.jobs or os.cpu_count() or 1, a.threads)
    if a.figures or a.series or a.x:
        # A partial run still writes the paper's whole report: the other figures from the record
        # (at the seeds asked for, if any).
        m = manifest.load(ROOT, a.paper, a.scale, a.seeds)
        rows = runner.rows_on_record(m, results)
    datas, judged = [], {}
    for f in m.figures:
        d = aggregate.FigureData(f, m.experiments[f.experiment], rows.get(f.experiment, []))
        datas.append(d)
        judged[f.id] = [aggregate.judge(c, d, a.scale) for c in f.claims]
        png = os.path.join(out, f"{f.id}.png")
        if not a.no_plots and not d.series and os.path.exists(png):
            os.remove(png)  # a plot of runs no longer on record (the report says there is none)
        if not a.no_plots and d.series:
            from repro import plots  # matplotlib: only when plotting

            try:
                plots.draw(d, png)
            except aggregate.Missing as e:  # a partial record: the report says what is missing
                print(f"reproduce: figure {f.id} not plotted: {e}", file=sys.stderr)
    cmd = f"ccsim reproduce {a.paper} --scale {a.scale} --report-only"
    rel = os.path.relpath(results, ROOT)
    report.write(os.path.join(out, "report.md"), m, datas, judged, failed, cmd, rel, DRIFT_LIMIT)
    bad = [(f, j) for f, js in judged.items() for j in js if j["verdict"] in ("differs", "not run")]
    print(f"reproduce {a.paper} ({a.scale}): {os.path.join(out, 'report.md')}; " + ", ".join(
        f"{v}: {sum(j['verdict'] == v for js in judged.values() for j in js)}" for v in aggregate.VERDICTS))
    if failed:
        return 1
    if a.require and bad:
        for f, j in bad:
            print(f"reproduce: claim {j['claim']['id']} (figure {f}) {j['verdict']}: {j['claim']['check']}"
                  + (f" ({j['detail']})" if j["detail"] else ""), file=sys.stderr)
        return 1
    return 0


def hand_off(a, argv, jobs, raw):
    """The runs to do go to `ccsim jobs` with the mpi or slurm launcher (sim/launch.h). Under MPI
    the first rank then runs this reproduction again, locally: every run is on disk by then, so it
    only reads them and writes the report. Under Slurm the same command, run again once the job
    array is done, does that."""
    os.makedirs(raw, exist_ok=True)
    path = os.path.join(raw, "jobs.json")
    tmp = f"{path}.part{os.getpid()}"  # every MPI rank writes the same list
    then = []
    if a.launcher == "mpi":
        again = list(argv)
        if "--launcher" in again:
            i = again.index("--launcher")
            del again[i:i + 2]
        again = [x for x in again if not x.startswith("--launcher=")]
        then = [sys.executable, os.path.abspath(__file__)] + again
    with open(tmp, "w") as f:
        json.dump({"jobs": jobs, "then": then} if then else {"jobs": jobs}, f, indent=1)
    os.replace(tmp, path)
    cmd = [a.ccsim, "jobs", path, "--launcher", a.launcher]
    if a.jobs:
        cmd += ["-j", str(a.jobs)]
    if a.launcher == "mpi":
        os.execv(a.ccsim, cmd)
    for opt in ("partition", "time", "account", "cpus_per_task", "array_tasks", "max_running"):
        if getattr(a, opt) is not None:
            cmd += ["--" + opt.replace("_", "-"), getattr(a, opt)]
    if a.dry_run:
        cmd.append("--dry-run")
    rc = subprocess.run(cmd).returncode
    if rc == 0 and not a.dry_run:
        print(f"reproduce {a.paper} ({a.scale}): {len(jobs)} runs submitted to Slurm; when the job array is done,"
              " run the same command again: it reads their results and writes the report", file=sys.stderr)
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except manifest.ManifestError as e:  # the manifest, or a claim reading a metric its figure does not record
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
