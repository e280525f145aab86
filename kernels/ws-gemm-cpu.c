/* ws-gemm-cpu.c: the hand-written CPU SGEMM: register-blocked and vectorized, on every core
 * through OpenMP; the matmul family's CPU reference, and the baseline when no BLAS is found.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-gemm-cpu.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "ws-cpu-clones.h"

/* A blocked GEMM of the usual shape: B is packed in panels of KC×NC, each cut into strips
 * NR columns wide; a micro-kernel keeps an MR×NR block of C in vector registers while it
 * walks the shared dimension. MR = 6, NR = 16 uses 12 of the 16 AVX2 registers for the
 * accumulators. */
#define MR 6
#define NR 16
static const uint64_t KC = 256, NC = 512;

typedef float v8f __attribute__ ((vector_size (8 * sizeof (float))));

static inline void
store_row (float *row, v8f lo, v8f hi)
{
  memcpy (row, &lo, sizeof lo);
  memcpy (row + 8, &hi, sizeof hi);
}

WS_CPU_CLONES static void
gemm_rows (const float *A, const float *B, float *C, uint64_t m0, uint64_t m1, uint64_t n,
           uint64_t k, float *Bp)
{
  for (uint64_t jc = 0; jc < n; jc += NC)
    {
      const uint64_t nc = n - jc < NC ? n - jc : NC;

      for (uint64_t pc = 0; pc < k; pc += KC)
        {
          const uint64_t kc = k - pc < KC ? k - pc : KC;

          for (uint64_t js = 0; js < nc; js += NR)
            for (uint64_t p = 0; p < kc; p++)
              for (uint64_t jj = 0; jj < NR; jj++)
                Bp[js * kc + p * NR + jj]
                  = js + jj < nc ? B[(pc + p) * n + jc + js + jj] : 0.0f;

          for (uint64_t i = m0; i < m1; i += MR)
            {
              const uint64_t mr = m1 - i < MR ? m1 - i : MR;

              for (uint64_t js = 0; js < nc; js += NR)
                {
                  const float *bp = Bp + js * kc;
                  const uint64_t nr = nc - js < NR ? nc - js : NR;
                  float acc[MR][NR] = { { 0 } };

                  if (mr == MR)
                    {
                      /* Twelve named 8-float accumulators (6 rows × 16 columns), so that
                       * they live in registers: the width of an AVX2 register. */
                      const float *a0 = A + i * k + pc, *a1 = a0 + k, *a2 = a1 + k,
                                  *a3 = a2 + k, *a4 = a3 + k, *a5 = a4 + k;
                      v8f c0l = { 0 }, c0h = { 0 }, c1l = { 0 }, c1h = { 0 }, c2l = { 0 }, c2h = { 0 };
                      v8f c3l = { 0 }, c3h = { 0 }, c4l = { 0 }, c4h = { 0 }, c5l = { 0 }, c5h = { 0 };

                      for (uint64_t p = 0; p < kc; p++)
                        {
                          v8f bl, bh;

                          memcpy (&bl, bp + p * NR, sizeof bl);
                          memcpy (&bh, bp + p * NR + 8, sizeof bh);
                          c0l += a0[p] * bl, c0h += a0[p] * bh;
                          c1l += a1[p] * bl, c1h += a1[p] * bh;
                          c2l += a2[p] * bl, c2h += a2[p] * bh;
                          c3l += a3[p] * bl, c3h += a3[p] * bh;
                          c4l += a4[p] * bl, c4h += a4[p] * bh;
                          c5l += a5[p] * bl, c5h += a5[p] * bh;
                        }
                      store_row (acc[0], c0l, c0h);
                      store_row (acc[1], c1l, c1h);
                      store_row (acc[2], c2l, c2h);
                      store_row (acc[3], c3l, c3h);
                      store_row (acc[4], c4l, c4h);
                      store_row (acc[5], c5l, c5h);
                    }
                  else
                    for (uint64_t p = 0; p < kc; p++)
                      {
                        for (uint64_t r = 0; r < mr; r++)
                          for (int jj = 0; jj < NR; jj++)
                            acc[r][jj] += A[(i + r) * k + pc + p] * bp[p * NR + jj];
                      }
                  for (uint64_t r = 0; r < mr; r++)
                    {
                      float *c = C + (i + r) * n + jc + js;

                      for (uint64_t jj = 0; jj < nr; jj++)
                        c[jj] = (pc == 0 ? 0.0f : c[jj]) + acc[r][jj];
                    }
                }
            }
        }
    }
}

/* Each thread keeps its packing buffer for the life of the process: allocating and freeing
 * half a megabyte per call costs page faults and, in virtual machines, TLB shootdowns that
 * would be charged to the baseline. */
static float *
packing_buffer (void)
{
  static _Thread_local float *buffer;

  if (buffer == NULL)
    buffer = aligned_alloc (64, (size_t) KC * NC * sizeof (float));
  return buffer;
}

void
ws_gemm_cpu (const float *A, const float *B, float *C, uint64_t m, uint64_t n, uint64_t k,
             int threads)
{
  if (m == 0 || n == 0)
    return;
  if (k == 0)
    {
      memset (C, 0, m * n * sizeof (float));
      return;
    }
#pragma omp parallel num_threads (threads > 1 ? threads : 1)
  {
    /* Rows are split between threads in multiples of MR; each packs B for itself. */
    uint64_t t = (uint64_t) omp_get_thread_num (), nt = (uint64_t) omp_get_num_threads ();
    uint64_t strips = (m + MR - 1) / MR;
    uint64_t r0 = strips * t / nt * MR, r1 = strips * (t + 1) / nt * MR;
    float *Bp = packing_buffer ();

    if (r1 > m)
      r1 = m;
    if (Bp != NULL && r0 < r1)
      gemm_rows (A, B, C, r0, r1, n, k, Bp);
  }
}
