/* ws-kernel-entry.h: one entry of the runner's catalog of kernels (a `kernel` record,
 * docs/protocol.md): what it computes, the shape of its problem, its defaults and the rules
 * its blocks follow. A session lists them (ws_session_get_kernels); the plan checks against
 * them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Strings are NULL when the record does not give them. */
typedef struct
{
  const char *name;           /* "vector_add": what run --kernel takes */
  const char *family;         /* kernels that compute the same thing and share a reference */
  const char *title;          /* in English, as the runner writes it: see _get_title() */
  const char *description;    /* in English: see _get_description() */
  const char *source;         /* the source file in the source tree */
  int block_dims;             /* 1: blocks are given as N threads; 2: as W×H */
  int shape_rank;             /* how many numbers a size has: 1 (n), 2 (rows, cols), 3 (m, n, k) */
  const char *const *shape_params; /* "n"; "rows", "cols"; "m", "n", "k"; never NULL */
  guint64 default_shape[3];   /* shape_rank of them; 0 when the record gives none */
  gboolean has_default_block; /* FALSE for a library's kernel, whose library picks */
  guint default_block[3];     /* x, y, z */
  gboolean block_fixed;       /* built around one block, or picked by its library: a sweep
                               * runs it once per size and --blocks does not apply */
  const char *library;        /* "cuBLAS"; NULL for Warpscope's own kernels */
  gboolean streamable;        /* takes --transfer streams:K */
  const char *flops;          /* formulas and the verification rule, for people */
  const char *bytes;
  const char *tolerance;
} WsKernelInfo;

/* Properties (read-only): "name", "title" (translated). */
#define WS_TYPE_KERNEL_ENTRY (ws_kernel_entry_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelEntry, ws_kernel_entry, WS, KERNEL_ENTRY, GObject)

const WsKernelInfo *ws_kernel_entry_get_info (WsKernelEntry *self);
const char *ws_kernel_entry_get_name (WsKernelEntry *self);
/* The title and the description in the reader's language when the catalogs have them (the
 * kernels mark them with WS_N_); "" when the record has none. */
const char *ws_kernel_entry_get_title (WsKernelEntry *self);
const char *ws_kernel_entry_get_description (WsKernelEntry *self);
/* Whether `block` (x, y, z) is the kernel's default block; FALSE for a library's kernel. */
gboolean ws_kernel_entry_is_default_block (WsKernelEntry *self, const guint block[3]);

G_END_DECLS
