/* ws-kernel-entry-private.h: making a catalog entry from its record, for the session reader.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-kernel-entry.h"
#include "ws-record.h"

G_BEGIN_DECLS

/* The record's numbers were checked against their ranges (ws-session-ranges.c). */
WsKernelEntry *_ws_kernel_entry_new_from_record (const WsRecord *record);

G_END_DECLS
