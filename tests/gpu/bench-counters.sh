#!/bin/sh
# bench-counters.sh RUNNER: the runner's counters (--counters all) against Nsight Compute's,
# metric by metric, on the configurations of bench-ncu.sh and the transpose and reduction
# ladders' rungs. Prints a Markdown table, then a verdict: counts and bytes within 5% of ncu,
# percentages within 2 points (docs/counters.md); exits 1 where one is not.
# NCU names the ncu binary (default: ncu on PATH, else /usr/local/cuda/bin/ncu).
#
# Like with like: the runner reads its counters in one launch after its timed ones; ncu, which
# holds the GPU's profiler itself, profiles one launch of the same configuration (the second:
# one warm-up sequence first), the runner untraced and without --counters. Both with the clocks
# as they are (--clock-control none). ncu's caches are flushed before each of its passes
# (its default); the runner's launch runs in whatever the previous launches left, so that a
# problem that fits in L2 may read fewer DRAM bytes on the runner's side: the table says the
# size of each problem's arrays beside the L2's.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
PY=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
CATALOGUE=$HERE/../../src/protocol/ws-counters-catalogue.c
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# kernel, size, block, the kernel's name as ncu sees it
CONFIGS="vector_add 1e7 256 vector_add
vector_add 1e7 32 vector_add
matmul_naive 2048 16x16 matmul_naive
matmul_tiled 2048 16x16 matmul_tiled_16
transpose_shared 8192 32x8 transpose_shared
transpose_padded 8192 32x8 transpose_padded
reduce_warp_multi 1e8 256 reduce_warp_multi
divergence_lane 1e7 256 divergence_lane
divergence_warp 1e7 256 divergence_warp"

# The catalogue's keys and Nsight Compute names, as the record writes them.
"$PY" - "$CATALOGUE" >"$OUT/catalogue" <<'PYEOF'
import re, sys
text = open(sys.argv[1]).read()
for key, metric, unit in re.findall(r'\{ "(\w+)", "([\w.]+)",\s*WS_COUNTER_(\w+)', text):
    print(key, metric, unit)
for reason in re.findall(r'STALL \((\w+)\)', text):
    print("stall_" + reason,
          "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % reason, "RATIO")
PYEOF
METRICS=$(awk '{print $2}' "$OUT/catalogue" | paste -sd, -)

i=0
echo "$CONFIGS" | while read -r kernel size block name; do
  i=$((i + 1))
  "$R" --kernel "$kernel" --sizes "$size" --blocks "$block" --cpu none --reps 3 \
    --counters all >"$OUT/$i-runner.jsonl" 2>"$OUT/$i-runner.err" || true
  "$NCU" --clock-control none --metrics "$METRICS" --csv --print-units base \
    --kernel-name "regex:^$name\$" --launch-skip 1 --launch-count 1 \
    "$R" --kernel "$kernel" --sizes "$size" --blocks "$block" --cpu none --no-trace \
    --warmup 1 --reps 1 >"$OUT/$i-ncu.csv" 2>"$OUT/$i-ncu.err" || true
  echo "$i $kernel $size $block $name" >>"$OUT/configs"
done

"$PY" - "$OUT" <<'PYEOF'
import csv, io, json, os, sys
out = sys.argv[1]
catalogue = [l.split() for l in open(os.path.join(out, "catalogue"))]

def runner(path):
    for line in open(path):
        r = json.loads(line)
        if r.get("type") == "counters":
            return r
        if r.get("type") == "error" and r.get("code") == "counters_unavailable":
            return {"unavailable": r.get("message")}
    return {}

def ncu(path, name):
    text = open(path, errors="replace").read() if os.path.exists(path) else ""
    start = text.find('"ID"')
    values = {}
    if start < 0:
        return values
    for row in csv.DictReader(io.StringIO(text[start:])):
        if row.get("Kernel Name", "").split("(")[0] != name:
            continue
        try:
            values[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            pass
    return values

print("| kernel | size | block | counter | runner | ncu | difference | verdict |")
print("|---|---|---|---|---|---|---|---|")
bad = compared = 0
for line in open(os.path.join(out, "configs")):
    i, kernel, size, block, name = line.split()
    r = runner(os.path.join(out, i + "-runner.jsonl"))
    n = ncu(os.path.join(out, i + "-ncu.csv"), name)
    if "unavailable" in r or not r:
        print("| %s | %s | %s | — | %s | | | not read |" % (kernel, size, block,
              r.get("unavailable", "no counters record")))
        bad += 1
        continue
    values = r.get("values", {})
    for key, metric, unit in catalogue:
        a, b = values.get(key), n.get(metric)
        if a is None or b is None:
            print("| %s | %s | %s | %s | %s | %s | | missing |" % (kernel, size, block, key,
                  a, b))
            continue
        compared += 1
        if unit == "PERCENT":
            diff, ok = "%+.2f points" % (a - b), abs(a - b) <= 2
        elif b == 0:
            diff, ok = ("0" if a == 0 else "ncu 0"), a == 0 or abs(a) < 1e-6
        else:
            diff, ok = "%+.2f%%" % (100 * (a / b - 1)), abs(a / b - 1) <= 0.05
        bad += not ok
        print("| %s | %s | %s | %s | %.6g | %.6g | %s | %s |" % (kernel, size, block, key, a, b,
              diff, "ok" if ok else "**off**"))
    print("| %s | %s | %s | (cost) | %d passes, %.1f ms | | | |" % (kernel, size, block,
          r.get("passes", 0), r.get("cost_ns", 0) / 1e6))
print()
print("%d counters compared, %d outside 5%% (counts, bytes) or 2 points (percentages), or not read"
      % (compared, bad))
sys.exit(1 if bad else 0)
PYEOF
