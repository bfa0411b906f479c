"""A paper's reproduction manifest (experiments/papers/<paper>/manifest.toml).

The manifest is data: experiments (a config, the swept axes, per-scale settings)
and figures (which experiment, which metric, the paper's claims as checks).
Expanding an experiment for a scale gives its points: one ccsim run per
(series value, x value, seed)."""
import hashlib
import json
import math
import os
import tomllib
from dataclasses import dataclass, field

# quick: small networks, minutes (CI); reduced: what one machine affords of the paper's figures (a smaller
# network of the paper's own or shorter runs, the report says which); paper: the paper's network and run length.
# A manifest offers a scale with a [scale.NAME] section.
SCALES = ("quick", "reduced", "paper")


class ManifestError(Exception):
    pass


@dataclass(frozen=True)
class Point:
    experiment: str
    series: str  # the series value (a curve)
    x: float  # the swept value, in the config's units (nan for a time-series experiment)
    seed: int
    config: str  # path of the base config
    sets: tuple  # ("section.key=value", ...), in order

    def key(self, config_text, model):
        """Cache key: the config's settings (its parsed TOML: comments and layout do not count),
        every override, the seed, the model version."""
        blob = json.dumps([tomllib.loads(config_text), list(self.sets), self.seed, model], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:20]


@dataclass
class Experiment:
    id: str
    config: str
    series_key: str
    series: list
    x_key: str  # "" for a time-series experiment (one run per series and seed)
    x: list
    sets: list
    series_sets: dict  # series value -> extra sets
    x_per_series: dict  # series value -> its own x values
    seeds: int
    describe: str = ""

    def points(self):
        for s in self.series:
            xs = self.x_per_series.get(str(s), self.x) if self.x_key else [float("nan")]
            for x in xs:
                for seed in range(1, self.seeds + 1):
                    sets = list(self.sets)
                    if self.series_key:
                        sets.append(f"{self.series_key}={fmt_value(s)}")
                    sets += self.series_sets.get(str(s), [])
                    if self.x_key:
                        sets.append(f"{self.x_key}={fmt_value(x)}")
                    sets.append(f"sim.seed={seed}")
                    yield Point(self.id, str(s), x, seed, self.config, tuple(sets))


@dataclass
class Figure:
    id: str
    title: str
    experiment: str
    metric: str
    xlabel: str
    ylabel: str
    x_scale: float = 1.0  # plotted x = config x * x_scale (* x_scale_by_series[series])
    x_scale_by_series: dict = field(default_factory=dict)
    at_x: float = None  # stacked figures: the x value shown
    kind: str = "curve"  # curve | series (time series) | bars (one value per series)
    labels: dict = field(default_factory=dict)
    series: list = field(default_factory=list)  # the series plotted and tabulated (all when empty); claims see all
    claims: list = field(default_factory=list)
    extra_metrics: list = field(default_factory=list)  # computed for the report and claims
    references: list = field(default_factory=list)
    logy: bool = False
    note: str = ""

    def recorded_metrics(self):
        """What every run of the figure's experiment records for it: its metric (the parts of a
        stacked one), its `metrics` and its claims' `metrics`."""
        return set(self.metric.split("+")) | set(self.extra_metrics) | {m for c in self.claims
                                                                      for m in c.get("metrics", [])}


@dataclass
class Manifest:
    paper: str
    title: str
    dir: str
    scale: str
    scale_describe: str
    full_run: str  # what the paper-scale run costs, for the report
    departures: list  # where the model departs from the paper, for the report
    experiments: dict
    figures: list
    # Every figure, also when select() keeps some: a run serves every figure that shares its
    # point, so it records the metrics all of them need.
    all_figures: list = None


def fmt_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    return json.dumps(v)  # a TOML string


def manifest_path(root, paper):
    return os.path.join(root, "experiments", "papers", paper, "manifest.toml")


