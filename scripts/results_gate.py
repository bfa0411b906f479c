#!/usr/bin/env python3
"""The results-change gate: runs every config of tests/results_gate/ and compares
a digest of each result JSON with the digests committed in
tests/results_gate/digests.txt. The digest leaves out "perf" and "run" (they depend on the
machine) and "config" (the echo of every setting: a new key or a changed default
that leaves the results alone is not a change of results, and one that does not
shows in the results themselves).

  results_gate.py check  [--ccsim build/ccsim] [--no-rtl] [-j N]
  results_gate.py update [--ccsim build/ccsim] [-j N]
  results_gate.py add    [--ccsim build/ccsim] [-j N]

A commit that changes results on purpose runs `update` and commits the new
digests with the reason in its message. `add` gives new configs their digests
without touching the others (it fails if any of them changed): below a marker
line, which the reproductions' model version (scripts/repro/runner.py) does not
hash, so the results on record stay valid; the next `update` takes them in.
`check` exits 1 naming every config whose results changed, and the first keys
that differ when --keep DIR holds the previous results (update writes them there).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GATE_DIR = os.path.normpath(os.path.join(HERE, "..", "tests", "results_gate"))
DIGESTS = os.path.join(GATE_DIR, "digests.txt")
# Digests below this line came with `add`: the model version hashes the lines above it.
ADDED_MARKER = "# Added by `results_gate.py add` since the model version was taken (not hashed into it):"
HEADER = ("# Digests of the results-change gate (scripts/results_gate.py): sha256 of each result\n"
          "# JSON without \"perf\" and \"config\". Update them only on purpose, with the reason in the commit.\n")


def model_version(digests_text):
    """The reproductions' model version (scripts/repro/runner.py keys every run on record by it): a hash
    of the digests above ADDED_MARKER. The same hash means the same model; a config added since adds a
    check, not a change."""
    i = digests_text.find(ADDED_MARKER.encode())
    return hashlib.sha256(digests_text if i < 0 else digests_text[:i]).hexdigest()[:12]


def canonical(result):
    """The result without its machine-dependent parts (speed, where it ran) and its config echo, as canonical bytes."""
    result = dict(result)
    result.pop("perf", None)
    result.pop("run", None)
    result.pop("config", None)
    return json.dumps(result, sort_keys=True, separators=(",", ":")).encode()


def run_one(ccsim, path):
    proc = subprocess.run([ccsim, "run", path], capture_output=True, text=True,
                          env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if proc.returncode != 0:
        return None, proc.stderr.strip() or f"exit code {proc.returncode}"
    return json.loads(proc.stdout), None


def configs(no_rtl):
    names = sorted(f[:-5] for f in os.listdir(GATE_DIR) if f.endswith(".toml"))
    return [n for n in names if not (no_rtl and n.startswith("rtl_"))]


def read_digests():
    out = {}
    if os.path.exists(DIGESTS):
        for line in open(DIGESTS):
            line = line.strip()
            if line and not line.startswith("#"):
                name, digest = line.split()
                out[name] = digest
    return out


def first_differences(old, new, prefix="", limit=5):
    """Up to `limit` keys (dotted paths) whose values differ."""
    diffs = []
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new)):
            if k in ("perf", "run", "config") and not prefix:
                continue
            if k not in old or k not in new:
                diffs.append(f"{prefix}{k} (only in {'new' if k in new else 'old'})")
            else:
                diffs += first_differences(old[k], new[k], f"{prefix}{k}.", limit - len(diffs))
            if len(diffs) >= limit:
                break
    elif old != new:
        diffs.append(f"{prefix.rstrip('.')}: {json.dumps(old)[:60]} -> {json.dumps(new)[:60]}")
    return diffs[:limit]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["check", "update", "add"])
    ap.add_argument("--ccsim", default=os.path.join(HERE, "..", "build", "ccsim"))
    ap.add_argument("--no-rtl", action="store_true", help="skip rtl_* configs (a build without CCSIM_BUILD_HW)")
    ap.add_argument("--keep", help="directory for the result JSONs (update writes, check compares)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    names = configs(args.no_rtl and args.mode == "check")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        runs = dict(zip(names, pool.map(lambda n: run_one(args.ccsim, os.path.join(GATE_DIR, n + ".toml")), names)))

    failed = [f"{n}: the run failed: {err}" for n, (_, err) in runs.items() if err]
    if failed:
        print("\n".join(failed), file=sys.stderr)
        return 1
    digests = {n: hashlib.sha256(canonical(r)).hexdigest()[:32] for n, (r, _) in runs.items()}

    if args.mode == "update":
        with open(DIGESTS, "w") as f:
            f.write(HEADER)
            for n in sorted(digests):
                f.write(f"{n} {digests[n]}\n")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for n, (r, _) in runs.items():
                json.dump(r, open(os.path.join(args.keep, n + ".json"), "w"), indent=1, sort_keys=True)
        print(f"results gate: {len(digests)} digests written to {os.path.relpath(DIGESTS)}")
        return 0

    committed = read_digests()
    bad = []
    for n in names:
        if n not in committed and args.mode == "add":
            continue
        if n not in committed:
            bad.append(f"{n}: no committed digest (a new config: run `scripts/results_gate.py add`)")
        elif committed[n] != digests[n]:
            line = f"{n}: results changed ({committed[n]} -> {digests[n]})"
            old = os.path.join(args.keep or "", n + ".json")
            if args.keep and os.path.exists(old):
                line += "\n    " + "\n    ".join(first_differences(json.load(open(old)), runs[n][0]))
            bad.append(line)
    for n in sorted(set(committed) - set(configs(False))):
        bad.append(f"{n}: a digest without a config in {os.path.relpath(GATE_DIR)}")
    if bad:
        print("results gate: FAILED\n" + "\n".join(bad), file=sys.stderr)
        print("A change of results must be on purpose: run `scripts/results_gate.py update` and say why in the "
              "commit message.", file=sys.stderr)
        return 1
    if args.mode == "add":
        new = [n for n in names if n not in committed]
        if not new:
            print("results gate: every config has its digest; nothing to add")
            return 0
        with open(DIGESTS) as f:
            text = f.read()
        with open(DIGESTS, "a") as f:
            if ADDED_MARKER not in text:
                f.write(ADDED_MARKER + "\n")
            for n in new:
                f.write(f"{n} {digests[n]}\n")
        print(f"results gate: {len(names) - len(new)} configs unchanged; added {', '.join(new)} "
              "(the model version stays)")
        return 0
    print(f"results gate: {len(names)} configs, results unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
