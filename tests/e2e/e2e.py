#!/usr/bin/python3
# e2e.py APP OUT_DIR: drives the real Warpscope through the accessibility tree (AT-SPI, via
# dogtail): from the first screen a speedup SVG for a report in four actions; run (a replay
# standing in for the GPU), select a run, then a second beside it, export a chart from the
# dialog, step through the runs in presentation mode with a clicker's keys; every control is
# found by its accessible name. Then a screenshot.
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import subprocess
import sys
import time

subprocess.run(["gsettings", "set", "org.gnome.desktop.interface", "toolkit-accessibility",
                "true"], check=True)
# Exports go where the test looks for them.
subprocess.run(["gsettings", "set", "org.warpscope.Warpscope", "export-folder", sys.argv[2]],
               check=True)

from dogtail import config  # noqa: E402 (needs the setting above)
from dogtail.predicate import GenericPredicate  # noqa: E402
from dogtail.rawinput import keyCombo, typeText  # noqa: E402
from dogtail.tree import root  # noqa: E402

config.searchCutoffCount = 60
config.searchBackoffDuration = 0.25
config.defaultDelay = 0.3
config.actionDelay = 0.3

app_path, out_dir = sys.argv[1], sys.argv[2]
steps = []


def step(name):
    steps.append(name)
    print(f"# {name}", flush=True)


def wait_for(predicate, what, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # the tree changes under us while it fills
            pass
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def find(parent, name, role=None, timeout=20, action=None):
    """The first control whose accessible name is `name` (GTK may repeat a button's label
    in its name, or keep a mnemonic's underscore: those count too), and that can do
    `action` when one is named."""
    def matches(node):
        names = {node.name, node.name.replace("_", "")}
        return ((role is None or node.roleName == role)
                and (action is None or action in node.actions)
                and any(n == name or n == f"{name} {name}" for n in names))
    return wait_for(lambda: parent.findChild(matches, retry=False, requireResult=False),
                    f"'{name}' ({role or 'any role'})", timeout)


def activate(node):
    """Uses the control's own accessible action (no pointer: GTK 4 reports no screen
    positions on X11), falling back to a click."""
    for name in ("click", "activate", "press", "toggle"):
        if name in node.actions:
            node.doActionNamed(name)
            return
    node.click()


def file_starts(path, head):
    try:
        with open(path, "rb") as f:
            return f.read(len(head)) == head
    except OSError:
        return False


def labels(node):
    return [c.name for c in node.findChildren(GenericPredicate(roleName="label"))]


def status_text(app):
    node = find(app, "Status")
    return node.name if node.roleName == "label" and node.name != "Status" else (node.text or "")


def shot(path):
    xwd = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, check=True).stdout
    pnm = subprocess.run(["xwdtopnm"], input=xwd, capture_output=True, check=True).stdout
    with open(path, "wb") as f:
        f.write(subprocess.run(["pnmtopng"], input=pnm, capture_output=True, check=True).stdout)


