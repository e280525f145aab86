#!/usr/bin/env python3
# walk.py: the app itself on a GPU, driven as a person would through WARPSCOPE_CONTROL
# (DEVELOPERS.md) against the real runner, under Xvfb: a run and a sweep of the tutorial's
# vector add and Stop in a sweep; the tutorial's tiled matmul as an own kernel, its tile
# changed, checked and swept; a memory check of vector_add_oob.cu; the tutorial's Numba program
# traced, and a sweep of its --tpb; a runner that faults; the live session saved and reopened.
# Each step asserts on what the app reports and takes a screenshot.
#
# walk.py APP RUNNER CLI SOURCE_ROOT OUT_DIR [STEP…]
# Exits 77 (skipped) without a GPU, a display or the app; 1 when a step failed.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


class Failed(Exception):
    pass


class App:
    """The app started with a control FIFO; send() writes a command and returns its answer."""

    def __init__(self, app, env, out, args=()):
        self.dir = tempfile.mkdtemp(prefix="ws-gpu-app-")
        self.fifo = os.path.join(self.dir, "control")
        self.answers = self.fifo + ".out"
        self.n_read = 0
        self.out = out
        # Each app its own cache and data: no step sees what another kept (an autosaved
        # live session, recent files).
        env = dict(env, WARPSCOPE_CONTROL=self.fifo,
                   XDG_CACHE_HOME=os.path.join(self.dir, "cache"),
                   XDG_DATA_HOME=os.path.join(self.dir, "data"),
                   XDG_CONFIG_HOME=os.path.join(self.dir, "config"))
        self.log = open(os.path.join(out, "app.log"), "a")
        self.proc = subprocess.Popen([app, *args], env=env, stdout=self.log, stderr=self.log,
                                     cwd=self.dir)
        deadline = time.time() + 30
        while not os.path.exists(self.fifo):
            if time.time() > deadline or self.proc.poll() is not None:
                raise Failed("the app did not start (see app.log)")
            time.sleep(0.1)

    def send(self, command, timeout=30):
        if self.proc.poll() is not None:
            raise Failed(f"the app is gone (exit {self.proc.returncode}); see app.log")
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, (command + "\n").encode())
        os.close(fd)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if os.path.exists(self.answers):
                with open(self.answers) as f:
                    lines = f.read().split("\n")
                if len(lines) > self.n_read + 1:
                    self.n_read += 1
                    return json.loads(lines[self.n_read - 1])
            time.sleep(0.1)
        raise Failed(f"no answer to {command!r} in {timeout} s: the window is not responding")

    def do(self, command, timeout=30):
        answer = self.send(command, timeout)
        if not answer.get("ok"):
            raise Failed(f"{command!r}: {answer.get('error')}")
        return answer

    def state(self):
        return self.send("state")

    def wait(self, what, done, timeout):
        deadline = time.time() + timeout
        state = self.state()
        while not done(state):
            if time.time() > deadline:
                raise Failed(f"{what}: not after {timeout} s; state: {json.dumps(state)}")
            time.sleep(0.5)
            state = self.state()
        return state

    def shot(self, name):
        path = os.path.join(self.out, name + ".xwd")
        with open(path, "wb") as f:
            subprocess.run(["xwd", "-root", "-silent"], stdout=f, check=False)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("close", timeout=5)
                self.proc.wait(timeout=10)
            except (Failed, subprocess.TimeoutExpired):
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def runner_processes():
    """The runners running: processes whose command starts with the runner (this script's own
    arguments name it too)."""
    r = subprocess.run(["pgrep", "-f", "^[^ ]*warpscope-runner( |$)"], capture_output=True,
                       text=True)
    return [p for p in r.stdout.split() if p]


def ready(app):
    s = app.wait("the GPU found", lambda s: s["environment"] in ("ready", "unusable"), 120)
    if s["environment"] != "ready":
        raise Failed(f"no GPU for the app: {s['environment_title']}: {s['status']}")
    return s


