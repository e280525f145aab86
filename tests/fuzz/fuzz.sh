#!/bin/sh
# fuzz.sh: runs one fuzz target of a -Dfuzz=true build for a while, from its committed corpus,
# with the sanitizers' options ./dev test uses; what it finds goes to a work directory, never
# into the source tree. DEVELOPERS.md, "Fuzzing", says what to do with a crasher.
#   tests/fuzz/fuzz.sh TARGET [SECONDS] [BUILD-DIR] [WORK-DIR]
#   e.g. tests/fuzz/fuzz.sh session 600 build-fuzz /tmp/fuzz-session
# At the end: WORK-DIR/corpus (the committed inputs and what was found), WORK-DIR/artifacts
# (crash-*, leak-*, timeout-*, oom-*) and WORK-DIR/fuzz.log, whose last lines give the
# executions, exec/s and coverage (cov, ft).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
target=${1:?usage: fuzz.sh TARGET [SECONDS] [BUILD-DIR] [WORK-DIR]}
seconds=${2:-600}
build=${3:-build-fuzz}
work=${4:-/tmp/warpscope-fuzz-$target}
fuzzer=$build/tests/fuzz/fuzz-$target
[ -x "$fuzzer" ] || { echo "fuzz.sh: no $fuzzer: configure with CC=clang -Dfuzz=true" >&2; exit 1; }

dict=""
case "$target" in
  session|record|chart|report) dict=$src/tests/fuzz/protocol.dict ;;
  plan|runner-args) dict=$src/tests/fuzz/$target.dict ;;
esac
# Sessions are read line by line, and a line of the protocol is a few kB at most.
max_len=8192
[ "$target" = record ] && max_len=4096
[ "$target" = runner-args ] || [ "$target" = plan ] && max_len=2048

mkdir -p "$work/corpus" "$work/artifacts"
cp -n "$src/tests/fuzz/corpus/$target/"* "$work/corpus/" 2>/dev/null || true

export LC_ALL=C.UTF-8 LANGUAGE=C WS_SAMPLES_DIR="$src/resources/samples"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$src/tests/sanitizers/lsan.supp:print_suppressions=0
# -fork=1 with -ignore_*: one crash does not end the run, every distinct one is kept.
# -timeout=30: on a shared machine inputs that take under a second alone ran over 10 s, and
# one job hung for minutes writing its timeout report (docs/benchmarks.md, "Fuzzing").
"$fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -max_len=$max_len -timeout=30 -rss_limit_mb=2048 \
  ${dict:+-dict="$dict"} -artifact_prefix="$work/artifacts/" \
  "$work/corpus" >"$work/fuzz.log" 2>&1 || true
tail -n 3 "$work/fuzz.log"
ls "$work/artifacts"
