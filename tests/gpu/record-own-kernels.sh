#!/bin/sh
# record-own-kernels.sh RUNNER OUTDIR: the recordings of own kernels bundled in
# resources/samples/, made on a machine with a GPU: a sweep of each example kernel file, and
# the memory check of the one without its bounds guard. Copy the .jsonl files into
# resources/samples/ untouched, named after the device (own-stencil2d.jsonl recorded on an
# H200 is own-stencil2d-h200.jsonl).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=$2
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")/../.."
# Paths from the top of the source tree, so that the recordings name each file as the
# repository does, not as this machine's checkout.
EX=examples/kernels
# The tutorial's vector add as a kernel file, over sizes and three blocks.
"$R" --source $EX/vector_add.cu --sizes 1e4:1e8:x10 --blocks 128,256,512 \
  >"$OUT/own-vector-add.jsonl"
# The tiled product over TILE and the block that must match it (the restriction keeps 3 of 9
# per size), at four sizes.
"$R" --source $EX/matmul_tiled.cu --sizes 512,1024,2048,4096 --param TILE=8,16,32 \
  --blocks 8x8,16x16,32x32 --transfer pinned >"$OUT/own-matmul-tiled.jsonl"
# The stencil over the block and the rows each thread computes.
"$R" --source $EX/stencil2d.cu --sizes 8192 --param TILE_Y=1,2,4,8 \
  --blocks 32x2,32x4,32x8,32x16,64x4,64x8,128x2,128x4 --transfer pinned >"$OUT/own-stencil2d.jsonl"
# Kernel Tuner's vector add with only a header, over blocks.
"$R" --source $EX/kernel_tuner_vector_add.cu --sizes 1e8 --blocks 32:1024:x2 --transfer pinned \
  >"$OUT/own-kernel-tuner-vector-add.jsonl"
# The missing bounds guard, under compute-sanitizer's memcheck (when it is installed).
"$R" --source $EX/vector_add_oob.cu --memcheck memcheck >"$OUT/own-vector-add-oob-memcheck.jsonl" \
  || true
