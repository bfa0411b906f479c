#!/usr/bin/python3
"""Area and timing of the ccsim RTL blocks on a real standard-cell library (stdlib only).

  run_liberty.py --rtl-dir rtl --work-dir build/synth_lib --md synth/liberty.md [--period-ns 1.0]

Each block, at the parameter set the papers size it for, is synthesized by Yosys and mapped by
ABC onto the OSU 0.18 um library (Debian's qflow-tech-osu018: osu018_stdcells.lib), with ABC's
fanout buffering and gate sizing aimed at the clock period; OpenSTA (Debian's opensta, `sta`)
then times the netlist: the critical register-to-register or input-to-register path, with its
start and end points. No wire-load model (ABC and OpenSTA see pin capacitances only), ideal
clock, inputs arriving at the clock edge: the path is a lower bound, on an old node.

Flow per block:
  yosys: read_verilog -sv; chparam; hierarchy -check; synth -flatten; dfflibmap -liberty;
         abc -liberty (strash ... &nf -D P; buffer -c; upsize -D P; dnsize -D P); opt_clean;
         rename -wire; stat -liberty (area in um^2, cells); write_verilog
  sta:   read_liberty; read_verilog; link_design; create_clock -period; report_checks
ABC's script has no dc2 (area-oriented rewriting) before the delay mapping, except for the
blocks in AREA_FIRST: dc2 rewrites the Brent-Kung adders of Yosys's techmap into ripple carry
(`yosys -p "read_verilog add.v; synth; dfflibmap -liberty LIB; abc -liberty LIB -script S"` on a
32-bit `assign y = a + b;`, with S this file's script with and without dc2: ABC's `stime` gives
the delay).
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

LIBERTY = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"

# Blocks mapped with ABC's dc2 (area-oriented rewriting) before the delay mapping. dc2 turns
# adders into ripple carry, so the blocks whose paths are adders go without it; the contention-
# degree unit (a memory of samples, compares, a 100-entry FIFO) goes with it: without dc2 ABC
# leaves one of its register nets so loaded that the register alone takes hundreds of ns.
AREA_FIRST = {"cdu_r64"}

# A commit whose last-hop scheduler still chained a max/add stage per request lane: the report
# times it beside today's (the "before").
CHAIN_COMMIT = "e3dfb3f"

# (block, label, parameters, why this set[, the commit to take the block's RTL from])
RUNS = [
    ("contention_degree_unit", "cdu_r64", {"Radix": 64},
     "000's radix-64 router (its 5.6 KB storage figure), N = 100, B = M = 10"),
    ("contention_counters", "cc_r31",
     {"NumPorts": 31, "NumGlobalLinks": 128, "NumGroupRouters": 16, "NumIncPorts": 6, "NumDecPorts": 6},
     "002's 16,512-node dragonfly router (radix 31, 128 global links per group)"),
    ("token_throttler", "tt_t16", {"NumEntries": 16}, "a CBCM source NIC with 16 throttled destinations"),
    ("last_hop_scheduler", "lhs_p4",
     {"NumEndpoints": 4, "NumReqPorts": 15, "NumEnqPorts": 15, "NumDeqPorts": 4},
     "003's LHRP last-hop switch (4 endpoints, 15 inputs)"),
    ("last_hop_scheduler", "lhs_p4_chain",
     {"NumEndpoints": 4, "NumReqPorts": 15, "NumEnqPorts": 15, "NumDeqPorts": 4},
     f"the same, as the grant chain of commit {CHAIN_COMMIT} (a max/add stage per lane): before", CHAIN_COMMIT),
]


def rtl_at(rtl_dir, work, block, commit):
    """The directory holding the block's RTL: rtl_dir, or the block as of `commit` (git show)."""
    if commit is None:
        return rtl_dir
    d = os.path.join(work, f"rtl-{commit}")
    os.makedirs(d, exist_ok=True)
    name = f"ccsim_{block}.sv"
    repo = os.path.dirname(os.path.abspath(rtl_dir))
    src = subprocess.run(["git", "-C", repo, "show", f"{commit}:rtl/{name}"], capture_output=True, text=True)
    if src.returncode != 0:
        sys.exit(f"run_liberty: cannot read rtl/{name} at commit {commit}: {src.stderr.strip()}")
    path = os.path.join(d, name)
    if not os.path.exists(path) or open(path).read() != src.stdout:
        with open(path, "w") as f:
            f.write(src.stdout)
    return d


