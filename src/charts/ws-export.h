/* ws-export.h: charts to PNG (1×, 2×, 3×), SVG and PDF (text as text), the runs behind a
 * chart as CSV, a session as Chrome trace-event JSON (Perfetto, chrome://tracing). Every
 * write goes to a temporary file that is renamed over the target once complete.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-chart.h"

G_BEGIN_DECLS

typedef enum
{
  WS_EXPORT_PNG,
  WS_EXPORT_SVG,
  WS_EXPORT_PDF,
  WS_EXPORT_CSV,
  WS_EXPORT_TRACE,
} WsExportFormat;

const char *ws_export_format_to_string (WsExportFormat format); /* "png", … */
gboolean ws_export_format_from_string (const char *name, WsExportFormat *format);
const char *ws_export_format_extension (WsExportFormat format);  /* ".png", ".json" … */

/* PNG, SVG or PDF of one chart; `scale` multiplies the pixel size of a PNG (1, 2, 3). */
gboolean ws_export_chart (GPtrArray *sessions, const WsChartOptions *options,
                          WsExportFormat format, double scale, GFile *file, GError **error);
/* The same file's bytes, for the clipboard or a pipe; NULL and `error` on failure. */
GBytes *ws_export_chart_to_bytes (GPtrArray *sessions, const WsChartOptions *options,
                                  WsExportFormat format, double scale, GError **error);
/* The runs the chart draws, one row each, with the numbers it plots. */
gboolean ws_export_csv (GPtrArray *sessions, const WsChartOptions *options, GFile *file,
                        GError **error);
/* The same CSV to a stream (a pipe), written as it is. */
gboolean ws_export_csv_to_stream (GPtrArray *sessions, const WsChartOptions *options,
                                  GOutputStream *stream, GError **error);
/* One pid per device, one tid per stream and copy direction, ts/dur in µs keeping the ns. */
gboolean ws_export_trace (WsSession *session, GFile *file, GError **error);
/* The same trace to a stream (a pipe), written as it is. */
gboolean ws_export_trace_to_stream (WsSession *session, GOutputStream *stream, GError **error);

G_END_DECLS

G_BEGIN_DECLS

/* A chart for print, `options` sized in points (1/72 inch): a PDF page that size, an SVG whose
 * width and height say "pt", a PNG of `dpi` pixels an inch. Placed at that size, text is as
 * large as the theme says in points (a theme scaled for the figure gives a chosen size). */
GBytes *ws_export_chart_to_bytes_for_print (GPtrArray *sessions, const WsChartOptions *options,
                                            WsExportFormat format, double dpi, GError **error);

G_END_DECLS
