"""Per figure: the runs' metric values by series, x and seed, and their means
with 95% confidence intervals; and the claim checks evaluated on them."""
import json
import math
import os

from .manifest import SCALES, ManifestError
from .stats import mean_ci, mean_ci_lists

VERDICTS = ("reproduced", "differs", "not reproducible at this scale", "not run")


class Missing(Exception):
    pass


class FigureData:
    """values[series][x][seed] = metric value (x in config units; a list for
    time-series figures); metric names split on '+' for stacked figures."""

    def __init__(self, fig, exp, rows):
        self.fig, self.exp, self.rows = fig, exp, rows
        self.metrics = fig.metric.split("+")
        self.recorded = fig.recorded_metrics()
        self.values, self.unsteady, self.t_us = {}, {}, None
        for r in rows:
            s, x = r["series"], r["x"]
            d = self.values.setdefault(s, {}).setdefault(x, {})
            d[r["seed"]] = {m: r["metrics"].get(m) for m in set(self.metrics) | set(r["metrics"])}
            # Either sign of not being stationary: the halves differ, or a backlog drains (recorded since 2026-11-28).
            off = [abs(r[k]) for k in ("drift", "backlog") if r.get(k) is not None]
            if off:
                self.unsteady.setdefault(s, {}).setdefault(x, []).append(max(off))
            if r.get("t_us") and self.t_us is None:
                self.t_us = r["t_us"]
        self.series = [str(s) for s in exp.series if str(s) in self.values and (not fig.series or str(s) in fig.series)]
        self.seeds = sorted({seed for s in self.values.values() for x in s.values() for seed in x})

    def px(self, s, x):
        """Plotted x of config value x on series s."""
        return x * self.fig.x_scale * self.fig.x_scale_by_series.get(s, 1.0)

    def label(self, s):
        return self.fig.labels.get(s, s)

    def xs(self, s):
        return sorted(x for x in self.values.get(s, {}) if x is not None)

    def stat(self, s, x, metric=None):
        m = metric or self.metrics[0]
        return mean_ci([v.get(m) for v in self.values.get(s, {}).get(x, {}).values()])

    def stat_series(self, s, metric=None):
        m = metric or self.metrics[0]
        return mean_ci_lists([v.get(m) for v in self.values.get(s, {}).get(None, {}).values()])

    def expected_xs(self, s):
        return sorted(self.exp.x_per_series.get(s, self.exp.x))

    def at_x(self, s):
        """A stacked figure's x (the figure's at_x, else the first)."""
        xs = self.xs(s) or [None]
        return _near(xs, self.fig.at_x) if self.fig.at_x is not None else xs[0]

    def max_unsteady(self, s, x):
        """How far the point's runs lie from a steady state at most (halves' drift or draining backlog)."""
        d = self.unsteady.get(s, {}).get(x)
        return max(d) if d else None


def _near(xs, x):
    for v in xs:
        if math.isclose(v, x, rel_tol=1e-9, abs_tol=1e-12):
            return v
    raise Missing(f"x = {x} not run")


