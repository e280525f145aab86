/* ws-target-list.h: the targets a person has saved, as a GListModel of WsTarget (the header
 * bar's picker binds to it), kept in a small key file: $WARPSCOPE_TARGETS, else
 * ~/.config/warpscope/targets.conf. The first item is always this computer ("local"), which
 * is not saved.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-target.h"

G_BEGIN_DECLS

#define WS_TYPE_TARGET_LIST (ws_target_list_get_type ())
G_DECLARE_FINAL_TYPE (WsTargetList, ws_target_list, WS, TARGET_LIST, GObject)

/* The key file's path: $WARPSCOPE_TARGETS, else targets.conf in the user's config folder. */
char *ws_target_list_default_path (void);

/* Only "local", bound to `path` (NULL: the default path); nothing is read. */
WsTargetList *ws_target_list_new (const char *path);
/* Reads the file of `path` (NULL: the default path). A file that does not exist is an empty
 * list; one that cannot be read, or a target in it that cannot work, fails naming the file
 * and the target, and nothing is lost: the file is left as it is. */
WsTargetList *ws_target_list_load (const char *path, GError **error);
/* Writes every target but "local" to the list's path, atomically (a temporary file renamed
 * over it), creating its folder. */
gboolean ws_target_list_save (WsTargetList *self, GError **error);

const char *ws_target_list_get_path (WsTargetList *self);
/* NULL when none has that name. */
WsTarget *ws_target_list_find (WsTargetList *self, const char *name);
/* Like find, with an error saying which targets there are. */
WsTarget *ws_target_list_lookup (WsTargetList *self, const char *name, GError **error);
/* Adds `target` (checked with ws_target_validate) at the end; fails when the name is taken. */
gboolean ws_target_list_add (WsTargetList *self, WsTarget *target, GError **error);
/* Fails for "local" and for a name that is not there. */
gboolean ws_target_list_remove (WsTargetList *self, const char *name, GError **error);

G_END_DECLS
