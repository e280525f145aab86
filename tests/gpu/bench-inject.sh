#!/bin/sh
# bench-inject.sh BUILD_DIR [PAIRS [PYTHON_PAIRS]]: what tracing through libwarpscope-inject
# costs, as markdown tables for docs/benchmarks.md. Every figure comes from pairs (one run
# untraced, then one traced, after a warm-up of each), so that drift hits both alike, and is
# the median of the pairs with a 95% confidence interval for that median (distribution-free:
# from the order statistics of the pairs, so that a slow pair cannot move it far; with fewer
# than 6 pairs no interval reaches 95%, and the table says so).
#
#  1. Fixed and per-launch costs, apart: fixed_cost (cudaFree(0) and exit) traced against
#     untraced is the cost of starting and ending a trace; launches (N empty-kernel launches,
#     timed inside the program) is the cost per launch. Each in four settings: the library
#     without CUPTI (WARPSCOPE_LIBCUPTI names none: what loading the library costs), CUPTI
#     without api records, the default (api records of launches, copies, syncs), all API calls.
#     The launches program's wall time added shows what its records cost at exit as well.
#  2. The programs: the C++ ones PAIRS times (default 21), the Python ones PYTHON_PAIRS times
#     (default 9; Python's start-up and JIT times wander by ±20% between cold starts). The
#     overhead is the median of the pairs' ratios; "5%" says met (the interval lies below
#     +5%), not met (above) or not resolved (it spans +5%, or too few pairs for 95%). Where
#     the program times its own loop (PyTorch, launches), that time is compared as well.
#  3. Where the library's own time goes: one more traced run of each program with
#     WARPSCOPE_INJECT_TIMING=1 (docs/protocol.md), its stderr line summed over processes.
#
# WARPSCOPE_PYTHON names the Python (default python3); programs whose modules are missing are
# left out. WARPSCOPE_INJECT_LIB measures another build of the library (default BUILD_DIR's).
# WARPSCOPE_BENCH_ONLY picks what runs: any of "parts cpp numba torch cupy", "python" for the
# last three (default all); WARPSCOPE_BENCH_MODES the settings of section 1 (default "nocupti
# apinone trace apiall"; "buf16" is the default with 16 MB activity buffers).
# WARPSCOPE_BENCH_RAW names a file that receives every run (label, mode, wall ns, the
# program's own figure). LAUNCHES (default 20000) sets the launches program's count. Not a
# test: it measures.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

BUILD=${1:?usage: bench-inject.sh BUILD_DIR [PAIRS [PYTHON_PAIRS]]}
PAIRS=${2:-21}
PY_PAIRS=${3:-9}
HERE=$(cd "$(dirname "$0")" && pwd)
PROGRAMS=$HERE/programs
BIN=$BUILD/tests/gpu/programs
LIB=${WARPSCOPE_INJECT_LIB:-$BUILD/src/runner/inject/libwarpscope-inject.so}
PY=${WARPSCOPE_PYTHON:-python3}
ONLY=${WARPSCOPE_BENCH_ONLY:-parts cpp python}
RAW=${WARPSCOPE_BENCH_RAW:-/dev/null}
LAUNCHES=${LAUNCHES:-20000}
MODES=${WARPSCOPE_BENCH_MODES:-nocupti apinone trace apiall}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

