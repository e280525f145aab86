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

/* Kernel records of `run` in `phase` named `name` (NULL: any name) or, with `not_name`, not. */
static size_t
count_named (const Output *out, int run, const char *phase, const char *name, int not_name)
{
  size_t n = 0;

  for (size_t i = 0; i < count_records (out, "activity"); i++)
    {
      const JValue *a = find_record (out, "activity", i);
      const char *has = j_str (a, "name");
      int same = has != NULL && name != NULL && strcmp (has, name) == 0;

      n += (int) j_num (a, "run") == run && strcmp (j_str (a, "kind"), "kernel") == 0
           && (phase == NULL || strcmp (j_str (a, "phase"), phase) == 0)
           && (name == NULL || same != not_name);
    }
  return n;
}

/* Every kernel record of the back-to-back launches of `run` gives `registers`. */
static int
burst_registers_are (const Output *out, int run, double registers)
{
  int n = 0;

  for (size_t i = 0; i < count_records (out, "activity"); i++)
    {
      const JValue *a = find_record (out, "activity", i);

      if ((int) j_num (a, "run") != run || strcmp (j_str (a, "kind"), "kernel") != 0
          || strcmp (j_str (a, "phase"), "kernels") != 0)
        continue;
      if (j_num (a, "registers") != registers)
        return 0;
      n++;
    }
  return n > 0;
}

static void
check_launch_registers (const Output *out, int traced)
{
  for (size_t i = 0; i < count_records (out, "launch"); i++)
    {
      const JValue *l = find_record (out, "launch", i);
      int run = (int) j_num (l, "run");
      const JValue *k = burst_kernel (out, run);
      const char *source = j_str (l, "registers_source") ?: "(none)";

      if (traced)
        tap_ok (strcmp (source, "cupti") == 0 && k != NULL
                  && burst_registers_are (out, run, j_num (l, "registers")),
                "run %d (%s): the launch record's %.0f registers are CUPTI's %.0f, from the "
                "warm-up (source %s; compiled: %.0f)",
                run, k ? j_str (k, "name") : "?", j_num (l, "registers"),
                k ? j_num (k, "registers") : -1, source, j_num (l, "registers_compiled"));
      else
        tap_ok (strcmp (source, "attribute") == 0
                  && j_num (l, "registers") == j_num (l, "registers_compiled"),
                "run %d untraced: the launch record gives the compiler's %.0f registers and "
                "says so (source %s)",
                run, j_num (l, "registers_compiled"), source);
      tap_ok (j_num (l, "registers_compiled") <= j_num (l, "registers")
                && j_num (l, "active_blocks_per_sm") <= j_num (j_get (l, "limits"), "registers")
                && fabs (j_num (l, "occupancy")
                         - j_num (l, "active_warps_per_sm") / j_num (l, "max_warps_per_sm"))
                     < 1e-9,
              "run %d: compiled registers do not exceed the GPU's, and occupancy (%.3f, %.0f "
              "blocks per SM) is what those registers allow (%.0f)",
              run, j_num (l, "occupancy"), j_num (l, "active_blocks_per_sm"),
              j_num (j_get (l, "limits"), "registers"));
    }
}

static void
check_registers (const char *runner)
{
  /* matmul_regtile at 100×37×53 runs its unaligned variant, with registers of its own (127
   * on an H200, where a round-up to 8 said 128); vector_add is compiled for 12 and given 16.
   * streams:2 makes the warm-up's kernels pieces: a whole launch after them gives the count. */
  const char *va[] = { "--kernel", "vector_add", "--sizes", "1e6", "--cpu", "none", "--reps",
                       "3", NULL };
  const char *rt[] = { "--kernel", "matmul_regtile", "--sizes", "100x37x53,256", "--cpu", "none",
                       "--reps", "3", NULL };
  const char *pieces[] = { "--kernel", "matmul_regtile", "--sizes", "300x201x99", "--transfer",
                           "streams:2", "--cpu", "none", "--reps", "3", NULL };
  const char *untraced[] = { "--kernel", "vector_add,matmul_regtile", "--sizes", "1e6,100x37x53",
                             "--cpu", "none", "--reps", "3", "--no-trace", NULL };
  const char *const *cases[] = { va, rt, pieces };
  Output out;

  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    {
      run_runner (&out, runner, cases[c]);
      check_launch_registers (&out, 1);
      output_free (&out);
    }
  run_runner (&out, runner, untraced);
  check_launch_registers (&out, 0);
  output_free (&out);
}

