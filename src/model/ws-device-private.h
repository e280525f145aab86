/* ws-device-private.h: making a device from its record, for the session reader.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-device.h"
#include "ws-record.h"

G_BEGIN_DECLS

/* The record's numbers were checked against their ranges (ws-session-ranges.c). */
WsDevice *_ws_device_new_from_record (const WsRecord *record);

G_END_DECLS
