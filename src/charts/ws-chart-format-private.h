/* ws-chart-format-private.h: numbers as people read them on a chart: durations
 * with an adaptive unit, SI bytes and GB/s, sizes in K/M/G, ticks (ws-chart-format.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *_ws_format_duration (double ns);  /* "2.40 µs", "15.1 ms" */
char *_ws_format_bytes (double bytes);  /* "4 kB", "80 MB": SI, as GB/s are */
char *_ws_format_gbs (double gbs);       /* "55.2 GB/s" */
char *_ws_format_count (double value);  /* "1 K", "10 M", "2048", "1.5 M" */
char *_ws_format_count_approx (double value); /* two digits: "6.1 K", "95 K" */
char *_ws_format_sig (double value, int digits); /* significant digits, grouped thousands */
char *_ws_format_percent (double fraction);      /* "97%", "0.5%" */
/* The unit a step of `step_ns` reads best in: "ns", "µs", "ms", "s", and its size in ns. */
const char *_ws_time_unit (double step_ns, double *ns_per_unit);
/* A value with as many decimals as `step` needs to tell neighbouring ticks apart. */
char *_ws_format_tick (double value, double step);
/* A tick of a log axis with the decimals it needs: 0.01, 0.5, 2.5, 1,000. */
char *_ws_format_log_tick (double value);

G_END_DECLS
