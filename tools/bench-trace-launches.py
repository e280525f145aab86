#!/usr/bin/env python3
# bench-trace-launches.py N OUT: a traced program of N more launches, for benchmarks of
# reading and analysing a large trace (docs/benchmarks.md), not a recording: the bundled trace
# of the tutorial's vector add with N more cuLaunchKernelEx calls and their kernels, each a copy
# of the recorded one, 40 µs apart after the program's last record, before its trace_end.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench-trace-launches.py N OUT")
    n, out = int(sys.argv[1]), sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    sample = os.path.join(here, "..", "resources", "samples", "trace-vector-add-h200.jsonl")
    records = [json.loads(line) for line in open(sample) if line.strip()]
    kernel = next(r for r in records if r.get("kind") == "kernel")
    launch = next(r for r in records if r.get("kind") == "api" and r["name"] == "cuLaunchKernelEx")
    last = max(r.get("end", 0) for r in records)
    correlation = max(r.get("correlation", 0) for r in records)
    end = next(i for i, r in enumerate(records) if r["type"] == "trace_end")
    added = []
    step = 40000  # a launch every 40 µs: the 37.7 µs kernels back to back on their stream
    for i in range(n):
        correlation += 1
        t0 = last + (i + 1) * step
        api = dict(launch, start=t0, end=t0 + (launch["end"] - launch["start"]),
                   correlation=correlation)
        k = dict(kernel, start=t0 + 1000, end=t0 + 1000 + (kernel["end"] - kernel["start"]),
                 correlation=correlation)
        added += [api, k]
    records[end:end] = added
    records[-1] = dict(records[-1], records=records[-1]["records"] + len(added))
    with open(out + ".tmp", "w") as f:
        for r in records:
            f.write(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n")
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
