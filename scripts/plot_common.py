"""What every ccsim plot shares: a title saying what ran, legends outside the data, the time unit."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

_SHAPE = {"dragonfly": ("p", "a", "h"), "flatfly": ("k", "n", "c"), "torus": ("k", "n", "c"), "mesh": ("k", "n", "c")}


def network(cfg):
    """'dragonfly p=2 a=4 h=2' from a result's config echo."""
    kind = cfg.get("topology.kind", "?")
    keys = [k for k in _SHAPE.get(kind, ()) if f"topology.{k}" in cfg]
    return " ".join([kind] + [f"{k}={cfg[f'topology.{k}']}" for k in keys])


def traffic(j):
    """'uniform at 0.5', or the classes: 'hotspot 1.0 + ur 0.3'."""
    classes = j.get("traffic_classes") or []
    if len(classes) > 1:
        return " + ".join(f"{c['name']} ({c['pattern']}) {c['load']:g}" for c in classes)
    cfg = j["config"]
    return f"{cfg.get('traffic.pattern')} at {cfg.get('traffic.load')}"


def seeds(j):
    if "seed" in j:
        return f"seed {j['seed']}"
    return f"mean of {len(j.get('seeds', []))} seeds"


def run_title(j, routing=True):
    """What ran: network, routing, protocol, traffic and seeds."""
    cfg = j["config"]
    parts = [network(cfg)]
    if routing:
        parts.append(f"routing {cfg.get('routing.algorithm')}")
    if cfg.get("congestion.protocol", "none") != "none":
        parts.append(f"protocol {cfg.get('congestion.protocol')}")
    return ", ".join(parts + [traffic(j), seeds(j)])


def legend_outside(ax, **kw):
    """A legend to the right of the axes, off the data."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, borderaxespad=0, **kw)


def save(fig, out, dpi=120):
    fig.savefig(out, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    print(f"plot: wrote {out}")
