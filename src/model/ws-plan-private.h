/* ws-plan-private.h: the plan's fields, shared by the object (ws-plan.c) and the rules that
 * read its values (ws-plan-read.c, ws-plan-own.c, ws-plan-target.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-kernel-source.h"
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
  char *counters; /* the counters' groups to read (docs/counters.md), "none": not read */

  /* An own kernel (ws-plan-own.c): its file as the runner reads it, and the values chosen
   * for each of its tunable parameters ("8,16"), in the header's order; NULL: a built-in. */
  WsKernelSource *source;
  GPtrArray *params; /* char * */

  char *devices; /* the GPUs chosen (ws-plan-target.c): "all", "0,2" */

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

/* The kernel's name in messages: the built-in's, or the own kernel's entry. */
const char *_ws_plan_kernel_name (WsPlan *self);

/* ws-plan-own.c: an own kernel's size as the runner takes it, its argv's own part, the
 * parameters' combinations, and the properties' notifications. */
gboolean _ws_plan_own_read_size (WsPlan *self, const char *text, guint64 dims[3],
                                 char **runner_text, GError **error);
void _ws_plan_own_add_args (WsPlan *self, WsPlanMode mode, GStrvBuilder *b);
guint _ws_plan_own_count_params (WsPlan *self);
char *_ws_plan_own_run_summary (WsPlan *self);
void _ws_plan_own_finalize (WsPlan *self);
/* Set by ws-plan.c: notifies and checks again after an own kernel's change. */
void _ws_plan_changed (WsPlan *self);
void _ws_plan_notify_own (WsPlan *self);
/* Set by ws-plan.c: the "prepare" signal, for ws-plan-target.c. */
void _ws_plan_emit_prepare (WsPlan *self);
void _ws_plan_builtin_defaults (WsPlan *self);
void _ws_plan_set_sweep (WsPlan *self, const char *from, const char *to, int factor,
                         const char *blocks);
void _ws_plan_set_size_and_block (WsPlan *self, const char *size, const char *block);

G_END_DECLS
