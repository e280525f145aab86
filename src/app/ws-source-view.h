/* ws-source-view.h: the kernel's CUDA source, highlighted, so a class sees the code it is
 * timing: the workspace's selected run's kernel (the built-ins' sources are compiled into the
 * app's resources, read-only), a recording's own kernel as it recorded it, or the editor of
 * an own kernel (the window's WsKernelDocument) with its problems marked in the gutter.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-kernel-document.h"
#include "ws-view.h"

G_BEGIN_DECLS

#define WS_TYPE_SOURCE_VIEW (ws_source_view_get_type ())
G_DECLARE_FINAL_TYPE (WsSourceView, ws_source_view, WS, SOURCE_VIEW, WsView)

/* Properties: "workspace" (WsView's), "document" (the own kernel being written). */
GtkWidget *ws_source_view_new (void);
void ws_source_view_set_document (WsSourceView *self, WsKernelDocument *document);
/* What is shown, for the tests: the buffer, and whether it is the document's (editable). */
GtkSourceBuffer *ws_source_view_get_buffer (WsSourceView *self);
gboolean ws_source_view_is_editing (WsSourceView *self);
/* A line under the file's name, such as what a clean Check said, until the kernel changes
 * or another session comes; NULL when none is shown. */
void ws_source_view_show_note (WsSourceView *self, const char *text);
const char *ws_source_view_get_note (WsSourceView *self);
/* Shows kernels/<family>.cu and scrolls to the kernel's definition. */
void ws_source_view_show_kernel (WsSourceView *self, const char *family, const char *kernel);

G_END_DECLS
