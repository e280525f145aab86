/* ws-runner-activity.c: the growable list of activity records.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runner-activity.h"

#include <stdlib.h>

void
ws_runner_activity_list_append (WsRunnerActivityList *list, const WsRunnerActivity *activity)
{
  if (list->len == list->cap)
    {
      size_t cap = list->cap ? 2 * list->cap : 256;
      WsRunnerActivity *items = realloc (list->items, cap * sizeof *items);

      if (items == NULL)
        return; /* the caller sees len unchanged and counts the record as dropped */
      list->items = items;
      list->cap = cap;
    }
  list->items[list->len++] = *activity;
}

void
ws_runner_activity_list_clear (WsRunnerActivityList *list)
{
  for (size_t i = 0; i < list->len; i++)
    free (list->items[i].name);
  free (list->items);
  list->items = NULL;
  list->len = list->cap = 0;
}

