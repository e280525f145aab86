/* ws-chart-frame-private.h: what every chart shares around its plot: the frame
 * and title, the sentence of an empty chart, the runs it shows, their labels, and the findings
 * written on it in presentation mode (ws-chart-frame.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-session-analysis.h"

#include "ws-chart-text-private.h"

G_BEGIN_DECLS

/* A finding written on a chart in presentation mode. */
typedef struct
{
  char *title;
  char *fix; /* NULL: none */
} WsChartNote;

/* What every chart's data starts with: the words around its plot. */
typedef struct
{
  char *title;
  char *subtitle;   /* NULL: none */
  char *message;    /* set: the chart has nothing to show, and this sentence says why */
  GPtrArray *notes; /* WsChartNote, most severe first, at most three; NULL unless annotating */
} WsChartFrame;

void _ws_chart_frame_clear (WsChartFrame *frame);
/* The findings about `runs` (WsRun), most severe first, each kind said once. */
void _ws_chart_frame_add_notes (WsChartFrame *frame, WsSession *session, GPtrArray *runs,
                                WsAudience audience);
/* The same from findings already found (WsFinding, most severe first). */
void _ws_chart_frame_notes_from (WsChartFrame *frame, GPtrArray *findings,
                                 WsAudience audience);
/* The findings about `runs` (WsFinding, borrowed from the session's analysis), most severe
 * first; none while a thread analyses the session. */
GPtrArray *_ws_chart_findings (WsSession *session, GPtrArray *runs);
/* The session's analysis, as a chart collects from it: analysed first when nobody has asked
 * yet (the command line, a test), never while a thread is at it (the app, which starts it when
 * a session is shown, draws again when it is ready). */
WsSessionAnalysis *_ws_chart_analysis (WsSession *session);

/* Paints the background, the title and the subtitle (draw FALSE: only measures); `content`
 * receives the area below. */
void _ws_chart_frame_draw (WsChartContext *ctx, const WsChartFrame *frame, gboolean draw,
                           WsRect *content);
/* The notes in a band at the bottom of `area`, which shrinks by the height used: whole notes
 * only, as many as fit in 40% of it while leaving the chart `keep`; the first loses its fix
 * before the chart loses its axes. draw FALSE only measures. */
void _ws_chart_notes_draw (WsChartContext *ctx, const WsChartFrame *frame, double keep,
                           gboolean draw, WsRect *area);

/* A chart with nothing to show: a sentence in the middle of `area`. */
void _ws_chart_message (WsChartContext *ctx, const WsRect *area, const char *sentence);
/* ws_run_dup_size_label, knowing 2D shapes as well: "n = 10,000", "4096³", "5000×3000". */
char *_ws_chart_dup_size_label (WsRun *run);
/* "NVIDIA H200 · 2026-11-29": which GPU and when. */
char *_ws_chart_subtitle (WsSession *session, const char *what);

/* Runs with results (complete or failed verification), or the one run asked for and the one
 * to compare with (WsRun, referenced). */
GPtrArray *_ws_chart_runs (WsSession *session, const WsChartBase *base);
/* What a plot with axes and a legend needs to stay readable under the notes. */
#define WS_CHART_PLOT_KEEP(ctx) (14 * (ctx)->line_height)

G_END_DECLS
