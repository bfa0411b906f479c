"""Runs a manifest's points with ccsim, reusing results already on record.

A point's result is reused when the compact results file holds a row with the
same key: the same config settings (its parsed TOML: comments do not count),
overrides, seed and model version (the results-change gate's digests: they
change whenever any result changes). Each
finished run is appended to the results file at once, so an interrupted
reproduction resumes where it stopped."""
import contextlib
import fcntl
import json
import math
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import results_gate  # scripts/ is on the path wherever the repro package is
from . import metrics, report


def model_version(root):
    """The results gate's model version of the digests under `root` (results_gate.model_version)."""
    with open(os.path.join(root, "tests", "results_gate", "digests.txt"), "rb") as f:
        return results_gate.model_version(f.read())


def commit(root):
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


@contextlib.contextmanager
def file_lock(path):
    """Two reproductions may share a results file (say, two figure sets at once): appends and
    the final rewrite take turns."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def load_rows(path):
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    r = json.loads(line)
                    rows[r["key"]] = r
    return rows


def write_rows(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for r in sorted(rows, key=lambda r: (r["experiment"], r["series"], _sort_x(r["x"]), r["seed"])):
            f.write(json.dumps(r, sort_keys=True) + "\n")
    os.replace(tmp, path)


def _sort_x(x):
    return -math.inf if x is None else x


def metrics_of(manifest, experiment=None):
    """Metric names the figures need, or those of `experiment` (every run records all: they are
    cheap, and runs are shared)."""
    need = set()
    for f in manifest.all_figures or manifest.figures:
        if experiment is not None and f.experiment != experiment:
            continue
        need.update(f.recorded_metrics())
    return need


def row_of(point, key, pid, result, need, model, rev, seconds):
    r = {
        "key": key,
        "point": pid,
        "experiment": point.experiment,
        "series": point.series,
        "x": None if math.isnan(point.x) else point.x,
        "seed": point.seed,
        "model": model,
        "commit": rev,
        "seconds": round(seconds, 1),
        "metrics": {m: metrics.compute(m, result) for m in sorted(need)},
        "drift": metrics.throughput_drift(result),
        "backlog": metrics.throughput_backlog(result),
        "saturated": result.get("saturated"),
    }
    if result.get("series"):
        r["t_us"] = metrics.window_times_us(result)
    if result.get("run"):  # where it ran: the launcher and the host
        r["ran"] = f"{result['run']['launcher']}@{result['run']['host']}"
    if "cpu_seconds" in result.get("perf", {}):  # binaries before it give wall time only
        r["cpu_seconds"] = round(result["perf"]["cpu_seconds"], 1)
    return r


def plan(manifest, root, results_path):
    """(rows on record, [(experiment, point, key)] of the manifest, [(point, key, model-free key)]
    of the points to run)."""
    model = model_version(root)
    rows = load_rows(results_path)
    texts = {}
    todo, current, queued = [], [], set()
    for e in manifest.experiments.values():
        if e.config not in texts:
            with open(e.config) as f:
                texts[e.config] = f.read()
        need = metrics_of(manifest, e.id)  # a row on record lacking another experiment's metrics still serves
        for p in e.points():
            k = p.key(texts[e.config], model)
            current.append((e.id, p, k))
            old = rows.get(k)
            if (old is None or any(m not in old["metrics"] for m in need)) and k not in queued:
                queued.add(k)
                todo.append((p, k, p.key(texts[e.config], None)))
    return rows, current, todo


def run_args(p, threads):
    """`ccsim run` arguments of a point, without -o."""
    args = ["run", p.config]
    for s in p.sets:
        args += ["-s", s]
    if threads > 1:
        args += ["-s", f"sim.threads={threads}"]
    return args


def job_list(manifest, root, results_path, runs, threads):
    """The runs not on disk yet as a job list for `ccsim jobs` (sim/jobs.h): what the mpi and
    slurm launchers run. Their results land in `runs`, where the next reproduction reads them."""
    _, _, todo = plan(manifest, root, results_path)
    jobs = [{"name": f"{p.experiment} {p.series} x={p.x:g} seed {p.seed}", "args": run_args(p, threads),
             "output": os.path.join(runs, k + ".json"), "digest": ""}
            for p, k, _ in todo if not os.path.exists(os.path.join(runs, k + ".json"))]
    return jobs


def list_todo(manifest, root, results_path, runs, out=sys.stdout):
    """`--dry-run`: prints the runs to do, one line per experiment and series with the core time
    they would take at the mean time per run of the experiment's runs on record (the paper's for an
    experiment without any; runs on disk already cost nothing), and runs none."""
    rows, current, todo = plan(manifest, root, results_path)
    by_exp, overall = report.mean_run_seconds(rows)
    groups = {}
    for p, k, _ in todo:
        g = groups.setdefault((p.experiment, p.series), [0, 0])
        g[0] += 1
        g[1] += os.path.exists(os.path.join(runs, k + ".json"))
    total = 0.0
    lines = []
    for (e, s), (n, on_disk) in groups.items():
        mean = by_exp[e][1] if e in by_exp else overall or 0.0  # no run of its own: the paper's mean
        cost = (n - on_disk) * mean
        total += cost
        lines.append(f"  {e} {s}: {n}" + (f", about {cost / 60:.0f} core-minutes" if by_exp else "") +
                     (f" ({on_disk} on disk already)" if on_disk else ""))
    cost = (f" about {total / 3600:.1f} core-hours at the mean time per run of each experiment's runs on record"
            if by_exp else " no run on record to estimate their time from")
    print(f"reproduce {manifest.paper} ({manifest.scale}): {len(todo)} runs to do,"
          f" {len({k for _, _, k in current}) - len(todo)} on record (dry run: nothing runs);{cost}", file=out)
    for line in lines:
        print(line, file=out)
    return 0


def run_all(manifest, root, ccsim, results_path, runs, jobs, threads=1, log=sys.stderr):
    """Runs every point not on record, each run over `threads` threads (sim.threads: the same
    results for every count, so not part of the key); returns {experiment: [rows]} of the
    current points."""
    model, rev = model_version(root), commit(root)
    need = metrics_of(manifest)
    rows, current, todo = plan(manifest, root, results_path)
    os.makedirs(runs, exist_ok=True)
    lock = threading.Lock()
    done, failed, started = [0], [], time.time()

    def one(item):
        p, k, pid = item
        raw = os.path.join(runs, k + ".json")
        t0 = time.time()
        ran = not os.path.exists(raw)
        if ran:  # `ccsim run -o` writes whole files only
            proc = subprocess.run([ccsim] + run_args(p, threads) + ["-o", raw], capture_output=True, text=True,
                                  env=dict(os.environ, CCSIM_LAUNCHER="local"))  # run.launcher of the result
            if proc.returncode != 0:
                with lock:
                    failed.append((p, proc.stderr.strip().splitlines()[-1:] or ["exit %d" % proc.returncode]))
                return
        with open(raw) as f:
            result = json.load(f)
        # A row made again from a run on disk (a metric added) keeps that run's time.
        seconds = time.time() - t0 if ran else result.get("perf", {}).get("wall_seconds", time.time() - t0)
        r = row_of(p, k, pid, result, need, model, rev, seconds)
        with lock:
            rows[k] = r
            with file_lock(results_path), open(results_path, "a") as f:
                f.write(json.dumps(r, sort_keys=True) + "\n")
            done[0] += 1
            el = time.time() - started
            eta = el / done[0] * (len(todo) - done[0])
            x = "" if r["x"] is None else f" x={r['x']:g}"
            print(f"[{done[0]}/{len(todo)}] {p.experiment} {p.series}{x} seed {p.seed}: {r['seconds']:.1f} s;"
                  f" ETA {int(eta // 60)}:{int(eta % 60):02d}", file=log, flush=True)

    if todo:
        os.makedirs(os.path.dirname(results_path), exist_ok=True)
        on_disk = sum(os.path.exists(os.path.join(runs, k + ".json")) for _, k, _ in todo)
        print(f"reproduce {manifest.paper} ({manifest.scale}): {len(todo)} runs to do ({on_disk} of them on disk"
              f" already), {len({k for _, _, k in current}) - len(todo)} on record", file=log, flush=True)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            list(ex.map(one, todo))
    # Rows another process appended meanwhile stay (read again, ours win). A row run at another
    # model version is dropped once this model has a row for its point; every other row stays
    # (other figures, other seed counts).
    with file_lock(results_path):
        rows = dict(load_rows(results_path), **rows)
        fresh = {r["point"] for r in rows.values() if r["model"] == model}
        write_rows(results_path, [r for r in rows.values() if r["model"] == model or r["point"] not in fresh])
    for p, msg in failed:
        print(f"reproduce: FAILED {p.experiment} {p.series} x={p.x} seed {p.seed}: {msg[0]}", file=log)
    by_exp = {}
    for e, p, k in current:  # two experiments may share a point (same config and sets): a run serves both
        if k in rows:
            by_exp.setdefault(e, []).append(dict(rows[k], experiment=e, series=p.series))
    return by_exp, failed


def rows_on_record(manifest, results_path):
    """The rows of the current points from the results file alone (--report-only),
    whatever model version they came from (the last one on file for a point)."""
    by_point = {r["point"]: r for r in load_rows(results_path).values()}
    by_exp = {}
    for e in manifest.experiments.values():
        with open(e.config) as f:
            text = f.read()
        for p in e.points():
            r = by_point.get(p.key(text, None))
            if r is not None:
                by_exp.setdefault(e.id, []).append(dict(r, experiment=e.id, series=p.series))
    return by_exp
