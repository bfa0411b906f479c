#!/usr/bin/env python3
"""Formal checks of the RTL blocks' assertions (the `ifdef FORMAL` blocks of rtl/*.sv) with
Yosys's SAT solver: each block at small parameters, proven by bounded model checking from
reset to a stated depth and, where it closes, by temporal induction (any depth). Then each
listed planted bug (a textual mutation of the RTL) must make the check fail: the check can fail.

  scripts/formal.py [--yosys yosys] [--block NAME]

Exit 1 when an assertion fails or a planted bug survives."""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Per block: small parameters (the properties are per entry or per counter: a few entries and
# narrow counters reach every corner within the depth), the BMC depth, and planted bugs
# (name, text in the RTL, its replacement).
BLOCKS = {
    "ccsim_token_throttler": {
        "params": {"NumEntries": 2, "DestWidth": 2, "DtWidth": 2, "SizeWidth": 2, "TokenWidth": 4,
                   "SrcEpoch": 6},
        "depth": 24,  # reaching the 4-bit token maximum takes 16 cycles after a throttle
        "bugs": [
            ("token counter without saturation",
             "tokens_d[i*TokenWidth +: TokenWidth] = (tok > (TokenWidth+1)'(TokenMax)) ? TokenMax :",
             "tokens_d[i*TokenWidth +: TokenWidth] = (tok > (TokenWidth+1)'(TokenMax)) ? tok[TokenWidth-1:0] :"),
            ("new throttle leaves no token", "tokens_d[i*TokenWidth +: TokenWidth] = TokenWidth'(1);\n        gen_d",
             "tokens_d[i*TokenWidth +: TokenWidth] = TokenWidth'(0);\n        gen_d"),
        ],
    },
    "ccsim_contention_counters": {
        "params": {"NumPorts": 2, "NumIncPorts": 2, "NumDecPorts": 2, "CounterWidth": 2, "Threshold": 2,
                   "NumGlobalLinks": 2, "NumGroupRouters": 3, "PartialWidth": 2, "SentWidth": 1,
                   "BroadcastPeriod": 3},
        "depth": 12,
        "bugs": [
            ("counter without its upper clamp",
             "(t > (CounterWidth+IncCntWidth+1)'({CounterWidth{1'b1}})) ? {CounterWidth{1'b1}} :",
             "(t > (CounterWidth+IncCntWidth+1)'({CounterWidth{1'b1}})) ? t[CounterWidth-1:0] :"),
            ("counter without its lower clamp",
             "t = (t >= (CounterWidth+IncCntWidth+1)'(n_dec)) ? t - (CounterWidth+IncCntWidth+1)'(n_dec) : '0;",
             "t = t - (CounterWidth+IncCntWidth+1)'(n_dec);"),
        ],
    },
    "ccsim_last_hop_scheduler": {
        "params": {"NumEndpoints": 2, "NumReqPorts": 2, "NumEnqPorts": 2, "NumDeqPorts": 1, "CountWidth": 3,
                   "DropThreshold": 3, "TimeWidth": 8, "SizeWidth": 3, "FlitsWidth": 2},
        "depth": 10,  # grants of 7 flits on 2 lanes stay below 2^8 from a time below 2^6
        "bugs": [
            ("grant at next_free even when that is past",
             "base[e*TimeWidth +: TimeWidth] = (now_i > next_free_q[e*TimeWidth +: TimeWidth]) ? now_i :",
             "base[e*TimeWidth +: TimeWidth] = (now_i > next_free_q[e*TimeWidth +: TimeWidth]) ? "
             "next_free_q[e*TimeWidth +: TimeWidth] :"),
            ("queued count without its upper clamp",
             "queued_d[e*CountWidth +: CountWidth] = (acc > AccWidth'(CountMax)) ? CountMax : acc[CountWidth-1:0];",
             "queued_d[e*CountWidth +: CountWidth] = acc[CountWidth-1:0];"),
        ],
    },
    "ccsim_contention_degree_unit": {
        "params": {"Radix": 2, "NumInputs": 2, "NumSamples": 3, "BoundSampleInterval": 2, "NumBoundSamples": 2},
        "depth": 16,  # both FIFOs wrap more than once
        "bugs": [
            ("sample sum that never drops the oldest sample",
             "                                          - SumWidth'(oldest_sample[o*DegreeWidth +: DegreeWidth]);",
             "                                          ;"),
            ("maxima sum that drops the oldest minimum",
             "            - BoundSumWidth'(oldest_bound[o*BoundWidth + DegreeWidth +: DegreeWidth]);",
             "            - BoundSumWidth'(oldest_bound[o*BoundWidth +: DegreeWidth]);"),
        ],
    },
}


def check(yosys, block, source, cfg, induction):
    """True when every assertion holds: BMC from reset to cfg's depth, or by induction."""
    chparam = " ".join(f"-set {k} {v}" for k, v in cfg["params"].items())
    prove = (f"sat -tempinduct -prove-asserts -set-assumes -set-init-zero -maxsteps {cfg['depth']} -verify" if induction
             else f"sat -prove-asserts -set-assumes -set-init-zero -seq {cfg['depth']} -verify")
    script = (f"read_verilog -sv -formal {source}; chparam {chparam} {block}; prep -top {block}; "
              f"memory_map; opt -fast; async2sync; {prove}")
    proc = subprocess.run([yosys, "-q", "-p", script], capture_output=True, text=True)
    if proc.returncode != 0 and "proof did fail" not in proc.stderr + proc.stdout:
        sys.exit(f"formal: yosys failed on {block}: {(proc.stderr or proc.stdout).strip().splitlines()[-1:]}")
    return proc.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--yosys", default="yosys")
    ap.add_argument("--block", choices=sorted(BLOCKS))
    args = ap.parse_args()
    bad = 0
    for block, cfg in BLOCKS.items():
        if args.block and block != args.block:
            continue
        source = os.path.join(ROOT, "rtl", block + ".sv")
        bmc = check(args.yosys, block, source, cfg, induction=False)
        ind = bmc and check(args.yosys, block, source, cfg, induction=True)
        how = "proven by induction" if ind else f"hold to depth {cfg['depth']} (induction does not close)"
        print(f"{block}: assertions {how}" if bmc else f"{block}: an assertion FAILS within {cfg['depth']} cycles")
        bad += not bmc
        text = open(source).read()
        with tempfile.TemporaryDirectory() as tmp:
            for name, old, new in cfg["bugs"]:
                if text.count(old) != 1:
                    print(f"{block}: planted bug \"{name}\": its text is not in the RTL once (update the list)")
                    bad += 1
                    continue
                mutant = os.path.join(tmp, block + ".sv")
                with open(mutant, "w") as f:
                    f.write(text.replace(old, new))
                caught = not check(args.yosys, block, mutant, cfg, induction=False)
                print(f"{block}: planted bug \"{name}\": {'caught' if caught else 'SURVIVES'}")
                bad += not caught
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
