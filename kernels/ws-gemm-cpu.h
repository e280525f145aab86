/* ws-gemm-cpu.h: the hand-written CPU SGEMM, C = A·B row-major, that the matmul family's
 * reference and baseline use; plain C, so that the runner's tests can check a BLAS against
 * it without CUDA.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A is m×k, B is k×n, C is m×n; on `threads` threads (OpenMP), 1 or fewer meaning one. */
void ws_gemm_cpu (const float *A, const float *B, float *C, uint64_t m, uint64_t n, uint64_t k,
                  int threads);

#ifdef __cplusplus
}
#endif
