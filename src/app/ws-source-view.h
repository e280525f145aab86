/* ws-source-view.h: the kernel's CUDA source, highlighted, so a class sees the code it is
 * timing: the workspace's selected run's kernel. The sources are compiled into the app's
 * resources.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-workspace.h"

G_BEGIN_DECLS

#define WS_TYPE_SOURCE_VIEW (ws_source_view_get_type ())
G_DECLARE_FINAL_TYPE (WsSourceView, ws_source_view, WS, SOURCE_VIEW, GtkWidget)

/* Property: "workspace". */
GtkWidget *ws_source_view_new (void);
void ws_source_view_set_workspace (WsSourceView *self, WsWorkspace *workspace);
/* Shows kernels/<family>.cu and scrolls to the kernel's definition. */
void ws_source_view_show_kernel (WsSourceView *self, const char *family, const char *kernel);

G_END_DECLS
