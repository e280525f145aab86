#!/usr/bin/env python3
# bench-targets.py BUILD: what spreading a sweep over several runners, and starting the runner
# through ssh, srun and sbatch, cost on this machine, as a markdown table (docs/scaling.md).
# Stand-ins replay recordings in place of the runner (no GPU is needed, and none is measured):
#   - a 1,000-configuration sweep, built here from the runs of a bundled recording repeated,
#     replayed as fast as possible by one runner, then split over 8 (--devices 0-7), then
#     merged from 8 result files (warpscope-cli merge);
#   - with WS_SSH_PORT (tests/servers/with-servers.sh ssh|all): kernels through ssh against the
#     same stand-in here;
#   - with SLURM_CONF (with-servers.sh slurm|all): kernels through srun, a run through
#     sbatch --wait, a split over 2 srun jobs.
#   tests/servers/with-servers.sh all tools/bench-targets.py build
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.abspath(os.path.join(BUILD, "src", "cli", "warpscope-cli"))
SAMPLE = os.path.join(ROOT, "resources", "samples", "vector-add-blocks-h200.jsonl")
CONFIGS = 1000
GPUS = 8
REPEAT = 5


def sweep_lines():
    """The sample's preamble, then its 32 runs repeated to CONFIGS runs with fresh ids."""
    lines = open(SAMPLE).read().splitlines()
    head, runs, current = [], {}, None
    for line in lines:
        r = json.loads(line)
        t = r["type"]
        if t in ("hello", "device", "kernel"):
            head.append(r)
        elif t == "run":
            current = r["id"]
            runs[current] = [r]
        elif current is not None and t not in ("progress", "done"):
            runs[current].append(r)
    out = list(head)
    n = len(runs)
    for i in range(CONFIGS):
        for r in runs[i % n + 1]:
            r = dict(r)
            if r["type"] == "run":
                r["id"] = i + 1
            elif r.get("run") is not None:
                r["run"] = i + 1
            out.append(r)
    return out


def share(records, k, n):
    out, done, total, keep = [], 0, 0, False
    total = sum(1 for r in records if r["type"] == "run" and (r["id"] - 1) % n == k)
    for r in records:
        t = r["type"]
        if t == "device":
            r = dict(r, index=k, uuid="GPU-standin-%d" % k)
        if t == "run":
            if keep:
                done += 1
                out.append({"type": "progress", "t": 0, "done": done, "total": total})
            elif done == 0 and (r["id"] - 1) % n == k:
                out.append({"type": "progress", "t": 0, "done": 0, "total": total})
            keep = (r["id"] - 1) % n == k
        elif r.get("run") is not None and not keep:
            continue
        if t != "run" or keep:
            out.append(r)
    if keep:
        out.append({"type": "progress", "t": 0, "done": done + 1, "total": total})
    out.append({"type": "done", "t": 0, "runs": total, "failed": 0, "dropped_records": 0,
                "exit_code": 0})
    return out


def write(path, records):
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def runner_script(d, path, n):
    script = os.path.join(d, "runner.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nk=\nprev=\nfor a in \"$@\"; do\n"
                "  [ \"$prev\" = --shard ] && k=${a%%/*}\n  prev=$a\ndone\n"
                "[ -z \"$k\" ] && exec '%s' replay --speed 0 '%s'\n"
                "exec '%s' replay --speed 0 '%s/share-'$k'-of-%d.jsonl'\n"
                % (CLI, path, CLI, d, n))
    os.chmod(script, 0o755)
    return script


