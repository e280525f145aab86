#!/bin/sh
# record-samples.sh RUNNER OUTDIR: makes the recordings bundled in resources/samples/ and the
# raw figures behind docs/benchmarks.md, on a machine with a GPU. Copy the .jsonl files into
# resources/samples/ untouched, named after the device (vector-add-sizes.jsonl recorded on an
# H200 is vector-add-sizes-h200.jsonl). RECORD_ONLY=ladders makes only the kernel ladders and
# the streams recordings.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
OUT=$2
mkdir -p "$OUT"
log() { printf '%s\n' "$*" | tee -a "$OUT/bench.txt"; }

# ---- recordings ------------------------------------------------------------------------------
if [ "${RECORD_ONLY:-}" != ladders ]; then
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
fi

# ---- kernel ladders (docs/benchmarks.md, "Kernel ladders") -------------------------------------
# Pinned copies keep the long sequences short; the ladders are about the kernels.
# Vector add: the tutorial's kernel against 16-byte accesses in a grid-stride loop, n = 10^8.
"$R" --kernel vector_add,vector_add_vec4 --sizes 1e8 --blocks 128,256,512,1024 \
  --transfer pinned --cpu none >"$OUT/vector-add-ladder.jsonl"
# Matmul: naive and tiled (8, 16, 32) against register tiles and cuBLAS SGEMM (FP32); the last
# two have fixed blocks and run once per size.
"$R" --kernel matmul_naive,matmul_tiled,matmul_regtile,matmul_cublas --sizes 1024,2048,4096 \
  --blocks 8x8,16x16,32x32 --transfer pinned --cpu none >"$OUT/matmul-ladder.jsonl"
# Sums: one atomic per element, a shared-memory tree, warp shuffles, 32 elements per thread.
"$R" --kernel reduce_atomic,reduce_shared,reduce_warp,reduce_warp_multi --sizes 1e6,1e7,1e8 \
  --blocks 256 --transfer pinned --cpu none >"$OUT/reduce-ladder.jsonl"
# Transpose: naive, shared-memory tile, padded tile; a square and a non-square size that is
# not a multiple of the tiles.
"$R" --kernel transpose_naive,transpose_shared,transpose_padded --sizes 8192,5000x3000 \
  --blocks 32x8 --transfer pinned --cpu none >"$OUT/transpose-ladder.jsonl"
# Divergence: the same arithmetic, branching on the lane against branching on the warp.
"$R" --kernel divergence_lane,divergence_warp --sizes 1e7 --blocks 64,256,1024 \
  --transfer pinned --cpu none >"$OUT/divergence.jsonl"
# Hiding copies: the problem in 1, 2, 4, 8 pieces over as many streams, against whole copies
# from pageable and pinned memory.
"$R" --kernel vector_add_vec4 --sizes 1e8 \
  --transfer pageable,pinned,streams:1,streams:2,streams:4,streams:8 --cpu all \
  >"$OUT/vector-add-streams.jsonl"
"$R" --kernel matmul_regtile --sizes 4096 \
  --transfer pinned,streams:1,streams:2,streams:4,streams:8 --cpu none >"$OUT/matmul-streams.jsonl"
"$R" --kernel transpose_padded --sizes 8192 \
  --transfer pinned,streams:1,streams:2,streams:4,streams:8 --cpu none \
  >"$OUT/transpose-streams.jsonl"

# ---- benchmarks ------------------------------------------------------------------------------
[ "${RECORD_ONLY:-}" = ladders ] && exit 0
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
