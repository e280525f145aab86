#!/usr/bin/env python3
# bench-startup.py APP [--session-runs N [--scroll]] [NAME=VALUE…]: a benchmark, not a test.
#
# Without --session-runs: the time from exec to the first painted frame, N starts (N=9 in the
# environment changes it). The app prints the monotonic clock at its first frame when
# WARPSCOPE_PRINT_FIRST_FRAME is set; this script takes the same clock before starting it.
#
# With --session-runs R: builds a session of R runs from the bundled recordings (their runs
# again and again, with new ids and later times, nothing else changed), opens it in the app
# and reports, per start, how long after exec the session's first frame was painted and the
# longest the main loop was busy from the session's arrival until two seconds after that
# frame: how long the window froze (WARPSCOPE_PRINT_MAIN_LOOP_GAP, src/app/ws-probe.h). An
# app that analyses the session in threads also says when that was done, and the gap then runs
# until two seconds after the later of the two.
#
# With --session-runs R --scroll: then the runs list is scrolled from top to bottom in a fixed
# number of frames (WARPSCOPE_PROBE_SCROLL), and the frames' median, 95th percentile and
# longest interval, the number over 16.7 ms (one 60 Hz refresh) and the number a refresh late
# by the frame clock are reported too.
#
# Run it on a quiet machine, under the display and buses you want to measure
# (docs/benchmarks.md, "App"). SAMPLES_DIR overrides where the recordings are; SESSION_FILE
# names where the session is built and kept, or is read from if it is there.
# SPDX-License-Identifier: GPL-3.0-or-later
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_keys(record, old_to_new):
    """Every run id in a record (its own, the run it belongs to, a baseline's from_run)."""
    for key in ("id", "run", "from_run"):
        if isinstance(record.get(key), int) and record[key] in old_to_new:
            record[key] = old_to_new[record[key]]
    for value in record.values():
        if isinstance(value, dict):
            run_keys(value, old_to_new)


def build_session(path, runs_wanted, samples_dir):
    samples = sorted(glob.glob(os.path.join(samples_dir, "*.jsonl")))
    if not samples:
        sys.exit(f"no recordings in {samples_dir}")
    parsed = []
    for sample in samples:
        with open(sample) as f:
            records = [json.loads(line) for line in f if line.strip()]
        # A recording of no activity (a memory check's) has no runs to repeat.
        if any(r["type"] == "activity" for r in records):
            parsed.append(records)
    head, kernels = [], {}
    for records in parsed:
        for r in records:
            if r["type"] in ("hello", "device") and not any(h["type"] == r["type"] for h in head):
                head.append(r)
            elif r["type"] == "kernel":
                kernels.setdefault(r["name"], r)
    written, cursor, next_id = 0, None, 1
    with open(path, "w") as out:
        for r in head + list(kernels.values()):
            out.write(json.dumps(r, separators=(",", ":")) + "\n")
        while written < runs_wanted:
            for records in parsed:
                spans = [(r["start"], r["end"]) for r in records if r["type"] == "activity"]
                first, last = min(s for s, _ in spans), max(e for _, e in spans)
                cursor = first if cursor is None else cursor
                shift = cursor - first
                old_to_new = {}
                for r in records:
                    if r["type"] == "run":
                        if written == runs_wanted:
                            break
                        old_to_new[r["id"]] = next_id
                        next_id += 1
                        written += 1
                for r in records:
                    if r["type"] in ("hello", "device", "kernel", "progress", "done"):
                        continue
                    owner = r["id"] if r["type"] == "run" else r.get("run")
                    if owner not in old_to_new:
                        continue
                    r = json.loads(json.dumps(r))
                    run_keys(r, old_to_new)
                    if r["type"] == "activity":
                        r["start"] += shift
                        r["end"] += shift
                    out.write(json.dumps(r, separators=(",", ":")) + "\n")
                cursor += last - first + 1_000_000
                if written == runs_wanted:
                    break
        out.write(json.dumps({"type": "done", "runs": written, "failed": 0, "dropped_records": 0,
                              "exit_code": 0}, separators=(",", ":")) + "\n")


