#!/bin/sh
# bench-inject.sh BUILD_DIR [RUNS]: what tracing through libwarpscope-inject costs. Runs each
# program of tests/gpu/programs RUNS times untraced and RUNS times traced, in pairs (untraced,
# traced), so that drift hits both alike, and prints a markdown table for docs/benchmarks.md:
# the median wall time of each with its interquartile range, the overhead as the median of the
# pairs' ratios (robust to a slow pair: Python's start-up and JIT times wander by ±20% from one
# start to the next), the time added, and the records and bytes one traced run wrote.
# WARPSCOPE_PYTHON names the Python (default python3); programs whose modules are missing are
# left out. Not a test: it measures.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

BUILD=${1:?usage: bench-inject.sh BUILD_DIR [RUNS]}
RUNS=${2:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
PROGRAMS=$HERE/programs
BIN=$BUILD/tests/gpu/programs
LIB=$BUILD/src/runner/inject/libwarpscope-inject.so
PY=${WARPSCOPE_PYTHON:-python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

[ -f "$LIB" ] || { echo "no $LIB: build with CUDA first" >&2; exit 1; }

now_ns() { date +%s%N; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# quartile Q: the Q-th quartile (1 or 3) of the numbers on stdin, by the nearest rank.
quartile() { sort -g | awk -v q="$1" '{ v[NR] = $1 } END { i = int(NR * q / 4 + 0.5); if (i < 1) i = 1; print v[i] }'; }

# run_once TRACED CMD...: prints the wall time in ns; a failing run stops the benchmark.
run_once() {
  traced=$1
  shift
  rm -f "$TMP/trace.jsonl"
  t0=$(now_ns)
  if [ "$traced" = 1 ]; then
    CUDA_INJECTION64_PATH=$LIB NVTX_INJECTION64_PATH=$LIB WARPSCOPE_TRACE_FILE=$TMP/trace.jsonl \
      "$@" >"$TMP/out" 2>&1 || { echo "traced run failed: $*" >&2; cat "$TMP/out" >&2; exit 1; }
  else
    "$@" >"$TMP/out" 2>&1 || { echo "untraced run failed: $*" >&2; cat "$TMP/out" >&2; exit 1; }
  fi
  t1=$(now_ns)
  echo $((t1 - t0))
}

bench() {
  label=$1
  shift
  : >"$TMP/plain"
  : >"$TMP/traced"
  : >"$TMP/ratio"
  run_once 0 "$@" >/dev/null # warm-up: caches (Numba's, the driver's JIT cache, the page cache)
  run_once 1 "$@" >/dev/null
  i=0
  while [ $i -lt "$RUNS" ]; do
    p=$(run_once 0 "$@")
    t=$(run_once 1 "$@")
    echo "$p" >>"$TMP/plain"
    echo "$t" >>"$TMP/traced"
    awk -v p="$p" -v t="$t" 'BEGIN { printf "%.6f\n", t / p }' >>"$TMP/ratio"
    i=$((i + 1))
  done
  plain=$(median <"$TMP/plain")
  traced=$(median <"$TMP/traced")
  pq1=$(quartile 1 <"$TMP/plain")
  pq3=$(quartile 3 <"$TMP/plain")
  tq1=$(quartile 1 <"$TMP/traced")
  tq3=$(quartile 3 <"$TMP/traced")
  ratio=$(median <"$TMP/ratio")
  lines=$(wc -l <"$TMP/trace.jsonl")
  bytes=$(wc -c <"$TMP/trace.jsonl")
  kernels=$(grep -c '"kind":"kernel"' "$TMP/trace.jsonl" || true)
  awk -v l="$label" -v p="$plain" -v t="$traced" -v r="$ratio" -v n="$lines" -v b="$bytes" \
    -v k="$kernels" -v pq1="$pq1" -v pq3="$pq3" -v tq1="$tq1" -v tq3="$tq3" \
    'BEGIN { printf "| %s | %.3f s (%.3f–%.3f) | %.3f s (%.3f–%.3f) | %+.1f %% | %+.0f ms | %d (%d kernels) | %.1f kB |\n",
             l, p / 1e9, pq1 / 1e9, pq3 / 1e9, t / 1e9, tq1 / 1e9, tq3 / 1e9, 100 * (r - 1),
             (t - p) / 1e6, n, k, b / 1e3 }'
}

has() { "$PY" -c "$1" >/dev/null 2>&1; }

echo "| program | untraced, median (IQR) of $RUNS | traced, median (IQR) | overhead, median of pairs | added | records | trace |"
echo "|---|---|---|---|---|---|---|"
bench "C++ vector add (10⁷ floats, 11 launches)" "$BIN/inject-vector-add"
bench "4 threads × 4 streams (32 kernels, 64 copies)" "$BIN/inject-streams-threads"
if has "import numpy as np; np.row_stack = np.vstack; from numba import cuda; assert cuda.is_available()"; then
  bench "tutorial §4 vector add (Numba)" "$PY" "$PROGRAMS/vector_add.py"
  bench "tutorial §5 tiled matmul (Numba)" "$PY" "$PROGRAMS/matmul_tiled.py"
fi
if has "import torch; assert torch.cuda.is_available()"; then
  bench "PyTorch 4096² matmul × 200" "$PY" "$PROGRAMS/torch_matmul.py" 4096 200
  bench "PyTorch 1024² matmul × 2000 (launch-bound)" "$PY" "$PROGRAMS/torch_matmul.py" 1024 2000
fi
if has "import cupy"; then
  bench "CuPy RawKernel × 10" "$PY" "$PROGRAMS/cupy_rawkernel.py"
fi
