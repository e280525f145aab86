/* ws-plan-private.h: the plan's fields, shared by the object (ws-plan.c) and the rules that
 * read its values (ws-plan-read.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-plan.h"

G_BEGIN_DECLS

struct _WsPlan
{
  GObject parent_instance;

  char *kernel, *size, *block, *transfer;
  int reps;
  gboolean cpu_one, cpu_all;
  char *sweep_from, *sweep_to, *sweep_blocks;
  int sweep_factor;

  GListModel *catalog; /* WsKernelEntry */
  WsDevice *device;
  char *runner;

  char *problem[2];  /* what the properties say, per WsPlanMode */
  gboolean valid[2];
  char *refused[2];  /* the runner's verdict on the values as they are */
  guint check_id;
  guint generation;  /* changes with every edit: a late verdict is dropped */
  GPtrArray *checks; /* WsRunnerClient still running */
};

/* The chosen kernel's catalog entry (borrowed), or NULL. */
WsKernelEntry *_ws_plan_entry (WsPlan *self);
/* One size or block as the runner takes it ("10000000", "256x1x1"); FALSE with the reason. */
gboolean _ws_plan_read_size (WsPlan *self, const char *text, guint64 dims[3], char **runner_text,
                             GError **error);
gboolean _ws_plan_read_block (WsPlan *self, const char *text, guint dims[3], char **runner_text,
                              GError **error);

G_END_DECLS
