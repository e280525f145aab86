#!/usr/bin/env python3
# bench-startup.py APP [NAME=VALUE…]: time from exec to the first painted frame, N starts
# (N=9 in the environment changes it). The app prints the monotonic clock at its first frame
# when WARPSCOPE_PRINT_FIRST_FRAME is set; this script takes the same clock before starting it.
# Run it on a quiet machine, under the display and buses you want to measure
# (docs/benchmarks.md, "App — start-up"). A benchmark, not a test.
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import statistics
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit("usage: bench-startup.py APP [NAME=VALUE…]")
env = dict(os.environ, GSETTINGS_BACKEND="memory", WARPSCOPE_PRINT_FIRST_FRAME="1")
env.update(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
times = []
for _ in range(int(os.environ.get("N", "9"))):
    start = time.monotonic_ns() // 1000
    app = subprocess.Popen([sys.argv[1]], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    for line in app.stdout:
        if line.startswith("first-frame-monotonic-us"):
            times.append((int(line.split()[1]) - start) / 1000)
            break
    app.kill()
    app.wait()
    time.sleep(0.3)
if not times:
    sys.exit("the app printed no first frame: is DISPLAY set, and the settings schema found?")
print(" ".join("%.0f" % t for t in times), "ms; median %.0f ms" % statistics.median(times))
