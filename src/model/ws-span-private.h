/* ws-span-private.h: reading a span from the protocol's activity record.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-record.h"
#include "ws-span.h"

G_BEGIN_DECLS

/* Every member of an activity record but its times, which each source places on its own axis
 * (a sweep's as written, a traced program's from its process's clock): the reader of the
 * runner's records and the trace's both call it, so a kernel, a copy or an API call means the
 * same whoever wrote it. Numbers are clamped to their fields. */
void _ws_span_from_record (const WsRecord *r, WsSpan *span);

G_END_DECLS
