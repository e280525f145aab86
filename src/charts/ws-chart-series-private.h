/* ws-chart-series-private.h: which series the charts of sweeps show (ws-chart-series.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-private.h"

G_BEGIN_DECLS

/* The size series a speedup chart shows (WsSeries, owned): a series per kernel and transfer
 * mode, and with a run picked, the series holding it (or the one compared) too. */
GPtrArray *_ws_speedup_pick_series (WsSession *session, const WsChartBase *base);
/* Ascending doubles, for g_array_sort. */
int _ws_compare_double (gconstpointer a, gconstpointer b);
/* The median of `values` (double), which it sorts; NAN when there are none: where a sweep
 * measured one configuration many times, its line goes through this. */
double _ws_median (GArray *values);
/* Whether run `id` (0: none) is one of the series' runs. */
gboolean _ws_series_has_run (WsSeries *series, int id);
/* The block series a blocks chart shows (WsSeries, owned), and whether it is a grid of 2D
 * shapes (then only the first, drawn as a heatmap). */
GPtrArray *_ws_blocks_pick_series (WsSession *session, const WsChartBase *base,
                                   gboolean *heatmap);

G_END_DECLS
