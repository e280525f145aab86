/* ws-blas.h: an optimized BLAS's SGEMM for the matmul family's CPU baseline, loaded at run
 * time (OpenBLAS, BLIS, MKL, FlexiBLAS, numpy's bundled OpenBLAS, or any library exporting
 * cblas_sgemm). Plain C, no CUDA, no GLib: the runner's tests load a real one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct
{
  char name[32];      /* "OpenBLAS", "BLIS", "MKL", "FlexiBLAS", or "BLAS" when it does not say */
  char version[64];   /* "0.3.21"; "" when the library does not say */
  char config[256];   /* the library's own description (openblas_get_config, …) */
  char path[512];     /* the file it was loaded from */
  char symbol[64];    /* the SGEMM entry point: "cblas_sgemm", "scipy_cblas_sgemm64_" */
  int int64;          /* its integers are 64 bits wide (ILP64) */
  int threads_settable;
} WsBlasInfo;

typedef struct WsBlas WsBlas;

/* Opens a BLAS. `spec` is a library file, a folder that holds one (searched a few levels
 * deep: an unpacked Debian package, numpy's numpy.libs), "none" for no BLAS, or NULL or ""
 * for the usual names (with numpy's bundled OpenBLAS where $VIRTUAL_ENV, $CONDA_PREFIX or a
 * Python under ~/.local or /usr/local has one). Where several OpenBLAS builds are found (the
 * usual names, numpy's, a folder's), the newest by its version is kept. Returns NULL when
 * none can be used, with a sentence saying why in `why`. A library is used only once a small
 * product computed with it is right. */
WsBlas *ws_blas_open (const char *spec, char *why, size_t why_len);
/* Frees the handle; the library stays loaded (its threads may still be running). */
void ws_blas_free (WsBlas *blas);
const WsBlasInfo *ws_blas_get_info (const WsBlas *blas);

/* Asks the library for `threads` threads; returns the number it then says it uses, or 0
 * when it cannot be told or does not say. */
int ws_blas_set_threads (WsBlas *blas, int threads);

/* C = A·B in float32, row-major: A is m×k, B k×n, C m×n. */
void ws_blas_sgemm (WsBlas *blas, const float *A, const float *B, float *C, uint64_t m,
                    uint64_t n, uint64_t k);

/* "OpenBLAS 0.3.21", "BLIS 0.9.0", "BLAS (libblas.so.3)": the library for people. */
void ws_blas_label (const WsBlas *blas, char *buf, size_t len);

/* The process's BLAS: opened on first use from WARPSCOPE_BLAS (see ws_blas_open) or the usual
 * names; NULL, and why in `why` when given, when there is none. */
WsBlas *ws_blas_default (const char **why);