# ---- the steps ---------------------------------------------------------------------------


def step_run_sweep(app, ctx):
    ready(app)
    app.do("set kernel 'vector_add'")
    app.do("set size '10000000'")
    app.wait("Run enabled", lambda s: s["run_enabled"], 60)
    app.do("action win.run")
    s = app.wait("the run", lambda s: not s["running"] and s["runs"] >= 1, 120)
    app.shot("run")
    if not s["findings"] and not s["headline"]:
        raise Failed(f"a run with nothing said about it: {json.dumps(s)}")
    runs = s["runs"]
    app.do("set sweep-from '1000'")
    app.do("set sweep-to '100000000'")
    app.do("set sweep-factor 10")
    app.do("set sweep-blocks '64,128,256,512,1024'")
    app.do("action win.sweep")
    s = app.wait("the sweep", lambda s: not s["running"] and s["runs"] > runs, 600)
    app.do("action win.show-view 'speedup'")
    time.sleep(1)
    app.shot("sweep-speedup")
    ctx["sweep_runs"] = s["runs"]
    # Stop in the middle of a sweep: the runs so far are kept, the runner is gone.
    app.do("action win.sweep")
    app.wait("the sweep under way", lambda s: s["running"] and s["runs"] >= 3, 300)
    app.do("action win.stop")
    s = app.wait("the sweep stopped", lambda s: not s["running"], 60)
    app.shot("sweep-stopped")
    if s["runs"] < 3:
        raise Failed(f"Stop lost the runs so far: {s['runs']} left")
    time.sleep(2)
    if runner_processes():
        raise Failed(f"the runner is still there after Stop: {runner_processes()}")


def step_own_kernel(app, ctx):
    ready(app)
    app.do("action win.new-kernel 'matmul_tiled'")
    app.wait("the kernel in the editor", lambda s: s["view"] == "source", 30)
    app.do("param TILE 8,16,32")
    app.do("action win.check-kernel")
    s = app.wait("the check", lambda s: not s["running"], 300)
    app.shot("own-check")
    if "error" in (s["toast"] or "").lower():
        raise Failed(f"Check: {s['toast']}")
    app.do("set sweep-blocks '8x8,16x16,32x32'")
    app.do("action win.sweep")
    s = app.wait("the sweep of TILE × block", lambda s: not s["running"] and s["runs"] >= 3, 600)
    app.do("action win.show-view 'blocks'")
    time.sleep(1)
    app.shot("own-params")
    if s["runs"] < 3:
        raise Failed(f"the sweep made {s['runs']} runs")


def step_memcheck(app, ctx):
    ready(app)
    app.do("open " + os.path.join(ctx["root"], "examples/kernels/vector_add_oob.cu"))
    app.wait("the kernel in the editor", lambda s: s["view"] == "source", 30)
    app.do("action win.memcheck-kernel")
    s = app.wait("the memory check", lambda s: not s["running"] and s["memcheck"], 600)
    app.shot("memcheck")
    if not any(":26 " in m for m in s["memcheck"]):
        raise Failed(f"the error is not on line 26: {s['memcheck']}")


def step_trace(app, ctx):
    ready(app)
    programs = os.path.join(ctx["root"], "tests/gpu/programs")
    app.do(f"trace {programs}\tpython3 vector_add.py")
    s = app.wait("the traced program", lambda s: not s["running"] and s["trace_kernels"] >= 1, 300)
    s = app.wait("its findings", lambda s: s["analysed"], 120)
    app.shot("trace")
    if not any(f.startswith("Compile timed") for f in s["trace_findings"]):
        raise Failed(f"no finding explains the 0.02×: {s['trace_findings']}")
    app.do(f"trace {programs}\tpython3 vector_add_tpb.py --tpb {{TPB}}\tTPB=64,256,1024")
    s = app.wait("the sweep of --tpb", lambda s: not s["running"] and s["trace_kernels"] >= 3, 600)
    app.do("action win.show-view 'blocks'")
    time.sleep(1)
    app.shot("trace-sweep-blocks")


