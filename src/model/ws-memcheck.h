/* ws-memcheck.h: what compute-sanitizer found in a memory check, in the words that the
 * findings panel and `warpscope-cli report` both show (docs/own-kernels.md).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-session.h"

G_BEGIN_DECLS

typedef struct
{
  char *title;      /* "vector_add_oob.cu:26: Invalid __global__ read of size 4 bytes" */
  char *numbers;    /* where first and how often, or NULL when the report named no thread */
  const char *fix;  /* what to change in the kernel, translated */
} WsMemcheckText;

void ws_memcheck_text_init (WsMemcheckText *text, const WsMemcheckFinding *finding);
void ws_memcheck_text_clear (WsMemcheckText *text);

G_END_DECLS
