/* ws-activity.c: the activity record and its names in the protocol.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-activity.h"

G_DEFINE_BOXED_TYPE (WsActivity, ws_activity, ws_activity_copy, ws_activity_free)

WsActivity *
ws_activity_copy (const WsActivity *activity)
{
  return g_memdup2 (activity, sizeof *activity);
}

void
ws_activity_free (WsActivity *activity)
{
  g_free (activity);
}

typedef struct
{
  int value;
  const char *name;
} Name;

static const Name kinds[] = {
  { WS_ACTIVITY_MEMCPY, "memcpy" }, { WS_ACTIVITY_MEMSET, "memset" },
  { WS_ACTIVITY_KERNEL, "kernel" }, { WS_ACTIVITY_SYNC, "sync" },
  { WS_ACTIVITY_OVERHEAD, "overhead" }, { WS_ACTIVITY_CPU, "cpu" },
};

static const Name phases[] = {
  { WS_PHASE_SEQUENCE, "sequence" },
  { WS_PHASE_KERNELS, "kernels" },
  { WS_PHASE_CPU, "cpu" },
  { WS_PHASE_FLUSH, "flush" },
};

static const Name directions[] = {
  { WS_COPY_HTOD, "htod" }, { WS_COPY_DTOH, "dtoh" }, { WS_COPY_DTOD, "dtod" },
  { WS_COPY_HTOH, "htoh" }, { WS_COPY_PTOP, "ptop" },
};

static const Name memories[] = {
  { WS_HOST_MEMORY_PAGEABLE, "pageable" },
  { WS_HOST_MEMORY_PINNED, "pinned" },
};

static const char *
to_string (const Name *names, gsize n, int value, const char *fallback)
{
  for (gsize i = 0; i < n; i++)
    if (names[i].value == value)
      return names[i].name;
  return fallback;
}

static int
from_string (const Name *names, gsize n, const char *s, int fallback)
{
  if (s == NULL)
    return fallback;
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (names[i].name, s))
      return names[i].value;
  return fallback;
}

const char *
ws_activity_kind_to_string (WsActivityKind kind)
{
  return to_string (kinds, G_N_ELEMENTS (kinds), kind, "other");
}

WsActivityKind
ws_activity_kind_from_string (const char *s)
{
  return from_string (kinds, G_N_ELEMENTS (kinds), s, WS_ACTIVITY_OTHER);
}

const char *
ws_activity_phase_to_string (WsActivityPhase phase)
{
  return to_string (phases, G_N_ELEMENTS (phases), phase, "other");
}

WsActivityPhase
ws_activity_phase_from_string (const char *s)
{
  return from_string (phases, G_N_ELEMENTS (phases), s, WS_PHASE_OTHER);
}

const char *
ws_copy_direction_to_string (WsCopyDirection direction)
{
  return to_string (directions, G_N_ELEMENTS (directions), direction, NULL);
}

WsCopyDirection
ws_copy_direction_from_string (const char *s)
{
  return from_string (directions, G_N_ELEMENTS (directions), s,
                      s == NULL ? WS_COPY_NONE : WS_COPY_OTHER);
}

const char *
ws_host_memory_to_string (WsHostMemory memory)
{
  return to_string (memories, G_N_ELEMENTS (memories), memory, NULL);
}

WsHostMemory
ws_host_memory_from_string (const char *s)
{
  return from_string (memories, G_N_ELEMENTS (memories), s,
                      s == NULL ? WS_HOST_MEMORY_NONE : WS_HOST_MEMORY_OTHER);
}

double
ws_activity_gbs (const WsActivity *activity)
{
  gint64 ns = ws_activity_duration (activity);

  if (activity->kind != WS_ACTIVITY_MEMCPY || ns <= 0)
    return 0.0;
  return (double) activity->bytes / (double) ns;
}
