/* ws-plan-target.c: the plan made a run on a target: the editor of an own kernel asked to
 * write what was typed ("prepare"), whether the target can run it (an own kernel's file is on
 * this computer), and the GPUs the run is given.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-plan-private.h"

#include <glib/gi18n-lib.h>

#include "ws-sweep-split.h"

gboolean
ws_plan_check_target (WsPlan *self, WsTarget *target, GError **error)
{
  g_autofree char *place = NULL;

  g_return_val_if_fail (WS_IS_PLAN (self), FALSE);
  g_return_val_if_fail (target == NULL || WS_IS_TARGET (target), FALSE);
  /* A Slurm cluster's nodes share the login node's files, as a rule; an ssh host does not. */
  if (!ws_plan_is_own (self) || target == NULL || !ws_target_is_remote (target)
      || ws_target_is_slurm (target))
    return TRUE;
  place = ws_target_dup_place (target);
  /* Translators: the place is a host name ("gpu-box"). */
  g_set_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_TARGET,
               _("Your own kernel's file is on this computer, not on %s: run it on Local, or "
                 "copy the file there and run it with warpscope-cli."),
               place);
  return FALSE;
}

GStrv
ws_plan_prepare_run (WsPlan *self, WsPlanMode mode, WsTarget *target, GError **error)
{
  g_auto (GStrv) argv = NULL;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  /* Typed a moment ago: the copy the runner reads is written now, not after the pause. */
  _ws_plan_emit_prepare (self);
  if (!ws_plan_check_target (self, target, error))
    return NULL;
  /* The runner's path is the target's: only its options are the plan's. */
  argv = ws_plan_build_argv (self, mode, "warpscope-runner", error);
  return argv != NULL ? g_strdupv (argv + 1) : NULL;
}

GArray *
ws_plan_choose_devices (WsPlan *self, WsSession *info, gboolean *all)
{
  GArray *chosen = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) wanted = NULL;
  GListModel *found;
  guint n;
  gboolean every = TRUE;

  g_return_val_if_fail (WS_IS_PLAN (self), chosen);
  g_return_val_if_fail (all != NULL, chosen);
  found = info != NULL ? ws_session_get_devices (info) : NULL;
  n = found != NULL ? g_list_model_get_n_items (found) : 0;
  /* A choice that cannot be read (an edited setting) is every GPU, as "all" is. */
  if (!ws_devices_parse (self->devices, &wanted, &every, NULL))
    every = TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsDevice) device = g_list_model_get_item (found, i);
      int index = ws_device_get_info (device)->index;
      gboolean take = every;

      for (guint j = 0; !take && wanted != NULL && j < wanted->len; j++)
        take = g_array_index (wanted, int, j) == index;
      if (take)
        g_array_append_val (chosen, index);
    }
  /* None of the chosen GPUs is the target's (another target was chosen since): all of them. */
  if (chosen->len == 0)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr (WsDevice) device = g_list_model_get_item (found, i);

        g_array_append_val (chosen, ws_device_get_info (device)->index);
      }
  *all = chosen->len == n;
  return chosen;
}

GArray *
ws_plan_dup_run_devices (WsPlan *self, WsPlanMode mode, WsSession *info)
{
  gboolean all;
  GArray *devices;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  devices = ws_plan_choose_devices (self, info, &all);
  /* Every GPU for one run, or every one of fewer than two for a sweep: the runner's own
   * choice, without --device; else one run on the first chosen, a sweep split over them. */
  if (mode == WS_PLAN_RUN)
    g_array_set_size (devices, all ? 0 : MIN (devices->len, 1));
  else if (all && devices->len < 2)
    g_array_set_size (devices, 0);
  return devices;
}
