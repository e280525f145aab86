/* ws-trace-private.h: the trace's state, and what the session reader calls to fill it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-trace.h"

#include "ws-record.h"

G_BEGIN_DECLS

struct _WsTrace
{
  gboolean from_runner;  /* the first hello is warpscope-runner's */
  gboolean has_origin;
  gint64 origin;         /* CUPTI's clock at 0 of the axis: the first process's origin */
  GPtrArray *programs;   /* WsTraceProgram */
  GPtrArray *processes;  /* WsTraceProcess */
  GHashTable *process_of; /* "program:pid" → index + 1 */
  GArray *spans;         /* WsSpan */
  GArray *events;        /* WsTraceEvent */
  GPtrArray *ceilings;   /* WsDevice: the runner's measurements of the GPUs used */
  GPtrArray *infos;      /* per process: GArray of WsDeviceInfo with the ceilings merged */
  guint n_kernels, n_copies;
  gboolean ended;
};

WsTrace *_ws_trace_new (void);
void _ws_trace_free (WsTrace *trace);

/* The record types the trace reads instead of the session (the session keeps their text for
 * writing back). Errors are read by both. */
gboolean _ws_trace_takes (const char *type);
/* `type` is one _ws_trace_takes accepts, or the session's first hello. Adds what it
 * describes; device records also reach the session's list of devices. */
void _ws_trace_add_record (WsTrace *trace, WsSession *session, const char *type,
                           const WsRecord *r);
/* An error record: a copy goes to the program run it names (program_run), else to the run of
 * the process that wrote it. */
void _ws_trace_note_error (WsTrace *trace, const WsRecord *r);
/* The stream ended: spans sorted, open NVTX ranges closed at their process's end, processes
 * without their closing record reported as problems of the session. */
void _ws_trace_end (WsTrace *trace, GPtrArray *problems);
/* The program run of that id, or NULL. */
WsTraceProgram *_ws_trace_find_program (WsTrace *trace, guint id);
/* A stream from the runner ends with done; the library's own file does not. */
gboolean _ws_trace_expects_done (WsTrace *trace);

G_END_DECLS
