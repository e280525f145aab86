/* ws-kernel-actions.h: the window's actions for an own kernel (docs/own-kernels.md): New
 * Kernel from a template, Open Kernel…, Check (compile without running), Memory Check (one
 * configuration under compute-sanitizer), Edit a Copy of a recording's source, back to the
 * built-in kernels; and the question before unsaved changes to a kernel are lost.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-window.h"

G_BEGIN_DECLS

/* In the window's class_init: the actions, and the template's "kernel_document". */
void ws_kernel_actions_install (GtkWidgetClass *widget_class);
/* In the window's init, after the template: what enables the actions, and the kernel's copy
 * written when the plan prepares a run. */
void ws_kernel_actions_init (WsWindow *window);
/* A .cu file opened (the command line, a drop) is a kernel to edit: TRUE when `file` is one
 * and was taken. */
gboolean ws_kernel_actions_open_file (WsWindow *window, GFile *file);
/* From close-request: TRUE when the window must not close yet (it asks first). */
gboolean ws_kernel_actions_close_request (WsWindow *window);

G_END_DECLS