[ -f "$LIB" ] || { echo "no $LIB: build with CUDA first" >&2; exit 1; }
case $LIB in /*) ;; *) LIB=$(pwd)/$LIB ;; esac

wanted() { case " $ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

now_ns() { date +%s%N; }

# stats: the median of the numbers on stdin, then an interval for it from the order
# statistics, ranks k and n+1-k with k the largest rank for which P(Bin(n, 1/2) < k) <= 2.5%
# (so that the interval holds the median with at least 95%), then that interval's coverage.
# Below 6 pairs no such rank exists: the interval is the range, with less coverage.
stats() {
  sort -g | awk '{ v[NR] = $1 } END {
    n = NR
    if (n == 0) { print "nan nan nan 0"; exit }
    m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    t = 0.5 ^ n; cdf = t; k = 1
    while (1) {
      t = t * (n - k + 1) / k
      if (cdf + t <= 0.025 && k + 1 <= (n + 1) / 2) { cdf += t; k++ } else break
    }
    print m, v[k], v[n + 1 - k], 1 - 2 * cdf }'
}

# run_once MODE CMD...: runs CMD once; prints its wall time in ns. MODE: plain (untraced),
# trace (the default settings), nocupti, apinone, apiall, buf16, timing. The output is kept in
# $TMP/out, the trace in $TMP/trace.jsonl. A failing run stops the benchmark.
run_once() {
  run_mode=$1
  shift
  rm -f "$TMP/trace.jsonl"
  t0=$(now_ns)
  case $run_mode in
    plain) "$@" >"$TMP/out" 2>&1 ;;
    trace) env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
             WARPSCOPE_TRACE_FILE="$TMP/trace.jsonl" "$@" >"$TMP/out" 2>&1 ;;
    nocupti) env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
               WARPSCOPE_TRACE_FILE="$TMP/trace.jsonl" WARPSCOPE_LIBCUPTI=/nonexistent \
               "$@" >"$TMP/out" 2>&1 ;;
    apinone) env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
               WARPSCOPE_TRACE_FILE="$TMP/trace.jsonl" WARPSCOPE_TRACE_API=none \
               "$@" >"$TMP/out" 2>&1 ;;
    apiall) env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
              WARPSCOPE_TRACE_FILE="$TMP/trace.jsonl" WARPSCOPE_TRACE_API=all \
              "$@" >"$TMP/out" 2>&1 ;;
    buf16) env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
             WARPSCOPE_TRACE_FILE="$TMP/trace.jsonl" WARPSCOPE_TRACE_BUFFER_MB=16 \
             "$@" >"$TMP/out" 2>&1 ;;
    timing) env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" \
              WARPSCOPE_TRACE_FILE="$TMP/trace.jsonl" WARPSCOPE_INJECT_TIMING=1 \
              "$@" >"$TMP/out" 2>&1 ;;
  esac || { echo "$run_mode run failed: $*" >&2; cat "$TMP/out" >&2; exit 1; }
  t1=$(now_ns)
  echo $((t1 - t0))
}

# figure PATTERN: the program's own figure from its output (a sed -E expression that prints
# one number), or "-" when PATTERN is "-".
figure() {
  if [ "$1" = - ]; then echo -; else sed -nE "$1" "$TMP/out" | head -n 1; fi
}

# pairs LABEL N MODE PATTERN CMD...: N pairs (plain, MODE) after a warm-up of each; leaves
# the pairs' ratios, differences (ms) and the program's own figures in $TMP.
pairs() {
  label=$1 n=$2 mode=$3 pattern=$4
  shift 4
  : >"$TMP/ratio"
  : >"$TMP/diff"
  : >"$TMP/fig_plain"
  : >"$TMP/fig_traced"
  : >"$TMP/fig_diff"
  : >"$TMP/plain"
  : >"$TMP/traced"
  run_once plain "$@" >/dev/null # warm-up: caches (Numba's, the driver's JIT cache, the page cache)
  run_once "$mode" "$@" >/dev/null
  i=0
  while [ "$i" -lt "$n" ]; do
    p=$(run_once plain "$@")
    fp=$(figure "$pattern")
    t=$(run_once "$mode" "$@")
    ft=$(figure "$pattern")
    echo "$label|plain|$p|$fp" >>"$RAW"
    echo "$label|$mode|$t|$ft" >>"$RAW"
    echo "$p" >>"$TMP/plain"
    echo "$t" >>"$TMP/traced"
    awk -v p="$p" -v t="$t" 'BEGIN { printf "%.6f\n", t / p }' >>"$TMP/ratio"
    awk -v p="$p" -v t="$t" 'BEGIN { printf "%.3f\n", (t - p) / 1e6 }' >>"$TMP/diff"
    if [ "$pattern" != - ]; then
      echo "$fp" >>"$TMP/fig_plain"
      echo "$ft" >>"$TMP/fig_traced"
      awk -v p="$fp" -v t="$ft" 'BEGIN { printf "%.6f\n", t - p }' >>"$TMP/fig_diff"
    fi
    i=$((i + 1))
  done
}

# ---- 1. fixed and per-launch costs ---------------------------------------------------------

parts() {
  echo "Fixed cost: \`fixed_cost\` (cudaFree(0), exit) traced − untraced; per launch: \`launches $LAUNCHES\`,"
  echo "the program's own time per launch traced − untraced. $PAIRS pairs each; median [95% interval]."
  echo
  echo "| setting | untraced fixed_cost | fixed cost added | untraced per launch | added per launch | launches: wall added |"
  echo "|---|---|---|---|---|---|"
  for mode in $MODES; do
    case $mode in
      nocupti) what="library, no CUPTI" ;;
      apinone) what="CUPTI, \`WARPSCOPE_TRACE_API=none\`" ;;
      trace) what="default (\`api\` = launch)" ;;
      apiall) what="\`WARPSCOPE_TRACE_API=all\`" ;;
      buf16) what="default, \`WARPSCOPE_TRACE_BUFFER_MB=16\`" ;;
    esac
    pairs "fixed_cost $mode" "$PAIRS" "$mode" - "$BIN/inject-fixed-cost"
    set -- $(stats <"$TMP/plain")
    base_ms=$(awk -v m="$1" 'BEGIN { printf "%.1f ms", m / 1e6 }')
    set -- $(stats <"$TMP/diff")
    fixed=$(awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN { printf "%+.1f ms [%+.1f, %+.1f]", m, lo, hi }')
    pairs "launches $mode" "$PAIRS" "$mode" 's/.*ns_per_launch ([0-9.]+).*/\1/p' \
      "$BIN/inject-launches" "$LAUNCHES"
    set -- $(stats <"$TMP/fig_plain")
    base_us=$(awk -v m="$1" 'BEGIN { printf "%.2f µs", m / 1e3 }')
    set -- $(stats <"$TMP/fig_diff")
    launch=$(awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN { printf "%+.2f µs [%+.2f, %+.2f]", m / 1e3, lo / 1e3, hi / 1e3 }')
    set -- $(stats <"$TMP/diff")
    wall=$(awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN { printf "%+.1f ms [%+.1f, %+.1f]", m, lo, hi }')
    echo "| $what | $base_ms | $fixed | $base_us | $launch | $wall |"
  done
  echo
}

# ---- 2. the programs -----------------------------------------------------------------------

TIMINGS=$TMP/timings

# bench LABEL N PATTERN CMD...: one row of the programs' table, and one timing run.
bench() {
  label=$1 n=$2 pattern=$3
  shift 3
  pairs "$label" "$n" trace "$pattern" "$@"
  run_once timing "$@" >/dev/null
  grep 'warpscope-inject timing:' "$TMP/out" | sed "s|^|$label\t|" >>"$TIMINGS" || true
  plain=$(stats <"$TMP/plain")
  traced=$(stats <"$TMP/traced")
  ratio=$(stats <"$TMP/ratio")
  diff=$(stats <"$TMP/diff")
  lines=$(wc -l <"$TMP/trace.jsonl")
  bytes=$(wc -c <"$TMP/trace.jsonl")
  kernels=$(grep -c '"kind":"kernel"' "$TMP/trace.jsonl" || true)
  dropped=$(sed -nE 's/.*"type":"trace_end".*"dropped_records":([0-9]+).*/\1/p' "$TMP/trace.jsonl" \
              | awk '{ s += $1 } END { print s + 0 }')
  loop=-
  if [ "$pattern" != - ]; then
    set -- $(paste -d' ' "$TMP/fig_plain" "$TMP/fig_traced" | awk '{ printf "%.6f\n", $2 / $1 }' | stats)
    loop=$(awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN { printf "%+.1f %% [%+.1f, %+.1f]", 100 * (m - 1), 100 * (lo - 1), 100 * (hi - 1) }')
  fi
  echo "$plain|$traced|$ratio|$diff" | awk -F'|' -v l="$label" -v n="$n" -v lines="$lines" \
    -v k="$kernels" -v b="$bytes" -v d="$dropped" -v loop="$loop" '
    { split($1, p, " "); split($2, t, " "); split($3, r, " "); split($4, a, " ")
      verdict = r[4] < 0.95 ? sprintf("not resolved (%d pairs: %.0f %% interval)", n, 100 * r[4]) \
                : r[3] < 1.05 ? "met" : r[2] > 1.05 ? "not met" : "not resolved"
      printf "| %s | %d | %.3f s | %.3f s | %+.1f %% [%+.1f, %+.1f] | %+.0f ms [%+.0f, %+.0f] | %s | %s | %d (%d kernels), %.1f kB | %d |\n",
        l, n, p[1] / 1e9, t[1] / 1e9, 100 * (r[1] - 1), 100 * (r[2] - 1), 100 * (r[3] - 1),
        a[1], a[2], a[3], verdict, loop, lines, k, b / 1e3, d }'
}

has() { "$PY" -c "$1" >/dev/null 2>&1; }

programs() {
  : >"$TIMINGS"
  echo "| program | pairs | untraced | traced | overhead [95%] | added [95%] | 5% | own loop time | records, trace | dropped |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  if wanted cpp; then
    bench "C++ vector add (10⁷ floats, 11 launches)" "$PAIRS" - "$BIN/inject-vector-add"
    bench "4 threads × 4 streams (32 kernels, 64 copies)" "$PAIRS" - "$BIN/inject-streams-threads"
    bench "C++ $LAUNCHES empty launches" "$PAIRS" 's/.*ns_per_launch ([0-9.]+).*/\1/p' \
      "$BIN/inject-launches" "$LAUNCHES"
  fi
  if wanted python || wanted numba; then
    if has "import numpy as np; np.row_stack = np.vstack; from numba import cuda; assert cuda.is_available()"; then
      bench "tutorial §4 vector add (Numba)" "$PY_PAIRS" - "$PY" "$PROGRAMS/vector_add.py"
      bench "tutorial §5 tiled matmul (Numba)" "$PY_PAIRS" - "$PY" "$PROGRAMS/matmul_tiled.py"
    fi
  fi
  if wanted python || wanted torch; then
    if has "import torch; assert torch.cuda.is_available()"; then
      bench "PyTorch 1024² matmul × 2000 (launch-bound)" "$PY_PAIRS" 's/.*: ([0-9.]+) ms each.*/\1/p' \
        "$PY" "$PROGRAMS/torch_matmul.py" 1024 2000
    fi
  fi
  if wanted python || wanted cupy; then
    if has "import cupy"; then
      bench "CuPy RawKernel × 10" "$PY_PAIRS" - "$PY" "$PROGRAMS/cupy_rawkernel.py"
    fi
  fi
  echo
}

# ---- 3. the library's own time -------------------------------------------------------------

timings() {
  [ -s "$TIMINGS" ] || return 0
  echo "The library's own time in one traced run (\`WARPSCOPE_INJECT_TIMING=1\`), ms, summed over the program's processes:"
  echo
  echo "| program | start (load CUPTI, subscribe, kinds, api) | buffers asked (n) | buffers done (n) | resource callbacks (n) | records built | writes | exit (writer, flush, write) | records |"
  echo "|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '
    { label = $1; if (!(label in seen)) { seen[label] = 1; order[++n] = label }
      m = split($2, f, " ")
      for (i = 1; i <= m; i++) if (split(f[i], kv, "=") == 2) v[label, kv[1]] += kv[2] }
    END { for (j = 1; j <= n; j++) { l = order[j]
      printf "| %s | %.2f (%.2f, %.2f, %.2f, %.2f) | %.2f (%d) | %.2f (%d) | %.2f (%d) | %.2f | %.2f | %.2f (%.2f, %.2f, %.2f) | %d |\n", l,
        v[l, "init_ns"] / 1e6, v[l, "load_ns"] / 1e6, v[l, "subscribe_ns"] / 1e6, v[l, "kinds_ns"] / 1e6, v[l, "api_ns"] / 1e6,
        v[l, "request_ns"] / 1e6, v[l, "request_n"], v[l, "complete_ns"] / 1e6, v[l, "complete_n"],
        v[l, "resource_ns"] / 1e6, v[l, "resource_n"], v[l, "process_ns"] / 1e6, v[l, "write_ns"] / 1e6,
        v[l, "exit_ns"] / 1e6, v[l, "exit_writer_ns"] / 1e6, v[l, "exit_flush_ns"] / 1e6, v[l, "exit_write_ns"] / 1e6,
        v[l, "records"] } }' "$TIMINGS"
  echo
}

if wanted parts; then
  parts
fi
if wanted cpp || wanted python || wanted numba || wanted torch || wanted cupy; then
  programs
  timings
fi
