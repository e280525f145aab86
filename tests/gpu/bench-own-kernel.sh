#!/bin/sh
# bench-own-kernel.sh RUNNER OUTDIR: what an own kernel costs, on a machine with a GPU.
#   1. NVRTC's compile time per variant, cold (an empty cache every time) and cached, for each
#      example (warpscope-runner --check-source, which compiles every value of the tunable
#      parameters and the reference);
#   2. each example's kernel time against the built-in kernel it follows, compiled by nvcc, at
#      the same configuration: three rounds, built-in and own alternating, the median of each
#      run's CUPTI median.
# Markdown tables on stdout and in OUTDIR/own-kernel.md; the raw sessions in OUTDIR/own-bench/.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
OUT=$2
EX=$(cd "$(dirname "$0")/../../examples/kernels" && pwd)
mkdir -p "$OUT/own-bench"
python3 - "$R" "$OUT" "$EX" <<'PY' | tee "$OUT/own-kernel.md"
import json, os, statistics, subprocess, sys, tempfile

runner, out, ex = sys.argv[1:4]
raw = os.path.join(out, "own-bench")


def run(args, env=None, name=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([runner] + args, env=e, capture_output=True, text=True)
    recs = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if name:
        with open(os.path.join(raw, name), "w") as f:
            f.write(p.stdout)
    if p.returncode != 0:
        errors = [r for r in recs if r.get("type") == "error"]
        sys.stderr.write("runner %s exited %d: %s\n" % (" ".join(args), p.returncode,
                         "; ".join(e.get("message", "") for e in errors)))
    return p.returncode, recs


def of(recs, t):
    return [r for r in recs if r.get("type") == t]


def device(recs):
    d = of(recs, "device")
    return d[0]["name"] if d else "?"


# ---- 1. compile times ------------------------------------------------------------------------
print("## NVRTC compile time per variant\n")
print("| kernel file | variants | cold, median (min–max) | cached, median (min–max) |")
print("|---|---:|---:|---:|")
gpu = "?"
for f in ["vector_add.cu", "matmul_tiled.cu", "stencil2d.cu", "kernel_tuner_vector_add.cu"]:
    cold, cached, n = [], [], 0
    for i in range(5):
        with tempfile.TemporaryDirectory() as d:
            rc, recs = run(["--check-source", os.path.join(ex, f)], {"WARPSCOPE_NVRTC_CACHE": d})
            c = of(recs, "compile")
            n = len(c)
            cold += [x["ms"] for x in c if not x["cached"]]
            rc, recs = run(["--check-source", os.path.join(ex, f)], {"WARPSCOPE_NVRTC_CACHE": d})
            cached += [x["ms"] for x in of(recs, "compile") if x["cached"]]
    fmt = lambda v: "%.1f ms (%.1f–%.1f)" % (statistics.median(v), min(v), max(v)) if v else "—"
    fmtc = lambda v: "%.2f ms (%.2f–%.2f)" % (statistics.median(v), min(v), max(v)) if v else "—"
    print("| %s | %d | %s | %s |" % (f, n, fmt(cold), fmtc(cached)))

# ---- 2. own kernel against the nvcc-built built-in -------------------------------------------
configs = [
    ("vector_add, n = 10⁷, block 256", ["--kernel", "vector_add", "--sizes", "1e7", "--blocks", "256"],
     ["--source", "vector_add.cu", "--sizes", "1e7", "--blocks", "256"]),
    ("vector_add, n = 10⁸, block 256", ["--kernel", "vector_add", "--sizes", "1e8", "--blocks", "256"],
     ["--source", "vector_add.cu", "--sizes", "1e8", "--blocks", "256"]),
    ("vector_add, n = 10⁸, Kernel Tuner's", ["--kernel", "vector_add", "--sizes", "1e8", "--blocks", "256"],
     ["--source", "kernel_tuner_vector_add.cu", "--sizes", "1e8", "--blocks", "256"]),
    ("matmul_tiled, 1024³, 16×16", ["--kernel", "matmul_tiled", "--sizes", "1024", "--blocks", "16x16"],
     ["--source", "matmul_tiled.cu", "--param", "TILE=16", "--sizes", "1024", "--blocks", "16x16"]),
    ("matmul_tiled, 4096³, 16×16", ["--kernel", "matmul_tiled", "--sizes", "4096", "--blocks", "16x16"],
     ["--source", "matmul_tiled.cu", "--param", "TILE=16", "--sizes", "4096", "--blocks", "16x16"]),
    ("matmul_tiled, 4096³, 32×32", ["--kernel", "matmul_tiled", "--sizes", "4096", "--blocks", "32x32"],
     ["--source", "matmul_tiled.cu", "--param", "TILE=32", "--sizes", "4096", "--blocks", "32x32"]),
    ("stencil2d, 8192², 32×8", ["--kernel", "stencil2d", "--sizes", "8192", "--blocks", "32x8"],
     ["--source", "stencil2d.cu", "--param", "TILE_Y=1", "--sizes", "8192", "--blocks", "32x8"]),
]
print("\n## Own kernel (NVRTC) against the built-in (nvcc) at the same configuration\n")
print("| configuration | built-in | own | own / built-in | registers built-in, own | verified |")
print("|---|---:|---:|---:|---:|---|")
for label, b, o in configs:
    o = [os.path.join(ex, a) if a.endswith(".cu") else a for a in o]
    tb, to, regs, ok = [], [], ("?", "?"), True
    for rnd in range(3):
        slug = label.split(",")[0] + "-%d" % rnd
        _, rb = run(b + ["--reps", "20", "--cpu", "none"], name=slug + "-builtin.jsonl")
        _, ro = run(o + ["--reps", "20"], name=slug + "-own.jsonl")
        for recs, acc in ((rb, tb), (ro, to)):
            t = of(recs, "timing")
            if t and t[0].get("kernel_ns"):
                acc.append(t[0]["kernel_ns"]["median"])
        ok = ok and all(v.get("pass") for v in of(ro, "verify")) and bool(of(ro, "verify"))
        lb, lo = of(rb, "launch"), of(ro, "launch")
        if lb and lo:
            regs = (lb[0]["registers"], lo[0]["registers"])
        gpu = device(rb)
    if tb and to:
        mb, mo = statistics.median(tb), statistics.median(to)
        print("| %s | %.1f µs | %.1f µs | %.3f | %s, %s | %s |" % (label, mb / 1e3, mo / 1e3, mo / mb,
              regs[0], regs[1], "yes" if ok else "NO"))
    else:
        print("| %s | — | — | — | — | run failed |" % label)
print("\nMeasured on an %s; kernel times are CUPTI medians of 20 back-to-back launches, warm L2, "
      "the median of three runs." % gpu)
PY