def step_fault(app, ctx):
    # A kernel that writes where nothing is allocated: the GPU faults, the runner says why.
    ready(app)
    app.do("open " + os.path.join(ctx["root"], "tests/gpu-app/fault.cu"))
    app.wait("the kernel in the editor", lambda s: s["view"] == "source", 30)
    app.wait("Run enabled", lambda s: s["run_enabled"], 60)
    app.do("action win.run")
    s = app.wait("the fault reported", lambda s: not s["running"], 120)
    app.shot("fault")
    said = " ".join([s["toast"] or "", s["status"] or "", s["headline"] or "", *s["findings"]])
    if "fault" not in said.lower() and "illegal" not in said.lower() and "error" not in said.lower():
        raise Failed(f"the fault is not explained: {json.dumps(s)}")
    app.state()  # still answering


def step_save_reopen(app, ctx):
    s = ready(app)
    app.do("set kernel 'vector_add'")
    app.do("set size '1000000'")
    app.wait("Run enabled", lambda s: s["run_enabled"], 60)
    app.do("action win.run")
    s = app.wait("the run", lambda s: not s["running"] and s["runs"] >= 1, 120)
    saved = os.path.join(ctx["out"], "saved-live.jsonl")
    app.do("save " + saved)
    if not os.path.exists(saved):
        raise Failed("Save wrote nothing")
    app.do("open " + saved)
    s2 = app.wait("the saved session reopened", lambda t: t["runs"] == s["runs"] and t["analysed"], 60)
    app.shot("reopened")


STEPS = {
    "run-sweep": step_run_sweep,
    "own-kernel": step_own_kernel,
    "memcheck": step_memcheck,
    "trace": step_trace,
    "fault": step_fault,
    "save-reopen": step_save_reopen,
}


def main():
    if len(sys.argv) < 6:
        print(__doc__ or "walk.py APP RUNNER CLI SOURCE_ROOT OUT_DIR [STEP…]", file=sys.stderr)
        return 2
    # The app and the CLI from WARPSCOPE_APP and WARPSCOPE_CLI when set: a build without GTK
    # (a GPU machine) has neither, and runs the bundle's.
    app_path = os.environ.get("WARPSCOPE_APP") or sys.argv[1]
    cli = os.environ.get("WARPSCOPE_CLI") or sys.argv[3]
    app_path, runner, cli, root, out = (os.path.abspath(a) if a else a for a in
                                        (app_path, sys.argv[2], cli, sys.argv[4], sys.argv[5]))
    wanted = sys.argv[6:] or list(STEPS)
    # WS_GPU_APP_DRY=1 walks without a GPU: every step then stops at "no GPU for the app",
    # which checks the walk's own driving where there is none.
    if not os.environ.get("WS_GPU_APP_DRY") and (
            shutil.which("nvidia-smi") is None
            or subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0):
        print("skipped: no GPU")
        return 77
    if not os.environ.get("DISPLAY") or not app_path or not os.access(app_path, os.X_OK):
        print("skipped: no display or no app (tests/gpu-app/README.md says how to bring both)")
        return 77
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, WARPSCOPE_RUNNER=runner, WARPSCOPE_CLI=cli,
               WS_SAMPLES_DIR=os.path.join(root, "resources/samples"))
    results = {}
    for name in wanted:
        started = time.time()
        app = None
        try:
            app = App(app_path, env, out)
            STEPS[name](app, {"root": root, "out": out})
            results[name] = "passed"
        except Failed as e:
            results[name] = f"failed: {e}"
            if app is not None:
                app.shot(name + "-failed")
        finally:
            if app is not None:
                app.close()
        print(f"{name}: {results[name]} ({time.time() - started:.0f} s)", flush=True)
    with open(os.path.join(out, "walk.json"), "w") as f:
        json.dump(results, f, indent=1)
    failed = [n for n, r in results.items() if r != "passed"]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