def load(root, paper, scale, seeds=None):
    path = manifest_path(root, paper)
    if not os.path.exists(path):
        known = sorted(os.listdir(os.path.join(root, "experiments", "papers")))
        raise ManifestError(f"paper {paper!r} has no manifest ({path}); known: {', '.join(known)}")
    if scale not in SCALES:
        raise ManifestError(f"--scale: {scale!r} is not one of {', '.join(SCALES)}")
    with open(path, "rb") as f:
        m = tomllib.load(f)
    d = os.path.dirname(path)
    sc = m.get("scale", {}).get(scale)
    if sc is None:
        offered = [k for k in SCALES if k in m.get("scale", {})]
        raise ManifestError(f"--scale: {paper} has no {scale!r} scale ({path} has no [scale.{scale}]); "
                            f"it offers: {', '.join(offered)}")
    exps = {}
    for e in m.get("experiment", []):
        es = e.get("scale", {}).get(scale, {})
        n = seeds or es.get("seeds", sc.get("seeds", 1))
        x = e.get("x", {})
        s = e.get("series", {})
        exps[e["id"]] = Experiment(
            id=e["id"],
            config=os.path.join(d, e["config"]),
            series_key=s.get("key", ""),
            series=es.get("series", s.get("values", ["-"])),
            x_key=x.get("key", ""),
            x=es.get("x", x.get("values", [])),
            sets=sc.get("sets", []) + e.get("sets", []) + es.get("sets", []),
            series_sets={str(k): v for k, v in e.get("series_sets", {}).items()},
            x_per_series={str(k): v for k, v in es.get("x_per_series", x.get("per_series", {})).items()},
            seeds=n,
            describe=e.get("describe", ""),
        )
    figs = []
    for f in m.get("figure", []):
        f = dict(f, **f.get("scale", {}).get(scale, {}))  # per-scale settings of the figure
        if f["experiment"] not in exps:
            raise ManifestError(f"{path}: figure {f['id']} names unknown experiment {f['experiment']!r}")
        figs.append(
            Figure(
                id=f["id"],
                title=f["title"],
                experiment=f["experiment"],
                metric=f["metric"],
                xlabel=f.get("xlabel", ""),
                ylabel=f.get("ylabel", ""),
                x_scale=f.get("x_scale", 1.0),
                x_scale_by_series={str(k): v for k, v in f.get("x_scale_by_series", {}).items()},
                at_x=f.get("at_x"),
                kind=f.get("kind", "curve"),
                labels=f.get("labels", {}),
                series=[str(v) for v in f.get("series", [])],
                claims=f.get("claim", []),
                extra_metrics=f.get("metrics", []),
                references=f.get("reference", []),
                logy=f.get("logy", False),
                note=f.get("note", ""),
            )
        )
    return Manifest(
        paper=m["paper"],
        title=m["title"],
        dir=d,
        scale=scale,
        scale_describe=sc.get("describe", ""),
        full_run=m.get("full_run", ""),
        departures=m.get("departures", []),
        experiments=exps,
        figures=figs,
    )


def select(manifest, wanted):
    """Keep the figures named in `wanted` (all when empty) and the experiments they use."""
    if wanted:
        known = [f.id for f in manifest.figures]
        bad = [w for w in wanted if w not in known]
        if bad:
            raise ManifestError(f"figure {', '.join(bad)}: not in {manifest.paper}'s manifest; known: {', '.join(known)}")
        manifest.all_figures = manifest.all_figures or list(manifest.figures)
        manifest.figures = [f for f in manifest.figures if f.id in wanted]
    used = {f.experiment for f in manifest.figures}
    manifest.experiments = {k: v for k, v in manifest.experiments.items() if k in used}
    if wanted:
        for e in manifest.experiments.values():
            _keep_shown_x(e, [f for f in manifest.figures if f.experiment == e.id])
    return manifest


def _keep_shown_x(experiment, figures):
    """Named figures that all show one x of their experiment (stacked figures' at_x) need only that x:
    a partial run does not sweep the rest."""
    if not experiment.x_key or any(f.at_x is None for f in figures):
        return
    shown = {f.at_x for f in figures}

    def keep(xs):
        return [x for x in xs if any(math.isclose(x, a, rel_tol=1e-9) for a in shown)]

    experiment.x = keep(experiment.x)
    experiment.x_per_series = {s: keep(xs) for s, xs in experiment.x_per_series.items()}


def keep_x(manifest, values):
    """Run only these x values (config units) of the selected experiments (a partial run)."""
    def kept(xs):
        return [x for x in xs if any(abs(x - v) <= 1e-9 * max(1.0, abs(v)) for v in values)]

    for e in manifest.experiments.values():
        if not e.x_key:
            raise ManifestError(f"--x: experiment {e.id} is a time series (no x axis)")
        e.x = kept(e.x)
        e.x_per_series = {s: kept(xs) for s, xs in e.x_per_series.items()}
    if not any(e.x or any(e.x_per_series.values()) for e in manifest.experiments.values()):
        raise ManifestError(f"--x: none of {', '.join(map(str, values))} is an x value of the selected figures")


def keep_series(manifest, values):
    """Run only these series values of the selected experiments (a partial run; the report shows the rest as missing)."""
    for e in manifest.experiments.values():
        e.series = [s for s in e.series if str(s) in values]
    if not any(e.series for e in manifest.experiments.values()):
        raise ManifestError(f"--series: none of {', '.join(values)} is a series of the selected figures")
