/* ws-counters-private.h: what ws-counters.c shares with ws-counters-range.c: CUPTI's Profiler
 * Host API objects, and the check that CUPTI has what counters need.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cupti_profiler_host.h>

#include "ws-counters.h"

int _ws_counters_api_loaded (unsigned needs, char *message, size_t len);
/* A host object for `chip` with `names` added; NULL when the chip or a name is refused. */
CUpti_Profiler_Host_Object *_ws_counters_host_new (const char *chip, const char **names, size_t n);
void _ws_counters_host_free (CUpti_Profiler_Host_Object *host);
