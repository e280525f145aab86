#!/bin/sh
# check.sh SRCROOT: tests/gpu/bench-baselines.sh with stand-ins for the runner and numpy, on a
# machine without a GPU or numpy: it passes where every all-core baseline is no slower than
# one thread and within 10% of numpy, and fails (exit 1), naming the size and why, where one
# is slower than one thread or than numpy.
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
SRC=$1
HERE=$SRC/tests/bench-standin
BENCH=$SRC/tests/gpu/bench-baselines.sh
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export PYTHONPATH=$HERE WARPSCOPE_BLAS=none
status=0
fail() { echo "not ok: $*"; status=1; }

# numpy's stand-in takes 5 µs, the runner's baselines 5 µs: every size passes.
STANDIN_NUMPY_NS=5000 sh "$BENCH" "$HERE/runner" 1024 1 >"$OUT/pass" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "the baselines as fast as numpy: exit $rc, not 0"
grep -q "every all-core baseline is no slower than one thread and within 10% of numpy" "$OUT/pass" \
  || fail "the passing verdict is not printed"
grep -q "| vector | 1000 | 5 µs | 5 µs on 1 thread, faster than 16 | 5" "$OUT/pass" \
  || fail "the verdict row does not say one thread was kept"
grep -q "| matmul | 512 |" "$OUT/pass" || fail "no verdict for the 512³ matmul"
grep -q "| vector | 100000000 |" "$OUT/pass" || fail "no verdict for the vector add at 10⁸"

# Every core slower than one thread at 10⁴: that size fails, and the bench with it.
STANDIN_NUMPY_NS=5000 STANDIN_SLOW=10000 sh "$BENCH" "$HERE/runner" 1024 1 >"$OUT/slow" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "every core slower than one thread: exit $rc, not 1"
grep -q "| vector | 10000 |.*slower than one thread" "$OUT/slow" \
  || fail "the size slower than one thread is not named"
grep -q "1 of 8 sizes fail" "$OUT/slow" || fail "the count of failing sizes is wrong"

# numpy four times as fast: every size is over 10% slower than numpy.
STANDIN_NUMPY_NS=1250 sh "$BENCH" "$HERE/runner" 1024 1 >"$OUT/numpy" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "baselines slower than numpy: exit $rc, not 1"
grep -q "numpy's time" "$OUT/numpy" || fail "the size slower than numpy does not say so"

[ $status -eq 0 ] && echo "ok"
[ $status -eq 0 ] || { echo "--- pass"; cat "$OUT/pass"; echo "--- slow"; cat "$OUT/slow"; }
exit $status
