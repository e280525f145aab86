/* test-gpu-numbers.c: numbers a reviewer can check, on a real GPU: the launch record's
 * registers are CUPTI's, --cache cold flushes outside the kernel's time, the CPU baseline
 * names its implementation and falls back with a note, the device record's copy ceilings
 * carry their spread, --device-info honours --device, host memory is checked before a run
 * allocates, and the small-grid and W×H-block cases that went wrong now work.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gpu-support.h"

static const JValue *
record_of_run (const Output *out, const char *type, int run)
{
  for (size_t i = 0; i < count_records (out, type); i++)
    if ((int) j_num (find_record (out, type, i), "run") == run)
      return find_record (out, type, i);
  return NULL;
}

/* The first kernel record of the back-to-back launches of `run`. */
static const JValue *
burst_kernel (const Output *out, int run)
{
  for (size_t i = 0; i < count_records (out, "activity"); i++)
    {
      const JValue *a = find_record (out, "activity", i);

      if ((int) j_num (a, "run") == run && strcmp (j_str (a, "kind"), "kernel") == 0
          && strcmp (j_str (a, "phase"), "kernels") == 0)
        return a;
    }
  return NULL;
}

static size_t
count_phase (const Output *out, int run, const char *phase, const char *kind)
{
  size_t n = 0;

  for (size_t i = 0; i < count_records (out, "activity"); i++)
    {
      const JValue *a = find_record (out, "activity", i);

      n += (int) j_num (a, "run") == run && strcmp (j_str (a, "phase"), phase) == 0
           && strcmp (j_str (a, "kind"), kind) == 0;
    }
  return n;
}

static void
check_registers (const char *runner)
{
  /* matmul_regtile at 100×37×53 runs its unaligned variant, with registers of its own. */
  const char *va[] = { "--kernel", "vector_add", "--sizes", "1e6", "--cpu", "none", "--reps",
                       "3", NULL };
  const char *rt[] = { "--kernel", "matmul_regtile", "--sizes", "100x37x53,256", "--cpu", "none",
                       "--reps", "3", NULL };
  const char *const *cases[] = { va, rt };
  Output out;

  for (size_t c = 0; c < 2; c++)
    {
      run_runner (&out, runner, cases[c]);
      for (size_t i = 0; i < count_records (&out, "launch"); i++)
        {
          const JValue *l = find_record (&out, "launch", i);
          int run = (int) j_num (l, "run");
          const JValue *k = burst_kernel (&out, run);

          tap_ok (k != NULL && j_num (k, "registers") == j_num (l, "registers"),
                  "run %d (%s): the launch record's %.0f registers are CUPTI's %.0f (compiled: "
                  "%.0f)",
                  run, k ? j_str (k, "name") : "?", j_num (l, "registers"),
                  k ? j_num (k, "registers") : -1, j_num (l, "registers_compiled"));
          tap_ok (j_num (l, "registers_compiled") <= j_num (l, "registers"),
                  "run %d: compiled registers do not exceed allocated ones", run);
        }
      output_free (&out);
    }
}

static void
check_cache (const char *runner)
{
  const char *cold[] = { "--kernel", "vector_add,reduce_shared,matmul_cublas", "--sizes", "1e6",
                         "--cpu", "none", "--reps", "10", "--cache", "cold", NULL };
  const char *warm[] = { "--kernel", "vector_add", "--sizes", "1e6", "--cpu", "none", "--reps",
                         "10", NULL };
  Output out;

  run_runner (&out, runner, cold);
  tap_ok (out.exit_code == 0, "--cache cold exits 0 (got %d)", out.exit_code);
  tap_ok (count_records (&out, "error") == 0, "no warnings: the flushes are not counted as the "
                                              "kernel's records (%zu errors)",
          count_records (&out, "error"));
  for (size_t i = 0; i < count_records (&out, "run"); i++)
    {
      const JValue *run = find_record (&out, "run", i);
      int id = (int) j_num (run, "id");
      const JValue *t = record_of_run (&out, "timing", id);

      tap_ok (j_str (run, "cache") && strcmp (j_str (run, "cache"), "cold") == 0,
              "run %d records cache cold", id);
      tap_ok (count_phase (&out, id, "flush", "kernel") == 10,
              "run %d (%s): one flush per back-to-back launch (%zu)", id, j_str (run, "kernel"),
              count_phase (&out, id, "flush", "kernel"));
      tap_ok (t && j_num (t, "traced") == 1 && j_num (j_get (t, "kernel_ns"), "n") == 10,
              "run %d: traced, ten kernel durations", id);
      tap_ok (t && j_str (t, "untraced_method") && strcmp (j_str (t, "untraced_method"), "events") == 0
                && j_num (t, "kernel_untraced_ns") > 0,
              "run %d: the cold cross-check times each launch with its own events", id);
    }
  output_free (&out);
  run_runner (&out, runner, warm);
  tap_ok (strcmp (j_str (find_record (&out, "run", 0), "cache"), "warm") == 0
            && count_phase (&out, 1, "flush", "kernel") == 0,
          "--cache warm (the default) records warm and flushes nothing");
  output_free (&out);
}

