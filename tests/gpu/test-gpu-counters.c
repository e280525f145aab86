/* test-gpu-counters.c: --counters on a real GPU (docs/counters.md). The tutorial's vector add
 * at n = 10⁷ has counts a reviewer can work out: one FP32 add per element and no FMA, 80 MB
 * read from DRAM and 40 MB written, every thread active but in the last warp; the timed figures
 * are those of a run without counters; a padded transpose has no shared-memory bank conflicts
 * where the naive tiled one has many; and every group reads.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-support.h"

static const JValue *
counters_of (const Output *out, int run)
{
  for (size_t i = 0; i < count_records (out, "counters"); i++)
    if ((int) j_num (find_record (out, "counters", i), "run") == run)
      return find_record (out, "counters", i);
  return NULL;
}

static double
value (const JValue *counters, const char *key)
{
  return counters ? j_num (j_get (counters, "values"), key) : NAN;
}

static int
near (double got, double want, double share)
{
  return isfinite (got) && fabs (got - want) <= share * want;
}

/* Counters unreadable here (permission, another profiler): said, and skipped. */
static int
unavailable (const Output *out)
{
  for (size_t i = 0; i < count_records (out, "error"); i++)
    {
      const JValue *e = find_record (out, "error", i);

      if (strcmp (j_str (e, "code"), "counters_unavailable") == 0)
        {
          tap_skip ("counters cannot be read here: %s", j_str (e, "message"));
          return 1;
        }
    }
  return 0;
}

static void
check_vector_add (const char *runner)
{
  const char *args[] = { "--kernel", "vector_add", "--sizes", "1e7", "--blocks", "256", "--reps",
                         "5", "--cpu", "none", "--seed", "1", "--counters", "basic", NULL };
  Output out;
  const JValue *c;
  const double n = 1e7;

  run_runner (&out, runner, args);
  if (unavailable (&out))
    {
      output_free (&out);
      return;
    }
  c = counters_of (&out, 1);
  tap_ok (c != NULL, "vector_add: a counters record for run 1 (exit %d)", out.exit_code);
  tap_ok (out.exit_code == 0, "vector_add with --counters: the run verifies (exit %d)",
          out.exit_code);
  if (c == NULL)
    {
      output_free (&out);
      return;
    }
  printf ("# chip %s, groups %s, %g passes, cost %.3f ms\n", j_str (c, "chip"),
          j_str (c, "groups"), j_num (c, "passes"), j_num (c, "cost_ns") / 1e6);
  for (size_t i = 0; i < j_get (c, "values")->len; i++)
    printf ("#   %s = %.6g\n", j_get (c, "values")->keys[i], j_get (c, "values")->items[i]->number);
  tap_ok (j_num (c, "passes") >= 1 && j_num (c, "passes") <= 2, "basic takes 1–2 passes (%g)",
          j_num (c, "passes"));
  tap_ok (value (c, "fp32_add") == n, "one FP32 add per element: %.0f", value (c, "fp32_add"));
  tap_ok (value (c, "fp32_fma") == 0 && value (c, "fp32_mul") == 0, "no FMA, no multiply");
  tap_ok (near (value (c, "dram_bytes_read"), 8 * n, 0.05),
          "80 MB read from DRAM, within 5%%: %.4g", value (c, "dram_bytes_read"));
  tap_ok (near (value (c, "dram_bytes_write"), 4 * n, 0.05),
          "40 MB written to DRAM, within 5%%: %.4g", value (c, "dram_bytes_write"));
  tap_ok (value (c, "threads_per_instruction") > 31.5,
          "every thread active but in the last warp: %.3f threads per instruction",
          value (c, "threads_per_instruction"));
  tap_ok (value (c, "achieved_occupancy") > 10 && value (c, "achieved_occupancy") <= 100,
          "achieved occupancy %.1f%%, below the theoretical 100%%",
          value (c, "achieved_occupancy"));
  output_free (&out);
}

/* The padded transpose's shared memory has no bank conflicts; the tiled one without padding
 * has them on every column read (transpose_shared). */
static void
check_transpose (const char *runner)
{
  const char *args[] = { "--kernel", "transpose_shared,transpose_padded", "--sizes", "4096",
                         "--reps", "3", "--cpu", "none", "--counters", "memory", NULL };
  Output out;
  const JValue *tiled, *padded;

  run_runner (&out, runner, args);
  if (unavailable (&out))
    {
      output_free (&out);
      return;
    }
  tiled = counters_of (&out, 1);
  padded = counters_of (&out, 2);
  tap_ok (tiled && padded, "transpose: counters for both kernels");
  if (tiled && padded)
    {
      double t = value (tiled, "shared_load_bank_conflicts")
                 + value (tiled, "shared_store_bank_conflicts");
      double p = value (padded, "shared_load_bank_conflicts")
                 + value (padded, "shared_store_bank_conflicts");

      tap_ok (t > 1e6 && p < 0.01 * t, "bank conflicts: tiled %.4g, padded %.4g", t, p);
    }
  output_free (&out);
}

/* Every group reads, on a small run, and all of them together. */
static void
check_groups (const char *runner)
{
  const char *groups[] = { "memory", "stalls", "all" };

  for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
    {
      const char *args[] = { "--kernel", "matmul_tiled", "--sizes", "512", "--reps", "3",
                             "--cpu", "none", "--counters", groups[g], NULL };
      Output out;
      const JValue *c;

      run_runner (&out, runner, args);
      if (unavailable (&out))
        {
          output_free (&out);
          return;
        }
      c = counters_of (&out, 1);
      tap_ok (c != NULL && out.exit_code == 0, "%s: a counters record, the run verified",
              groups[g]);
      if (c != NULL)
        printf ("# %s: %g passes, %.3f ms\n", groups[g], j_num (c, "passes"),
                j_num (c, "cost_ns") / 1e6);
      output_free (&out);
    }
}

int
main (int argc, char **argv)
{
  (void) argc;
  skip_without_gpu (argv[1]);
  check_vector_add (argv[1]);
  check_transpose (argv[1]);
  check_groups (argv[1]);
  return tap_done ();
}
