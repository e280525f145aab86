#!/usr/bin/env python3
# trim-corpus.py: the committed corpus of a fuzz target, small: the fewest inputs, smallest
# first, that together reach every edge (code branch) that the inputs given reach. libFuzzer's
# plain -merge=1 keeps every input that adds a feature, hit counters and comparisons included:
# for the session readers that is megabytes of near-copies. Here the merge counts edges only,
# and the inputs it keeps are copied under their own names (a seed's name says what it is).
# Usage: tests/fuzz/trim-corpus.py FUZZER OUTPUT-DIR INPUT-DIR...
#   e.g. tests/fuzz/trim-corpus.py build-fuzz/tests/fuzz/fuzz-session /tmp/trimmed \
#          tests/fuzz/corpus/session /tmp/fuzz-session/corpus
# then replace tests/fuzz/corpus/session/ with /tmp/trimmed. OUTPUT-DIR must be new or empty.
# The sanitizers' options are those of tests/fuzz/fuzz.sh. An input that crashes the target
# is left out (the merge goes on without it) and named: it is a crasher, not a seed.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def environment():
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1:symbolize=1")
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    env.setdefault("LSAN_OPTIONS", "suppressions=%s:print_suppressions=0"
                   % os.path.join(SRC, "tests", "sanitizers", "lsan.supp"))
    env.setdefault("LC_ALL", "C.UTF-8")
    env.setdefault("LANGUAGE", "C")
    env.setdefault("WS_SAMPLES_DIR", os.path.join(SRC, "resources", "samples"))
    return env


def read_control(path):
    """The merge's control file: the inputs in its order, and for each input that ran to
    its end the features and edges it added to those before it (libFuzzer writes only the
    new ones)."""
    lines = open(path).read().split("\n")
    n = int(lines[0])
    files = lines[2:2 + n]
    features, edges, started = {}, {}, set()
    for line in lines[2 + n:]:
        words = line.split()
        if not words:
            continue
        if words[0] == "STARTED":
            started.add(int(words[1]))
        elif words[0] == "FT":
            features[int(words[1])] = words[2:]
        elif words[0] == "COV":
            edges[int(words[1])] = words[2:]
    # Started but never finished: the input crashed, hung or ran out of memory.
    crashed = sorted(started - set(features))
    return files, features, edges, crashed


def main():
    ap = argparse.ArgumentParser(description="Trim a fuzz target's corpus to its edges.")
    ap.add_argument("fuzzer")
    ap.add_argument("output")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    for d in args.inputs:
        if not os.path.isdir(d):
            sys.exit("trim-corpus.py: %s is not a folder of inputs" % d)
    os.makedirs(args.output, exist_ok=True)
    if os.listdir(args.output):
        # Never mixed with what was there, never overwriting it.
        sys.exit("trim-corpus.py: %s is not empty: give a new folder" % args.output)

    with tempfile.TemporaryDirectory() as tmp:
        control = os.path.join(tmp, "control")
        # libFuzzer's merge writes what it keeps into its first folder: an empty one of ours,
        # so that nothing given is written to; the files are then copied by their own names.
        merged = os.path.join(tmp, "merged")
        os.mkdir(merged)
        log = os.path.join(tmp, "merge.log")
        with open(log, "w") as out:
            # Edges only: no hit counters, no comparisons, no value profile.
            done = subprocess.run([args.fuzzer, "-merge=1", "-use_counters=0", "-use_cmp=0",
                                   "-use_value_profile=0", "-timeout=10", "-rss_limit_mb=2048",
                                   "-merge_control_file=" + control, merged] + args.inputs,
                                  stdout=out, stderr=subprocess.STDOUT, env=environment())
        if done.returncode != 0 or not os.path.exists(control):
            sys.stderr.write(open(log).read()[-4000:])
            sys.exit("trim-corpus.py: the merge failed (exit %d)" % done.returncode)
        files, features, edges, crashed = read_control(control)

    kept = [i for i in sorted(features) if features[i]]
    every = set()
    for i in edges:
        every.update(edges[i])
    names = set()
    for i in kept:
        name = os.path.basename(files[i])
        # Two folders may hold a file of the same name: the later one gets a suffix.
        base, k = name, 1
        while name in names:
            k += 1
            name = "%s.%d" % (base, k)
        names.add(name)
        shutil.copyfile(files[i], os.path.join(args.output, name))
    size = sum(os.path.getsize(files[i]) for i in kept)
    print("%d edges, reached by %d of %d inputs (%d bytes)" % (len(every), len(kept), len(files),
                                                             size))
    for i in crashed:
        print("left out, it does not run to its end: %s" % files[i])


if __name__ == "__main__":
    main()
