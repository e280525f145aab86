/* fake-openblas.c: a stand-in OpenBLAS of a version given when built (FAKE_VERSION), whose
 * SGEMM is a plain loop: the runner's tests choose between builds of it by their versions.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>

static int threads = 1;

const char *
openblas_get_config (void)
{
  return "OpenBLAS " FAKE_VERSION " stand-in";
}

void
openblas_set_num_threads (int n)
{
  threads = n;
}

int
openblas_get_num_threads (void)
{
  return threads;
}

/* Row-major, no transposes: all the runner asks for. */
void
cblas_sgemm (int order, int ta, int tb, int32_t m, int32_t n, int32_t k, float alpha,
             const float *A, int32_t lda, const float *B, int32_t ldb, float beta, float *C,
             int32_t ldc)
{
  (void) order, (void) ta, (void) tb;
  for (int32_t r = 0; r < m; r++)
    for (int32_t c = 0; c < n; c++)
      {
        float sum = 0;

        for (int32_t p = 0; p < k; p++)
          sum += A[r * lda + p] * B[p * ldb + c];
        C[r * ldc + c] = alpha * sum + (beta != 0 ? beta * C[r * ldc + c] : 0);
      }
}
