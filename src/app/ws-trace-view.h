/* ws-trace-view.h: a traced program's tables: how each program run ended, its kernels per
 * name and configuration (count, total, median, min, max, share of GPU time, occupancy and
 * its limiter), as `nsys stats` groups them, and its copies per direction and host memory;
 * a sweep's runs one after the other under their parameter values. Its page of the window's
 * view stack shows only while the workspace holds a trace.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-view.h"

G_BEGIN_DECLS

/* Property: "workspace" (WsView's). */
#define WS_TYPE_TRACE_VIEW (ws_trace_view_get_type ())
G_DECLARE_FINAL_TYPE (WsTraceView, ws_trace_view, WS, TRACE_VIEW, WsView)

GtkWidget *ws_trace_view_new (void);
/* Fills the tables again from the trace; done on each "session-updated" of the workspace (a
 * live trace says so twice a second while it grows: ws_run_controller_start_trace). */
void ws_trace_view_refresh (WsTraceView *self);
/* The cells of the kernel table of program run `program` (1, 2, …; 0: the first shown), row
 * by row, a row's cells joined by " | "; for tests and for copying out. */
char *ws_trace_view_dup_kernel_rows (WsTraceView *self, guint program);
char *ws_trace_view_dup_copy_rows (WsTraceView *self, guint program);

G_END_DECLS
