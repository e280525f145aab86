/* ws-probe.h: marks a benchmark reads from outside (tests/bench-startup.py,
 * docs/benchmarks.md), printed on stdout on the monotonic clock, only when asked for in the
 * environment:
 *   WARPSCOPE_PRINT_FIRST_FRAME=1    "first-frame-monotonic-us T" when the first frame is
 *                                    painted;
 *   WARPSCOPE_PRINT_MAIN_LOOP_GAP=1  "session-shown-monotonic-us T" when the first session's
 *                                    first frame is painted, then "main-loop-gap-max-us G" two
 *                                    seconds later: the longest the main loop was busy from the
 *                                    session's arrival to then, which is how long the window
 *                                    froze; with "session-analysed-monotonic-us T" when its
 *                                    analysis and timeline lanes, built in threads, are ready,
 *                                    the gap runs until two seconds after the later mark;
 *                                    meanwhile every iteration busy 50 ms or more is printed
 *                                    as "main-loop-busy-us START DURATION";
 *   WARPSCOPE_PROBE_SCROLL=1         with the one above: once the gap is printed, the runs list
 *                                    is scrolled from its first row to its last in 600 frames
 *                                    (a tick callback moving its vertical adjustment by the
 *                                    same step each frame), then "scroll-frames N",
 *                                    "scroll-frame-median-us T", "scroll-frame-p95-us T",
 *                                    "scroll-frame-max-us T" (the intervals from one frame's
 *                                    start to the next), "scroll-frames-late L" (frames whose
 *                                    frame clock time, which GDK rounds to whole refreshes,
 *                                    came more than 25 ms after the last: a refresh missed)
 *                                    and "scroll-frames-over-16700us K" (intervals over a 60 Hz
 *                                    refresh, jitter included) are printed; only the first and
 *                                    the last when the list is not on screen.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* `window` has just been mapped. */
void ws_probe_window_mapped (GtkWidget *window);
/* A session is about to be handed to `window`'s views. */
void ws_probe_session_arrives (GtkWidget *window);

G_END_DECLS
