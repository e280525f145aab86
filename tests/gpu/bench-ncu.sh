#!/bin/sh
# bench-ncu.sh RUNNER: the runner's kernel medians against Nsight Compute's, in both cache
# states: --cache cold against ncu's default (caches flushed before each profiled launch),
# --cache warm against ncu --cache-control none. Prints a Markdown table with the ratios.
# NCU names the ncu binary (default: ncu on PATH, else /usr/local/cuda/bin/ncu).
#
# Under ncu the runner runs untraced (--no-trace: ncu holds CUPTI) with one warm-up sequence
# and two traced-phase sequences, so the first three launches of the kernel come right after
# copies; ncu skips them (--launch-skip 3) and profiles five (--launch-count 5) of the
# back-to-back launches of the cross-check that follow, which is what the runner's kernel
# time measures. --kernel-name picks the kernel by its exact name, so the runner's hold and
# flush kernels are neither counted nor profiled.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
PY=${PYTHON:-python3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# kernel, size, block, the kernel's name in the traces
CONFIGS="vector_add 1e7 32 vector_add
vector_add 1e7 256 vector_add
vector_add 1e7 1024 vector_add
matmul_tiled 2048 16x16 matmul_tiled_16
matmul_regtile 4096 16x16 matmul_regtile
reduce_warp_multi 1e8 256 reduce_warp_multi
transpose_padded 8192 32x8 transpose_padded"

i=0
echo "$CONFIGS" | while read -r kernel size block name; do
  i=$((i + 1))
  for cache in warm cold; do
    "$R" --kernel "$kernel" --sizes "$size" --blocks "$block" --cpu none --reps 20 \
      --cache "$cache" >"$OUT/$i-$cache.jsonl"
  done
  "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
    --kernel-name "regex:^$name\$" --launch-skip 3 --launch-count 5 \
    "$R" --kernel "$kernel" --sizes "$size" --blocks "$block" --cpu none --no-trace \
    --warmup 1 --reps 2 >"$OUT/$i-ncu-cold.csv" 2>"$OUT/$i-ncu-cold.err" || true
  "$NCU" --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
    --kernel-name "regex:^$name\$" --launch-skip 3 --launch-count 5 \
    "$R" --kernel "$kernel" --sizes "$size" --blocks "$block" --cpu none --no-trace \
    --warmup 1 --reps 2 >"$OUT/$i-ncu-warm.csv" 2>"$OUT/$i-ncu-warm.err" || true
  echo "$i $kernel $size $block $name" >>"$OUT/configs"
done

"$PY" - "$OUT" <<'EOF'
import csv, io, json, os, statistics, sys
out = sys.argv[1]
UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
         "second": 1e9, "s": 1e9}

def runner_median(path):
    for line in open(path):
        r = json.loads(line)
        if r.get("type") == "timing" and r.get("kernel_ns"):
            return r["kernel_ns"]["median"], r.get("kernel_untraced_ns")
    return None, None

def ncu_median(path, name):
    # ncu prints its own lines (==PROF==) before the CSV; the CSV starts at the header.
    text = open(path, errors="replace").read()
    start = text.find('"ID"')
    if start < 0:
        return None, 0
    values = []
    for row in csv.DictReader(io.StringIO(text[start:])):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        if row.get("Kernel Name", "").split("(")[0] != name:
            continue
        value = float(row["Metric Value"].replace(",", ""))
        values.append(value * UNITS.get(row.get("Metric Unit", "nsecond"), 1.0))
    return (statistics.median(values) if values else None), len(values)

def fmt(ns):
    return "—" if ns is None else ("%.2f µs" % (ns / 1e3) if ns < 1e6 else "%.3f ms" % (ns / 1e6))

print("| kernel | size | block | cache | runner (CUPTI) | cross-check | ncu | runner / ncu |")
print("|---|---|---|---|---|---|---|---|")
worst = 0.0
for line in open(os.path.join(out, "configs")):
    i, kernel, size, block, name = line.split()
    for cache, ncu_mode in (("warm", "--cache-control none"), ("cold", "default")):
        ours, untraced = runner_median(os.path.join(out, "%s-%s.jsonl" % (i, cache)))
        theirs, n = ncu_median(os.path.join(out, "%s-ncu-%s.csv" % (i, cache)), name)
        ratio = ours / theirs if ours and theirs else None
        if ratio:
            worst = max(worst, abs(ratio - 1))
        print("| %s | %s | %s | %s (ncu %s) | %s | %s | %s (%d launches) | %s |"
              % (kernel, size, block, cache, ncu_mode, fmt(ours), fmt(untraced), fmt(theirs), n,
                 "%.3f" % ratio if ratio else "—"))
print()
print("Largest difference from ncu: %.1f%% (target: within 3%%)." % (100 * worst))
EOF
