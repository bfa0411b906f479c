#!/usr/bin/env python3
"""Config fuzzer: mutates the configs of experiments/ and tests/results_gate/,
runs `ccsim run` on each case and sorts the outcomes into

  error   exit 2 and exactly one stderr line "error: KEY: ..." naming a key
          (section.key, a [section], or a TOML file:line:col parse error)
  valid   exit 0, result JSON that parses and covers the requested window
  defect  anything else: a signal, an exit code other than 0/2 (an internal
          error or an uncaught exception), an error line naming no key,
          several lines, sanitizer output, a timeout, a small run that is
          slow, a result that does not cover its window or has null
          metrics, a deadlock with routing.deadlock = avoidance

  fuzz_config.py [--seed S] [--n N] [-j J] [--ccsim build/ccsim] [--timeout 20]
  fuzz_config.py --seed S --case I     # rerun one case, show its output

A case is a seed config shrunk to a short run on a small network (so that
hundreds run in a minute), with one to three mutations: boundary values of a
declared key (the list comes from `ccsim list --markdown`), wrong types,
unknown keys and choices, odd topology sizes, random routing x protocol x
pattern x topology combinations, 1-cycle runs, absurd sizes and run lengths,
and shapes only a TOML file can have. Values go in the TOML file or as -s
overrides (the two parse differently).

Case I of seed S is the same on every machine (its random generator is seeded
with "S/I"; the seed files are part of the input), so `--case` reproduces any
case without the others. Each defect is printed with the command that
reproduces it; only the defects' case files are kept, in --workdir (default:
a fresh temporary directory, removed when there is no defect). Exits 1 if any
defect. Python 3.11+ standard library only (tomllib).
"""
import argparse
import concurrent.futures
import copy
import glob
import json
import math
import os
import random
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import tomllib
except ImportError:  # Python < 3.11
    sys.exit("fuzz_config.py needs Python 3.11+ (tomllib)")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
# Run-length keys: only small or absurd values, which ccsim must refuse at once.
# Values in between (2^31 cycles, say) are legal and would simply run for hours.
RUN_LENGTH_KEYS = {"sim.warmup", "sim.measure", "sim.drain_cap"}
ABSURD = [INT64_MAX, 2**62, 2**48]
SECTIONS = ["topology", "router", "links", "routing", "traffic", "congestion", "sim", "hardware"]
SANITIZER = re.compile(r"runtime error:|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|ThreadSanitizer|"
                       r"MemorySanitizer")
# "error: topology.k: ...", "error: traffic.class[1].nodes: ...", "error: bogus.x: unknown section [bogus] ..."
NAMES_KEY = re.compile(r"^error: ([A-Za-z_][\w-]*(\[\d+\])?(\.[\w\" -]+(\[\d+\])?)+: |.*\[[a-z_]+\])")
PARSE_ERROR = re.compile(r"^error: \S+\.toml:\d+:\d+: ")


# ---------------------------------------------------------------- reference

class Spec:
    """One declared key: its type and allowed range or choices, as `ccsim list --markdown` prints them."""

    def __init__(self, key, type_, allowed):
        self.key, self.type = key, type_
        self.min = self.max = None
        self.choices = []
        if type_ in ("int", "float") and ".." in allowed:
            lo, hi = (s.strip() for s in allowed.split(".."))
            self.min = float(lo) if lo else None
            self.max = float(hi) if hi else None
        elif type_ == "string" and allowed:
            self.choices = [c.strip() for c in allowed.split(",")]


def parse_reference(ccsim):
    """Every declared key from `ccsim list --markdown`: core, and per component."""
    text = subprocess.run([ccsim, "list", "--markdown"], capture_output=True, text=True, check=True).stdout
    ref = {"core": [], "topology": {}, "routing": {}, "pattern": {}, "protocol": {}, "slots": {}}
    part, current = None, None
    for line in text.splitlines():
        if line.startswith("## "):
            part = ("core" if "Core" in line else "topology" if "Topolog" in line else "routing" if "Routing" in line
                    else "protocol" if "protocol" in line else "pattern" if "pattern" in line else None)
            current = ref["core"] if part == "core" else None
        elif line.startswith("### ") and part in ("topology", "routing", "pattern", "protocol"):
            names = re.findall(r"`([^`]+)`", line)
            name = (names[1], names[0]) if part == "routing" else names[0]
            current = ref[part].setdefault(name, [])
        elif part == "routing" and current is not None and line and not line.startswith("|"):
            m = re.search(r"(\d+) VC slots?|needs (\d+) VCs", line)
            if m and name not in ref["slots"]:
                ref["slots"][name] = int(m.group(1) or m.group(2))
        elif line.startswith("| `") and current is not None:
            cells = [c.strip() for c in line.strip("|").split("|")]
            current.append(Spec(cells[0].strip("`"), cells[1], cells[3]))  # key | type | default | allowed | doc
    return ref


