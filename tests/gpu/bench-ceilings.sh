#!/bin/sh
# bench-ceilings.sh RUNNER [STARTS]: starts the runner STARTS times (5) with --device-info and
# prints each start's host copy ceilings (the figure — pinned: the median; pageable: the rate
# over all samples, taken over every CPU and several buffers — then the min–max of its
# samples), how far the starts' figures lie apart (max / min − 1; the target is under 10%) and
# how long a start takes. tests/gpu/probe-pageable.sh tells why pageable copies vary.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
R=$1
STARTS=${2:-5}
PY=${PYTHON:-python3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

i=0
while [ "$i" -lt "$STARTS" ]; do
  i=$((i + 1))
  begin=$(date +%s%N)
  "$R" --device-info --device 0 >"$OUT/$i.jsonl"
  end=$(date +%s%N)
  echo $(((end - begin) / 1000000)) >"$OUT/$i.ms"
done

"$PY" - "$OUT" "$STARTS" <<'EOF'
import json, os, sys
out, starts = sys.argv[1], int(sys.argv[2])
keys = ("h2d_pageable", "d2h_pageable", "h2d_pinned", "d2h_pinned")
medians = {k: [] for k in keys}
print("| start | " + " | ".join(keys) + " | start-up |")
print("|---" * (len(keys) + 2) + "|")
for i in range(1, starts + 1):
    device = next(json.loads(l) for l in open(os.path.join(out, "%d.jsonl" % i))
                  if json.loads(l).get("type") == "device")
    cells = []
    for k in keys:
        s = device.get(k + "_spread") or {}
        medians[k].append(device.get(k + "_gbs") or 0)
        where = ", %s CPUs, %s buffers" % (s["cpus"], s["buffers"]) if "cpus" in s else ""
        cells.append("%.1f (%.1f–%.1f, n=%s%s)" % (device.get(k + "_gbs") or 0, s.get("min", 0),
                                                   s.get("max", 0), s.get("n", "?"), where))
    ms = open(os.path.join(out, "%d.ms" % i)).read().strip()
    print("| %d | %s | %s ms |" % (i, " | ".join(cells), ms))
print()
for k in keys:
    lo, hi = min(medians[k]), max(medians[k])
    print("%s: figures %.2f–%.2f GB/s over %d starts, %.1f%% apart (target: under 10%%)"
          % (k, lo, hi, starts, 100 * (hi / lo - 1) if lo > 0 else float("nan")))
EOF