class ClaimContext:
    """The functions a claim's `check` and `ours` expressions may use. With
    `seed` set, values are that seed's; otherwise the means over seeds."""

    def __init__(self, data, seed=None):
        self.d, self.seed = data, seed

    def _metric(self, metric):
        """The metric a claim reads (the figure's own by default); one the figure does not record (a
        typo, or one missing from its `metrics`) is an error, never a silent "not run"."""
        m = metric or self.d.metrics[0]
        if m not in self.d.recorded:
            raise ManifestError(f"figure {self.d.fig.id}: metric {m!r} is not recorded for it (its metric, `metrics` "
                             f"and its claims' `metrics`: {', '.join(sorted(self.d.recorded))})")
        return m

    def _value(self, s, x, metric=None):
        m = self._metric(metric)
        if s not in self.d.values:
            raise Missing(f"series {s} not run")
        if self.seed is None:
            v = self.d.stat(s, x, m)[0]
        else:
            by_seed = self.d.values[s].get(x, {})
            if self.seed not in by_seed:  # not run at this seed (yet): not "nothing delivered"
                raise Missing(f"{s} x={x}: seed {self.seed} not run")
            v = by_seed[self.seed].get(m)
        if v is None and "latency" in m:
            return math.inf  # nothing of the window was delivered
        if v is None:
            raise Missing(f"{s} x={x}: no value")
        return v

    def y(self, s, x, metric=None):
        if x is None:  # an experiment without an x: its one point
            return self._value(s, None, metric)
        return self._value(s, _near(self.d.xs(s), x), metric)

    def ys(self, s, metric=None):
        """The series' values at every x the experiment asks for (Missing if one was not run)."""
        return [self._value(s, _near(self.d.xs(s), x), metric) for x in self.d.expected_xs(s)]

    def xs(self, s):
        """The x values (config units) the experiment asks of the series, in order (as ys)."""
        return self.d.expected_xs(s)

    def knee_x(self, s, metric=None):
        """The largest offered load (config units) still carried: accepted (the metric,
        in the x's units) at least 95% of it; the first load if none is."""
        pts = list(zip(self.xs(s), self.ys(s, metric)))
        return max((x for x, v in pts if v >= 0.95 * x), default=pts[0][0])

    def stability(self, s):
        """Past saturation, the lowest accepted throughput over the highest: from the
        largest offered load still carried (at least 95% of it; the metric in the x's
        units) on. 1: no drop past saturation."""
        knee = self.knee_x(s)
        past = [v for x, v in zip(self.xs(s), self.ys(s)) if x >= knee]
        return min(past) / max(past) if max(past) > 0 else 0.0

    def held(self, s, frac=0.9):
        """Whether the series stays within frac of its best past saturation (stability)."""
        return self.stability(s) >= frac

    def first(self, s, metric=None):
        return self.y(s, self.d.expected_xs(s)[0], metric)

    def last(self, s, metric=None):
        return self.y(s, self.d.expected_xs(s)[-1], metric)

    def peak(self, s, metric=None):
        return max(self.ys(s, metric))

    def peak_x(self, s, metric=None):
        """The x (config units) where the series' metric peaks, e.g. the load of peak throughput."""
        xs = [_near(self.d.xs(s), x) for x in self.d.expected_xs(s)]
        return max(xs, key=lambda x: self._value(s, x, metric))

    def sat(self, s, frac=0.95, metric=None):
        """Saturation point in plotted x units: the largest offered load whose
        accepted throughput (the metric, same units) is at least frac of it. Read from the
        highest load down, so the loads below the first one carried need not be run."""
        for x in reversed(self.d.expected_xs(s)):
            x = _near(self.d.xs(s), x)
            px = self.d.px(s, x)
            if self._value(s, x, metric) >= frac * px:
                return px
        return 0.0  # saturated below the lowest load run

    def sat_latency(self, s, factor=3.0, metric=None):
        """The largest plotted x before the latency first exceeds factor x its value at the lowest load."""
        xs = [_near(self.d.xs(s), x) for x in self.d.expected_xs(s)]
        base = self._value(s, xs[0], metric)
        prev = xs[0]
        for x in xs:
            if self._value(s, x, metric) > factor * base:
                return self.d.px(s, prev)
            prev = x
        return self.d.px(s, xs[-1])

    def scalar(self, s, metric=None):
        """A time-series experiment's whole-run value of a scalar metric (mean over seeds)."""
        return self._value(s, None, metric)

    def _series_points(self, s, metric=None):
        m = self._metric(metric)
        if self.seed is None:
            vals = [v[0] for v in self.d.stat_series(s, m)]
        else:
            vals = self.d.values.get(s, {}).get(None, {}).get(self.seed, {}).get(m)
        if not vals or self.d.t_us is None:
            raise Missing(f"{s}: no time series")
        return list(zip(self.d.t_us, vals))

    def _windows(self, s, t0, t1, metric=None):
        sel = [v for t, v in self._series_points(s, metric) if t0 <= t < t1 and v is not None]
        if not sel:
            raise Missing(f"{s}: no window in [{t0}, {t1}) us")
        return sel

    def window(self, s, t0, t1, metric=None):
        """Mean of a time series over the windows starting in [t0, t1) µs."""
        sel = self._windows(s, t0, t1, metric)
        return sum(sel) / len(sel)

    def window_max(self, s, t0, t1, metric=None):
        """Highest window of a time series among those starting in [t0, t1) µs (a transient's peak)."""
        return max(self._windows(s, t0, t1, metric))

    def settle(self, s, onset, base_t0, factor=1.2, metric=None):
        """Time (µs) from `onset` to the end of the last window above factor x the mean of
        the windows in [base_t0, onset): how long a transient takes to settle (0: never above)."""
        pts = self._series_points(s, metric)
        base = self.window(s, base_t0, onset, metric)
        step = pts[1][0] - pts[0][0] if len(pts) > 1 else 0.0
        above = [t for t, v in pts if t >= onset and v is not None and v > factor * base]
        return max(above) + step - onset if above else 0.0

    def settle_to(self, s, onset, steady_t0, steady_t1, tol=0.15, metric=None):
        """Time (µs) from `onset` to the end of the last window at or after it whose value is off
        the series' mean over [steady_t0, steady_t1) by more than tol of it: how long a transient
        lasts (002 V-B's response time; with a series by creation, sim.series_by, the packets
        created from then on see the new steady state). 0: never off."""
        pts = self._series_points(s, metric)
        level = self.window(s, steady_t0, steady_t1, metric)
        step = pts[1][0] - pts[0][0] if len(pts) > 1 else 0.0
        off = [t for t, v in pts if onset <= t < steady_t1 and v is not None and abs(v - level) > tol * level]
        return round(max(off) + step - onset, 9) if off else 0.0

    def synth(self, key):
        """A number of the committed synthesis report (synth/report.json, made by `make area`),
        by its dotted key, e.g. synth('paper_comparison.ours_bytes')."""
        path = os.path.join(os.path.dirname(__file__), "..", "..", "synth", "report.json")
        with open(path) as f:
            v = json.load(f)
        for k in key.split("."):
            v = v[k]
        return float(v)

    def env(self):
        names = ("y", "ys", "xs", "first", "last", "peak", "peak_x", "knee_x", "stability", "held", "sat",
                 "sat_latency", "scalar", "window", "window_max", "settle", "settle_to", "synth")
        e = {n: getattr(self, n) for n in names}
        e.update(abs=abs, min=min, max=max, all=all, any=any, len=len, sum=sum, zip=zip)
        return e