def yosys_script(rtl_dir, block, params, period_ps, netlist, area_first=False):
    top = f"ccsim_{block}"
    sets = " ".join(f"-set {k} {v}" for k, v in params.items())
    abc = (f"+strash;&get,-n;&fraig,-x;&put;scorr;{'dc2;' if area_first else ''}dretime;strash;&get,-n;&dch,-f;&nf,-D,{period_ps};&put;"
           f"buffer,-c;upsize,-D,{period_ps};dnsize,-D,{period_ps};stime,-p")
    return "\n".join([
        f"read_verilog -sv {os.path.join(rtl_dir, top + '.sv')}",
        f"chparam {sets} {top}",
        f"hierarchy -check -top {top}",
        f"synth -top {top} -flatten",
        f"dfflibmap -liberty {LIBERTY}",
        f"abc -liberty {LIBERTY} -script {abc}",
        "opt_clean -purge",  # internal wires left undriven: assigns OpenSTA cannot read
        "rename -wire",  # cells named after the wires they drive: readable path ends
        f"stat -liberty {LIBERTY}",
        f"write_verilog -noattr -noexpr {netlist}",
    ]) + "\n"


def sta_script(netlist, top, period_ns):
    return f"""read_liberty {LIBERTY}
read_verilog {netlist}
link_design {top}
create_clock -name clk -period {period_ns} [get_ports clk_i]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]
set_output_delay 0 -clock clk [all_outputs]
report_checks -path_delay max -fields {{net}} -digits 3
exit
"""


class TooSlow(Exception):
    pass


def run(cmd, log, timeout=None):
    with open(log, "w") as f:
        try:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TooSlow()
    if p.returncode != 0:
        sys.exit(f"run_liberty: {' '.join(cmd)} failed (exit {p.returncode}); see {log}")
    with open(log) as f:
        return f.read()


def one(rtl_dir, work, block, label, params, period_ns, timeout, area_first=False):
    d = os.path.join(work, label)
    os.makedirs(d, exist_ok=True)
    netlist = os.path.join(d, "netlist.v")
    ys = os.path.join(d, "flow.ys")
    script = yosys_script(rtl_dir, block, params, int(period_ns * 1000), netlist, area_first)
    # The same flow on unchanged RTL: its netlist is still good (OpenSTA's settings may have moved).
    rtl = os.path.join(rtl_dir, f"ccsim_{block}.sv")
    same = (os.path.exists(ys) and open(ys).read() == script and os.path.exists(netlist)
            and os.path.getmtime(netlist) > os.path.getmtime(rtl))
    if not same:
        with open(ys, "w") as f:
            f.write(script)
        if os.path.exists(netlist):
            os.remove(netlist)
        run(["yosys", "-q", "-l", os.path.join(d, "yosys.log"), ys], os.path.join(d, "yosys.out"), timeout)
    ylog = open(os.path.join(d, "yosys.log")).read()
    area = float(re.findall(r"Chip area for module .*?: ([\d.]+)", ylog)[-1])
    stat = ylog[ylog.rfind("Printing statistics"):]
    cells = int(re.search(r"Number of cells:\s+(\d+)", stat).group(1))
    flops = sum(int(n) for n in re.findall(r"\s+DFF\w*\s+(\d+)", stat))
    tcl = os.path.join(d, "sta.tcl")
    with open(tcl, "w") as f:
        f.write(sta_script(netlist, f"ccsim_{block}", period_ns))
    slog = run(["sta", "-no_splash", "-exit", tcl], os.path.join(d, "sta.log"))
    # The worst path (the last report): arrival plus setup; where it starts (the first net: a
    # register or an input, and its fanout) and, from a register, its clock-to-Q.
    worst = slog[slog.rfind("Startpoint:"):]
    arrival = float(re.search(r"([\d.]+)\s+data arrival time", worst).group(1))
    setup = re.search(r"(-?[\d.]+)\s+[\d.]+\s+library setup time", worst)
    path = arrival + (-float(setup.group(1)) if setup else 0.0)
    net = re.search(r"^\s+(\d+)\s+(\S+) \(net\)", worst, re.M)
    clk_to_q = re.search(r"^\s+([\d.]+)\s+[\d.]+ [\^v] \S+/Q \(", worst, re.M)  # a register start
    first = float(clk_to_q.group(1)) if clk_to_q else None
    return {"area": area, "cells": cells, "flops": flops, "path_ns": path, "start": net.group(2) if net else "?",
            "fanout": int(net.group(1)) if net else 0, "first_ns": first,
            "end": re.search(r"Endpoint: (\S+)", worst).group(1)}


