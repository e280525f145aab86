/* ws-target-picker.h: the header bar's target picker, like a device picker: a menu button
 * that names where the runner runs (this computer, an ssh host, a Slurm cluster) and lists
 * the saved targets, with a way to add, edit and remove them (ws-target-dialog.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-target-list.h"

G_BEGIN_DECLS

/* The saved targets every window shows, read once from ws_target_list_default_path() and kept
 * while a window or dialog holds them (a new reference each call). A file that cannot be read
 * gives a list of "local" alone, and `error` (may be NULL) says why; that list is never saved,
 * so the file is left as it is (ws_target_list_get_unreadable says why). */
WsTargetList *ws_target_list_dup_shared (const char **error);
/* Why the file of `list` could not be read, when it is the shared list of such a file; else
 * NULL. */
const char *ws_target_list_get_unreadable (WsTargetList *list);

/* Properties: "targets" (WsTargetList, read-only: the shared one), "selected" (the chosen
 * target's name; GSettings "target" is bound to it; a name that is not saved chooses
 * "local"), "target" (read-only, the chosen WsTarget; never NULL). */
#define WS_TYPE_TARGET_PICKER (ws_target_picker_get_type ())
G_DECLARE_FINAL_TYPE (WsTargetPicker, ws_target_picker, WS, TARGET_PICKER, GtkWidget)

GtkWidget *ws_target_picker_new (void);
WsTargetList *ws_target_picker_get_targets (WsTargetPicker *self);
const char *ws_target_picker_get_selected (WsTargetPicker *self);
void ws_target_picker_set_selected (WsTargetPicker *self, const char *name);
WsTarget *ws_target_picker_get_target (WsTargetPicker *self);

/* The launcher prefix of older versions (GSettings "launcher"), when one is set, becomes a
 * saved target (an ssh target for "ssh HOST", else a launcher command), which is chosen; the
 * key is then emptied. FALSE, and `error` set, when it could not be saved (the key is kept). */
gboolean ws_target_picker_migrate_launcher (WsTargetPicker *self, GSettings *settings,
                                            GError **error);

G_END_DECLS