def component(cfg, section, key, default):
    v = cfg.get(section, {}).get(key, default)
    return v if isinstance(v, str) else default


def applicable(ref, cfg):
    """The specs of the core and of the components `cfg` selects."""
    kind = component(cfg, "topology", "kind", "dragonfly")
    specs = list(ref["core"])
    specs += ref["topology"].get(kind, [])
    specs += ref["routing"].get((kind, component(cfg, "routing", "algorithm", "min")), [])
    specs += ref["pattern"].get(component(cfg, "traffic", "pattern", "uniform"), [])
    specs += ref["protocol"].get(component(cfg, "congestion", "protocol", "none"), [])
    seen, out = set(), []
    for s in specs:
        if s.key not in seen:
            seen.add(s.key)
            out.append(s)
    return out


def all_specs(ref):
    out = list(ref["core"])
    for part in ("topology", "routing", "pattern", "protocol"):
        for specs in ref[part].values():
            out += specs
    return out


# ---------------------------------------------------------------- TOML out

class Raw(str):
    """TOML text written as is (a date, an out-of-range integer)."""


def toml_value(v):
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):  # a basic string: backslash, quote and control characters escaped
        return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7f else "\\" + c if c in '"\\'
                             else c for c in v) + '"'
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(type(v))


def toml_key(k):
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else toml_value(k)


def is_table_array(v):
    return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)


def write_table(table, path, header, lines):
    if header:
        lines.append(header)
    for k, v in table.items():
        if not isinstance(v, dict) and not is_table_array(v):
            lines.append(f"{toml_key(k)} = {toml_value(v)}")
    for k, v in table.items():
        name = ".".join(toml_key(p) for p in path + [k])
        if isinstance(v, dict):
            write_table(v, path + [k], f"\n[{name}]", lines)
        elif is_table_array(v):
            for t in v:
                write_table(t, path + [k], f"\n[[{name}]]", lines)


def to_toml(cfg):
    lines = []
    write_table(cfg, [], None, lines)
    return "\n".join(lines) + "\n"


