/* ws-source-view.h: the kernel's CUDA source, highlighted, so a class sees the code it is
 * timing. The sources are compiled into the app's resources.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_SOURCE_VIEW (ws_source_view_get_type ())
G_DECLARE_FINAL_TYPE (WsSourceView, ws_source_view, WS, SOURCE_VIEW, GtkWidget)

GtkWidget *ws_source_view_new (void);
/* Shows kernels/<family>.cu and scrolls to the kernel's definition. */
void ws_source_view_show_kernel (WsSourceView *self, const char *family, const char *kernel);
void ws_source_view_set_presentation (WsSourceView *self, gboolean presentation);

G_END_DECLS