def commit():
    p = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True)
    return p.stdout.strip() or "unknown"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtl-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--period-ns", type=float, default=1.0, help="the clock ABC maps for and OpenSTA times against")
    ap.add_argument("--only", help="one block's label (e.g. lhs_p4): its netlist and timing, no report")
    ap.add_argument("--timeout-s", type=float, default=7200, help="a block's Yosys/ABC run at most (the report says so)")
    ap.add_argument("--skip", action="append", default=[], metavar="LABEL=WHY",
                    help="leave a block out; the report gives WHY in its row")
    a = ap.parse_args(argv)
    if not os.path.exists(LIBERTY):
        sys.exit(f"run_liberty: {LIBERTY} not found: install Debian's qflow-tech-osu018 (scripts/install-deps.sh)")
    rows = []
    for block, label, params, why, *rev in RUNS:
        if a.only and label != a.only:
            continue
        skipped = dict(x.split("=", 1) for x in a.skip)
        if label in skipped:
            rows.append((block, label, params, why, {"skipped": skipped[label]}))
            continue
        try:
            rtl = rtl_at(a.rtl_dir, a.work_dir, block, rev[0] if rev else None)
            r = one(rtl, a.work_dir, block, label, params, a.period_ns, a.timeout_s, label in AREA_FIRST)
        except TooSlow:
            print(f"run_liberty: {label}: Yosys/ABC did not finish in {a.timeout_s:g} s", flush=True)
            rows.append((block, label, params, why, None))
            continue
        rows.append((block, label, params, why, r))
        print(f"run_liberty: {label}: {r['area']:.0f} um^2, {r['cells']} cells, {r['flops']} flip-flops, "
              f"critical path {r['path_ns']:.2f} ns from {r['start']} ({r['fanout']} loads"
              + (f", clock-to-Q {r['first_ns']:.2f} ns)" if r["first_ns"] is not None else ")"), flush=True)
    if a.only:
        return 0
    base = next(r for b, _, _, _, r in rows if b == "contention_counters" and r and "path_ns" in r)["path_ns"]
    out = ["# Area and timing on the OSU 0.18 um standard cells", "",
           f"Generated by `synth/run_liberty.py` (`make area`) on {datetime.date.today()} at commit {commit()}; "
           "do not edit by hand.",
           "Yosys maps each block onto Debian's OSU 0.18 um library (`qflow-tech-osu018`) with ABC's fanout "
           f"buffering and gate sizing aimed at a {a.period_ns:g} ns clock; OpenSTA times the netlist. No wire-load "
           "model, ideal clock, inputs at the clock edge: the paths are lower bounds, on a node many generations "
           "older than a router ASIC of today. Memories are flip-flops "
           "here (no SRAM macro in this library): the flip-flop count is the storage. ABC restructures for delay "
           "only: its area-oriented rewriting (dc2) would turn the adders into ripple carry; the contention-degree "
           "unit, whose paths are compares and a sample memory, is the exception (marked *area first*: without dc2 "
           "ABC leaves one of its register nets unbuffered and far too loaded).", "",
           "| block | parameters | area (um^2) | cells | flip-flops | critical path (ns) | x counters' | starts at "
           "(loads) | its clock-to-Q (ns) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for block, label, params, why, r in rows:
        ps = ", ".join(f"{k}={v}" for k, v in params.items())
        why += " (*area first*)" if label in AREA_FIRST else ""
        if r is None or "skipped" in r:
            reason = r["skipped"] if r else f"ABC's mapping did not finish in {a.timeout_s:g} s"
            out.append(f"| `{block}` ({why}) | {ps} | not mapped: {reason} | | | | | | |")
            continue
        out.append(f"| `{block}` ({why}) | {ps} | {r['area']:,.0f} | {r['cells']:,} | {r['flops']:,} | "
                   f"{r['path_ns']:.2f} | {r['path_ns'] / base:.1f} | `{r['start']}` ({r['fanout']}) | "
                   + ("-" if r["first_ns"] is None else f"{r['first_ns']:.2f}") + " |")
    out += ["", "`x counters'`: the critical path over the contention counters' (the issue's yardstick for the "
            "last-hop scheduler: within 2x). `starts at`: the path's first net, a register or an input, with the "
            "loads it drives; `its clock-to-Q`: for a path from a register, that register's delay. ABC buffers and "
            "sizes the combinational logic only: a register output with hundreds of loads stays unbuffered here, "
            "and its clock-to-Q is most of the path where that happens; a real flow would buffer that net. Per-block logs "
            "and netlists: the work directory.", ""]
    with open(a.md, "w") as f:
        f.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