def timed(args, env=None, cwd=None):
    """Wall seconds and the CPU seconds of it and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run([CLI] + args, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("warpscope-cli %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_of(n, args, env=None, cwd=None):
    walls, cpus = [], []
    for _ in range(n):
        w, c = timed(args, env, cwd)
        walls.append(w)
        cpus.append(c)
    return statistics.median(walls), min(walls), max(walls), statistics.median(cpus)


def row(what, m):
    print("| %s | %.3f s (%.3f–%.3f) | %.3f s |" % (what, m[0], m[1], m[2], m[3]))


def main():
    d = tempfile.mkdtemp(prefix="ws-bench-")
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="C",
               WARPSCOPE_TARGETS=os.path.join(d, "targets.conf"))
    records = sweep_lines()
    whole = os.path.join(d, "sweep.jsonl")
    write(whole, records + [{"type": "done", "t": 0, "runs": CONFIGS, "failed": 0,
                             "dropped_records": 0, "exit_code": 0}])
    for k in range(GPUS):
        write(os.path.join(d, "share-%d-of-%d.jsonl" % (k, GPUS)), share(records, k, GPUS))
    runner = runner_script(d, whole, GPUS)
    env["WARPSCOPE_RUNNER"] = runner
    size = os.path.getsize(whole) / 1e6
    print("%d configurations, %d activity records, %.1f MB; %d CPU cores; median of %d "
          "(min–max), CPU of warpscope-cli and what it started\n"
          % (CONFIGS, sum(1 for r in records if r["type"] == "activity"), size,
             os.cpu_count(), REPEAT))
    print("| what | wall | CPU |\n|---|---|---|")
    row("one runner, %d configurations" % CONFIGS,
        median_of(REPEAT, ["run", "--kernel", "vector_add", "-q", "--cpu", "none", "-o",
                           "one.jsonl"], env, d))
    row("%d runners (--devices 0-%d), merged" % (GPUS, GPUS - 1),
        median_of(REPEAT, ["run", "--kernel", "vector_add", "-q", "--cpu", "none",
                           "--devices", "0-%d" % (GPUS - 1), "-o", "split.jsonl"], env, d))
    row("merge of %d result files" % GPUS,
        median_of(REPEAT, ["merge"] + ["share-%d-of-%d.jsonl" % (k, GPUS) for k in range(GPUS)]
                  + ["-o", "merged.jsonl"], env, d))
    small = os.path.join(d, "small.jsonl")
    write(small, [r for r in records if r["type"] in ("hello", "kernel")]
          + [{"type": "done", "t": 0, "runs": 0, "failed": 0, "dropped_records": 0,
              "exit_code": 0}])
    quick = os.path.join(d, "quick.sh")
    with open(quick, "w") as f:
        f.write("#!/bin/sh\nexec '%s' replay --speed 0 '%s'\n" % (CLI, small))
    os.chmod(quick, 0o755)
    row("kernels, runner here", median_of(10, ["kernels", "--runner", quick], env, d))
    if os.environ.get("WS_SSH_PORT"):
        opts = ("-i %s -o IdentitiesOnly=yes -o UserKnownHostsFile=%s "
                "-o StrictHostKeyChecking=accept-new"
                % (os.environ["WS_SSH_KEY"], os.environ["WS_SSH_KNOWN_HOSTS"]))
        for name, r in (("box", quick), ("split", runner)):
            subprocess.run([CLI, "targets", "add", name, "--ssh", "127.0.0.1", "--port",
                            os.environ["WS_SSH_PORT"], "--ssh-options", opts, "--runner", r],
                           env=env, check=True, stdout=subprocess.DEVNULL)
        row("kernels through ssh to 127.0.0.1", median_of(10, ["kernels", "--target", "box"],
                                                          env, d))
        row("%d runners through ssh, merged" % GPUS,
            median_of(REPEAT, ["run", "--target", "split", "--kernel", "vector_add", "-q",
                               "--cpu", "none", "--devices", "0-%d" % (GPUS - 1), "-o",
                               "ssh.jsonl"], env, d))
    if os.environ.get("SLURM_CONF"):
        for args in (["cl", "--srun", "-p debug", "--runner", quick],
                     ["batch", "--sbatch", "-p debug", "--job-dir", os.path.join(d, "jobs"),
                      "--runner", quick]):
            subprocess.run([CLI, "targets", "add"] + args, env=env, check=True,
                           stdout=subprocess.DEVNULL)
        row("kernels through srun (one job step)", median_of(10, ["kernels", "--target", "cl"],
                                                             env, d))
        row("kernels through sbatch --wait", median_of(3, ["kernels", "--target", "batch"],
                                                       env, d))
    subprocess.run(["rm", "-rf", d])


main()
