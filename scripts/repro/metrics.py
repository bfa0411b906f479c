"""Plotted metrics, computed from a run's result JSON (never by hand).

A figure names its metric as NAME or NAME:ARG (ARG: a traffic class, or a packet
kind for ejection_pct). Each function returns a number, or a list for the
time-series metrics (one value per series window)."""


def _clock(j):
    return float(j["config"].get("sim.clock_ghz", 1.0))


def _scope(j, cls):
    return j["classes"][cls] if cls else j


def _latency(j, cls, key):
    """A mean over the window's delivered packets (a latency in cycles, or hops); None when nothing of the
    window was delivered (the result says 0)."""
    scope = _scope(j, cls)
    return scope.get(key) if scope.get("packets_measured") else None


def _latency_ns(j, cls, key):
    v = _latency(j, cls, key)
    return None if v is None else v / _clock(j)


def network_latency_ns(j, cls=""):
    """Injection to delivery (no source queueing), ns: 003's network latency."""
    return _latency_ns(j, cls, "avg_network_latency")


def network_latency_delivered_ns(j, cls=""):
    """Injection to delivery of the data packets delivered in the window, whenever created, ns:
    what the fabric shows while the window's own packets may still wait (a reservation far ahead)."""
    scope = _scope(j, cls)
    v = scope.get("avg_network_latency_delivered")
    return None if not v else v / _clock(j)


def packet_latency_ns(j, cls=""):
    """Creation to delivery of the tail (source queueing included), ns."""
    return _latency_ns(j, cls, "avg_packet_latency")


def message_latency_ns(j, cls=""):
    """Creation of a message to delivery of its last packet, ns."""
    return _latency_ns(j, cls, "avg_message_latency")


def accepted_pct(j, cls=""):
    """Accepted data throughput, % of a node's ejection bandwidth (mean over the class's nodes)."""
    return 100.0 * _scope(j, cls)["accepted_throughput"]


def offered_pct(j, cls=""):
    return 100.0 * _scope(j, cls)["offered_load"]


def accepted_flits(j, cls=""):
    """Accepted data throughput, flits/node/cycle (004's unit)."""
    return _scope(j, cls)["accepted_throughput"]


def packet_latency_cycles(j, cls=""):
    """Creation to delivery of the tail (source queueing included), cycles."""
    return _latency(j, cls, "avg_packet_latency")


def packet_latency_p50_cycles(j, cls=""):
    """The median packet's creation to delivery, cycles: whether a slowdown of the mean is the
    many packets' or a few's."""
    return _latency(j, cls, "latency_p50")


def carried_latency_cycles(j, cls=""):
    """Creation to delivery of the tail, cycles, while the class carries its load: None
    (saturated, off the plot; infinite in a claim) once it delivers less than 95% of
    what it generated in the window. Past that point the mean covers only the packets
    that got through (a source stuck behind a hot spot delivers almost nothing), so it
    would understate the latency."""
    scope = _scope(j, cls)
    if scope["accepted_throughput"] < 0.95 * scope["generated_load"]:
        return None
    return _latency(j, cls, "avg_packet_latency")


def node_accepted_flits(j, node):
    """Accepted data throughput of one source node (flits/cycle): its share of a hot spot."""
    return j["node_accepted"][int(node)]


def router_accepted_flits(j, router):
    """Accepted data throughput per node of one switch (flits/cycle): the mean over its
    topology.p nodes, numbered p per switch as on the dragonfly."""
    p = int(j["config"]["topology.p"])
    nodes = j["node_accepted"][int(router) * p:(int(router) + 1) * p]
    return sum(nodes) / p


