/* fuzz-support.h: what the fuzz targets share: the entry points libFuzzer calls, and a
 * session built from the input as a reader gets it, line by line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef WS_FUZZ_WITH_GLIB
#include "ws-session.h"
#endif

/* libFuzzer's entry points; tests/fuzz/replay.c calls the same ones without libFuzzer. */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

#ifdef WS_FUZZ_WITH_GLIB
/* Criticals and warnings abort, as in the unit tests (G_DEBUG=fatal-warnings): a failed
 * g_return_if_fail on hostile input is a defect like a crash. */
void ws_fuzz_init_glib (void);

/* A session read from `data` as ws_session_feed_line() gets a stream: split at each '\n',
 * then ended. */
WsSession *ws_fuzz_session_from_lines (const uint8_t *data, size_t size);
#endif
