#!/usr/bin/env python3
# same-records.py A.jsonl B.jsonl: whether two runs of the runner (two builds of it on the same
# GPU and arguments, say before and after a change that should write nothing new) printed the
# same records but for what is measured: the same record types, keys in the same order, names,
# kinds, directions, sizes, shapes and counts; every other number, and the hello's time, may
# differ. The records are compared as a set, since CUPTI may hand them over in another order.
# Prints "same records N N" (exit 0) or the first record that differs (exit 1). Python 3.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import sys

# Numbers that are not measurements.
KEEP = {"run", "rep", "bytes", "grid", "block", "registers", "static_smem", "dynamic_smem",
        "protocol", "index", "runs", "failed", "exit_code", "done", "total", "dropped_records",
        "n", "program_run", "of", "exit_status"}


def shape(value, key=None):
    if isinstance(value, dict):
        return {k: shape(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v, key) for v in value]
    measured = isinstance(value, (int, float)) and not isinstance(value, bool) and key not in KEEP
    return "#" if measured or key == "time" else value


def records(path):
    with open(path, encoding="utf-8") as f:
        return sorted(json.dumps(shape(json.loads(line))) for line in f if line.strip())


a, b = records(sys.argv[1]), records(sys.argv[2])
if a == b:
    print("same records", len(a), len(b))
    sys.exit(0)
print("DIFFERENT", len(a), len(b))
for x, y in zip(a, b):
    if x != y:
        print(" ", x[:400])
        print(" ", y[:400])
        break
sys.exit(1)
