#!/bin/sh
# record-samples.sh RUNNER OUTDIR: makes the recordings bundled in resources/samples/ and the
# raw figures behind docs/benchmarks.md, on a machine with a GPU. Copy the .jsonl files into
# resources/samples/ untouched.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
OUT=$2
mkdir -p "$OUT"
log() { printf '%s\n' "$*" | tee -a "$OUT/bench.txt"; }

# ---- recordings ------------------------------------------------------------------------------
# The tutorial's vector add over sizes, with both kinds of host memory and both CPU baselines.
"$R" --kernel vector_add --sizes 1e3:1e8:x10 --blocks 256 --transfer pageable,pinned \
  --cpu 1,all >"$OUT/vector-add-sizes.jsonl"
# Threads per block at the tutorial's n = 10^7.
"$R" --kernel vector_add --sizes 1e7 --blocks 32:1024:+32 --cpu 1,all \
  >"$OUT/vector-add-blocks.jsonl"
# The matmul ladder of the tutorial: naive against shared-memory tiles of 8, 16 and 32.
"$R" --kernel matmul_naive,matmul_tiled --sizes 256:4096:x2 --blocks 8x8,16x16,32x32 \
  --cpu 1,all >"$OUT/matmul-sizes.jsonl"
# Two-dimensional blocks for the naive kernel, for the block heatmap.
blocks=""
for y in 4 8 16 32; do
  for x in 4 8 16 32 64; do
    [ $((x * y)) -le 1024 ] && blocks="$blocks${blocks:+,}${x}x${y}"
  done
done
"$R" --kernel matmul_naive --sizes 2048 --blocks "$blocks" --cpu 1,all \
  >"$OUT/matmul-naive-blocks.jsonl"

# ---- benchmarks ------------------------------------------------------------------------------
log "date: $(date -u +%Y-%m-%dT%H:%MZ)"
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo unknown)"
log "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
# Runner start to its first device record, five times.
for i in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$R" --device-info | while read -r line; do
    case $line in
      *'"type":"device"'*) log "start to first device record: $(( ($(date +%s%N) - start) / 1000000 )) ms"; break ;;
    esac
  done
done
# A 60-configuration sweep: 5 sizes × 6 blocks × 2 kinds of host memory.
start=$(date +%s%N)
"$R" --kernel vector_add --sizes 1e3:1e7:x10 --blocks 32,64,128,256,512,1024 \
  --transfer pageable,pinned >"$OUT/sweep-60.jsonl"
log "60-configuration sweep (reps 10, CPU 1,all): $(( ($(date +%s%N) - start) / 1000000 )) ms"
