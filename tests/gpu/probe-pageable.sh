#!/bin/sh
# probe-pageable.sh PROBE [PROCESSES]: runs probe-pageable (build-gpu/tests/gpu/probe-pageable)
# in PROCESSES (5) processes one after the other, prints the first one's table in full, then
# for every condition the medians of each process and how far apart they lie (max / min − 1).
# A factor that is fixed for a process shows as a condition whose samples agree inside each
# process while the processes disagree; the row "the runner's method" (every CPU, several
# buffers, the rate over all: what the runner's device record now gives) is the one whose
# processes should agree within 10%. Not a test: docs/benchmarks.md records what it showed.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
PROBE=$1
N=${2:-5}
PY=${PYTHON:-python3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "# host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')," \
  "$(grep -c '^flags.* hypervisor' /proc/cpuinfo 2>/dev/null | sed 's/^0$/no hypervisor flag/; s/^[1-9][0-9]*$/a virtual machine (hypervisor flag)/')"
if command -v lscpu >/dev/null 2>&1; then
  lscpu | grep -E '^(Socket|NUMA node|Thread|Core|Hypervisor|Virtualization)' | sed 's/^/# lscpu: /'
fi
i=0
while [ "$i" -lt "$N" ]; do
  i=$((i + 1))
  "$PROBE" --json "$OUT/$i.json" >"$OUT/$i.md"
done
echo "## Process 1 of $N"
echo
cat "$OUT/1.md"
echo
echo "## Over the $N processes"
echo
"$PY" - "$OUT" "$N" <<'EOF'
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
runs = []
for i in range(1, n + 1):
    path = os.path.join(out, "%d.json" % i)
    runs.append([json.loads(l) for l in open(path)] if os.path.exists(path) else [])
print("Each cell: the condition's median in each process (GB/s), then how far the processes "
      "lie apart; for \"the runner's method\", the rate over all its samples, which is the "
      "runner's figure.")
print()
print("| factor | setting | host→device | apart | device→host | apart |")
print("|---|---|---|---|---|---|")
verdict = {}
for k, c in enumerate(runs[0]):
    same = [r[k] for r in runs if k < len(r) and r[k]["setting"] == c["setting"]]
    key = "rate" if c["factor"] == "the runner's method" else "median"
    cells = []
    for d in ("h2d", "d2h"):
        values = [s[d][key] for s in same if s[d]["n"] > 0]
        apart = max(values) / min(values) - 1 if values and min(values) > 0 else float("nan")
        cells += [", ".join("%.1f" % v for v in values), "%.0f%%" % (100 * apart)]
        verdict.setdefault((c["factor"], d), []).append(apart)
    print("| %s | %s | %s | %s | %s | %s |" % (c["factor"], c["setting"], *cells))
print()
for d, name in (("h2d", "host→device"), ("d2h", "device→host")):
    for factor in ("the runner's method", "time", "buffer", "context"):
        a = verdict.get((factor, d))
        if a:
            print("- %s, %s: the processes lie %s apart%s" % (
                name, factor, " / ".join("%.0f%%" % (100 * x) for x in a),
                " (target for the runner's figure: under 10%)" if factor == "the runner's method" else ""))
EOF