def marks(app, env, args, wanted):
    start = time.monotonic_ns() // 1000
    proc = subprocess.Popen([app] + args, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    found = {}
    try:
        for line in proc.stdout:
            words = line.split()
            # The analysed mark comes before the gap where the app prints it (from this round on).
            if len(words) == 2 and (words[0] in wanted
                                    or words[0] == "session-analysed-monotonic-us"
                                    or words[0].startswith("scroll-")):
                found[words[0]] = int(words[1])
                if all(w in found for w in wanted):
                    break
    finally:
        proc.kill()
        proc.wait()
    return start, found


def main():
    argv = sys.argv[1:]
    if not argv:
        sys.exit("usage: bench-startup.py APP [--session-runs N [--scroll]] [NAME=VALUE…]")
    app, runs = argv.pop(0), 0
    if argv[:1] == ["--session-runs"] and len(argv) > 1:
        runs = int(argv[1])
        argv = argv[2:]
    scroll = argv[:1] == ["--scroll"] and runs > 0
    if scroll:
        argv = argv[1:]
    env = dict(os.environ, GSETTINGS_BACKEND="memory", WARPSCOPE_PRINT_FIRST_FRAME="1")
    env.update(a.split("=", 1) for a in argv if "=" in a)
    starts = int(os.environ.get("N", "9" if runs == 0 else "3"))
    if runs == 0:
        times = []
        for _ in range(starts):
            start, found = marks(app, env, [], ["first-frame-monotonic-us"])
            if found:
                times.append((found["first-frame-monotonic-us"] - start) / 1000)
            time.sleep(0.3)
        if not times:
            sys.exit("the app printed no first frame: is DISPLAY set, and the settings schema found?")
        print(" ".join("%.0f" % t for t in times), "ms; median %.0f ms" % statistics.median(times))
        return
    here = os.path.dirname(os.path.abspath(__file__))
    samples_dir = os.environ.get("SAMPLES_DIR", os.path.join(here, "..", "resources", "samples"))
    env["WARPSCOPE_PRINT_MAIN_LOOP_GAP"] = "1"
    wanted = ["session-shown-monotonic-us", "main-loop-gap-max-us"]
    if scroll:
        env["WARPSCOPE_PROBE_SCROLL"] = "1"
        wanted.append("scroll-frames-over-16700us")
    with tempfile.TemporaryDirectory() as tmp:
        # SESSION_FILE keeps the session for the next comparison (it takes minutes to build).
        session = os.environ.get("SESSION_FILE") or os.path.join(tmp, f"bench-{runs}-runs.jsonl")
        if not os.path.exists(session):
            build_session(session, runs, samples_dir)
        print(f"# {runs} runs, {os.path.getsize(session) / 1e6:.0f} MB", flush=True)
        shown, gaps, analysed, scrolls = [], [], [], []
        for _ in range(starts):
            start, found = marks(app, env, [session], wanted)
            if "main-loop-gap-max-us" in found and "session-shown-monotonic-us" in found:
                shown.append((found["session-shown-monotonic-us"] - start) / 1000)
                gaps.append(found["main-loop-gap-max-us"] / 1000)
                if "session-analysed-monotonic-us" in found:
                    analysed.append((found["session-analysed-monotonic-us"] - start) / 1000)
                if found.get("scroll-frames"):
                    scrolls.append(found)
            time.sleep(0.3)
    if not gaps:
        sys.exit("the app printed no marks: is DISPLAY set, and the settings schema found?")
    print("session shown after", " ".join("%.0f" % t for t in shown),
          "ms; median %.0f ms" % statistics.median(shown))
    if analysed:
        print("session analysed after", " ".join("%.0f" % t for t in analysed),
              "ms; median %.0f ms" % statistics.median(analysed))
    print("longest main-loop gap", " ".join("%.0f" % g for g in gaps),
          "ms; median %.0f ms" % statistics.median(gaps))
    if scroll and not scrolls:
        print("scrolling: the runs list was not on screen")
    for s in scrolls:
        print("scrolling, %d frames: median %.1f ms, 95th percentile %.1f ms, longest %.1f ms, "
              "%d over 16.7 ms, %d a refresh late or more"
              % (s["scroll-frames"], s["scroll-frame-median-us"] / 1000,
                 s["scroll-frame-p95-us"] / 1000, s["scroll-frame-max-us"] / 1000,
                 s["scroll-frames-over-16700us"], s["scroll-frames-late"]))


main()
