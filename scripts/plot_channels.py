"""Heatmaps and a CSV of per-channel utilization (a run's `channels`, sim.channel_stats = true).

Dragonfly: the group-to-group matrix of global-channel utilization (flits/cycle summed over
the channels from group i to group j) and the local channels of a group (router to router,
mean over the groups). Other topologies: the router-to-router matrix, and on a 2-D torus or
mesh each router's busiest outgoing channel on the router grid. Where the traffic pattern has
hot nodes (hotspot destinations, `channels.hot_nodes`), their groups or routers are marked red."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from plot_common import run_title, save  # noqa: E402


def _links(ch):
    """(router, peer router, utilization) of every router-to-router channel."""
    for r, (ports, peers) in enumerate(zip(ch["routers"], ch["peers"])):
        for u, peer in zip(ports, peers):
            if u is not None and peer is not None and peer >= 0:
                yield r, peer, u


def _hot_routers(ch):
    """Routers attached to the hot nodes."""
    hot = set(ch.get("hot_nodes", []))
    return sorted({r for r, peers in enumerate(ch["peers"]) for p in peers if p is not None and p < 0 and -1 - p in hot})


def _mark_columns(ax, columns, what):
    """Red triangles above the columns (destinations) holding a hot node."""
    if columns:
        ax.scatter(sorted(columns), [-0.9] * len(columns), marker="v", color="red", s=30, clip_on=False,
                   label=f"{what} of a hot node")
        ax.legend(loc="upper left", bbox_to_anchor=(0, -0.16), fontsize=7, frameon=False)


def _matrix(ax, m, xlabel, ylabel, title):
    im = ax.imshow(m, cmap="viridis", vmin=0, origin="upper")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=8)
    if max(m.shape) <= 16:  # few routers or groups: a tick for each
        ax.set_xticks(range(m.shape[1]))
        ax.set_yticks(range(m.shape[0]))
    plt.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="flits/cycle")


def write_csv(j, out):
    """One line per channel (from_kind,from_id,port,to_kind,to_id,utilization): every router
    output port (to a router or a node) and every injection channel (node to its router)."""
    ch = j["channels"]
    router_of = {}
    lines = ["from_kind,from_id,port,to_kind,to_id,utilization"]
    for r, (ports, peers) in enumerate(zip(ch["routers"], ch["peers"])):
        for port, (u, peer) in enumerate(zip(ports, peers)):
            if peer is not None and peer < 0:
                router_of[-1 - peer] = r
            if u is not None:
                to = f"router,{peer}" if peer >= 0 else f"node,{-1 - peer}"
                lines.append(f"router,{r},{port},{to},{u:.6g}")
    for node, u in enumerate(ch["injection"]):
        if u is not None:
            lines.append(f"node,{node},,router,{router_of.get(node, '')},{u:.6g}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"plot: wrote {out}")


def plot_channels(j, out):
    ch, cfg = j["channels"], j["config"]
    routers = len(ch["routers"])
    links = list(_links(ch))
    hot = _hot_routers(ch)
    if cfg.get("topology.kind") == "dragonfly":
        a = int(cfg["topology.a"])
        groups = routers // a
        glob, local = np.zeros((groups, groups)), np.zeros((a, a))
        for r, peer, u in links:
            if r // a != peer // a:
                glob[r // a][peer // a] += u
            else:
                local[r % a][peer % a] += u / groups
        fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
        _matrix(axes[0], glob, "to group", "from group", "global channels, summed per group pair")
        _matrix(axes[1], local, "to router of the group", "from router", "local channels, mean over groups")
        _mark_columns(axes[0], {r // a for r in hot}, "group")
        _mark_columns(axes[1], {r % a for r in hot}, "router index")
    else:
        m = np.zeros((routers, routers))
        for r, peer, u in links:
            m[r][peer] = max(m[r][peer], u)
        grid = cfg.get("topology.kind") in ("torus", "mesh") and int(cfg.get("topology.n", 0)) == 2
        fig, axes = plt.subplots(1, 2 if grid else 1, figsize=(10 if grid else 5.5, 4.6))
        axes = np.atleast_1d(axes)
        _matrix(axes[0], m, "to router", "from router", "router-to-router channels")
        _mark_columns(axes[0], set(hot), "router")
        if grid:
            k = int(cfg["topology.k"])
            busiest = np.zeros((k, k))
            for r, _, u in links:
                busiest[r // k][r % k] = max(busiest[r // k][r % k], u)
            _matrix(axes[1], busiest, "x (dimension 0)", "y (dimension 1)", "busiest outgoing channel per router")
            for r in hot:
                axes[1].add_patch(plt.Rectangle((r % k - 0.5, r // k - 0.5), 1, 1, fill=False, ec="red", lw=1.5))
            if hot:
                axes[1].text(0, -0.2, "red squares: routers of the hot nodes", transform=axes[1].transAxes, fontsize=7)
    fig.suptitle(run_title(j), fontsize=9)
    fig.tight_layout()
    save(fig, out, dpi=110)
