/* ws-view.h: the base of the views: the workspace a view shows, held, followed and let go in
 * one place, so that a view writes only what it does when the workspace changes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-workspace.h"

G_BEGIN_DECLS

/* Properties: "workspace". Abstract: each view derives from it. */
#define WS_TYPE_VIEW (ws_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (WsView, ws_view, WS, VIEW, GtkWidget)

struct _WsViewClass
{
  GtkWidgetClass parent_class;

  /* The view was given another workspace (NULL: none). The base has already let go of every
   * handler on the old one whose data is the view, so a view connects to the new one's
   * signals here with itself as their data, and shows what it holds. Dispose lets go of the
   * workspace without calling this: a view's children may be gone by then. */
  void (*workspace_changed) (WsView *self, WsWorkspace *workspace);
};

WsWorkspace *ws_view_get_workspace (WsView *self);
void ws_view_set_workspace (WsView *self, WsWorkspace *workspace);

G_END_DECLS
