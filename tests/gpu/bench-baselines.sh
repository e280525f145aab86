#!/bin/sh
# bench-baselines.sh RUNNER [SIZE]: the runner's CPU baselines beside what a reader would
# compare with, on the same host in the same run: numpy's `A @ B` (its bundled OpenBLAS)
# against the matmul baselines at SIZE³ (4096), and numpy's `a + b` against the vector add's
# at n = 10⁷ and 10⁸. Prints a Markdown table. docs/benchmarks.md says where the figures come
# from.
#
# The runner's BLAS: WARPSCOPE_BLAS (a library file, or a folder of unpacked packages: on a
# machine without a system BLAS, `dpkg -x` Debian's libopenblas0-pthread, libgfortran5 and
# libquadmath0 into .blas/ at the top of the source tree, which is used when
# WARPSCOPE_BLAS is not set). The runner is run again with numpy's own bundled OpenBLAS (the
# same library as `A @ B`). The hand-written SGEMM is timed beside the BLAS in every run.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
SIZE=${2:-4096}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-python3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

if [ -z "${WARPSCOPE_BLAS:-}" ] && [ -d "$TOP/.blas" ]; then
  WARPSCOPE_BLAS=$TOP/.blas
fi
# A folder of .deb files not yet unpacked: unpack them here.
if [ -d "${WARPSCOPE_BLAS:-}" ] && ls "$WARPSCOPE_BLAS"/*.deb >/dev/null 2>&1 \
  && [ -z "$(find "$WARPSCOPE_BLAS" -name '*.so*' | head -1)" ]; then
  for deb in "$WARPSCOPE_BLAS"/*.deb; do
    dpkg-deb -x "$deb" "$OUT/blas"
  done
  WARPSCOPE_BLAS=$OUT/blas
fi
# numpy's bundled OpenBLAS: numpy.libs/libscipy_openblas64_*.so (numpy 2 wheels), or the
# scipy_openblas64 package's own folder.
NUMPY_BLAS=$("$PY" - <<'EOF' || true
import glob, os
try:
    import numpy
except ImportError:
    raise SystemExit(0)
root = os.path.dirname(os.path.dirname(numpy.__file__))
found = []
for pattern in ("numpy.libs/*openblas*.so*", "scipy_openblas64/lib/*openblas*.so*",
                "scipy_openblas32/lib/*openblas*.so*", "numpy/.libs/*openblas*.so*"):
    found += sorted(glob.glob(os.path.join(root, pattern)))
print(found[0] if found else "")
EOF
)

echo "# numpy: $("$PY" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || echo missing)," \
  "bundled BLAS: ${NUMPY_BLAS:-none found}"
echo "# runner's BLAS (WARPSCOPE_BLAS): ${WARPSCOPE_BLAS:-the usual names}"
echo "# host: $(nproc) cores; OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"

"$PY" - "$SIZE" >"$OUT/numpy.txt" <<'EOF'
import sys, time
import numpy as np
size = int(sys.argv[1])
rng = np.random.default_rng(1)
def median(f, reps):
    f()
    times = []
    for _ in range(reps):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2]
A = rng.random((size, size), dtype=np.float32); B = rng.random((size, size), dtype=np.float32)
t = median(lambda: A @ B, 5)
print("matmul", size, t, 2.0 * size ** 3 / t / 1e9)
for n in (10 ** 7, 10 ** 8):
    a = rng.random(n, dtype=np.float32); b = rng.random(n, dtype=np.float32); c = np.empty_like(a)
    t = median(lambda: np.add(a, b, out=c), 9)
    print("vector_add", n, t, 12.0 * n / t / 1e9)
EOF

run () {
  label=$1
  shift
  "$R" "$@" --cpu 1,all --cpu-reps 5 --cpu-budget 60 --reps 3 --warmup 1 >"$OUT/$label.jsonl"
}
WARPSCOPE_BLAS=${WARPSCOPE_BLAS:-} run matmul --kernel matmul_tiled --sizes "$SIZE" --blocks 16x16
if [ -n "$NUMPY_BLAS" ]; then
  WARPSCOPE_BLAS=$NUMPY_BLAS run matmul-numpy-blas --kernel matmul_tiled --sizes "$SIZE" \
    --blocks 16x16
fi
run vector --kernel vector_add --sizes 1e7,1e8 --blocks 256

"$PY" - "$OUT" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
numpy = {}
for line in open(os.path.join(out, "numpy.txt")):
    kind, n, t, rate = line.split()
    numpy[(kind, int(n))] = (float(t), float(rate))
print("| baseline | size | threads | median | rate | numpy's time / this |")
print("|---|---|---|---|---|---|")
def rows(path, kind):
    for line in open(path):
        r = json.loads(line)
        if r.get("type") == "run":
            shape = r["shape"]
        if r.get("type") != "timing":
            continue
        n = shape[0]
        ref = numpy.get((kind, n))
        for key in ("cpu_1", "cpu_1_hand_written", "cpu_1_blas", "cpu_all",
                    "cpu_all_hand_written", "cpu_all_blas"):
            b = r.get(key)
            if not b or not b.get("median"):
                continue
            who = b.get("library") or "hand-written"
            if b.get("library_version"):
                who += " " + b["library_version"]
            if key in ("cpu_1", "cpu_all"):
                who += " (the baseline)"
            t = b["median"] / 1e9
            work = 2.0 * n ** 3 if kind == "matmul" else 12.0 * n
            rate = work / t / 1e9
            unit = "GFLOP/s" if kind == "matmul" else "GB/s"
            vs = "%.2f×" % (ref[0] / t) if ref else "—"
            print("| %s | %s | %s | %.2f ms | %.1f %s | %s |"
                  % (who, n, b.get("threads"), t * 1e3, rate, unit, vs))
        note = (r.get("cpu_all") or {}).get("library_note")
        if note:
            print("| (no BLAS: %s) | | | | | |" % note)
for (kind, n), (t, rate) in sorted(numpy.items()):
    print("| numpy %s | %d | numpy's own | %.2f ms | %.1f %s | 1.00× |"
          % ("A @ B" if kind == "matmul" else "a + b", n, t * 1e3, rate,
             "GFLOP/s" if kind == "matmul" else "GB/s"))
for name, kind in (("matmul", "matmul"), ("matmul-numpy-blas", "matmul"), ("vector", "vector_add")):
    path = os.path.join(out, name + ".jsonl")
    if os.path.exists(path):
        print("| **%s** | | | | | |" % name)
        rows(path, kind)
EOF
