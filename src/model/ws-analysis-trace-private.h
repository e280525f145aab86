/* ws-analysis-trace-private.h: what the findings about a traced program share: the context
 * of one program run, its kernels' first calls with what they waited for, and the rules.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-analysis-private.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* A kernel's first launch, and what the program did before it. */
typedef struct
{
  const char *name;      /* interned: the kernel */
  guint kernel;          /* its first kernel span */
  guint launch;          /* the API call that launched it; G_MAXUINT when not traced */
  gint64 window_start;   /* the end of the thread's last CUDA call before the loading began */
  gint64 cost;           /* from window_start to the launch call */
  gint64 driver_ns;      /* module loads and JIT in the window, as the driver timed them */
  guint n_jit, n_modules, n_loads;
  GArray *pointers;      /* guint: the spans of the window (loads, JIT) and the launch */
  guint launches;        /* of this kernel in the program run */
  gboolean synchronized; /* the host waited for the GPU between the first and second launch */
} WsTraceFirstCall;

/* One program run under analysis. */
typedef struct
{
  WsTrace *trace;
  const WsSpan *spans;
  guint n_spans;
  const WsTraceProgram *program;
  GPtrArray *kernels;    /* WsTraceKernel of the run */
  GPtrArray *copies;     /* WsTraceCopy of the run */
  GHashTable *launch_of; /* "process:correlation" → index + 1 of the API call */
  GArray *first_calls;   /* WsTraceFirstCall, one per kernel name */
  gboolean numba;        /* its kernels are Numba's */
  gboolean has_nvtx;     /* it marks its own ranges: they are the regions it times */
  GArray *warm_ups;      /* guint: its NVTX ranges named for warming up, found once (a gap
                          * of a hundred thousand launches is tested against these, not
                          * against every span) */
  gint64 start, end;     /* its range on the axis */
  double kernel_ns, copy_ns;
} WsTraceAnalysis;

/* ---- shared (ws-analysis-trace.c) ---- */

/* Sets up the analysis of one program run, its first calls found; release with
 * _ws_trace_analysis_clear. */
void _ws_trace_analysis_init (WsTraceAnalysis *a, WsTrace *trace, const WsTraceProgram *program);
void _ws_trace_analysis_clear (WsTraceAnalysis *a);

WsFinding *_ws_trace_finding_new (WsTraceAnalysis *a, WsFindingKind kind, WsSeverity severity,
                                  const char *kernel, double value, double threshold);
/* Adds span indices to what a finding points at. */
void _ws_trace_finding_point (WsFinding *f, const GArray *spans);
/* The API call that launched or issued a span, or NULL. */
const WsSpan *_ws_trace_launch_of (WsTraceAnalysis *a, const WsSpan *span);
/* Numba's kernels carry its ABI tags in their names. */
gboolean _ws_trace_is_numba (const char *name);
/* The first call of a kernel, when the analysis found one; NULL else. */
const WsTraceFirstCall *_ws_trace_first_call (WsTraceAnalysis *a, const char *name);
/* Whether [start, end) lies mostly inside an NVTX range whose name says it warms up. */
gboolean _ws_trace_in_warm_up (WsTraceAnalysis *a, gint64 start, gint64 end);

/* The length of what two spans of time share. */
gint64 _ws_trace_overlap (gint64 a0, gint64 a1, gint64 b0, gint64 b1);
/* An NVTX range named for warming up ("warm-up", "warmup", "预热"). */
gboolean _ws_trace_is_warm_up (const char *name);
/* Fills a->first_calls (ws-analysis-trace-compile.c). */
void _ws_trace_collect_first_calls (WsTraceAnalysis *a);

/* ---- kept by the session's analysis (ws-session-analysis.c) ---- */

/* A traced program's findings, program run by program run: a run whose records have not
 * changed since it was analysed keeps its findings. */
typedef struct _WsTraceFindings WsTraceFindings;

/* ws-analysis-trace-compile.c: what the program run's first launches waited for their code
 * (WsCodeWait), appended to `out`: the data the Compile timed finding and the timeline share. */
void _ws_trace_code_waits (WsTraceAnalysis *a, GArray *out);

WsTraceFindings *_ws_trace_findings_new (void);
void _ws_trace_findings_free (WsTraceFindings *findings);
/* Analyses again the program runs whose records changed; TRUE when any was. */
gboolean _ws_trace_findings_update (WsTraceFindings *findings, WsTrace *trace);
/* Every program run's findings in program order, each run's most severe first (borrowed,
 * valid until the next update). */
GPtrArray *_ws_trace_findings_get (WsTraceFindings *findings);
/* Copies, for a reader in another thread: the findings (borrowed, in a new array) and the waits
 * of first launches for their code (WsCodeWait, found with them); both empty for NULL. */
GPtrArray *_ws_trace_findings_dup (WsTraceFindings *findings);
GArray *_ws_trace_findings_dup_code_waits (WsTraceFindings *findings);
/* How many program runs it has analysed since it was made. */
guint _ws_trace_findings_n_analysed (WsTraceFindings *findings);

/* ---- the rules ---- */

/* ws-analysis-trace-compile.c */
void _ws_trace_check_compile (WsTraceAnalysis *a, GPtrArray *out);
/* ws-analysis-trace.c */
void _ws_trace_check_startup (WsTraceAnalysis *a, GPtrArray *out);
void _ws_trace_check_idle (WsTraceAnalysis *a, GPtrArray *out);
/* ws-analysis-trace-copies.c: the copy rules (ws-analysis-transfer.c) on the program's facts */
void _ws_trace_check_copies (WsTraceAnalysis *a, GPtrArray *out);
/* ws-analysis-trace-kernels.c: the launch rules (ws-analysis-kernel.c) on each kernel's facts */
void _ws_trace_check_kernels (WsTraceAnalysis *a, GPtrArray *out);

G_END_DECLS
