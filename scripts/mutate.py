#!/usr/bin/env python3
"""Mutation testing of the RTL blocks (make verify): applies each mutant of rtl/mutants.toml
(a plausible bug: the exact text `from` of rtl/ccsim_<block>.sv replaced by `to`), rebuilds
the Verilator testbench and runs that block's tests (every cycle against the C++ reference);
a mutant is caught when a test fails. Works on a copy of the source tree, so an interrupted run
leaves the checkout as it was.

  scripts/mutate.py [--block NAME] [--mutant SUBSTRING] [--work DIR] [-j N] [--cycles N]
  scripts/mutate.py --check       # the list only: every `from` found exactly once (fast)

Writes DIR/mutants.md (one row per mutant: caught by which test, or SURVIVED) and exits 1 if a
mutant survived, a mutant does not build, or the unmutated RTL fails its own tests."""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LIST = os.path.join(ROOT, "rtl", "mutants.toml")

# Each block's testbench suite (tb/tb_<block>.cpp); the speed measurement proves nothing here.
SUITES = {
    "contention_degree_unit": "ContentionDegreeUnitRtl",
    "contention_counters": "ContentionCountersRtl",
    "token_throttler": "TokenThrottlerRtl",
    "last_hop_scheduler": "LastHopSchedulerRtl",
}


def load(path):
    with open(path, "rb") as f:
        mutants = tomllib.load(f).get("mutant", [])
    problems, names = [], set()
    for m in mutants:
        missing = [key for key in ("block", "name", "from", "to") if key not in m]
        if missing:
            problems.append(f"{m.get('name', '?')}: missing {', '.join(missing)}")
            continue
        if m["block"] not in SUITES:
            problems.append(f"{m['name']}: block \"{m['block']}\" is not one of {', '.join(SUITES)}")
            continue
        if m["name"] in names:
            problems.append(f"{m['name']}: listed twice")
        names.add(m["name"])
        with open(rtl_file(ROOT, m["block"])) as f:
            n = f.read().count(m["from"])
        if n != 1:
            problems.append(f"{m['name']}: its text is in rtl/ccsim_{m['block']}.sv {n} times, not once"
                            " (update rtl/mutants.toml)")
        if m["from"] == m["to"]:
            problems.append(f"{m['name']}: `to` equals `from`")
    return mutants, problems


def rtl_file(root, block):
    return os.path.join(root, "rtl", f"ccsim_{block}.sv")


def copy_tree(dst):
    """The sources (git ls-files: tracked and new, not ignored) into dst/src, refreshed each run."""
    src = os.path.join(dst, "src")
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    for rel in listed:
        here, target = os.path.join(ROOT, rel), os.path.join(src, rel)
        if not os.path.isfile(here):  # deleted in the checkout, not yet in git
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target) or not filecmp.cmp(here, target, shallow=False):
            # A fresh mtime (copy, not copy2): a file restored after an interrupted run is older than
            # the mutant's build outputs, and make would keep the mutated model.
            shutil.copy(here, target)
    return src


def build(src, bld, jobs, log):
    """Builds ccsim_tb; a failed build is configured and built once more: CMake's verilate()
    reads the list of generated files at configure time, and a mutant's verilation renames
    them (the build then links stale objects), so the second configure reads the new list."""
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
    for attempt in range(2):
        log.flush()
        if attempt or not os.path.exists(os.path.join(bld, "CMakeCache.txt")):
            subprocess.run(["cmake", "-S", src, "-B", bld, "-DCMAKE_BUILD_TYPE=Release"] + launcher, check=True,
                           stdout=log, stderr=subprocess.STDOUT)
        if subprocess.run(["cmake", "--build", bld, "-j", str(jobs), "--target", "ccsim_tb"], stdout=log,
                          stderr=subprocess.STDOUT).returncode == 0:
            return True
    return False


def run_suite(bld, block, cycles, log):
    """(passed, the first failing test or '')."""
    env = dict(os.environ, CCSIM_TB_CYCLES=str(cycles))
    r = subprocess.run([os.path.join(bld, "tb", "ccsim_tb"), f"--gtest_filter={SUITES[block]}.*:-*SpeedPerClock*",
                        "--gtest_color=no"], env=env, capture_output=True, text=True)
    log.write(r.stdout + r.stderr)
    failed = [m.group(1) for m in re.finditer(r"^\[  FAILED  \] (\S+\.\S+)", r.stdout, re.M)]
    return r.returncode == 0, (failed[0] if failed else "")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="check the list only")
    ap.add_argument("--block", choices=sorted(SUITES), help="only this block's mutants")
    ap.add_argument("--mutant", help="only mutants whose name contains this text")
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutate"), help="scratch copy and build")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cycles", type=int, default=200000, help="cycles per random test (the testbench default)")
    a = ap.parse_args(argv)

    mutants, problems = load(LIST)
    for p in problems:
        print(f"rtl/mutants.toml: {p}")
    if problems:
        return 1
    if a.block:
        mutants = [m for m in mutants if m["block"] == a.block]
    if a.mutant:
        mutants = [m for m in mutants if a.mutant in m["name"]]
    if a.check:
        print(f"rtl/mutants.toml: {len(mutants)} mutants, each found once in its block")
        return 0
    if not mutants:
        print("no mutant matches")
        return 1

    os.makedirs(a.work, exist_ok=True)
    src = copy_tree(a.work)
    bld = os.path.join(a.work, "build")
    rows = []
    # As copied: edits of the checkout while this runs do not count.
    originals = {b: open(rtl_file(src, b)).read() for b in SUITES}
    with open(os.path.join(a.work, "mutate.log"), "w") as log:
        # The unmutated blocks must pass, or a "caught" mutant proves nothing.
        if not build(src, bld, a.jobs, log):
            print(f"the unmutated testbench does not build: see {log.name}")
            return 1
        for block in sorted({m["block"] for m in mutants}):
            ok, test = run_suite(bld, block, a.cycles, log)
            if not ok:
                print(f"{block}: the unmutated RTL fails {test}: see {log.name}")
                return 1
        for i, m in enumerate(mutants, 1):
            path = rtl_file(src, m["block"])
            original = originals[m["block"]]
            t0 = time.time()
            try:
                with open(path, "w") as f:
                    f.write(original.replace(m["from"], m["to"], 1))
                log.write(f"\n=== mutant {m['block']}: {m['name']}\n")
                if not build(src, bld, a.jobs, log):
                    verdict = "DOES NOT BUILD (fix the mutant)"
                else:
                    ok, test = run_suite(bld, m["block"], a.cycles, log)
                    verdict = "SURVIVED" if ok else f"caught by {test}"
            finally:
                with open(path, "w") as f:
                    f.write(original)
            print(f"[{i}/{len(mutants)}] {m['block']}: {m['name']}: {verdict} ({time.time() - t0:.0f} s)", flush=True)
            rows.append((m["block"], m["name"], verdict))
    caught = sum(v.startswith("caught") for _, _, v in rows)
    bad = len(rows) - caught
    with open(os.path.join(a.work, "mutants.md"), "w") as f:
        f.write(f"# Mutation testing: {caught} of {len(rows)} mutants caught\n\n"
                f"`scripts/mutate.py` ({a.cycles} cycles per random test)\n\n"
                "| block | mutant | verdict |\n|---|---|---|\n")
        for block, name, verdict in rows:
            f.write(f"| {block} | {name} | {verdict} |\n")
    print(f"{caught} of {len(rows)} mutants caught; table: {os.path.join(a.work, 'mutants.md')}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
