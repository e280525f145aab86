/* ws-session-analysis.h: a session's one analysis: each run's findings, the session's, its
 * series with their crossovers and rankings, and the fastest configuration of each problem,
 * kept up to date run by run as a live session grows, or found in a thread for a loaded one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-analysis.h"

G_BEGIN_DECLS

/* The fastest of the completed runs that solve the same problem (kernel family and shape). */
typedef struct
{
  char *label;             /* "4096³", "n = 10,000,000" */
  gboolean by_end_to_end;  /* only the host memory differs: ranked by end-to-end time */
  gboolean block_sweep;    /* one kernel and host memory, several blocks */
  WsRun *best;
  GPtrArray *tied;         /* WsRun inside the best one's min–max, the best left out */
  GPtrArray *others;       /* the best run of every other kernel, or every other run when
                            * ranked end to end (WsRun) */
  guint n_runs;
  WsSession *session;      /* borrowed: for the ceilings */
} WsFastest;

/* One line for people: "vector_add n = 10,000,000 at block 256 — 37.5 µs (4 more within its
 * spread)", or for host memory "… with pinned host memory — 1.2 ms end to end" (translated). */
char *ws_fastest_dup_summary (const WsFastest *fastest);

/* Where one size series crosses 1× against each CPU baseline: [all_cores][end_to_end]. */
typedef struct
{
  WsSeries *series;        /* borrowed from the analysis */
  int shape_rank;
  gboolean found[2][2];
  double size[2][2];
  double lowest[2][2], highest[2][2]; /* the speedups at the smallest and largest size */
  double best[2][2];                  /* the highest speedup of the series */
} WsCrossover;

/* Properties: "ready" (the session has been analysed; until then every getter answers
 * nothing). Signals: "changed" after each analysis, whole or of one run and its series. */
#define WS_TYPE_SESSION_ANALYSIS (ws_session_analysis_get_type ())
G_DECLARE_FINAL_TYPE (WsSessionAnalysis, ws_session_analysis, WS, SESSION_ANALYSIS, GObject)

/* The session's analysis (owned by the session, made on first asking). It follows the
 * session's runs from then on: a run added or updated is analysed again with the series it
 * belongs to, not the whole session. */
WsSessionAnalysis *ws_session_get_analysis (WsSession *session);

WsSession *ws_session_analysis_get_session (WsSessionAnalysis *self);
gboolean ws_session_analysis_is_ready (WsSessionAnalysis *self);
/* TRUE while a thread analyses the session (ws_session_analysis_start). */
gboolean ws_session_analysis_is_pending (WsSessionAnalysis *self);
/* Analyses the whole session in a thread, then "ready" is notified on the thread default main
 * context. Nothing when it is ready or already under way. The session must not be fed while
 * the thread reads it: a loaded session, not a live one. */
void ws_session_analysis_start (WsSessionAnalysis *self);
/* Analyses the whole session now, on this thread, unless it is ready or a thread is at it:
 * the command line and tests, and a live session that starts empty. */
void ws_session_analysis_ensure (WsSessionAnalysis *self);

/* A run's findings (WsFinding, borrowed, most severe first; valid until the analysis is
 * "changed"); NULL before the analysis is ready. */
GPtrArray *ws_session_analysis_get_run_findings (WsSessionAnalysis *self, WsRun *run);
/* The runner's session-level errors as findings (run 0), borrowed. */
GPtrArray *ws_session_analysis_get_session_findings (WsSessionAnalysis *self);
/* A traced program's findings (borrowed, in a new array: valid until the analysis is
 * "changed"), each program run's most severe first: what ws_analyze_trace returns, found
 * when the session was analysed and, for a live trace, again for the program runs whose
 * records changed when the session says it changed. Empty for a sweep's session. */
GPtrArray *ws_session_analysis_dup_trace_findings (WsSessionAnalysis *self);
/* Every kernel's first-launch wait for its code in a traced program (WsCodeWait, a new array),
 * program run by program run, found with its findings (the Compile timed finding reads the
 * same); empty before the analysis is ready, for a sweep's session, and when no first launch
 * waited for its code. */
GArray *ws_session_analysis_dup_code_waits (WsSessionAnalysis *self);
/* Every finding (borrowed), in run order, then the session's: what ws_analyze_session
 * returns, without analysing anything again. */
GPtrArray *ws_session_analysis_dup_findings (WsSessionAnalysis *self);

/* The series of at least 2 completed runs (WsSeries, borrowed), in the order of
 * ws_session_get_series; empty before the analysis is ready. */
GPtrArray *ws_session_analysis_get_series (WsSessionAnalysis *self, WsSeriesKind kind);
/* ws_analysis_find_crossover and ws_analysis_rank_blocks for one of those series, found once. */
gboolean ws_session_analysis_get_crossover (WsSessionAnalysis *self, WsSeries *series,
                                            gboolean all_cores, gboolean end_to_end,
                                            double *size);
WsRun *ws_session_analysis_get_ranking (WsSessionAnalysis *self, WsSeries *series,
                                        GPtrArray **tied);
/* Each size series' crossovers (WsCrossover), in series order. */
GPtrArray *ws_session_analysis_get_crossovers (WsSessionAnalysis *self);
/* The fastest configuration of each problem that ran at least twice (WsFastest), in the order
 * the problems first completed. */
GPtrArray *ws_session_analysis_get_fastest (WsSessionAnalysis *self);

G_END_DECLS