def override_text(v):
    """A value as typed after -s key=; ccsim reads true/false, integers and floats, else a string."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, (int, Raw)):
        return str(v)
    if isinstance(v, str) and re.fullmatch(r"[-+0-9.eE]+|true|false|nan|inf", v):
        return f'"{v}"'  # keep a number-like string a string
    return str(v)


# ---------------------------------------------------------------- cases

def topo_nodes(cfg):
    t = cfg.get("topology", {})
    kind = t.get("kind", "dragonfly")
    try:
        if kind == "dragonfly":
            p, a, h = t.get("p", 4), t.get("a", 8), t.get("h", 4)
            return p * a * (t.get("groups", 0) or a * h + 1)
        if kind == "flatfly":
            return t.get("k", 4) ** t.get("n", 2) * t.get("c", 4)
        return t.get("k", 16) ** t.get("n", 2) * t.get("c", 1)
    except TypeError:
        return 0


SMALL_TOPOLOGY = {"dragonfly": {"p": 2, "a": 4, "h": 2}, "flatfly": {"k": 4, "n": 2, "c": 4},
                  "torus": {"k": 4, "n": 2, "c": 1}, "mesh": {"k": 4, "n": 2, "c": 1}}


def scale_times(table, ratio):
    """Traffic start/stop/at cycles scaled into the shortened run."""
    for k in ("start", "stop", "at"):
        if isinstance(table.get(k), int) and not isinstance(table.get(k), bool) and table[k] > 0:
            table[k] = max(1, int(table[k] * ratio))
    for k in ("class", "phase"):
        if is_table_array(table.get(k)):
            for t in table[k]:
                scale_times(t, ratio)


def shrink(cfg, rng):
    """A short run on a small network: hundreds of cases must run in minutes."""
    sim = cfg.setdefault("sim", {})
    old = (sim.get("warmup", 2000) or 0) + (sim.get("measure", 10000) or 0)
    sim["warmup"] = rng.choice([0, 50, 100, 200])
    sim["measure"] = rng.choice([50, 100, 200, 400])
    sim["drain_cap"] = rng.choice([0, 200, 1000])
    if isinstance(sim.get("series_window"), int) and sim["series_window"] > 0:
        sim["series_window"] = rng.choice([10, 50, 100])
    if old > 0:
        scale_times(cfg.get("traffic", {}), (sim["warmup"] + sim["measure"]) / old)
    if topo_nodes(cfg) > 300:
        t = cfg.setdefault("topology", {})
        kind = t.get("kind", "dragonfly")
        for k in ("p", "a", "h", "groups", "k", "n", "c"):
            t.pop(k, None)
        t.update(SMALL_TOPOLOGY.get(kind, {}))


def set_key(cfg, overrides, key, value, rng):
    """Sets key in the TOML or (half the time) as a -s override: the two paths parse values differently."""
    if rng.random() < 0.5 and not isinstance(value, list) and "\0" not in str(value):  # argv holds no NUL
        overrides.append((key, override_text(value)))
    else:
        section, _, name = key.partition(".")
        cfg.setdefault(section, {})[name] = value
    return f"{key}={override_text(value)}"


def drop_inapplicable(ref, cfg):
    """Removes component keys that the (changed) selection no longer takes."""
    keep = {s.key for s in applicable(ref, cfg)}
    for section in list(cfg):
        if isinstance(cfg[section], dict):
            for k in list(cfg[section]):
                v = cfg[section][k]
                if (not isinstance(v, dict) and not is_table_array(v) and f"{section}.{k}" not in keep):
                    del cfg[section][k]


def int_values(spec):
    vals = [0, -1, 1]
    if spec.min is not None:
        vals += [int(spec.min), int(spec.min) - 1]
    if spec.max is not None:
        vals += [int(spec.max), int(spec.max) + 1]
    if spec.key in RUN_LENGTH_KEYS:
        vals += ABSURD
    elif spec.max is None:
        vals += [2**31 - 1, 2**31, 2**32, INT64_MAX, 2**62]
    vals += [INT64_MIN, Raw(str(2**63)), Raw("-" + str(2**63 + 1))]
    return vals


def float_values(spec):
    vals = [0.0, -1.0, 1.0, 1e-300, 1e300, float("nan"), float("inf"), float("-inf")]
    if spec.min is not None:
        vals += [spec.min, spec.min - 1e-9, spec.min - 1]
    if spec.max is not None:
        vals += [spec.max, spec.max * (1 + 1e-9) + 1e-12, spec.max + 1]
    return vals


def string_values(spec, ref):
    vals = ["", "bogus", "x" * 300, "MIN", " " + (spec.choices[0] if spec.choices else "a"), "a\nb", "t\tab",
            "nul\0", "\x7f", "ü"] + spec.choices
    if spec.key == "traffic.nodes":
        vals += ["all", "rest", "random:0", "random:-1", "random:3", "random:999999", "range:0-3", "range:5-2",
                 "range:0-99999999", "range:-1-2", "router_index:0", "router_index:0-1", "router_index:9999",
                 "list:", "list:1,1", "list:0,1,2", "list:a", "list:-1", "list:99999999999", "random:", "range:"]
    if spec.key == "traffic.hotspot_dest_list":
        vals += ["0", "0,0", "0,1", "999999", "-1", "a,b", ",", "1,", "99999999999999999999"]
    if spec.key == "hardware.trace":
        vals += ["router:0", "nic:0", "router:99999", "nic:-1", "router:", "x:1", "router:1:2"]
    if spec.key == "congestion.cbcm_ideal_class":
        vals += ["default", "hotspot"]
    if spec.key == "traffic.name":
        vals += ["default", "a b", "x.y"]
    return vals


# Test-only knobs whose purpose is to fail a run (lock-step catching a perturbed reference).
TEST_ONLY = {"hardware.mutate_reference"}
TIME_KEYS = {"links.terminal_latency", "links.local_latency", "links.global_latency", "traffic.start",
             "traffic.stop", "sim.series_window"}
TIME_STRINGS = ["50ns", "1us", "0.4ns", "-5ns", "1e30us", "nanns", "infus", "ns", "us", "5ms", "1e-30ns", " 5ns",
                "5 ns", "0x10ns", "1e18ns"]


def mut_boundary(rng, ref, cfg, ov):
    spec = rng.choice(applicable(ref, cfg))
    if spec.key in TEST_ONLY:
        value = False
    elif spec.type == "int":
        value = rng.choice(int_values(spec) + (TIME_STRINGS if spec.key in TIME_KEYS else []))
    elif spec.type == "float":
        value = rng.choice(float_values(spec))
    elif spec.type == "bool":
        value = rng.choice([True, False])
    else:
        value = rng.choice(string_values(spec, ref))
    # Sizes and large numbers may legitimately take time and memory: no "slow" verdict for them.
    big = spec.key.startswith("topology.") or (isinstance(value, int) and abs(value) >= 2**20)
    return "boundary " + set_key(cfg, ov, spec.key, value, rng), big


def mut_wrong_type(rng, ref, cfg, ov):
    spec = rng.choice(applicable(ref, cfg))
    wrong = {"int": ["abc", 1.5, True, "12", [1, 2], 1e3, ""],
             "float": ["abc", True, "0.5", [0.5]],
             "bool": [1, 0, "true", "yes", 1.0],
             "string": [1, 1.5, True, [1], ["a"]]}[spec.type]
    if spec.type == "string" and spec.key.endswith("nodes"):
        wrong = [1.5, True, ["a"], [1.5]]
    return "wrong type " + set_key(cfg, ov, spec.key, rng.choice(wrong), rng), False


def mut_unknown_key(rng, ref, cfg, ov):
    mine = {s.key for s in applicable(ref, cfg)}
    others = sorted({s.key for s in all_specs(ref)} - mine)
    choice = rng.randrange(3)
    if choice == 0 and others:
        key = rng.choice(others)
    elif choice == 1:
        key = rng.choice(SECTIONS) + "." + rng.choice(["bogus", "vcs_", "Seed", "kind2", "x-y"])
    else:
        key = rng.choice(["bogus", "Router", "simulation", "traffic_", "new\nline"]) + ".seed"
    return "unknown key " + set_key(cfg, ov, key, rng.choice([1, "x", True, 0.5]), rng), False


def mut_unknown_choice(rng, ref, cfg, ov):
    key = rng.choice(["topology.kind", "routing.algorithm", "traffic.pattern", "congestion.protocol"])
    names = {"topology.kind": list(ref["topology"]), "routing.algorithm": [r for _, r in ref["routing"]],
             "traffic.pattern": list(ref["pattern"]), "congestion.protocol": list(ref["protocol"])}[key]
    value = rng.choice(["bogus", "", "MIN", "none ", 3] + names)
    desc = "choice " + set_key(cfg, ov, key, value, rng)
    return desc, False


def routings_of(ref, kind):
    return sorted(r for k, r in ref["routing"] if k == kind)


def small_topology(rng, ref, cfg, odd):
    """A small (odd-sized when `odd`) topology of a random kind, with a routing algorithm for it."""
    kind = rng.choice(sorted(ref["topology"]))
    t = {"kind": kind}
    if kind == "dragonfly":
        t["p"] = rng.choice([1, 2, 3] if odd else [1, 2])
        t["a"] = rng.choice([1, 2, 3, 5] if odd else [2, 4])
        t["h"] = rng.choice([0, 1, 2, 3] if odd else [1, 2])
        if odd:
            t["groups"] = rng.choice([0, 1, 2, 3, t["a"] * t["h"] + 1, t["a"] * t["h"] + 2, rng.randint(0, 20)])
    else:
        t["n"] = rng.choice([1, 2, 3] if odd else [1, 2])
        t["k"] = rng.choice([2, 3] if t["n"] == 3 else [2, 3, 5, 7] if odd else [2, 4])  # at most 49 routers
        t["c"] = rng.choice([1, 2, 3] if odd else [1, 2])
    cfg["topology"] = t
    algorithm = rng.choice(routings_of(ref, kind))
    cfg.setdefault("routing", {})["algorithm"] = algorithm
    if algorithm == "adaptive":
        cfg["routing"]["deadlock"] = "recovery"
    slots = ref["slots"].get((kind, algorithm), 3)
    router = cfg.setdefault("router", {})
    router["vcs"] = max(router["vcs"] if type(router.get("vcs")) is int else 1, slots)
    drop_inapplicable(ref, cfg)
    return f"{kind} {' '.join(f'{k}={v}' for k, v in t.items() if k != 'kind')} routing {algorithm}"


def mut_odd_topology(rng, ref, cfg, ov):
    return "odd topology " + small_topology(rng, ref, cfg, odd=True), False


def random_in_range(rng, spec):
    if spec.type == "bool":
        return rng.choice([True, False])
    if spec.type == "string":
        return rng.choice(spec.choices) if spec.choices else None
    lo = spec.min if spec.min is not None else 0
    hi = spec.max if spec.max is not None else lo + 1000
    hi = min(hi, lo + 1000)  # keep cycles, sizes and counts small
    if spec.type == "int":  # mostly near the minimum, where buffers and counters are tight
        lo, hi = int(lo), int(hi)
        return rng.choice([lo, min(lo + 1, hi), rng.randint(lo, min(hi, lo + 16)), rng.randint(lo, hi)])
    return rng.choice([lo, hi, rng.uniform(lo, hi)])


def mut_combo(rng, ref, cfg, ov):
    """Routing x protocol x pattern x topology, mostly valid: these runs exercise the simulator."""
    for section in list(cfg):
        if section != "sim":
            del cfg[section]
    cfg["sim"] = {k: v for k, v in cfg.get("sim", {}).items() if k in ("warmup", "measure", "drain_cap", "seed")}
    traffic = cfg.setdefault("traffic", {})
    desc = small_topology(rng, ref, cfg, odd=False)
    kind = cfg["topology"]["kind"]
    if rng.random() < 0.1:  # a routing algorithm of another topology
        cfg["routing"]["algorithm"] = rng.choice([r for _, r in ref["routing"]])
        desc += f" then routing {cfg['routing']['algorithm']}"
    protocol = rng.choice(sorted(ref["protocol"]))
    if protocol == "selftune" and kind != "torus" and rng.random() < 0.8:  # torus only: mostly pick again
        protocol = rng.choice(sorted(ref["protocol"]))
    cfg.setdefault("congestion", {})["protocol"] = protocol
    traffic["pattern"] = pattern = rng.choice(sorted(ref["pattern"]))
    traffic["load"] = round(rng.uniform(0.02, 1.0), 3)
    traffic["packet_size"] = rng.choice([1, 1, 2, 4, 8])
    traffic["message_size"] = rng.choice([1, 1, 2, 4])
    router = cfg.setdefault("router", {})
    router["vcs"] = router["vcs"] + rng.choice([0, 0, 1, 2])
    router["switching"] = rng.choice(["vct", "vct", "wormhole"])
    router["voq"] = rng.random() < 0.2 and cfg["routing"]["algorithm"] not in ("duato", "adaptive")  # they re-route
    router["speedup"] = rng.choice([1, 1, 2])
    router["occupancy"] = rng.choice(["credits", "downstream"])
    if rng.random() < 0.2:
        traffic["injection"] = "onoff"
    if rng.random() < 0.2 and cfg["routing"]["algorithm"] != "adaptive":
        cfg["routing"]["deadlock"] = "recovery"
    sim = cfg.setdefault("sim", {})
    sim["kernel"] = rng.choice(["direct"] * 9 + ["systemc"])
    if rng.random() < 0.05:
        cfg.setdefault("hardware", {})["all"] = "rtl"
        cfg["hardware"]["lockstep"] = rng.random() < 0.5
    drop_inapplicable(ref, cfg)
    if rng.random() < 0.3:  # long enough to saturate, deadlock or throttle
        sim["measure"] = rng.choice([1000, 2000])
    specs = [s for s in applicable(ref, cfg)
             if s.key.split(".")[0] in ("router", "links", "routing", "congestion", "traffic") and s.key not in (
                 "routing.algorithm", "congestion.protocol", "traffic.pattern", "traffic.nodes", "traffic.name",
                 "traffic.start", "traffic.stop", "router.vcs")]
    for spec in rng.sample(specs, min(len(specs), rng.randint(0, 6))):
        value = random_in_range(rng, spec)
        if value is not None:
            desc += " " + set_key(cfg, ov, spec.key, value, rng)
    return f"combo {desc} {protocol} {pattern}", False


def mut_short(rng, ref, cfg, ov):
    sim = cfg.setdefault("sim", {})
    sim["warmup"] = rng.choice([0, 0, 1])
    sim["measure"] = rng.choice([1, 1, 2, 3])
    sim["drain_cap"] = rng.choice([0, 1, 2])
    if rng.random() < 0.5:
        sim["series_window"] = rng.choice([1, 2])
    return f"short run warmup={sim['warmup']} measure={sim['measure']} drain_cap={sim['drain_cap']}", False


def mut_big(rng, ref, cfg, ov):
    """Absurd sizes and lengths: ccsim must refuse them at once (or run them quickly)."""
    choice = rng.randrange(8)
    if choice == 0:
        key = rng.choice(sorted(RUN_LENGTH_KEYS))
        return "big " + set_key(cfg, ov, key, rng.choice(ABSURD), rng), True
    if choice == 1:  # a long window sliced into 1-cycle bins
        set_key(cfg, ov, "sim.series_window", 1, rng)
        return "big series " + set_key(cfg, ov, "sim.measure", rng.choice([2**40, 2**47]), rng), True
    if choice == 2:
        cfg["topology"] = {"kind": "dragonfly", "p": rng.choice([4, 64, 1024]), "a": rng.choice([64, 1024]),
                           "h": rng.choice([64, 1024])}
    elif choice == 3:
        cfg["topology"] = {"kind": rng.choice(["torus", "mesh"]), "k": rng.choice([4096, 2**24]),
                           "n": rng.choice([2, 3, 31]), "c": rng.choice([1, 4])}
    elif choice == 4:
        cfg["topology"] = {"kind": "flatfly", "k": rng.choice([32, 64]), "n": rng.choice([1, 2, 4]), "c": 1}
    elif choice == 7:  # few nodes, wide routers
        cfg["topology"] = {"kind": "dragonfly", "p": rng.choice([16, 32]), "a": 32, "h": 16, "groups": 3}
    elif choice == 5:  # longest links: the event calendar spans them
        key = rng.choice(["links.terminal_latency", "links.local_latency", "links.global_latency"])
        return "big " + set_key(cfg, ov, key, rng.choice([2**24, "16ms", "1e9us"]), rng), True
    else:  # deepest buffers, most VCs
        router = cfg.setdefault("router", {})
        router.update(vcs=32, buffer_depth=2**20, output_buffer=2**20, local_buffer_depth=2**20,
                      global_buffer_depth=2**20)
        cfg.setdefault("traffic", {})["load"] = 1.0
        return "big buffers vcs=32 depth=2^20", True
    # Light uniform traffic: the case is about the size being refused or built, not about saturating it.
    cfg["traffic"] = {"pattern": "uniform", "load": 0.01}
    cfg.pop("congestion", None)
    kind = cfg["topology"]["kind"]
    cfg.setdefault("routing", {})["algorithm"] = routings_of(ref, kind)[0]
    cfg["routing"].pop("deadlock", None)
    cfg.setdefault("router", {})["vcs"] = 4
    drop_inapplicable(ref, cfg)
    return "big topology " + " ".join(f"{k}={v}" for k, v in cfg["topology"].items()), True


def mut_toml(rng, ref, cfg, ov):
    """Shapes only a file can have: top-level keys, nested tables, arrays, dates, class/phase tables."""
    traffic = cfg.setdefault("traffic", {})
    choice = rng.randrange(12)
    if choice == 0:
        cfg["seed"] = 1  # written before the first [section]
        return "toml top-level key", False
    if choice == 1:
        cfg.setdefault("router", {})["sub"] = {"x": 1}
        return "toml nested table [router.sub]", False
    if choice == 2:
        section = rng.choice(["router", "sim", "links"])
        spec = rng.choice([s for s in ref["core"] if s.key.startswith(section + ".")])
        cfg.setdefault(section, {})[spec.key.split(".")[1]] = rng.choice(
            [Raw("1979-05-27T07:32:00Z"), Raw("07:32:00"), [1, 2], [], Raw("{ x = 1 }")])
        return f"toml odd value for {spec.key}", False
    if choice == 3:
        traffic["class"] = rng.choice([5, "x", [1, 2]])
        return "toml traffic.class not a table array", False
    if choice == 4:
        traffic["phase"] = [{"at": rng.choice([-1, 0, 2**63 - 1, "20us", "xx", 1.5]), "load": 0.2}]
        return "toml phase with odd at", False
    if choice == 5:
        traffic["phase"] = [{"load": 0.3}]
        return "toml phase without at", False
    if choice == 6:
        traffic["class"] = [{"name": "a"}, {"name": "a"}]
        return "toml duplicate class names", False
    if choice == 7:
        traffic["class"] = [{"name": "a", "nodes": rng.choice([[0, 0], ["a"], [], [-1], [2**40], [0, 1.5]])},
                            {"name": "b", "nodes": "rest"}]
        return "toml class nodes array", False
    if choice == 8:
        traffic["class"] = [{"name": "a", "phase": [{"at": 10, "load": rng.choice([0.0, 1.0, 2.0])}]}]
        traffic["phase"] = [{"at": 5}]
        return "toml class and phase tables together", False
    if choice == 9:
        traffic["class"] = [{"name": "a", rng.choice(["bogus", "seed", "kind"]): 1}]
        return "toml class with an unknown key", False
    if choice == 10:
        n = rng.randint(2, 5)
        traffic["class"] = [{"name": f"c{i}", "nodes": rng.choice(["rest", "random:2", "range:0-3", "all"]),
                             "pattern": rng.choice(sorted(ref["pattern"])), "load": round(rng.random(), 2)}
                            for i in range(n)]
        return "toml random classes", False
    cfg.setdefault("sim", {})[rng.choice(["a b", "a.b", "", "ü"])] = 1
    return "toml quoted key", False


MUTATIONS = [  # (function, weight)
    (mut_boundary, 30), (mut_wrong_type, 8), (mut_unknown_key, 6), (mut_unknown_choice, 5),
    (mut_odd_topology, 10), (mut_combo, 25), (mut_short, 5), (mut_big, 5), (mut_toml, 6),
]


def load_seeds():
    paths = sorted(glob.glob(os.path.join(ROOT, "experiments", "*.toml")) +
                   glob.glob(os.path.join(ROOT, "tests", "results_gate", "*.toml")))
    seeds = []
    for p in paths:
        with open(p, "rb") as f:
            seeds.append((os.path.relpath(p, ROOT), tomllib.load(f)))
    return seeds


def make_case(ref, seeds, seed, index):
    """Case `index` of run `seed`: a seed config, shrunk, with one to three mutations."""
    rng = random.Random(f"{seed}/{index}")
    origin, base = rng.choice(seeds)
    cfg = copy.deepcopy(base)
    shrink(cfg, rng)
    ov, what, big = [], [], False
    funcs, weights = zip(*MUTATIONS)
    chosen = rng.choices(funcs, weights, k=rng.choice([1, 1, 1, 2, 3]))
    # At most one mutation that reselects the components, and first: the others see its keys.
    resets = [f for f in chosen if f in (mut_combo, mut_odd_topology)]
    chosen = resets[:1] + [f for f in chosen if f not in resets]
    for f in chosen:
        desc, is_big = f(rng, ref, cfg, ov)
        what.append(desc)
        big = big or is_big
    return {"index": index, "origin": origin, "toml": to_toml(cfg), "overrides": ov,
            "what": "; ".join(what), "big": big}


# ---------------------------------------------------------------- running

def limit_memory(mb):
    """Address-space limit of a case (0: none, for sanitizer builds), and no core dumps."""
    def apply():
        if mb > 0:
            resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def command(ccsim, path, overrides):
    cmd = [ccsim, "run", path]
    for k, v in overrides:
        cmd += ["-s", f"{k}={v}"]
    return cmd


def null_fields(result, path=""):
    """Scalars of the result that are null or not finite (lists hold nulls on purpose: node_accepted)."""
    out = []
    for k, v in result.items():
        if isinstance(v, dict):
            out += null_fields(v, f"{path}{k}.")
        elif v is None or (isinstance(v, float) and not math.isfinite(v)):
            out.append(path + k)
    return out


def classify(proc_rc, out, err, seconds, case, args):
    """(class, reason) of one finished run."""
    lines = [l for l in err.splitlines() if l.strip()]
    if SANITIZER.search(err):
        return "defect", "sanitizer: " + next(l for l in lines if SANITIZER.search(l))
    if proc_rc < 0:
        return "defect", f"killed by signal {-proc_rc}" + (f": {lines[-1]}" if lines else "")
    if proc_rc == 2:
        if len(lines) != 1:
            return "defect", f"error of {len(lines)} lines: " + " | ".join(lines[:3])
        if not lines[0].startswith("error: "):
            return "defect", "exit 2 without an error line: " + lines[0]
        if not (NAMES_KEY.match(lines[0]) or PARSE_ERROR.match(lines[0])):
            return "defect", "error names no key: " + lines[0]
        return "error", lines[0]
    if proc_rc != 0:
        return "defect", f"exit code {proc_rc}: " + (" | ".join(lines[:3]) or "no stderr")
    try:
        result = json.loads(out)
    except ValueError:
        return "defect", "exit 0 without result JSON"
    others = [l for l in lines if not l.startswith("warning: ")]
    if others:
        return "defect", "unexpected stderr: " + others[0]
    nulls = null_fields(result)
    if nulls:
        return "defect", f"result has null/non-finite {nulls[0]}"
    c = result.get("config", {})
    window = c.get("sim.warmup", 0) + c.get("sim.measure", 0)
    if result.get("deadlock") and c.get("routing.deadlock") == "avoidance":
        # Every algorithm's VC rules promise deadlock freedom (tests/test_deadlock_freedom.cpp).
        return "defect", f"deadlock under routing.deadlock = avoidance: {json.dumps(result.get('deadlock'))[:200]}"
    if not result.get("deadlock") and result.get("cycles", -1) < window:
        return "defect", f"result covers {result.get('cycles')} cycles, less than warmup + measure = {window}"
    longest = max([v for k, v in c.items() if k.startswith("links.") and isinstance(v, int)] or [0])
    if (result.get("packets_created", 0) >= 100 and result.get("packets_delivered", 0) == 0
            and result.get("cycles", 0) >= 1000 + 20 * longest):
        # Long enough for packets to cross the network many times: none arriving is a stuck network.
        return "defect", f"{result['packets_created']} packets created, none delivered in {result['cycles']} cycles"
    if not case["big"] and seconds > args.slow:
        return "defect", f"slow: {seconds:.1f} s for a small run"
    return "valid", ""


def run_case(case, args, workdir):
    path = os.path.join(workdir, f"case_{case['index']}.toml")
    with open(path, "w") as f:
        f.write(f"# fuzz_config.py --seed {args.seed} --case {case['index']}: {case['what']}\n"
                f"# from {case['origin']}\n" + case["toml"])
    cmd = command(args.ccsim, path, case["overrides"])
    # A scratch directory as cwd: VCD traces (hardware.trace) and other files a case writes go there.
    scratch = tempfile.mkdtemp(prefix=f"run_{case['index']}_", dir=workdir)
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, cwd=scratch,
                              preexec_fn=limit_memory(args.mem_mb), errors="replace",
                              env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        seconds = time.monotonic() - t0
        cls, reason = classify(proc.returncode, proc.stdout, proc.stderr, seconds, case, args)
        out, err = proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        seconds = time.monotonic() - t0
        cls, reason, out, err = "defect", f"timeout after {args.timeout} s", "", ""
    shutil.rmtree(scratch, ignore_errors=True)
    return dict(case, path=path, cmd=cmd, cls=cls, reason=reason, seconds=seconds, stdout=out, stderr=err)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=300, help="cases (default 300)")
    ap.add_argument("--first", type=int, default=0, help="first case index")
    ap.add_argument("--case", type=int, help="run only this case and show its output")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--ccsim", default=os.path.join(ROOT, "build", "ccsim"))
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per case")
    ap.add_argument("--slow", type=float, default=10.0, help="seconds after which a small run is a defect")
    ap.add_argument("--mem-mb", type=int, default=4096,
                    help="address-space limit per case in MiB (default 4096; 0: none, needed by sanitizer builds, "
                         "and then the big cases are skipped)")
    ap.add_argument("--workdir", help="where case files go and cases run (default: a new temporary directory)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    args.ccsim = os.path.abspath(args.ccsim)

    ref = parse_reference(args.ccsim)
    seeds = load_seeds()
    workdir = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="ccsim_fuzz_")
    os.makedirs(workdir, exist_ok=True)
    indices = [args.case] if args.case is not None else range(args.first, args.first + args.n)
    cases = [make_case(ref, seeds, args.seed, i) for i in indices]
    skipped = 0
    if args.mem_mb == 0 and args.case is None:
        # Without a memory limit a case built to need more memory than there is could take the machine
        # down; the limited (plain) build runs them.
        skipped = sum(c["big"] for c in cases)
        cases = [c for c in cases if not c["big"]]

    counts = {"error": 0, "valid": 0, "defect": 0}
    defects = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(lambda c: run_case(c, args, workdir), cases):
            counts[r["cls"]] += 1
            if args.case is not None:
                print(f"case {r['index']}: {r['what']} (from {r['origin']})\n{shlex.join(r['cmd'])}\n"
                      f"--- {r['path']}\n{r['toml']}--- stdout (first 400 chars)\n{r['stdout'][:400]}\n"
                      f"--- stderr\n{r['stderr']}--- {r['cls']} {r['reason']} ({r['seconds']:.2f} s)")
            elif args.verbose:
                print(f"{r['index']:6d} {r['cls']:6s} {r['seconds']:5.2f}s {r['what']}  {r['reason'][:100]}")
            if r["cls"] == "defect":
                defects.append(r)
            elif args.case is None:
                os.remove(r["path"])  # only the defects' case files are kept

    for r in defects:
        print(f"DEFECT case {r['index']}: {r['reason']}\n  what: {r['what']} (from {r['origin']})\n"
              f"  repro: {shlex.join(r['cmd'])}\n"
              f"     or: {sys.argv[0]} --seed {args.seed} --case {r['index']} --ccsim {args.ccsim}")
    print(f"fuzz_config: seed {args.seed}, {len(cases)} cases in {time.monotonic() - t0:.0f} s: "
          f"{counts['valid']} valid, {counts['error']} error, {counts['defect']} defect"
          + (f" ({skipped} big cases skipped: no memory limit)" if skipped else ""))
    if not defects and not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    elif defects:
        print(f"case files: {workdir}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
