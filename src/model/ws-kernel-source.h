/* ws-kernel-source.h: an own kernel's file as the model sees it (docs/own-kernels.md): its
 * header read by the runner's own parser, with no GPU and no CUDA, so that its errors and
 * tunable parameters can be shown where the kernel is written (warpscope-cli check, the app).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One error of the header: 1-based line and column in the file. */
typedef struct
{
  guint line, column;
  char *message;
} WsSourceProblem;

#define WS_TYPE_KERNEL_SOURCE (ws_kernel_source_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelSource, ws_kernel_source, WS, KERNEL_SOURCE, GObject)

/* `path` names the file in messages (may be NULL). */
WsKernelSource *ws_kernel_source_new (const char *text, gssize length, const char *path);
/* NULL with an error when the file cannot be read or is larger than a kernel file may be. */
WsKernelSource *ws_kernel_source_new_from_file (GFile *file, GError **error);

const char *ws_kernel_source_get_path (WsKernelSource *self);
const char *ws_kernel_source_get_text (WsKernelSource *self);
/* The SHA-256 of the text, as runs record it. */
const char *ws_kernel_source_get_hash (WsKernelSource *self);
/* The header's errors (WsSourceProblem), in file order; empty when it is fine. */
GPtrArray *ws_kernel_source_get_problems (WsKernelSource *self);
gboolean ws_kernel_source_is_valid (WsKernelSource *self);

/* What the header declares; NULL or 0 when it is not valid. */
const char *ws_kernel_source_get_entry (WsKernelSource *self);
const char *ws_kernel_source_get_title (WsKernelSource *self);
guint ws_kernel_source_get_n_params (WsKernelSource *self);
const char *ws_kernel_source_get_param_name (WsKernelSource *self, guint index);
/* The parameter's values as written ("8", "16", "32"), the default first; a new strv. */
char **ws_kernel_source_dup_param_values (WsKernelSource *self, guint index);

/* The problem size's names (1 to 3: "n"; "rows", "cols"; "m", "n", "k") and defaults. */
guint ws_kernel_source_get_n_sizes (WsKernelSource *self);
const char *ws_kernel_source_get_size_name (WsKernelSource *self, guint index);
guint64 ws_kernel_source_get_size_default (WsKernelSource *self, guint index);
/* The default block and how many numbers it was written with (1 to 3): the kernel's block
 * rank; 0 when the header is not valid. */
guint ws_kernel_source_get_block (WsKernelSource *self, guint block[3]);

G_END_DECLS