static void
check_baselines (const char *runner)
{
  const char *args[] = { "--kernel", "matmul_tiled,vector_add", "--sizes", "256", "--blocks",
                         "16x16", "--reps", "3", "--cpu-reps", "2", NULL };
  const char *vargs[] = { "--kernel", "vector_add", "--sizes", "1e6", "--reps", "3",
                          "--cpu-reps", "2", NULL };
  Output out;
  const JValue *t, *all;
  char *given = getenv ("WARPSCOPE_BLAS") ? strdup (getenv ("WARPSCOPE_BLAS")) : NULL;

  setenv ("WARPSCOPE_BLAS", "/nonexistent/libopenblas.so.0", 1);
  run_runner (&out, runner, args);
  /* Then the BLAS named for the whole suite, if any, or the one the runner finds. */
  if (given != NULL)
    setenv ("WARPSCOPE_BLAS", given, 1);
  else
    unsetenv ("WARPSCOPE_BLAS");
  free (given);
  t = record_of_run (&out, "timing", 1);
  all = t ? j_get (t, "cpu_all") : NULL;
  tap_ok (all && strcmp (j_str (all, "implementation"), "hand_written") == 0
            && j_str (all, "library_note") && strstr (j_str (all, "library_note"), "WARPSCOPE_BLAS"),
          "without a BLAS the matmul baseline is the hand-written SGEMM, with a note: %s",
          all && j_str (all, "library_note") ? j_str (all, "library_note") : "none");
  output_free (&out);

  /* Whatever BLAS this machine has: if one ran, both implementations are in the record and
   * the baseline is the faster. */
  run_runner (&out, runner, args);
  t = record_of_run (&out, "timing", 1);
  all = t ? j_get (t, "cpu_all") : NULL;
  if (all && strcmp (j_str (all, "implementation"), "blas") == 0)
    {
      const JValue *hand = j_get (t, "cpu_all_hand_written");

      tap_ok (hand && j_str (all, "library") && j_num (all, "threads") >= 1
                && j_num (all, "median") <= j_num (hand, "median"),
              "the BLAS baseline (%s %s, %.0f threads) is named, with the slower hand-written "
              "one beside it",
              j_str (all, "library"), j_str (all, "library_version") ?: "", j_num (all, "threads"));
    }
  else
    tap_ok (all && (j_get (t, "cpu_all_blas") != NULL || j_str (all, "library_note") != NULL),
            "the hand-written baseline says why no BLAS was used, or has the slower BLAS "
            "beside it");
  output_free (&out);

  run_runner (&out, runner, vargs);
  t = record_of_run (&out, "timing", 1);
  tap_ok (t && strcmp (j_str (j_get (t, "cpu_all"), "implementation"), "hand_written") == 0
            && j_str (j_get (t, "cpu_all"), "library_note") == NULL,
          "the vector add's baseline is hand-written, with no BLAS note");
  output_free (&out);
}

