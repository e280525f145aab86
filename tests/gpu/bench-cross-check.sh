#!/bin/sh
# bench-cross-check.sh RUNNER OUTDIR: the configurations of the bundled recordings and the
# 60-configuration sweep, without CPU baselines, once for each way of timing the untraced
# cross-check (WARPSCOPE_CROSS_CHECK=held, stream, graph), so that docs/benchmarks.md can set
# each against CUPTI's kernel median. Writes OUTDIR/cross-check-METHOD.jsonl.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
OUT=$2
mkdir -p "$OUT"
blocks=""
for y in 4 8 16 32; do
  for x in 4 8 16 32 64; do
    [ $((x * y)) -le 1024 ] && blocks="$blocks${blocks:+,}${x}x${y}"
  done
done
for method in ${METHODS:-held stream graph}; do
  f="$OUT/cross-check-$method.jsonl"
  : >"$f"
  export WARPSCOPE_CROSS_CHECK=$method
  "$R" --kernel vector_add --sizes 1e3:1e8:x10 --blocks 256 --transfer pageable,pinned \
    --cpu none >>"$f"
  "$R" --kernel vector_add --sizes 1e7 --blocks 32:1024:+32 --cpu none >>"$f"
  "$R" --kernel matmul_naive,matmul_tiled --sizes 256:4096:x2 --blocks 8x8,16x16,32x32 \
    --cpu none >>"$f"
  "$R" --kernel matmul_naive --sizes 2048 --blocks "$blocks" --cpu none >>"$f"
  "$R" --kernel vector_add --sizes 1e3:1e7:x10 --blocks 32,64,128,256,512,1024 \
    --transfer pageable,pinned --cpu none >>"$f"
done
