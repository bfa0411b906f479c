#!/usr/bin/env python3
"""`ccsim reproduce --dry-run` lists the runs to do and runs none: no result file, no raw run,
whatever the launcher (it once ran every point under the local launcher)."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    with tempfile.TemporaryDirectory() as d:
        results, raw = os.path.join(d, "r.jsonl"), os.path.join(d, "raw")
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "reproduce.py"), "003", "2",
                               "--scale", "quick", "--dry-run", "--results", results, "--raw", raw,
                               "-o", os.path.join(d, "out"), "--ccsim", "/bin/false"],
                              capture_output=True, text=True)
        made = os.path.exists(results) or (os.path.isdir(raw) and os.listdir(raw))
        if proc.returncode != 0 or "runs to do" not in proc.stdout or "ur48 none:" not in proc.stdout or made:
            print(f"repro_dry_run: FAILED: exit {proc.returncode}, ran something: {bool(made)}\n{proc.stdout}{proc.stderr}")
            return 1
    print("repro_dry_run: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