static void
check_device_info (const char *runner)
{
  const char *missing[] = { "--device-info", "--device", "99", NULL };
  const char *first[] = { "--device-info", "--device", "0", NULL };
  static const char *const spreads[] = { "h2d_pageable_spread", "d2h_pageable_spread",
                                         "h2d_pinned_spread", "d2h_pinned_spread" };
  Output out;
  const JValue *e, *d;

  run_runner (&out, runner, missing);
  e = find_record (&out, "error", 0);
  tap_ok (out.exit_code == 2 && e && strcmp (j_str (e, "code"), "invalid_device") == 0
            && count_records (&out, "device") == 0 && find_record (&out, "done", 0),
          "--device-info --device 99 is refused as invalid_device (exit %d)", out.exit_code);
  output_free (&out);

  run_runner (&out, runner, first);
  d = find_record (&out, "device", 0);
  tap_ok (out.exit_code == 0 && count_records (&out, "device") == 1 && d && j_num (d, "index") == 0,
          "--device-info --device 0 describes that GPU alone (%zu devices)",
          count_records (&out, "device"));
  for (size_t i = 0; d && i < sizeof spreads / sizeof *spreads; i++)
    {
      const JValue *s = j_get (d, spreads[i]);

      tap_ok (s && j_num (s, "n") >= 7 && j_num (s, "min") <= j_num (s, "median")
                && j_num (s, "median") <= j_num (s, "max"),
              "%s: %.0f samples, %.2f ≤ %.2f ≤ %.2f GB/s", spreads[i], s ? j_num (s, "n") : 0,
              s ? j_num (s, "min") : 0, s ? j_num (s, "median") : 0, s ? j_num (s, "max") : 0);
    }
  output_free (&out);
}

/* n = 10⁹ floats is 12 GB of arrays: under a 6 GB data limit it must be refused whole. */
static void
check_host_memory (const char *runner)
{
  const char *args[] = { "--kernel", "vector_add", "--sizes", "1e9", "--cpu", "none", NULL };
  struct rlimit saved, limited;
  Output out;
  const JValue *e;

  getrlimit (RLIMIT_DATA, &saved);
  limited = saved;
  limited.rlim_cur = 6000000000ull;
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < limited.rlim_cur)
    limited.rlim_cur = saved.rlim_max;
  setrlimit (RLIMIT_DATA, &limited);
  run_runner (&out, runner, args);
  setrlimit (RLIMIT_DATA, &saved);
  e = find_record (&out, "error", 0);
  tap_ok (out.exit_code == 2 && e && strcmp (j_str (e, "code"), "host_out_of_memory") == 0,
          "n = 1e9 under a 6 GB data limit is refused as host_out_of_memory (exit %d, %s)",
          out.exit_code, e ? j_str (e, "code") : "no error");
  tap_ok (e && strstr (j_str (e, "message"), "GB of host memory")
            && strstr (j_str (e, "message"), "is available"),
          "the message gives both numbers: %s", e ? j_str (e, "message") : "");
  tap_ok (find_record (&out, "done", 0) != NULL && count_records (&out, "run") == 0,
          "the stream ends with done, no run started");
  output_free (&out);
}

static void
check_fixed_cases (const char *runner)
{
  const char *vec4[] = { "--kernel", "vector_add_vec4", "--sizes", "31", "--blocks", "1",
                         "--cpu", "none", "--reps", "3", NULL };
  const char *wide[] = { "--kernel", "matmul_naive,transpose_naive", "--sizes", "512",
                         "--blocks", "1024x1", "--cpu", "none", "--reps", "3", NULL };
  const char *atomic[] = { "--kernel", "reduce_atomic", "--sizes", "1000003", "--blocks", "96",
                           "--cpu", "none", "--reps", "3", NULL };
  Output out;
  const JValue *v;

  run_runner (&out, runner, vec4);
  v = find_record (&out, "verify", 0);
  tap_ok (out.exit_code == 0 && v && j_num (v, "pass") == 1 && j_num (v, "unwritten") == 0,
          "vector_add_vec4 at n = 31 with one thread per block writes all 31 elements "
          "(%.0f unwritten)",
          v ? j_num (v, "unwritten") : -1);
  output_free (&out);
  run_runner (&out, runner, wide);
  tap_ok (out.exit_code == 0 && count_records (&out, "verify") == 2,
          "1024x1 blocks run and verify for matmul_naive and transpose_naive (exit %d)",
          out.exit_code);
  output_free (&out);
  run_runner (&out, runner, atomic);
  tap_ok (out.exit_code == 0, "reduce_atomic runs with 96 threads per block (exit %d)",
          out.exit_code);
  output_free (&out);
}

int
main (int argc, char **argv)
{
  (void) argc;
  skip_without_gpu (argv[1]);
  check_registers (argv[1]);
  check_cache (argv[1]);
  check_baselines (argv[1]);
  check_device_info (argv[1]);
  check_host_memory (argv[1]);
  check_fixed_cases (argv[1]);
  return tap_done ();
}
