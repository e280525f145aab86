/* ws-target-dialog.h: the saved targets, to add, edit and remove: a list, and a form per
 * target (its kind: this computer, an ssh host, Slurm through srun or sbatch, a launcher
 * command; the host or the launcher's options; the runner's path on the far side). A target
 * is checked before it is saved, and the list is written at once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-target-list.h"

G_BEGIN_DECLS

#define WS_TYPE_TARGET_DIALOG (ws_target_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WsTargetDialog, ws_target_dialog, WS, TARGET_DIALOG, AdwWindow)

GtkWidget *ws_target_dialog_new (WsTargetList *targets);

/* Opens the form for the target of that name, or an empty one (NULL). */
void ws_target_dialog_edit (WsTargetDialog *self, const char *name);
/* Types into one of the form's fields, as a person would: "name", "kind" (ssh, srun…),
 * "host", "port", "ssh-options", "slurm-options", "launcher", "runner". */
void ws_target_dialog_set_field (WsTargetDialog *self, const char *field, const char *text);
/* What the form's Save does: checks the target, saves the list, shows the list again; else
 * FALSE, and the form shows why. */
gboolean ws_target_dialog_save (WsTargetDialog *self, GError **error);
/* The reason the form shows, or NULL. */
const char *ws_target_dialog_get_problem (WsTargetDialog *self);
/* What a row's Remove does. */
gboolean ws_target_dialog_remove (WsTargetDialog *self, const char *name, GError **error);

G_END_DECLS
