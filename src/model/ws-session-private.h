/* ws-session-private.h: the session's state, shared by its reader, writer and queries.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-record.h"
#include "ws-session.h"
#include "ws-span-lanes.h"
#include "ws-trace.h"

G_BEGIN_DECLS

struct _WsSession
{
  GObject parent_instance;

  WsSessionSource source;
  GFile *file;

  WsHello *hello;
  int protocol;
  GListStore *devices;
  GListStore *runs;
  GHashTable *runs_by_id;  /* int → WsRun (borrowed from runs) */
  GHashTable *announced_twice; /* int ids of runs announced again; NULL while none was */
  GListStore *kernels;     /* WsKernelEntry, in the order they came */
  GHashTable *kernels_by_name; /* name → WsKernelEntry (borrowed from kernels) */
  GPtrArray *errors;       /* WsRunnerError: session-level */
  GPtrArray *problems;     /* WsProblem */

  /* Every record but activities, in the order read, as read, for writing back. */
  GPtrArray *records;      /* WsStoredRecord */
  guint n_activities;

  guint line;              /* lines fed so far */
  guint n_bad_lines;       /* lines that became problems, listed or not */
  GError *fatal;           /* set once the stream cannot be a session */
  gboolean ended;
  gboolean done;
  int exit_code;
  gint64 dropped_records;
  int progress_done, progress_total;
  gboolean has_progress;
  WsRun *last_run;         /* the run that activities without a known run belong to */
  WsTrace *trace;          /* a traced program's records (ws-trace.c); NULL for runs */
  /* The runs by start with their lanes (ws-span-lanes.c), built when first asked for and
   * again when runs or spans have come since; the lock lets an export in a thread and the
   * window share it. */
  WsLaneIndex *lane_index;
  GMutex lane_lock;
  guint trace_spans_told;  /* its spans when "changed" last said it grew */

  /* An own kernel's session (docs/own-kernels.md). */
  GPtrArray *compiles;     /* WsCompileInfo */
  GPtrArray *findings;     /* WsMemcheckFinding */
  char *source_text, *source_path, *source_hash;
};

enum
{
  WS_SESSION_SIGNAL_RUN_ADDED,
  WS_SESSION_SIGNAL_RUN_UPDATED,
  WS_SESSION_SIGNAL_CHANGED,
  WS_SESSION_N_SIGNALS
};

extern guint _ws_session_signals[WS_SESSION_N_SIGNALS];

/* What ws_session_get_series groups by: a run's series key (and the series' label), and the
 * order of the runs within a series (WsRun **), for the analysis that keeps series up to date
 * run by run (ws-session-analysis.c). */
char *_ws_series_key (WsRun *run, WsSeriesKind kind, char **label);
int _ws_series_compare_by_size (gconstpointer a, gconstpointer b);
int _ws_series_compare_by_block (gconstpointer a, gconstpointer b);

typedef struct
{
  const char *type; /* interned */
  int run;          /* the run it names ("id" for run records), 0 for none */
  double t;         /* its "t", NAN when it has none */
  char *text;
} WsStoredRecord;

void _ws_stored_record_free (WsStoredRecord *record);
void _ws_problem_free (WsProblem *problem);

/* Integers a double holds exactly, and so the bound of counts, byte counts and times in ns
 * (±2^53: 8 PiB, 104 days). */
#define WS_MAX_EXACT WS_SPAN_MAX_TIME_NS

/* ws-session-own.c: reads a compile, memcheck or source record; FALSE for other types. */
gboolean _ws_session_read_own (WsSession *self, const WsRecord *record, const char *type);
void _ws_session_init_own (WsSession *self);
void _ws_session_finalize_own (WsSession *self);

/* ws-session-reader.c (the problem's message is copied) */
void _ws_session_add_problem (WsSession *self, guint column, const char *message);

/* ws-session-activity.c: TRUE when the fast path read the whole line as an activity record;
 * FALSE leaves it to the general path. */
gboolean _ws_session_parse_activity (const char *line, gsize length, WsSpan *activity,
                                     guint32 *run);

/* ws-session-ranges.c: FALSE with a message naming the field ("field "occupancy" is 7.5,
 * outside 0–1") and its column when a number of the record is outside its range. */
gboolean _ws_session_check_ranges (const WsRecord *record, const char *type, const char *text,
                                   gsize length, guint *column, GError **error);

G_END_DECLS
