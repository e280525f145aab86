/* ws-input.h: what a person types for sizes and blocks, read forgivingly ("10 M", "1e7",
 * "10,000,000", "512×256×1024", "16x16").
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A count: digits with optional separators, exponent form, or K / M / G suffixes (10³ steps).
 * FALSE with a reason for people when it is not a whole number of at least 1. */
gboolean ws_input_parse_count (const char *text, guint64 *value, char **why);

/* A size: one count, or three joined by x or × (M×N×K). */
gboolean ws_input_parse_size (const char *text, guint64 dims[3], int *rank, char **why);

/* A block: N, WxH or WxHxD. */
gboolean ws_input_parse_block (const char *text, guint dims[3], int *rank, char **why);

G_END_DECLS
