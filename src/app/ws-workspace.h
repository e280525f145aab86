/* ws-workspace.h: what the views of a window share, as properties with notify: the session,
 * the selected run and the one compared with it, the visible time window, the selected range,
 * the highlighted spans, presentation mode. Every view has a "workspace" property, set once
 * in the window's template, and follows it; none is told anything by the window.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-session-analysis.h"
#include "ws-chart.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* A stretch of time in ns; start == end: none (a range), or everything (a window). */
typedef struct
{
  gint64 start, end;
} WsTimeSpan;

#define WS_TYPE_TIME_SPAN (ws_time_span_get_type ())
GType ws_time_span_get_type (void);

/* Properties: "session" (WsSession), "run" and "compare-run" (ids, 0: none),
 * "visible-window" and "selected-range" (WsTimeSpan), "highlight" (GArray of WsActivityRef),
 * "selected-activity" (WsActivityRef, run 0: none), "presentation". Signals relay the
 * session's: "run-added" and "run-updated" (WsRun), "session-updated" (hello, device,
 * progress, errors, the end), and "analysis-ready" once the session's analysis and its
 * timeline's lanes are (a loaded session's are built in threads: views wait for it). */
#define WS_TYPE_WORKSPACE (ws_workspace_get_type ())
G_DECLARE_FINAL_TYPE (WsWorkspace, ws_workspace, WS, WORKSPACE, GObject)

WsWorkspace *ws_workspace_new (void);

/* A new session starts with nothing selected and the whole of it visible. */
WsSession *ws_workspace_get_session (WsWorkspace *self);
void ws_workspace_set_session (WsWorkspace *self, WsSession *session);
/* The session as the charts take it (WsSession): holding it, or empty. */
GPtrArray *ws_workspace_get_sessions (WsWorkspace *self);
gboolean ws_workspace_has_runs (WsWorkspace *self);
/* Whether the session is a traced program's (ws_session_get_trace) with a process that used
 * CUDA: the views then show its timeline, tables and findings. */
gboolean ws_workspace_has_trace (WsWorkspace *self);

/* The selection: the visible window follows it, a run from a little before its start to a
 * little after its end, two runs compared from their own starts. */
int ws_workspace_get_run (WsWorkspace *self);
int ws_workspace_get_compare_run (WsWorkspace *self);
void ws_workspace_select_runs (WsWorkspace *self, int run, int compare_run);
WsRun *ws_workspace_get_selected_run (WsWorkspace *self);
/* The next (`delta` 1) or previous (-1) run of the session, alone, as a clicker steps through
 * a lecture: from none, the first (or the last). FALSE, and nothing changed, past the ends. */
gboolean ws_workspace_step_run (WsWorkspace *self, int delta);
WsRun *ws_workspace_get_compared_run (WsWorkspace *self);

/* Two runs compared: each is then counted from its own start on one time scale, so times in
 * the window and the range are ns since a run's start. */
gboolean ws_workspace_is_comparing (WsWorkspace *self);
/* What a time of the window counts from for `run`: 0 (session time), or the run's start. */
gint64 ws_workspace_get_origin (WsWorkspace *self, int run);
/* The range the window may show: the session's, or 0 to the longer compared run's length. */
gboolean ws_workspace_get_full_range (WsWorkspace *self, gint64 *start, gint64 *end);

/* The window; set, it keeps at least 100 ns and stays by the data (the whole of it: 0, 0). */
void ws_workspace_get_visible_window (WsWorkspace *self, gint64 *start, gint64 *end);
void ws_workspace_set_visible_window (WsWorkspace *self, gint64 start, gint64 end);
/* FALSE when no range is selected. */
gboolean ws_workspace_get_selected_range (WsWorkspace *self, gint64 *start, gint64 *end);
void ws_workspace_set_selected_range (WsWorkspace *self, gint64 start, gint64 end);
/* Copy, kernel, overlap and idle time of the selected range, in `run` when comparing (from
 * its own start), else in the whole session. */
void ws_workspace_get_range_totals (WsWorkspace *self, int run, WsTotals *totals);

/* Spans outlined on the timeline (WsActivityRef), NULL: none. */
GArray *ws_workspace_get_highlight (WsWorkspace *self);
void ws_workspace_set_highlight (WsWorkspace *self, GArray *refs);
/* A finding's spans (indices into the run's activities): outlined, and the window on them. */
void ws_workspace_highlight_finding (WsWorkspace *self, int run, GArray *indices);
/* One span picked on the timeline: outlined, and described. FALSE when none is. */
void ws_workspace_select_activity (WsWorkspace *self, int run, guint index);
gboolean ws_workspace_get_selected_activity (WsWorkspace *self, WsActivityRef *ref);

gboolean ws_workspace_get_presentation (WsWorkspace *self);
void ws_workspace_set_presentation (WsWorkspace *self, gboolean presentation);

/* The session's analysis (ws_session_get_analysis), NULL without a session: a loaded session
 * is analysed in a thread when it is set, a live one run by run. */
WsSessionAnalysis *ws_workspace_get_analysis (WsWorkspace *self);
/* Whether the session's analysis and what its timeline draws first are ready (TRUE without a
 * session); "analysis-ready" says when they are. */
gboolean ws_workspace_is_analysed (WsWorkspace *self);
/* A run's findings (WsFinding, borrowed; valid until the session's runs change); NULL until the
 * analysis is ready. Nothing is analysed when asked: a table of thousands of runs asks often. */
GPtrArray *ws_workspace_get_findings (WsWorkspace *self, WsRun *run);

G_END_DECLS
