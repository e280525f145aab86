/* matmul.h: what the matmul family's files share: shapes, formulas, the CPU reference, the
 * verification rule and row-block pieces for streams:K.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WS_MATMUL_TOLERANCE                                                                  \
  "|gpu − ref| ≤ atol + 1e-4·|ref| with atol = 1e-4·max(1, k/512) (the tutorial's "         \
  "allclose(rtol=1e-4, atol=1e-4), widened for long dot products); ref in double precision; "  \
  "every element up to 2^31 multiply-adds, else 65,536 random elements plus a scan of all "   \
  "for unwritten ones"

/* C is m×n with blocks of blockDim threads, one thread per element. */
void ws_matmul_grid (const uint64_t shape[3], const unsigned block[3], unsigned grid[3]);
uint64_t ws_matmul_buffer_elements (const uint64_t shape[3], int buffer);
double ws_matmul_flops (const uint64_t shape[3]);
double ws_matmul_bytes (const uint64_t shape[3]);
uint64_t ws_matmul_work_units (const uint64_t shape[3]);
void ws_matmul_reference (const WsLaunchConfig *cfg, const float *const *in, float *out,
                          int threads, uint64_t part);
void ws_matmul_verify (const WsLaunchConfig *cfg, const float *const *in, const float *out,
                       uint64_t seed, WsVerifyResult *result);

/* streams:K cuts C into blocks of whole rows; every piece needs all of B (input 1). Rows
 * are split at multiples of 128, the largest tile of the family, where m allows. */
#define WS_MATMUL_WHOLE_INPUTS (1u << 1)
void ws_matmul_piece (const WsLaunchConfig *cfg, int pieces, int p, WsRegion region[]);
/* The rows of piece p as a product of their own: `sub` gets the piece's shape (and a grid
 * from `desc`), `slice` the offset pointers. Returns 0 when the piece is empty. */
int ws_matmul_slice (const WsKernelDesc *desc, const WsLaunchConfig *cfg, int pieces, int p,
                     float *const *dev, WsLaunchConfig *sub, float *slice[3]);

#ifdef __cplusplus
}
#endif