# Connect to the accessibility registry before the app starts, so that its arrival is seen.
root.applications()
proc = subprocess.Popen([app_path], env=os.environ)
try:
    step("the window appears")
    try:
        app = wait_for(lambda: [a for a in root.applications() if a.name == "warpscope"],
                       "the warpscope application on the accessibility bus", 90)[0]
    except AssertionError as e:
        # The accessibility bus itself, not the app: the caller may try once more.
        print(f"# {e}; the bus shows: {[a.name for a in root.applications()]}; "
              f"the app {'is running' if proc.poll() is None else 'exited with %s' % proc.returncode}",
              flush=True)
        proc.terminate()
        sys.exit(3)
    window = wait_for(lambda: app.children[0] if app.children else None, "a window")

    step("from the first screen, a speedup SVG for a report in four actions")
    svg = os.path.join(out_dir, "vector-add-sizes-h200-speedup.svg")
    if os.path.exists(svg):
        os.remove(svg)
    walk = [("Vector add over sizes (H200)", "push button", window),
            ("Speedup", "page tab", window),
            ("More ways to export", None, window),
            ("Export as SVG", None, app)]
    for n, (name, role, where) in enumerate(walk, 1):
        activate(find(where, name, role, action="click"))
        print(f"# action {n}: {name}", flush=True)
        if n == 1:
            wait_for(lambda: any(l.startswith("Recording made on NVIDIA H200")
                                 for l in labels(window)), "the status line naming the H200")
    assert len(walk) <= 4
    wait_for(lambda: file_starts(svg, b"<?xml"), f"{svg} to be written", 20)
    with open(svg, encoding="utf-8") as f:
        text = f.read()
    assert "<svg" in text and "Speedup over the CPU" in text, "the SVG is not the speedup chart"
    assert 'pt" height="' in text, "the SVG does not say its size in points"
    wait_for(lambda: any(l.startswith("Saved vector-add-sizes-h200-speedup.svg in ")
                         for l in labels(window)), "the toast saying where the file went")

    step("run: the runner's records fill the session live")
    run = find(window, "Run", "push button")
    wait_for(lambda: run.sensitive, "Run to become available", 30)
    activate(run)
    wait_for(lambda: any(l.startswith("Replay of a recording made on NVIDIA H200")
                         for l in labels(window)), "the live replay in the status line", 30)
    stop = find(window, "Stop", "push button")
    wait_for(lambda: not stop.sensitive and sum(l.startswith("n = ") for l in labels(window)) >= 12,
             "all 12 runs in the table and the runner finished", 60)

    step("select a run: its findings appear")
    # The first row, then down the table to run 5 (n = 10,000,000): the table under the
    # chart shows a few rows at a time.
    activate(find(window, "n = 1,000", "label"))
    for _ in range(4):
        keyCombo("Down")
    # At this window's size the findings fold away: their key brings them over the chart.
    keyCombo("<Shift>F9")
    wait_for(lambda: any(l.startswith("Run ") and "vector_add" in l for l in labels(window)),
             "the findings panel heading for the run", 20)

    step("a second run beside the first: the two side by side")
    keyCombo("<Shift>Down")
    wait_for(lambda: any(" beside run " in l for l in labels(window)), "the side-by-side heading",
             20)

    step("export the chart from the dialog: named for the session, in the export folder")
    # The replay is a live session, not saved yet: "warpscope", and the chart on screen.
    target = os.path.join(out_dir, "warpscope-speedup.png")
    if os.path.exists(target):
        os.remove(target)
    activate(find(window, "Export", "push button", action="click"))
    dialog = wait_for(lambda: [w for w in app.children if w.name == "Export"], "the export dialog")[0]
    activate(find(dialog, "Export", "push button", action="click"))
    wait_for(lambda: file_starts(target, b"\x89PNG\r\n\x1a\n"), f"{target} to be written", 20)

    step("presentation mode: a clicker's keys step through the runs")
    keyCombo("F11")
    wait_for(lambda: any(l.startswith("Run 5 of 12") for l in labels(window)),
             "the takeaway naming run 5", 20)
    keyCombo("Right")
    wait_for(lambda: any(l.startswith("Run 6 of 12") for l in labels(window)),
             "the takeaway naming run 6", 20)
    keyCombo("Page_Up")
    keyCombo("Page_Up")
    wait_for(lambda: any(l.startswith("Run 4 of 12") for l in labels(window)),
             "the takeaway naming run 4", 20)
    time.sleep(0.5)
    shot(os.path.join(out_dir, "e2e-presentation.png"))
    keyCombo("Escape")
    wait_for(lambda: not any(l.startswith("Run 4 of 12") for l in labels(window)),
             "presentation mode to end", 20)

    step("screenshot")
    time.sleep(0.5)
    shot(os.path.join(out_dir, "e2e-window.png"))
    print(f"ok - {len(steps)} steps; screenshots in {out_dir}")
finally:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