/* --cache cold: each back-to-back launch follows one flush, recorded in phase "flush" and
 * never as the kernel's. The matrix product is 256³ (a size is an edge for matrices: 1e6
 * would be a 10⁶³ product). */
static void
check_cache (const char *runner)
{
  const char *vectors[] = { "--kernel", "vector_add,reduce_shared", "--sizes", "1e6", "--cpu",
                            "none", "--reps", "10", "--cache", "cold", NULL };
  const char *library[] = { "--kernel", "matmul_cublas", "--sizes", "256", "--cpu", "none",
                            "--reps", "10", "--cache", "cold", NULL };
  const char *warm[] = { "--kernel", "vector_add", "--sizes", "1e6", "--cpu", "none", "--reps",
                         "10", NULL };
  const char *const *cold[] = { vectors, library };
  const char *flush = "warpscope_flush_l2";
  Output out;

  for (size_t c = 0; c < sizeof cold / sizeof *cold; c++)
    {
      run_runner (&out, runner, cold[c]);
      tap_ok (out.exit_code == 0 && count_records (&out, "run") == (c == 0 ? 2 : 1),
              "--cache cold %s exits 0 (got %d), %zu runs", cold[c][1], out.exit_code,
              count_records (&out, "run"));
      tap_ok (count_records (&out, "error") == 0,
              "--cache cold %s: no errors or warnings (%zu; the first: %s)", cold[c][1],
              count_records (&out, "error"),
              count_records (&out, "error")
                ? j_str (find_record (&out, "error", 0), "message")
                : "none");
      for (size_t i = 0; i < count_records (&out, "run"); i++)
        {
          const JValue *run = find_record (&out, "run", i);
          int id = (int) j_num (run, "id");
          const JValue *t = record_of_run (&out, "timing", id);
          size_t flushes = count_named (&out, id, NULL, flush, 0);

          tap_ok (j_str (run, "cache") && strcmp (j_str (run, "cache"), "cold") == 0,
                  "run %d records cache cold", id);
          tap_ok (flushes == 10 && count_named (&out, id, "flush", flush, 0) == flushes
                    && count_named (&out, id, "flush", flush, 1) == 0,
                  "run %d (%s): one flush per back-to-back launch, all in phase flush (%zu "
                  "flushes for 10 reps, %zu of them in phase flush, %zu other kernels there)",
                  id, j_str (run, "kernel"), flushes, count_named (&out, id, "flush", flush, 0),
                  count_named (&out, id, "flush", flush, 1));
          tap_ok (t && j_num (t, "traced") == 1 && j_num (j_get (t, "kernel_ns"), "n") == 10
                    && count_named (&out, id, "kernels", NULL, 0) >= 10
                    && count_named (&out, id, "kernels", flush, 0) == 0,
                  "run %d: traced, ten kernel durations from %zu kernel records, none a flush",
                  id, count_named (&out, id, "kernels", NULL, 0));
          tap_ok (t && j_str (t, "untraced_method")
                    && strcmp (j_str (t, "untraced_method"), "events") == 0
                    && j_num (t, "kernel_untraced_ns") > 0,
                  "run %d: the cold cross-check times each launch with its own events", id);
        }
      output_free (&out);
    }
  run_runner (&out, runner, warm);
  tap_ok (strcmp (j_str (find_record (&out, "run", 0), "cache"), "warm") == 0
            && count_named (&out, 1, NULL, flush, 0) == 0,
          "--cache warm (the default) records warm and flushes nothing");
  output_free (&out);
}

