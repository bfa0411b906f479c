"""One PNG per figure, on the paper's axes: a curve per series with 95% CI
error bars, and the paper's stated values as grey reference marks."""
import os
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "font.size": 9})


def _references(ax, fig):
    for r in fig.references:
        if "x" in r and "y" in r:
            ax.plot([r["x"]], [r["y"]], marker="x", color="0.35", markersize=8, linestyle="none")
            ax.annotate(r.get("label", "paper"), (r["x"], r["y"]), textcoords="offset points", xytext=(4, 4),
                        fontsize=7, color="0.35")
        elif "y" in r:
            ax.axhline(r["y"], color="0.5", linestyle=":", linewidth=1)
            ax.annotate(r.get("label", "paper"), (0.01, r["y"]), xycoords=("axes fraction", "data"),
                        textcoords="offset points", xytext=(2, 3), fontsize=7, color="0.35")


def _curves(ax, data):
    fig = data.fig
    for s in data.series:
        xs, ys, es = [], [], []
        for x in data.xs(s):
            m, ci, _ = data.stat(s, x)
            if m is None:
                continue
            xs.append(data.px(s, x))
            ys.append(m)
            es.append(ci or 0.0)
        ax.errorbar(xs, ys, yerr=es, marker="o", markersize=3, capsize=2, linewidth=1.2, label=data.label(s))


def _series(ax, data):
    t = data.t_us or []
    for s in data.series:
        st = data.stat_series(s)
        pts = [(t[i], m, ci or 0.0) for i, (m, ci, _) in enumerate(st) if i < len(t) and m is not None]
        if not pts:
            continue
        xs, ys, es = zip(*pts)
        line = ax.plot(xs, ys, linewidth=1.2, label=data.label(s))[0]
        ax.fill_between(xs, [y - e for y, e in zip(ys, es)], [y + e for y, e in zip(ys, es)], alpha=0.2,
                        color=line.get_color())


def _stacked(ax, data):
    names = data.metrics
    bottoms = [0.0] * len(data.series)
    x = list(range(len(data.series)))
    for m in names:
        vals, errs = [], []
        for s in data.series:
            mean, ci, _ = data.stat(s, data.at_x(s), m)
            vals.append(mean or 0.0)
            errs.append(ci or 0.0)
        ax.bar(x, vals, bottom=bottoms, yerr=errs, capsize=2, label=m.partition(":")[2] or m)
        bottoms = [b + v for b, v in zip(bottoms, vals)]
    # Slanted: bar labels side by side overlap beyond a few bars.
    ax.set_xticks(x, [data.label(s) for s in data.series], rotation=30, ha="right", fontsize=7)


def draw(data, path):
    fig = data.fig
    f, ax = plt.subplots(figsize=(5.2, 3.6))
    {"curve": _curves, "series": _series, "stacked": _stacked}[fig.kind](ax, data)
    _references(ax, fig)
    if fig.logy:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)  # latencies and throughputs: a CI band never goes below 0
    ax.set_xlabel(fig.xlabel)
    ax.set_ylabel(fig.ylabel)
    ax.set_title(textwrap.fill(f"{fig.id}: {fig.title}", 70), fontsize=9)
    ax.grid(True, linewidth=0.3)
    ax.legend(fontsize=7)
    f.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    f.savefig(path, metadata={"Software": None})
    plt.close(f)
