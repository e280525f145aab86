/* ws-export-private.h: what the exporters share: numbers for files; the pieces of each chart
 * kind's CSV that the table of kinds names (ws-export-csv.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-private.h"
#include "ws-export.h"
#include "ws-file.h"

G_BEGIN_DECLS

/* A number in the charts' CSV: ws_format_append_csv_number, kept under this name for the
 * CSV writer (ws-export-csv.c) until it calls that itself. */
void _ws_export_append_number (GString *out, double value);

/* The runs of each kind's rows (WsChartCsvRunsFunc). */
GPtrArray *_ws_csv_speedup_runs (WsSession *session, const WsChartOptions *options,
                                 WsChartCsvMarks *marks);
GPtrArray *_ws_csv_blocks_runs (WsSession *session, const WsChartOptions *options,
                                WsChartCsvMarks *marks);
GPtrArray *_ws_csv_params_runs (WsSession *session, const WsChartOptions *options,
                                WsChartCsvMarks *marks);
GPtrArray *_ws_csv_timeline_runs (WsSession *session, const WsChartOptions *options,
                                  WsChartCsvMarks *marks);
GPtrArray *_ws_csv_chart_runs (WsSession *session, const WsChartOptions *options,
                               WsChartCsvMarks *marks);
/* The columns of ws-run-columns.h that follow the common ones, by their export names. */
extern const char *const _ws_csv_speedup_columns[];
extern const char *const _ws_csv_blocks_columns[];
extern const char *const _ws_csv_params_columns[];
/* Each kind's own cells (WsChartCsvRowFunc). */
void _ws_csv_timeline_row (GString *out, WsSession *session, WsRun *run,
                           const WsChartOptions *options, const WsChartCsvMarks *marks);
void _ws_csv_blocks_row (GString *out, WsSession *session, WsRun *run,
                         const WsChartOptions *options, const WsChartCsvMarks *marks);
void _ws_csv_params_row (GString *out, WsSession *session, WsRun *run,
                         const WsChartOptions *options, const WsChartCsvMarks *marks);
void _ws_csv_breakdown_row (GString *out, WsSession *session, WsRun *run,
                            const WsChartOptions *options, const WsChartCsvMarks *marks);
void _ws_csv_roofline_row (GString *out, WsSession *session, WsRun *run,
                           const WsChartOptions *options, const WsChartCsvMarks *marks);
/* A CSV of a kind's own (WsChartCsvTextFunc): the occupancy chart's curve points; a traced
 * program's breakdown, a row per program run with its shares of the wall time. */
gboolean _ws_csv_occupancy_text (GString *out, GPtrArray *sessions,
                                 const WsChartOptions *options, GError **error);
gboolean _ws_csv_breakdown_text (GString *out, GPtrArray *sessions,
                                 const WsChartOptions *options, GError **error);

G_END_DECLS