static void
check_baselines (const char *runner)
{
  /* One matrix kernel: a 1D kernel beside it would refuse --blocks 16x16 for the whole
   * invocation. */
  const char *args[] = { "--kernel", "matmul_tiled", "--sizes", "256", "--blocks", "16x16",
                         "--reps", "3", "--cpu-reps", "2", NULL };
  const char *vargs[] = { "--kernel", "vector_add", "--sizes", "1e6", "--reps", "3",
                          "--cpu-reps", "2", NULL };
  const char *missing = "/nonexistent/libopenblas.so.0";
  Output out;
  const JValue *t, *all, *one;
  const char *note;
  char *given = getenv ("WARPSCOPE_BLAS") ? strdup (getenv ("WARPSCOPE_BLAS")) : NULL;

  setenv ("WARPSCOPE_BLAS", missing, 1);
  run_runner (&out, runner, args);
  /* Then the BLAS named for the whole suite, if any, or the one the runner finds. */
  if (given != NULL)
    setenv ("WARPSCOPE_BLAS", given, 1);
  else
    unsetenv ("WARPSCOPE_BLAS");
  free (given);
  t = record_of_run (&out, "timing", 1);
  all = t ? j_get (t, "cpu_all") : NULL;
  one = t ? j_get (t, "cpu_1") : NULL;
  note = all ? j_str (all, "library_note") : NULL;
  tap_ok (out.exit_code == 0 && all && one
            && strcmp (j_str (all, "implementation") ?: "", "hand_written") == 0
            && strcmp (j_str (one, "implementation") ?: "", "hand_written") == 0
            && j_get (t, "cpu_all_blas") == NULL && note && strstr (note, "WARPSCOPE_BLAS")
            && strstr (note, missing),
          "a BLAS named by WARPSCOPE_BLAS that cannot be loaded: the hand-written SGEMM, with a "
          "note naming the variable and the path (exit %d): %s",
          out.exit_code, note ? note : "none");
  output_free (&out);

  /* Whatever BLAS this machine has: if one ran, both implementations are in the record and
   * the baseline is the faster. */
  run_runner (&out, runner, args);
  t = record_of_run (&out, "timing", 1);
  all = t ? j_get (t, "cpu_all") : NULL;
  if (all && strcmp (j_str (all, "implementation") ?: "", "blas") == 0)
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
            "beside it (exit %d)",
            out.exit_code);
  output_free (&out);

  run_runner (&out, runner, vargs);
  t = record_of_run (&out, "timing", 1);
  tap_ok (t && strcmp (j_str (j_get (t, "cpu_all"), "implementation") ?: "", "hand_written") == 0
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
  /* Pageable: sampled over the CPUs and several buffers, the figure the rate over all. */
  for (size_t i = 0; d && i < 2; i++)
    {
      const JValue *s = j_get (d, spreads[i]);
      char key[32];
      double figure;

      snprintf (key, sizeof key, "%.3s_pageable_gbs", spreads[i]);
      figure = j_num (d, key);
      tap_ok (s && j_num (s, "cpus") >= 1 && j_num (s, "buffers") >= 2
                && j_num (s, "n") >= 2 * j_num (s, "cpus") && fabs (figure - j_num (s, "mean")) < 1e-6
                && j_num (s, "min") <= figure && figure <= j_num (s, "max"),
              "%s: %.0f samples over %.0f CPUs and %.0f buffers; the ceiling %.2f GB/s is their "
              "rate over all (median %.2f)",
              spreads[i], s ? j_num (s, "n") : 0, s ? j_num (s, "cpus") : 0,
              s ? j_num (s, "buffers") : 0, figure, s ? j_num (s, "median") : 0);
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
