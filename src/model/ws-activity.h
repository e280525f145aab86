/* ws-activity.h: one traced span of a session (a copy, a memset, a kernel, a CPU run), kept
 * compact because a session may hold millions of them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <math.h>

/* The kinds, phases, copy directions and host memory of an activity, with their names. */
#include "ws-protocol.h"

G_BEGIN_DECLS

/* Every activity's start and end lie within ±2^53 ns (104 days) of the session's origin, and
 * its end is not before its start (the reader refuses others): differences and sums of a
 * few of them cannot overflow, and a double holds each exactly. */
#define WS_ACTIVITY_MAX_TIME_NS (G_GINT64_CONSTANT (1) << 53)

typedef struct
{
  gint64 start;       /* ns since the session's origin */
  gint64 end;
  guint64 bytes;      /* copies and memsets */
  const char *name;   /* interned: kernel name, or the CPU reference's */
  const char *detail; /* interned: sync type, overhead kind */
  guint32 run;
  guint32 correlation;
  guint32 stream;
  guint32 grid[3];
  guint32 block[3];
  guint32 static_smem;
  guint32 dynamic_smem;
  guint32 rep;        /* --reps goes to 100,000 */
  guint16 registers;
  guint16 threads;    /* cpu */
  guint8 kind;        /* WsActivityKind */
  guint8 phase;       /* WsActivityPhase */
  guint8 direction;   /* WsCopyDirection */
  guint8 host_memory; /* WsHostMemory */
} WsActivity;

#define WS_TYPE_ACTIVITY (ws_activity_get_type ())
GType ws_activity_get_type (void) G_GNUC_CONST;
WsActivity *ws_activity_copy (const WsActivity *activity);
void ws_activity_free (WsActivity *activity);

/* a − b and a + b of times in ns, saturating at G_MININT64 and G_MAXINT64 instead of
 * overflowing: the reader's bounds keep a file's times within ±2^53 ns, but a run's
 * activities can be made without it (a test, a future reader), and an overflow there is
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

static inline gint64
ws_activity_duration (const WsActivity *activity)
{
  return ws_ns_sub_saturated (activity->end, activity->start);
}

/* A copy's rate in GB/s, 0 when it is not a copy or lasted no time. */
double ws_activity_gbs (const WsActivity *activity);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsActivity, ws_activity_free)

G_END_DECLS
