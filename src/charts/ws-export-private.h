/* ws-export-private.h: what the exporters share: numbers for files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-export.h"
#include "ws-file.h"

G_BEGIN_DECLS

/* A number in the charts' CSV: ws_format_append_csv_number, kept under this name for the
 * CSV writer (ws-export-csv.c) until it calls that itself. */
void _ws_export_append_number (GString *out, double value);

G_END_DECLS
