/* ws-activity.c: the growable list of activity records.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-activity.h"

#include <stdlib.h>

void
ws_activity_list_append (WsActivityList *list, const WsActivity *activity)
{
  if (list->len == list->cap)
    {
      size_t cap = list->cap ? 2 * list->cap : 256;
      WsActivity *items = realloc (list->items, cap * sizeof *items);

      if (items == NULL)
        return; /* the caller sees len unchanged and counts the record as dropped */
      list->items = items;
      list->cap = cap;
    }
  list->items[list->len++] = *activity;
}

void
ws_activity_list_clear (WsActivityList *list)
{
  for (size_t i = 0; i < list->len; i++)
    free (list->items[i].name);
  free (list->items);
  list->items = NULL;
  list->len = list->cap = 0;
}

const char *
ws_activity_kind_name (WsActivityKind kind)
{
  switch (kind)
    {
    case WS_ACTIVITY_MEMCPY: return "memcpy";
    case WS_ACTIVITY_MEMSET: return "memset";
    case WS_ACTIVITY_KERNEL: return "kernel";
    case WS_ACTIVITY_SYNC: return "sync";
    case WS_ACTIVITY_OVERHEAD: return "overhead";
    case WS_ACTIVITY_CPU: return "cpu";
    default: return "unknown";
    }
}
