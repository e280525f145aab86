/* ws-activity.c: the activity record (its names in the protocol are src/protocol's).
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

double
ws_activity_gbs (const WsActivity *activity)
{
  gint64 ns = ws_activity_duration (activity);

  if (activity->kind != WS_ACTIVITY_MEMCPY || ns <= 0)
    return 0.0;
  return (double) activity->bytes / (double) ns;
}
