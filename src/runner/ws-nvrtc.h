/* ws-nvrtc.h: compiling an own kernel with NVRTC, loaded at run time (as CUPTI and cuBLAS
 * are), for the device's architecture; the log read into diagnostics with line and column,
 * and compiles cached by source, options, architecture and NVRTC version.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#include "ws-nvrtc-log.h"
#include "ws-protocol.h"

#define WS_NVRTC_MAX_NAMES 2
#define WS_NVRTC_MAX_DIAGS 32

typedef struct
{
  int ok;
  int cached;               /* read from the cache, not compiled */
  double ms;                /* the compile, or the cache read */
  char key[65];             /* the cache key: SHA-256 of what decides the output */
  char arch[24];            /* "sm_90"; "compute_90" when NVRTC does not know the GPU yet */
  int is_ptx;               /* the image is PTX, compiled by the driver when loaded */
  char *log;                /* malloc'd, NUL-terminated, maybe "" */
  void *image;              /* the cubin (or PTX), malloc'd */
  size_t image_len;
  char lowered[WS_NVRTC_MAX_NAMES][256]; /* the names to look the kernels up by */
  int n_diags;              /* diagnostics in diags (the log may have more: total_diags) */
  int total_diags;
  WsCompileDiag diags[WS_NVRTC_MAX_DIAGS];
  WsErrorCode code;         /* when !ok: compile_error, nvrtc_unavailable, … */
  char error[512];          /* when !ok: what went wrong, for people */
} WsNvrtcResult;

/* 1 when NVRTC can be loaded; otherwise 0 and why. WARPSCOPE_LIBNVRTC names the library. */
int ws_nvrtc_available (char *why, size_t len);
/* NVRTC's version ("13.0"), or "" when it cannot be loaded. */
const char *ws_nvrtc_version_string (void);

/* Compiles `source` under the name `program` (what the log and compute-sanitizer call the
 * file) for compute capability cc_major.cc_minor, with `options` (the runner adds the
 * architecture), looking up `names` (C++ name expressions: the kernel and its reference).
 * Returns res->ok. */
int ws_nvrtc_compile (const char *program, const char *source, size_t len,
                      const char *const *options, int n_options, const char *const *names,
                      int n_names, int cc_major, int cc_minor, WsNvrtcResult *res);
void ws_nvrtc_result_clear (WsNvrtcResult *res);

/* The cache's folder: $WARPSCOPE_NVRTC_CACHE, else $XDG_CACHE_HOME/warpscope/nvrtc, else
 * ~/.cache/warpscope/nvrtc; "" when caching is off (WARPSCOPE_NVRTC_CACHE=none). */
const char *ws_nvrtc_cache_dir (void);
