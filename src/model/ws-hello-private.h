/* ws-hello-private.h: making a hello from its record, for the session reader.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-hello.h"
#include "ws-record.h"

G_BEGIN_DECLS

/* The record's numbers were checked against their ranges (ws-session-ranges.c). */
WsHello *_ws_hello_new_from_record (const WsRecord *record);

G_END_DECLS
