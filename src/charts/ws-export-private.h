/* ws-export-private.h: what the exporters share: numbers for files.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-export.h"
#include "ws-file.h"

G_BEGIN_DECLS

/* The shortest decimal text that reads back as the same double; "" for NaN and infinities
 * (an empty CSV field). Appends to `out`. */
void _ws_export_append_number (GString *out, double value);

G_END_DECLS
