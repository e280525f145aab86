/* ws-kernel-util.c: verification helpers shared by the kernel families.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <math.h>
#include <string.h>

void
ws_verify_init (WsVerifyResult *result,
                const char     *method,
                double          rtol,
                double          atol,
                uint64_t        total)
{
  memset (result, 0, sizeof *result);
  result->method = method;
  result->rtol = rtol;
  result->atol = atol;
  result->total = total;
  result->first_bad = -1;
}

static inline int
is_poison (float x)
{
  uint32_t bits;

  memcpy (&bits, &x, sizeof bits);
  return bits == WS_POISON_BITS;
}

int
ws_verify_element (WsVerifyResult *result,
                   uint64_t        index,
                   float           x,
                   double          ref)
{
  double err = fabs ((double) x - ref);
  int ok;

  result->checked++;
  ok = !isnan (x) && !isinf (x) && err <= result->atol + result->rtol * fabs (ref);
  if (!isnan (x) && !isinf (x))
    {
      if (err > result->max_abs_err)
        result->max_abs_err = err;
      if (ref != 0.0 && err / fabs (ref) > result->max_rel_err)
        result->max_rel_err = err / fabs (ref);
    }
  if (!ok)
    {
      result->mismatches++;
      if (is_poison (x))
        result->unwritten++;
      if (result->first_bad < 0 || (int64_t) index < result->first_bad)
        {
          result->first_bad = (int64_t) index;
          result->first_bad_value = x;
          result->first_bad_expected = ref;
        }
    }
  return ok;
}

uint64_t
ws_count_poison (const float *out,
                 uint64_t     total)
{
  uint64_t count = 0;

#pragma omp parallel for reduction(+ : count) schedule(static)
  for (uint64_t i = 0; i < total; i++)
    count += is_poison (out[i]);
  return count;
}

void
ws_verify_merge (WsVerifyResult       *into,
                 const WsVerifyResult *part)
{
  into->checked += part->checked;
  into->mismatches += part->mismatches;
  into->unwritten += part->unwritten;
  if (part->max_abs_err > into->max_abs_err)
    into->max_abs_err = part->max_abs_err;
  if (part->max_rel_err > into->max_rel_err)
    into->max_rel_err = part->max_rel_err;
  if (part->first_bad >= 0 && (into->first_bad < 0 || part->first_bad < into->first_bad))
    {
      into->first_bad = part->first_bad;
      into->first_bad_value = part->first_bad_value;
      into->first_bad_expected = part->first_bad_expected;
    }
}

void
ws_verify_finish (WsVerifyResult *result)
{
  result->pass = result->mismatches == 0 && result->checked > 0;
}

void
ws_piece_range (uint64_t units, int pieces, int p, uint64_t align, uint64_t *lo, uint64_t *hi)
{
  uint64_t a = align ? align : 1;

  *lo = units * (uint64_t) p / (uint64_t) pieces / a * a;
  *hi = p + 1 >= pieces ? units : units * (uint64_t) (p + 1) / (uint64_t) pieces / a * a;
  if (*hi < *lo)
    *hi = *lo;
}

WsRegion
ws_region_range (uint64_t lo, uint64_t hi)
{
  WsRegion r = { lo, hi - lo, 1, hi - lo };

  return r;
}
