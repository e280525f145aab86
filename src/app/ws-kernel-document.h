/* ws-kernel-document.h: the own kernel being written (docs/own-kernels.md): its text in a
 * GtkSourceBuffer (CUDA highlighting, undo), the file it came from or was saved to, whether
 * it has unsaved changes, and its header read as it is typed (WsKernelSource) with the path
 * of the copy the runner reads.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtksourceview/gtksource.h>

#include "ws-kernel-source.h"

G_BEGIN_DECLS

/* Properties (read-only, with notify): "open", "file" (GFile, NULL for a kernel never saved),
 * "title" ("matmul_tiled.cu"), "modified", "source" (WsKernelSource: the header as it reads
 * now; NULL while none is open). */
#define WS_TYPE_KERNEL_DOCUMENT (ws_kernel_document_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelDocument, ws_kernel_document, WS, KERNEL_DOCUMENT, GObject)

WsKernelDocument *ws_kernel_document_new (void);

GtkSourceBuffer *ws_kernel_document_get_buffer (WsKernelDocument *self);
gboolean ws_kernel_document_is_open (WsKernelDocument *self);
GFile *ws_kernel_document_get_file (WsKernelDocument *self);
const char *ws_kernel_document_get_title (WsKernelDocument *self);
gboolean ws_kernel_document_get_modified (WsKernelDocument *self);
WsKernelSource *ws_kernel_document_get_source (WsKernelDocument *self);

/* The templates of New Kernel: "vector_add" and "matmul_tiled" (the tutorial's kernels). */
extern const char *const ws_kernel_templates[];
const char *ws_kernel_template_title (const char *name);
/* A new kernel from a template: no file yet, so its first Save asks where. */
gboolean ws_kernel_document_new_from_template (WsKernelDocument *self, const char *name,
                                               GError **error);
/* Opens a .cu file (at most 128 KiB, as the runner takes). */
gboolean ws_kernel_document_load (WsKernelDocument *self, GFile *file, GError **error);
/* A copy of `text` (a recording's source) to edit, under `name`, with no file. */
void ws_kernel_document_load_text (WsKernelDocument *self, const char *text, const char *name);
/* Writes the text to `file` (NULL: its own file) whole, renamed into place; it then is the
 * document's file and the changes are saved. */
gboolean ws_kernel_document_save (WsKernelDocument *self, GFile *file, GError **error);
void ws_kernel_document_close (WsKernelDocument *self);

/* A new buffer for a kernel's text, highlighted as CUDA, else as C++ or C, else plain text
 * (a system whose GtkSourceView has none of them; said once, as a warning). */
GtkSourceBuffer *ws_kernel_buffer_new (void);

/* Reads the header again now rather than after the pause that typing waits for. */
void ws_kernel_document_reread (WsKernelDocument *self);

G_END_DECLS