def evaluate(expr, ctx):
    # Manifest expressions are trusted repo data. The names go in the globals, where the
    # generator expressions of a check (their own scope) find them too.
    return eval(expr, {"__builtins__": {}, **ctx.env()})


def judge(claim, data, scale):
    """{id, verdict, ours (mean, ci, n), detail} for one claim."""
    out = {"claim": claim, "ours": None, "detail": ""}
    scales = claim.get("scales", SCALES)
    try:
        if claim.get("ours"):
            per_seed = []
            for seed in data.seeds:
                try:
                    per_seed.append(float(evaluate(claim["ours"], ClaimContext(data, seed))))
                except (Missing, ZeroDivisionError):
                    pass
            if per_seed:
                out["ours"] = mean_ci(per_seed)
            else:
                try:
                    out["ours"] = (float(evaluate(claim["ours"], ClaimContext(data))), None, 0)
                except ZeroDivisionError:
                    out["ours"] = (math.nan, None, 0)
        try:
            ok = bool(evaluate(claim["check"], ClaimContext(data)))
        except ZeroDivisionError:
            ok, out["detail"] = False, "division by zero in the check"
    except Missing as e:
        checked_here = scale in scales
        out["verdict"] = "not run" if checked_here else "not reproducible at this scale"
        out["detail"] = str(e)
        return out
    if scale not in scales:
        out["verdict"] = "not reproducible at this scale"
        out["detail"] = "check holds here" if ok else "check fails here"
    else:
        out["verdict"] = "reproduced" if ok else "differs"
    return out
