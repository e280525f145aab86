#!/bin/sh
# bench-baselines.sh RUNNER [SIZE] [STARTS]: the runner's CPU baselines beside what a reader
# would compare with, on the same host: numpy's `A @ B` (its bundled OpenBLAS) against the
# matmul baselines at 512³ and SIZE³ (4096), and numpy's `a + b` against the vector add's at
# n = 10³ to 10⁸. Prints Markdown tables, then a verdict for each size: the all-core baseline
# must be no slower than the one-thread baseline timed beside it in the same run, and within
# 10% of numpy (its time at most 1.10× numpy's); exits 1 when any is not. docs/benchmarks.md
# says where the figures come from.
#
# Like with like: numpy and the runner both time the same square float32 products, each a
# median of 7 (numpy: 9) after a warm-up at the same size; numpy is timed both as readers write it
# (`A @ B`, a fresh output each call) and into a preallocated, touched output
# (`np.matmul(A, B, out=C)`), as the runner's baselines are, and the verdict is against the
# latter. The vector adds are medians of 31 on both sides, numpy's `np.add(a, b, out=c)`.
# Processes on a virtual machine differ from start to start (where their memory lands), so the
# matmul comparison is made over STARTS (3) alternating starts — numpy, the runner with its
# BLAS, the runner with numpy's BLAS, again — and compares the medians of the starts' medians.
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
MATMUL_SIZES=512,$SIZE
VECTOR_SIZES=1000,10000,100000,1000000,10000000,100000000
STARTS=${3:-3}
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
echo "# host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //');" \
  "OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}, OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}," \
  "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
echo "# transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)," \
  "defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null || echo unknown)" \
  "(numpy and the runner both madvise arrays of 4 MiB or more)"

