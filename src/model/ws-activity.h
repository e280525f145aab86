/* ws-activity.h: one traced span of a session (a copy, a memset, a kernel, a CPU run), kept
 * compact because a session may hold millions of them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

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

static inline gint64
ws_activity_duration (const WsActivity *activity)
{
  return activity->end - activity->start;
}

/* A copy's rate in GB/s, 0 when it is not a copy or lasted no time. */
double ws_activity_gbs (const WsActivity *activity);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsActivity, ws_activity_free)

G_END_DECLS