def switch_node_accepted_flits(j, where):
    """Accepted data throughput (flits/cycle) of node K of switch R of every dragonfly group (WHERE
    = "R.K", R and K counted within the group and the switch), averaged over the groups: one
    injection port of, say, each group's S_out, with the groups' noise averaged out."""
    r, k = (int(v) for v in where.split("."))
    c = j["config"]
    p, a = int(c["topology.p"]), int(c["topology.a"])
    if r >= a or k >= p:
        return None  # no such switch or node on this network (a smaller scale)
    na = j["node_accepted"]
    nodes = [na[g * a * p + r * p + k] for g in range(len(na) // (a * p))]
    return sum(nodes) / len(nodes)


def starved_pct(j, cls=""):
    """Share of the source nodes, %, whose accepted throughput is below a tenth of the offered
    load (traffic.load): nodes an arbiter or a routing rule has all but shut out."""
    floor = 0.1 * float(j["config"]["traffic.load"])
    nodes = [v for v in _scope(j, cls)["node_accepted"] if v is not None]
    return 100.0 * sum(1 for v in nodes if v < floor) / len(nodes)


def hot_accepted_pct(j, cls=""):
    """Accepted data per hot-spot destination, % of its ejection bandwidth: the
    data of all sources accepted (node_accepted, per source; null for the nodes
    that send nothing), over traffic.hotspot_dests destinations."""
    dests = int(j["config"]["traffic.hotspot_dests"])
    return 100.0 * sum(v for v in _scope(j, cls)["node_accepted"] if v is not None) / dests


def wc_hot_accepted_pct(j, cls=""):
    """WC-Hot n (003 6.5): accepted data per hot node, % of its ejection bandwidth -- every node of a
    dragonfly group sends to the same n nodes of the next, so a hot node takes (p * a) / n nodes' data."""
    c = j["config"]
    group = int(c["topology.p"]) * int(c["topology.a"])
    return 100.0 * _scope(j, cls)["accepted_throughput"] * group / int(c["traffic.hot_nodes"])


def one_ejection_pct(j, cls=""):
    """Accepted data of the class (or the run), % of one ejection channel's bandwidth:
    a one-destination hot spot's acceptance (000 Figs. 12 and 13; the class tables of a
    result do not carry their destinations, so hot_accepted_pct serves whole runs only)."""
    return 100.0 * sum(v for v in _scope(j, cls)["node_accepted"] if v is not None)


def ejection_pct(j, kind):
    """Ejection-channel utilization by packet kind, % of the channels' bandwidth."""
    return 100.0 * j["ejection"].get(kind, 0.0)


def hot_ejection_pct(j, kind):
    """Utilization by packet kind of the hot-spot destinations' ejection channels, % of their
    bandwidth, for a kind only they eject (data, reservations): the network's share over
    traffic.hotspot_dests of its channels."""
    return ejection_pct(j, kind) * len(j["node_accepted"]) / int(j["config"]["traffic.hotspot_dests"])


def hot_switch_input_pct(j, cls=""):
    """Utilization of the fabric channels into the switches of the hot-spot destinations over
    the measured window, % of their bandwidth (mean over those channels; sim.channel_stats)."""
    c = j["channels"]
    hot = {-1 - n for n in c["hot_nodes"]}
    switches = {r for r, peers in enumerate(c["peers"]) if hot & set(peers)}
    use = [c["routers"][r][o] for r, peers in enumerate(c["peers"]) for o, to in enumerate(peers)
           if to in switches]
    return 100.0 * sum(use) / len(use)


def drop_pct(j, cls=""):
    """Dropped packets, % of the speculative packets sent."""
    c = j["congestion"]
    sent = c.get("speculative_sent", 0)
    return 100.0 * c.get("drops", 0) / sent if sent else 0.0


def speculative_pct(j, cls=""):
    """Data packets sent speculatively, % of all data packets sent (SRP)."""
    c = j["congestion"]
    spec = c.get("speculative_sent", 0)
    total = spec + c.get("guaranteed_sent", 0)
    return 100.0 * spec / total if total else 0.0


def reserved_speculative_pct(j, cls=""):
    """Packets sent speculatively, % of the packets of the messages that make a reservation
    (SRP): each reservation stands for one message of congestion.min_packets packets, so
    this holds where the reserved messages have exactly that many (000's 4-packet messages
    beside 1-packet ones that skip the protocol)."""
    c = j["congestion"]
    booked = c.get("reservations", 0) * c.get("min_packets", 0)
    return 100.0 * c.get("speculative_sent", 0) / booked if booked else 0.0


def series_latency_ns(j, cls=""):
    """Packet latency per series window (creation to delivery), ns."""
    s = j["series"]
    scope = s["classes"][cls] if cls else s["overall"]
    c = _clock(j)
    return [None if v is None else v / c for v in scope["avg_packet_latency"]]


def congestion(j, name):
    """A number from the protocol's statistics (the result's "congestion"), e.g. congestion:gather_cycles."""
    return float(j["congestion"][name])


def routing(j, name):
    """A number from the routing algorithm's statistics (the result's "routing"), e.g.
    routing:NAME; None when the algorithm reports no such number (most report none)."""
    return float(j["routing"][name])


def cnm_cut_pct(j, kind):
    """QCN-Switch: of the CNMs its switches intercepted in the measured window for ports of
    kind KIND (global, local), the share that cut the port's minimal-routing probability, %
    (routing.qcn_cnm_stats; the rest raised it or, under feedback comparison, left it alone).
    None when none was intercepted."""
    o = j["routing"]["cnm_outcomes"][kind]
    n = o["decrease"] + o["hold"] + o["increase"]
    return 100.0 * o["decrease"] / n if n else None


def ectn_broadcast_pct(j, phit_bits):
    """ECtN's partial-array broadcast as a share of a local link's bandwidth, %, were it
    charged (002 VI-B; the model sends it for free, as 002's simulations): every period
    (routing.ectn_period) each router sends the other routers of its group, one over each
    local link, its array of one counter per global link of the group (topology.a * h),
    4 bits each (the model's sent width), in phits of phit_bits bits (002: 10-byte phits,
    80). Analytic, from the run's configuration; None for the other algorithms."""
    c = j["config"]
    if c.get("routing.algorithm") != "ectn":
        return None
    return 100.0 * _ectn_array_bits(c) / int(phit_bits) / int(c["routing.ectn_period"])


def _ectn_array_bits(c):
    """Bits of ECtN's partial array: one 4-bit counter (the model's sent width) per global link of a group."""
    return int(c["topology.a"]) * int(c["topology.h"]) * 4


def ectn_charged_pct(j, cls=""):
    """The share of each local channel ECtN's charged broadcast takes (routing.ectn_broadcast_phit_bits:
    whole phits of the array every routing.ectn_period cycles), %; 0 when free; None for the other
    algorithms. From the run's configuration."""
    c = j["config"]
    if c.get("routing.algorithm") != "ectn":
        return None
    phit_bits = int(c.get("routing.ectn_broadcast_phit_bits", 0))
    if phit_bits <= 0:
        return 0.0
    return 100.0 * -(-_ectn_array_bits(c) // phit_bits) / int(c["routing.ectn_period"])


def hops(j, cls=""):
    """Hops per packet delivered in the window (avg_hops): how long the paths taken were."""
    return _latency(j, cls, "avg_hops")


def misrouted_pct(j, cls=""):
    """Share of the measured packets that took a non-minimal path, %."""
    return 100.0 * _scope(j, cls)["misrouted_fraction"]


def series_accepted_flits(j, cls=""):
    """Accepted data throughput per series window, flits/node/cycle."""
    s = j["series"]
    return list((s["classes"][cls] if cls else s["overall"])["accepted_throughput"])


def series_misrouted_pct(j, cls=""):
    """Share of the packets delivered in each series window that took a non-minimal path, %."""
    s = j["series"]
    scope = s["classes"][cls] if cls else s["overall"]
    return [None if v is None else 100.0 * v for v in scope["misrouted_fraction"]]


def series_probe_probability(j, cls=""):
    """QCN-Switch's minimal-path probability of its probe port (routing.series.p_probe: one
    port of one switch, the result's routing.probe) at the end of each series window, %."""
    r = j["routing"]["series"]
    at = dict(zip(r["t"], r["p_probe"]))
    return [at.get(t) for t in j["series"]["t"]]


def series_threshold(j, cls=""):
    """Self-tuned throttling's threshold (full VC buffers) in force at the end of
    each series window, from the tuning trace (004 Fig. 4a)."""
    trace, s = j["congestion"]["trace"], j["series"]
    out, k, value = [], 0, None
    for t in s["t"]:
        end = t + s["window_cycles"]
        while k < len(trace["cycle"]) and trace["cycle"][k] <= end:
            value = trace["threshold"][k]
            k += 1
        out.append(value)
    return out


def threshold_mean(j, cls=""):
    """Self-tuned throttling's threshold (full VC buffers) averaged over the measured window, from
    the tuning trace (each value holds until the next): where the tuner sits."""
    trace, c = j["congestion"]["trace"], j["config"]
    start = int(c["sim.warmup"])
    end = start + int(c["sim.measure"])
    pts = list(zip(trace["cycle"], trace["threshold"]))
    total = covered = 0
    for i, (t, v) in enumerate(pts):
        lo, hi = max(t, start), min(pts[i + 1][0] if i + 1 < len(pts) else end, end)
        if hi > lo:
            total += v * (hi - lo)
            covered += hi - lo
    return total / covered if covered else None


METRICS = {
    f.__name__: f
    for f in (
        network_latency_ns,
        network_latency_delivered_ns,
        packet_latency_ns,
        message_latency_ns,
        accepted_pct,
        accepted_flits,
        packet_latency_cycles,
        packet_latency_p50_cycles,
        carried_latency_cycles,
        node_accepted_flits,
        router_accepted_flits,
        switch_node_accepted_flits,
        starved_pct,
        offered_pct,
        hot_accepted_pct,
        one_ejection_pct,
        ejection_pct,
        hot_ejection_pct,
        hot_switch_input_pct,
        wc_hot_accepted_pct,
        drop_pct,
        speculative_pct,
        reserved_speculative_pct,
        congestion,
        routing,
        cnm_cut_pct,
        ectn_broadcast_pct,
        ectn_charged_pct,
        series_latency_ns,
        series_accepted_flits,
        hops,
        misrouted_pct,
        series_misrouted_pct,
        series_probe_probability,
        series_threshold,
        threshold_mean,
    )
}


def compute(name, j):
    fn, _, arg = name.partition(":")
    if fn not in METRICS:
        raise KeyError(f"unknown metric {fn!r}; known: {', '.join(sorted(METRICS))}")
    try:
        return METRICS[fn](j, arg)
    except (KeyError, ZeroDivisionError, TypeError):
        return None  # not in this result (e.g. nothing delivered)


def window_times_us(j):
    return j["series"]["t_us"]


def throughput_backlog(j):
    """A backlog still draining: how far the accepted throughput of the measured window lies
    above the offered load, relative to it (0 when below). In a steady state a network cannot
    deliver more than is offered; a run whose warm-up left queued traffic does, at a steady rate
    the halves test (throughput_drift) does not see. None without both numbers."""
    offered, accepted = j.get("offered_load"), j.get("accepted_throughput")
    if not offered or accepted is None:
        return None
    return max(0.0, (accepted - offered) / offered)


def throughput_drift(j):
    """Stationarity of a steady-state run: the relative change of the accepted
    throughput between the first and second half of the measured window (from
    the time series), or 0 when the change is within two standard errors of the
    windows' noise. None without a series."""
    s = j.get("series")
    if not s:
        return None
    start = s["measure_start"]
    end = start + int(j["config"]["sim.measure"])
    thr = [v for t, v in zip(s["t"], s["overall"]["accepted_throughput"]) if start <= t < end and v is not None]
    if len(thr) < 4:
        return None
    h = len(thr) // 2
    first, second = thr[:h], thr[h:]
    a, b = sum(first) / len(first), sum(second) / len(second)

    def var(v, m):
        return sum((x - m) ** 2 for x in v) / (len(v) - 1)

    noise = 2 * (var(first, a) / len(first) + var(second, b) / len(second)) ** 0.5
    if abs(b - a) <= noise:
        return 0.0
    return (b - a) / a if a > 0 else 1.0
