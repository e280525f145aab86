/* ws-sanitizer-report.h: compute-sanitizer's text report (memcheck, racecheck, initcheck,
 * synccheck) read into findings that point at a source line, each report of one place and
 * kind counted once with its first thread, block and address. Plain C: the tests read
 * reports without CUDA.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  char kind[16];        /* out_of_bounds, misaligned, invalid_access, uninitialized, race,
                         * sync, api_error, leak, other */
  char message[320];    /* the sanitizer's first line: "Invalid __global__ write of size 4 bytes" */
  char access[8];       /* read, write, atomic; "" when it does not say */
  char space[12];       /* global, shared, local; "" */
  int size;             /* bytes of the access; 0 when it does not say */
  char kernel[256];
  char file[512];
  int line;             /* 0 without line information */
  int has_thread;
  unsigned thread[3], block[3];
  char address[24];
  char detail[480];     /* "Address 0x… is out of bounds; and is 4 bytes after the nearest
                         * allocation at 0x… of size 4000 bytes"; a race's other access */
  int count;            /* reports of this kind at this place */
} WsSanitizerFinding;

typedef struct
{
  int errors;           /* the ERROR SUMMARY's count; -1 when the report has none */
  int reports;          /* reports read (before grouping) */
} WsSanitizerSummary;

/* Reads `text` (NUL-terminated); fills at most `max` findings in the order they first
 * appeared and returns how many there are. */
int ws_sanitizer_parse (const char *text, WsSanitizerFinding *findings, int max,
                        WsSanitizerSummary *summary);

#ifdef __cplusplus
}
#endif
