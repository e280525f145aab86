/* ws-nvrtc-log.h: NVRTC's compile log read into diagnostics with a line and a column, so that
 * they can be printed as a compiler prints them (file:line:col: error: …). Plain C: the tests
 * read logs without CUDA.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  int line, column;       /* 1-based; 0 when the log gives none (ptxas, options) */
  char severity[12];      /* "error" or "warning" */
  int name_lookup;        /* the trouble is the name of a kernel the runner asked for */
  char message[480];
} WsCompileDiag;

/* Reads `log` (NUL-terminated) of a program compiled under the name `program`. Fills at most
 * `max` diagnostics, in the log's order; returns how many the log has. */
int ws_nvrtc_parse_log (const char *log, const char *program, WsCompileDiag *diags, int max);

#ifdef __cplusplus
}
#endif
