/* ws-span.h: one span of what ran: the one type for what the GPU and its host did, whether a
 * sweep of the runner or a traced program recorded it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <math.h>

/* The kinds, phases, copy directions and host memory of a span, with their names. */
#include "ws-protocol.h"

G_BEGIN_DECLS

/* Every span's start and end lie within ±2^53 ns (104 days) of the session's origin, and
 * its end is not before its start (the reader refuses others): differences and sums of a
 * few of them cannot overflow, and a double holds each exactly. */
#define WS_SPAN_MAX_TIME_NS (G_GINT64_CONSTANT (1) << 53)

/* Flags of a span. */
enum
{
  WS_SPAN_ASYNC = 1 << 0,  /* a copy made by an asynchronous call */
  WS_SPAN_OPEN = 1 << 1,   /* an NVTX range still open when its program ended */
  WS_SPAN_FAILED = 1 << 2, /* an API call that returned an error */
  WS_SPAN_MARK = 1 << 3,   /* an NVTX mark: a moment (start = end), not a range */
};

/* One thing the GPU or its host did: a kernel, a copy, a memset, a synchronization, CUPTI's
 * own overhead, a CPU reference run, an API call, an NVTX range or mark, a JIT compile. A
 * sweep's runs and a traced program's runs are groups of them (`run`), read from the
 * protocol's activity record by one reader (_ws_span_from_record); the fields a source does
 * not write stay 0. Kept compact: a session may hold millions. */
typedef struct
{
  gint64 start;       /* ns: since the session's origin (a sweep), on the trace's axis (a
                       * traced program) */
  gint64 end;
  guint64 bytes;      /* copies and memsets */
  const char *name;   /* interned: a kernel's name, the CPU reference's, an API call's, an
                       * NVTX range's, a JIT's step (ptx_to_cubin, nvvm_ir_to_ptx) */
  const char *detail; /* interned: a sync's or an overhead's kind; "runtime" or "driver" for
                       * an API call; a JIT's operation (compile, cache_load, cache_store); an
                       * NVTX range's domain */
  guint32 run;        /* the run of a sweep, or the program run of a traced program */
  guint32 process;    /* traced: its process, an index into ws_trace_get_processes () */
  guint32 correlation; /* an API call and the kernel, copy or memset it caused share it */
  guint32 stream;
  guint32 thread;     /* traced API, NVTX and JIT: the system's thread id */
  guint32 grid[3];
  guint32 block[3];
  guint32 static_smem;
  guint32 dynamic_smem;
  guint32 rep;        /* a sweep's repetition (--reps goes to 100,000) */
  gint32 result;      /* an API call's return value */
  guint16 registers;
  guint16 threads;    /* cpu */
  guint8 kind;        /* WsActivityKind */
  guint8 phase;       /* WsActivityPhase: a sweep's */
  guint8 direction;   /* WsCopyDirection */
  guint8 host_memory; /* WsHostMemory */
  guint8 device;      /* traced: the device of its process */
  guint8 flags;       /* WS_SPAN_* */
} WsSpan;

#define WS_TYPE_SPAN (ws_span_get_type ())
GType ws_span_get_type (void) G_GNUC_CONST;
WsSpan *ws_span_copy (const WsSpan *span);
void ws_span_free (WsSpan *span);

/* a − b and a + b of times in ns, saturating at G_MININT64 and G_MAXINT64 instead of
 * overflowing: the reader's bounds keep a file's times within ±2^53 ns, but a run's
 * spans can be made without it (a test, a future reader), and an overflow there is
 * undefined behaviour, not just a wrong number. */
static inline gint64
ws_ns_sub_saturated (gint64 a, gint64 b)
{
  gint64 d;

  if (__builtin_sub_overflow (a, b, &d))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return d;
}

static inline gint64
ws_ns_add_saturated (gint64 a, gint64 b)
{
  gint64 s;

  if (__builtin_add_overflow (a, b, &s))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return s;
}

/* A time in ns worked out in doubles, back in a gint64: clamped, since (double) G_MAXINT64 is
 * 2^63, which does not fit back (the cast is undefined), and NaN as 0. */
static inline gint64
ws_ns_from_double (double ns)
{
  if (isnan (ns))
    return 0;
  if (ns >= 9223372036854775808.0)
    return G_MAXINT64;
  if (ns <= -9223372036854775808.0)
    return G_MININT64;
  return (gint64) ns;
}

/* end − start, and sums of such, without overflow: a span from the start of int64 time to its
 * end (a file with numbers no GPU measures) saturates at G_MAXINT64; 0 when end <= start. */
static inline gint64
ws_time_length (gint64 start, gint64 end)
{
  guint64 d = end > start ? (guint64) end - (guint64) start : 0;

  return d > (guint64) G_MAXINT64 ? G_MAXINT64 : (gint64) d;
}

static inline gint64
ws_span_duration (const WsSpan *span)
{
  return ws_ns_sub_saturated (span->end, span->start);
}

/* A copy's rate in GB/s, 0 when it is not a copy or lasted no time. */
double ws_span_gbs (const WsSpan *span);

/* An NVTX range (not a mark). */
static inline gboolean
ws_span_is_nvtx_range (const WsSpan *span)
{
  return span->kind == WS_ACTIVITY_NVTX && !(span->flags & WS_SPAN_MARK);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSpan, ws_span_free)

G_END_DECLS
