/* ws-chart-format-private.h: the ticks of an axis and the unit of a time axis
 * (ws-chart-format.c); every other number on a chart is ws-units.h's.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-units.h"

G_BEGIN_DECLS

/* The unit a step of `step_ns` reads best in: "ns", "µs", "ms", "s", and its size in ns. */
const char *_ws_time_unit (double step_ns, double *ns_per_unit);
/* A value with as many decimals as `step` needs to tell neighbouring ticks apart. */
char *_ws_format_tick (double value, double step);
/* A tick of a log axis with the decimals it needs: 0.01, 0.5, 2.5, 1,000. */
char *_ws_format_log_tick (double value);

G_END_DECLS