# numpy, in a process of its own: matmul at MATMUL_SIZES, or the vector adds.
numpy_times () {
  "$PY" - "$1" "$MATMUL_SIZES" "$VECTOR_SIZES" <<'EOF'
import ctypes, glob, json, os, sys, time
import numpy as np
what = sys.argv[1]
matmul_sizes = [int(x) for x in sys.argv[2].split(",")]
vector_sizes = [int(x) for x in sys.argv[3].split(",")]
def median(f, reps=9, warm=1):
    for _ in range(warm):
        f()
    times = []
    for _ in range(reps):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    times.sort()
    return {"median": times[len(times) // 2], "min": times[0], "max": times[-1], "reps": reps}
rng = np.random.default_rng(1)
if what == "matmul":
    for size in matmul_sizes:
        A = rng.random((size, size), dtype=np.float32) * 2 - 1
        B = rng.random((size, size), dtype=np.float32) * 2 - 1
        C = np.empty((size, size), dtype=np.float32); C.fill(0)
        print(json.dumps(dict(what="A @ B", n=size, **median(lambda: A @ B))))
        print(json.dumps(dict(what="matmul out=C", n=size,
                              **median(lambda: np.matmul(A, B, out=C)))))
    # The library numpy loaded, as it describes itself (its kernels: the core name).
    root = os.path.dirname(os.path.dirname(np.__file__))
    for path in sorted(glob.glob(os.path.join(root, "numpy.libs", "*openblas*.so*"))):
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_get_config64_", "scipy_openblas_get_config",
                     "openblas_get_config64_", "openblas_get_config"):
            if hasattr(lib, name):
                f = getattr(lib, name); f.restype = ctypes.c_char_p
                print(json.dumps({"what": "config", "config": f().decode()}))
                break
else:
    for n in vector_sizes:
        a = rng.random(n, dtype=np.float32); b = rng.random(n, dtype=np.float32)
        c = np.empty_like(a); c.fill(0)
        print(json.dumps(dict(what="a + b", n=n, **median(lambda: np.add(a, b, out=c), reps=31))))
EOF
}

# run LABEL BLAS ARGS…: the runner with WARPSCOPE_BLAS=BLAS ("" for the usual names). The
# variable is given to the runner's command alone, never to this shell.
RUNNER_BLAS=${WARPSCOPE_BLAS:-}
run () {
  label=$1
  blas=$2
  shift 2
  WARPSCOPE_BLAS=$blas "$R" --cpu-reps 7 --cpu-budget 30 --reps 3 --warmup 1 "$@" \
    >"$OUT/$label.jsonl"
}
matmul () {
  run "$1" "$2" --kernel matmul_tiled --sizes "$MATMUL_SIZES" --blocks 16x16 --cpu "$3"
}

numpy_times vector >"$OUT/numpy-vector.jsonl"
run vector "$RUNNER_BLAS" --kernel vector_add --sizes "$VECTOR_SIZES" --blocks 256 --cpu 1,all \
  --cpu-reps 31
i=0
while [ "$i" -lt "$STARTS" ]; do
  i=$((i + 1))
  numpy_times matmul >"$OUT/numpy-matmul-$i.jsonl"
  # The first starts time one thread too; the later ones every core only.
  cpu=all
  [ "$i" -eq 1 ] && cpu=1,all
  matmul "matmul-$i" "$RUNNER_BLAS" "$cpu"
  if [ -n "$NUMPY_BLAS" ]; then
    matmul "matmul-numpy-blas-$i" "$NUMPY_BLAS" "$cpu"
  fi
done

"$PY" - "$OUT" "$STARTS" <<'EOF'
import json, os, statistics, sys
out, starts = sys.argv[1], int(sys.argv[2])

def records(path):
    return [json.loads(l) for l in open(path)] if os.path.exists(path) else []

def work(kind, n):
    return (2.0 * n ** 3, "GFLOP/s") if kind == "matmul" else (12.0 * n, "GB/s")

def starts_text(values):
    return "%d start%s: %s" % (len(values), "" if len(values) == 1 else "s",
                                ", ".join("%.2f" % (v * 1e3) for v in values))

# numpy: (what, n) -> the median (s) of each start
numpy, numpy_configs = {}, set()
for name in sorted(os.listdir(out)):
    if name.startswith("numpy-"):
        for r in records(os.path.join(out, name)):
            if r["what"] == "config" and r["config"] not in numpy_configs:
                numpy_configs.add(r["config"])
                print("# numpy's OpenBLAS: %s" % r["config"])
            elif r["what"] != "config":
                numpy.setdefault((r["what"], r["n"]), []).append(r["median"])

# the runner: (label, n, key, threads, who) -> the median (s) of each start
def who(b, key):
    w = b.get("library") or "hand-written"
    if b.get("library_version"):
        w += " " + b["library_version"]
    return w + (" (the baseline)" if key in ("cpu_1", "cpu_all") else "")
# The threads of the run kept: an all-core baseline says which it was.
def kept(b):
    if b.get("one_thread_faster"):
        return "1, faster than %s" % b.get("max_threads")
    return b.get("threads")
def kept_words(b):
    if b.get("one_thread_faster"):
        return "1 thread, faster than %s" % b.get("max_threads")
    return "%s threads" % b.get("threads")
def fmt(seconds):
    return "%.3g µs" % (seconds * 1e6) if seconds < 1e-3 else "%.3g ms" % (seconds * 1e3)
KEYS = ("cpu_1", "cpu_1_hand_written", "cpu_1_blas", "cpu_all", "cpu_all_hand_written",
        "cpu_all_blas")
runner, configs, notes, pairs = {}, {}, [], {}
for name in sorted(os.listdir(out)):
    if not name.endswith(".jsonl") or name.startswith("numpy-"):
        continue
    label = name[:-len(".jsonl")].rstrip("0123456789").rstrip("-")
    shape = None
    for r in records(os.path.join(out, name)):
        if r.get("type") == "run":
            shape = r["shape"]
        if r.get("type") != "timing":
            continue
        for key in KEYS:
            b = r.get(key)
            if not b or not b.get("median"):
                continue
            runner.setdefault((label, shape[0], key, kept(b), who(b, key)),
                              []).append(b["median"] / 1e9)
            if b.get("library_config"):
                configs[b.get("library_path")] = b["library_config"]
            if b.get("note"):
                notes.append("%s %s: %s" % (name, key, b["note"]))
        note = (r.get("cpu_all") or {}).get("library_note")
        if note:
            notes.append("%s: no BLAS: %s" % (name, note))
        # Both baselines of one run, for the verdict: (label, n) -> [(cpu_1, cpu_all)]
        pairs.setdefault((label, shape[0]), []).append((r.get("cpu_1"), r.get("cpu_all")))

print()
print("| baseline | size | threads | median | rate | numpy's time / this |")
print("|---|---|---|---|---|---|")
for (what, n), ts in sorted(numpy.items()):
    w, unit = work("vector_add" if what == "a + b" else "matmul", n)
    t = statistics.median(ts)
    print("| numpy %s | %d | numpy's own | %.2f ms (%s) | %.1f %s | 1.00× |"
          % (what, n, t * 1e3, starts_text(ts), w / t / 1e9, unit))
verdicts = []
for label, kind in (("vector", "vector_add"), ("matmul", "matmul"),
                    ("matmul-numpy-blas", "matmul")):
    rows = sorted((k, v) for k, v in runner.items() if k[0] == label)
    if not rows:
        continue
    print("| **%s** | | | | | |" % label)
    for (_, n, key, threads, name), ts in sorted(rows, key=lambda x: (x[0][1], x[0][2][:5] != "cpu_1", x[0][2], str(x[0][3]))):
        w, unit = work(kind, n)
        t = statistics.median(ts)
        if kind == "vector_add":
            ref = numpy.get(("a + b", n))
            vs = "%.2f×" % (statistics.median(ref) / t) if ref else "—"
        else:
            ref, ref2 = numpy.get(("matmul out=C", n)), numpy.get(("A @ B", n))
            vs = "—"
            if ref and ref2 and key.startswith("cpu_all"):
                vs = "%.2f× (A @ B: %.2f×)" % (statistics.median(ref) / t,
                                                statistics.median(ref2) / t)
                if key == "cpu_all":
                    verdicts.append((label, name, statistics.median(ref) / t,
                                     statistics.median(ref2) / t))
        print("| %s | %d | %s | %.2f ms (%s) | %.1f %s | %s |"
              % (name, n, threads, t * 1e3, starts_text(ts), w / t / 1e9, unit, vs))
print()
for path, config in sorted(configs.items()):
    print("# the runner's %s: %s" % (path, config))
for note in notes:
    print("# note: %s" % note)
for label, name, ratio, ratio2 in verdicts:
    print("%s, every core: numpy's time / the runner's baseline (%s) = %.2f against "
          "np.matmul(A, B, out=C), %.2f against A @ B (target: at least 1.00)"
          % (label, name, ratio, ratio2))

# The verdict: each size's all-core baseline against the one-thread baseline of the same run
# (never slower) and against numpy (at most 10% slower: this / numpy's time <= 1.10).
print()
print("| runner | size | one thread | all cores (the run kept) | numpy | all cores / numpy | verdict |")
print("|---|---|---|---|---|---|---|")
failed = 0
for (label, n), runs in sorted(pairs.items()):
    ref = numpy.get(("a + b" if label == "vector" else "matmul out=C", n))
    alls = [a["median"] / 1e9 for _, a in runs if a and a.get("median")]
    if not alls:
        continue
    problems = []
    for one, a in runs:
        if one and one.get("median") and a and a.get("median") and a["median"] > one["median"]:
            problems.append("slower than one thread (%s > %s)"
                            % (fmt(a["median"] / 1e9), fmt(one["median"] / 1e9)))
    t = statistics.median(alls)
    ratio = t / statistics.median(ref) if ref else None
    if ratio is None:
        problems.append("no numpy time")
    elif ratio > 1.10:
        problems.append("%.2f× numpy's time" % ratio)
    ones = [o["median"] / 1e9 for o, _ in runs if o and o.get("median")]
    last = [a for _, a in runs if a and a.get("median")][-1]
    failed += bool(problems)
    print("| %s | %d | %s | %s on %s | %s | %s | %s |"
          % (label, n, fmt(statistics.median(ones)) if ones else "—", fmt(t), kept_words(last),
             fmt(statistics.median(ref)) if ref else "—",
             "%.2f×" % ratio if ratio is not None else "—",
             "; ".join(problems) if problems else "ok"))
print()
print("%d of %d sizes fail" % (failed, len(pairs)) if failed
      else "every all-core baseline is no slower than one thread and within 10% of numpy")
sys.exit(1 if failed else 0)
EOF
