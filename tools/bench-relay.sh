#!/bin/sh
# bench-relay.sh [BUILD [LINES]]: what warpscope-runner --trace spends relaying a traced
# program's lines (docs/architecture.md, "the one relay"): a stand-in program writes LINES
# (100,000) of the library's records, taken from a bundled recording, to the descriptor the
# runner names, as libwarpscope-inject does; the runner's time with them less its time with
# none, per line, beside the model's record parser reading the same lines
# (bench-relay-parse). Needs no GPU (the stand-in driver of the tests answers the runner's
# check). Best of five runs each. Results go in docs/benchmarks.md.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
B=${1:-build}
N=${2:-100000}
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The library's lines are the recording's without the member the runner added.
grep '"type":"activity"' "$SRC/resources/samples/trace-vector-add-tpb-sweep-h200.jsonl" \
  | sed -E 's/,"program_run":[0-9]+//' > "$TMP/records"
awk -v n="$N" '{ a[NR] = $0 } END { for (i = 0; i < n; i++) print a[i % NR + 1] }' \
  "$TMP/records" > "$TMP/trace.jsonl"
: > "$TMP/empty.jsonl"
for f in trace empty; do
  printf '#!/bin/sh\ncat %s >&"$WARPSCOPE_TRACE_FD"\n' "$TMP/$f.jsonl" > "$TMP/$f.sh"
  chmod +x "$TMP/$f.sh"
done

# Best wall time of five runs of "$@", in ns.
best () {
  b=
  for i in 1 2 3 4 5; do
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1 || true
    t=$(( $(date +%s%N) - t0 ))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
  done
  echo "$b"
}

runner () {
  WARPSCOPE_LIBCUDA="$B/tests/libinject-fake-cuda.so" \
    "$B/src/runner/warpscope-runner" --trace --no-ceilings -- "$1"
}

full=$(best runner "$TMP/trace.sh")
none=$(best runner "$TMP/empty.sh")
echo "relay  $N lines  $(( (full - none) / N )) ns a line  ($(( (full - none) / 1000000 )) ms; runner with none: $(( none / 1000000 )) ms)"
"$B/tools/bench-relay-parse" "$TMP/trace.jsonl"
