#!/usr/bin/env python3
# make-seeds.py: the fuzz targets' first inputs, cut from the recordings in resources/samples
# (lines as recorded, never edited): sessions of a few runs each with their activities
# thinned, one line of each record type, and the runner command lines the recordings name.
# The corpora committed in tests/fuzz/corpus/ grew from these under libFuzzer and were merged
# (-merge=1); run this again only to start a corpus afresh.
# Usage: tests/fuzz/make-seeds.py OUTPUT-DIRECTORY
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "resources", "samples")
RUNS = 2         # runs kept from each recording
ACTIVITIES = 4   # activities kept of each run


def excerpt(lines):
    """The head (hello, device, kernels), RUNS runs with their records, and the done."""
    out, runs, kept = [], 0, 0
    for line in lines:
        kind = json.loads(line)["type"]
        if kind == "run":
            runs += 1
            kept = 0
        if kind == "done":
            out.append(line)
        elif runs > RUNS:
            continue
        elif kind == "activity":
            kept += 1
            if kept <= ACTIVITIES:
                out.append(line)
        else:
            out.append(line)
    return out


def write(directory, name, text):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        f.write(text)


def main(out):
    for name in sorted(os.listdir(SAMPLES)):
        if not name.endswith(".jsonl"):
            continue
        stem = name[: -len(".jsonl")]
        with open(os.path.join(SAMPLES, name), encoding="utf-8") as f:
            lines = f.read().splitlines()
        session = "\n".join(excerpt(lines)) + "\n"
        for target in ("session", "chart", "report"):
            write(os.path.join(out, target), stem + ".jsonl", session)
        seen = set()
        for line in lines:
            kind = json.loads(line)["type"]
            if kind not in seen:
                seen.add(kind)
                write(os.path.join(out, "record"), "%s-%s.json" % (stem, kind), line)
        hello = json.loads(lines[0])
        write(os.path.join(out, "runner-args"), stem + ".argv", "\n".join(hello["argv"]) + "\n")
        kernels = [l for l in lines if json.loads(l)["type"] == "kernel"]
        first = json.loads(kernels[0])
        shape = "×".join(str(d) for d in first["default_shape"][: len(first["shape_params"])])
        block = "x".join(str(d) for d in first["default_block"][: first["block_dims"]])
        plan = [first["name"], shape, block, "pinned", "10", "11", "1000", "1e6", "10", block]
        write(os.path.join(out, "plan"), stem + ".plan", "\n".join(kernels + plan) + "\n")
    for words in (["--list"], ["--device-info", "--device", "0"], ["--self-test"], ["--help"],
                  ["--check", "--kernel", "matmul_tiled", "--sizes", "256:1024:x2", "--blocks",
                   "8x8,16x16", "--transfer", "streams:4", "--cache", "cold"]):
        write(os.path.join(out, "runner-args"), words[0][2:] + ".argv", "\n".join(words) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make-seeds.py OUTPUT-DIRECTORY")
    main(sys.argv[1])
