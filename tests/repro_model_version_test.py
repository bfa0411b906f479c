#!/usr/bin/env python3
"""The reproductions' model version (the cache key of every result on record) hashes the results
gate's digests, but not those a config added later brought (results_gate.py add, below its marker):
adding a check keeps the records; changing any digest above the marker changes the version."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
import results_gate  # noqa: E402
from repro import runner  # noqa: E402


def version_of(text):
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "tests", "results_gate"))
        with open(os.path.join(root, "tests", "results_gate", "digests.txt"), "w") as f:
            f.write(text)
        return runner.model_version(root)


def main():
    base = results_gate.HEADER + "a 0123\nb 4567\n"
    added = base + results_gate.ADDED_MARKER + "\nc 89ab\n"
    changed = results_gate.HEADER + "a 0124\nb 4567\n" + results_gate.ADDED_MARKER + "\nc 89ab\n"
    if version_of(added) != version_of(base):
        print("repro_model_version: FAILED: a digest added below the marker changed the model version")
        return 1
    if version_of(changed) == version_of(base):
        print("repro_model_version: FAILED: a changed digest above the marker kept the model version")
        return 1
    print("repro_model_version: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
