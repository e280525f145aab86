/* test-gpu-own-kernel.c: own kernels on a real GPU: the three examples compile with NVRTC,
 * verify, and time within 3% of the built-in kernels they are written after (nvcc-built) at
 * the same configurations; a compile error comes back with its line; the example without a
 * bounds guard is caught by compute-sanitizer's memcheck at its line; a Kernel Tuner kernel
 * runs with only a header added; and the parts a first run could get wrong: packed buffers of
 * several types, inout buffers, restrictions, the compile cache, a verification that fails.
 * Usage: test-gpu-own-kernel RUNNER EXAMPLES_DIR
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu-support.h"

static const char *runner;
static char examples[1024], tmp[] = "/tmp/warpscope-own-XXXXXX";

static const char *
example (const char *name)
{
  static char paths[8][1200];
  static int next;
  char *p = paths[next++ % 8];

  snprintf (p, sizeof paths[0], "%s/%s", examples, name);
  return p;
}

static const char *
write_file (const char *name, const char *text)
{
  static char paths[8][1200];
  static int next;
  char *p = paths[next++ % 8];
  FILE *f;

  snprintf (p, sizeof paths[0], "%s/%s", tmp, name);
  f = fopen (p, "w");
  fputs (text, f);
  fclose (f);
  return p;
}

static const JValue *
record_of_run (const Output *out, const char *type, int run)
{
  for (size_t i = 0; i < count_records (out, type); i++)
    if ((int) j_num (find_record (out, type, i), "run") == run)
      return find_record (out, type, i);
  return NULL;
}

static const JValue *
error_with_code (const Output *out, const char *code)
{
  for (size_t i = 0; i < count_records (out, "error"); i++)
    if (strcmp (j_str (find_record (out, "error", i), "code"), code) == 0)
      return find_record (out, "error", i);
  return NULL;
}

/* Why a run did not give what was expected: its errors and its verification, in the log. */
static void
explain (const Output *out)
{
  for (size_t i = 0; i < count_records (out, "error"); i++)
    {
      const JValue *e = find_record (out, "error", i);

      fprintf (stderr, "#   error %s: %s\n", j_str (e, "code"), j_str (e, "message"));
    }
  for (size_t i = 0; i < count_records (out, "verify"); i++)
    {
      const JValue *v = find_record (out, "verify", i);

      fprintf (stderr, "#   verify run %.0f: pass %.0f, method %s, %.0f mismatches, %.0f "
               "unwritten, first bad %.0f (%g, expected %g), note %s\n", j_num (v, "run"),
               j_num (v, "pass"), j_str (v, "method"), j_num (v, "mismatches"),
               j_num (v, "unwritten"), j_num (v, "first_bad_index"), j_num (v, "first_bad_value"),
               j_num (v, "first_bad_expected"), j_str (v, "note") ? j_str (v, "note") : "-");
    }
}

/* The median kernel time of run 1, ns; NaN when there is none. */
static double
kernel_ns (const Output *out)
{
  const JValue *t = record_of_run (out, "timing", 1);

  return t ? j_num (j_get (t, "kernel_ns"), "median") : NAN;
}

static int
all_verified (const Output *out)
{
  size_t n = count_records (out, "verify");

  for (size_t i = 0; i < n; i++)
    if (j_num (find_record (out, "verify", i), "pass") != 1)
      return 0;
  return n > 0;
}

/* The own kernel against its built-in at one configuration: each run twice, alternating, and
 * the better of each pair compared, so that a clock step between two runs does not decide. */
static void
compare (const char *what, const char *const *builtin, const char *const *own)
{
  double best_b = INFINITY, best_o = INFINITY;
  int ok = 1;

  for (int round = 0; round < 2; round++)
    {
      Output b, o;

      run_runner (&b, runner, builtin);
      run_runner (&o, runner, own);
      ok &= b.exit_code == 0 && o.exit_code == 0 && all_verified (&o);
      if (!ok)
        {
          fprintf (stderr, "# %s: built-in exit %d, own exit %d\n", what, b.exit_code,
                   o.exit_code);
          explain (&b);
          explain (&o);
        }
      best_b = fmin (best_b, kernel_ns (&b));
      best_o = fmin (best_o, kernel_ns (&o));
      if (round == 0)
        {
          const JValue *lb = record_of_run (&b, "launch", 1), *lo = record_of_run (&o, "launch", 1);

          fprintf (stderr, "# %s: registers built-in %.0f, own %.0f; static smem %.0f, %.0f\n",
                   what, lb ? j_num (lb, "registers") : NAN, lo ? j_num (lo, "registers") : NAN,
                   lb ? j_num (lb, "static_smem") : NAN, lo ? j_num (lo, "static_smem") : NAN);
        }
      output_free (&b);
      output_free (&o);
    }
  tap_ok (ok, "%s: the own kernel compiles, runs and verifies", what);
  tap_ok (ok && fabs (best_o / best_b - 1) <= 0.03,
          "%s: own %.1f µs against built-in %.1f µs (%+.1f%%, at most 3%%)", what, best_o / 1e3,
          best_b / 1e3, 100 * (best_o / best_b - 1));
}

static void
test_equivalents (void)
{
  {
    const char *b[] = { "--kernel", "vector_add", "--sizes", "1e8", "--blocks", "256", "--reps",
                        "20", "--cpu", "none", NULL };
    const char *o[] = { "--source", example ("vector_add.cu"), "--sizes", "1e8", "--blocks",
                        "256", "--reps", "20", NULL };

    compare ("vector_add, n = 10^8, block 256", b, o);
  }
  {
    const char *b[] = { "--kernel", "matmul_tiled", "--sizes", "2048", "--blocks", "16x16",
                        "--reps", "20", "--cpu", "none", NULL };
    const char *o[] = { "--source", example ("matmul_tiled.cu"), "--param", "TILE=16",
                        "--sizes", "2048", "--blocks", "16x16", "--reps", "20", NULL };

    compare ("matmul_tiled, 2048³, TILE 16", b, o);
  }
  {
    const char *b[] = { "--kernel", "matmul_tiled", "--sizes", "2048", "--blocks", "32x32",
                        "--reps", "20", "--cpu", "none", NULL };
    const char *o[] = { "--source", example ("matmul_tiled.cu"), "--param", "TILE=32",
                        "--sizes", "2048", "--blocks", "32x32", "--reps", "20", NULL };

    compare ("matmul_tiled, 2048³, TILE 32", b, o);
  }
  {
    const char *b[] = { "--kernel", "stencil2d", "--sizes", "8192", "--blocks", "32x8", "--reps",
                        "20", "--cpu", "none", NULL };
    const char *o[] = { "--source", example ("stencil2d.cu"), "--param", "TILE_Y=1", "--sizes",
                        "8192", "--blocks", "32x8", "--reps", "20", NULL };

    compare ("stencil2d, 8192², TILE_Y 1", b, o);
  }
}

/* The sweep of a tunable parameter: the restriction keeps the blocks that match TILE, each run
 * records its value and the source's hash, and every one verifies. */
static void
test_sweep (void)
{
  const char *args[] = { "--source", example ("matmul_tiled.cu"), "--param", "TILE=8,16,32",
                         "--sizes", "512", "--blocks", "8x8,16x16,32x32", "--reps", "5", NULL };
  Output out;
  int matched = 1;

  run_runner (&out, runner, args);
  tap_ok (out.exit_code == 0 && count_records (&out, "run") == 3 && all_verified (&out),
          "TILE × blocks: 3 of 9 configurations run (the restriction), all verified (exit %d, "
          "%zu runs)", out.exit_code, count_records (&out, "run"));
  if (out.exit_code != 0)
    explain (&out);
  tap_ok (error_with_code (&out, "restricted") != NULL,
          "the 6 left out are named in a restricted warning");
  for (size_t i = 0; i < count_records (&out, "run"); i++)
    {
      const JValue *r = find_record (&out, "run", i);
      const JValue *block = j_get (r, "block");

      matched &= block != NULL && block->len == 3 && j_get (r, "params") != NULL
                 && block->items[0]->number == j_num (j_get (r, "params"), "TILE")
                 && j_str (r, "source_hash") != NULL && strlen (j_str (r, "source_hash")) == 64;
    }
  tap_ok (matched, "each run's params.TILE is its block's edge, and it carries the source hash");
  tap_ok (find_record (&out, "source", 0) != NULL && find_record (&out, "kernel", 0) != NULL
            && j_num (find_record (&out, "kernel", 0), "own") == 1,
          "the session holds the kernel's header facts and its source");
  tap_ok (record_of_run (&out, "launch", 1) != NULL
            && j_num (record_of_run (&out, "launch", 1), "static_smem") == 2 * 8 * 8 * 4,
          "the launch record has the kernel's shared memory (2 tiles of 8×8 floats)");
  output_free (&out);
}

static void
test_compile_cache (void)
{
  char cache[1200];
  const char *args[] = { "--source", example ("vector_add.cu"), "--sizes", "1e6", "--reps",
                         "3", NULL };
  Output cold, warm;

  snprintf (cache, sizeof cache, "%s/cache", tmp);
  setenv ("WARPSCOPE_NVRTC_CACHE", cache, 1);
  run_runner (&cold, runner, args);
  run_runner (&warm, runner, args);
  unsetenv ("WARPSCOPE_NVRTC_CACHE");
  tap_ok (cold.exit_code == 0 && warm.exit_code == 0
            && j_num (find_record (&cold, "compile", 0), "cached") == 0
            && j_num (find_record (&warm, "compile", 0), "cached") == 1,
          "the second run reads its compiles from the cache (%.1f ms cold, %.2f ms cached)",
          j_num (find_record (&cold, "compile", 0), "ms"),
          j_num (find_record (&warm, "compile", 0), "ms"));
  output_free (&cold);
  output_free (&warm);
}

static void
test_compile_error (void)
{
  const char *path = write_file ("typo.cu",
                                 "/* warpscope\n * kernel: k\n * size: n = 1000\n"
                                 " * arg a: float[n] out\n * arg n: int = n\n * verify: none\n */\n"
                                 "extern \"C\" __global__ void\n"
                                 "k (float *a, int n)\n"
                                 "{\n"
                                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "  if (i < n)\n"
                                 "    a[i] = undefined_thing;\n"
                                 "}\n");
  const char *args[] = { "--source", path, NULL };
  Output out;
  const JValue *e;

  run_runner (&out, runner, args);
  e = error_with_code (&out, "compile_error");
  tap_ok (out.exit_code == 2 && e != NULL && j_num (e, "line") == 13 && j_num (e, "column") == 12
            && count_records (&out, "run") == 0,
          "a compile error comes back with its line and column (13:12 → %.0f:%.0f), nothing runs "
          "(exit %d)", e ? j_num (e, "line") : -1, e ? j_num (e, "column") : -1, out.exit_code);
  output_free (&out);
}

/* The line of `needle` in the file, 0 when absent. */
static int
line_of (const char *path, const char *needle)
{
  FILE *f = fopen (path, "r");
  char line[1024];
  int n = 0;

  while (f && fgets (line, sizeof line, f))
    {
      n++;
      if (strstr (line, needle))
        {
          fclose (f);
          return n;
        }
    }
  if (f)
    fclose (f);
  return 0;
}

static void
test_memcheck (void)
{
  const char *path = example ("vector_add_oob.cu");
  const char *args[] = { "--source", path, "--memcheck", "memcheck", NULL };
  const char *plain[] = { "--source", path, "--reps", "3", NULL };
  int want = line_of (path, "c[idx] = a[idx] + b[idx];");
  Output out;
  const JValue *f;

  run_runner (&out, runner, args);
  if (out.exit_code == 3 && error_with_code (&out, "sanitizer_unavailable"))
    {
      tap_skip ("compute-sanitizer is not installed here: %s",
                j_str (error_with_code (&out, "sanitizer_unavailable"), "message"));
      output_free (&out);
      return;
    }
  f = find_record (&out, "memcheck", 0);
  tap_ok (out.exit_code == 1 && f != NULL && j_num (f, "line") == want
            && strstr (j_str (f, "kernel") ? j_str (f, "kernel") : "", "vector_add_oob") != NULL,
          "memcheck finds the missing bounds guard at line %d (found line %.0f, kernel %s, %s; "
          "exit %d)", want, f ? j_num (f, "line") : -1, f ? j_str (f, "kernel") : "-",
          f ? j_str (f, "message") : "-", out.exit_code);
  tap_ok (f != NULL && j_get (f, "thread") != NULL && j_str (f, "address") != NULL
            && j_num (f, "size") == 4,
          "the finding names a thread, a block, an address and the access size (%.0f bytes)",
          f ? j_num (f, "size") : -1);
  tap_ok (find_record (&out, "memcheck_summary", 0) != NULL, "a memcheck_summary follows");
  if (f == NULL)
    explain (&out);
  output_free (&out);
  /* Run as usual, the same kernel may well verify: the guard's absence does not show. */
  run_runner (&out, runner, plain);
  fprintf (stderr, "# vector_add_oob without the memory check: exit %d, verified %d\n",
           out.exit_code, all_verified (&out));
  output_free (&out);
}

static void
test_kernel_tuner (void)
{
  const char *args[] = { "--source", example ("kernel_tuner_vector_add.cu"), "--sizes", "1e6",
                         "--blocks", "128,256", "--reps", "3", NULL };
  Output out;
  const JValue *b0, *b1;
  int macros;

  run_runner (&out, runner, args);
  b0 = find_record (&out, "compile", 0) ? j_get (find_record (&out, "compile", 0), "block_size")
                                        : NULL;
  b1 = find_record (&out, "compile", 1) ? j_get (find_record (&out, "compile", 1), "block_size")
                                        : NULL;
  macros = count_records (&out, "compile") == 2 && b0 && b0->len == 3 && b1 && b1->len == 3
           && b0->items[0]->number == 128 && b1->items[0]->number == 256;
  tap_ok (out.exit_code == 0 && count_records (&out, "run") == 2 && all_verified (&out),
          "a Kernel Tuner kernel with only a header runs at two blocks and verifies against the "
          "built-in vector_add (exit %d)", out.exit_code);
  tap_ok (macros, "it is compiled once per block, with block_size_x defined as the block");
  if (out.exit_code != 0)
    explain (&out);
  output_free (&out);
}

/* Four inputs (packed into one of the runner's), an inout buffer and an output of another
 * type (packed outputs), scalars of three types: every place and offset right or the
 * verification says which buffer is wrong. */
static const char packed[]
  = "/* warpscope\n"
    " * kernel: mix\n"
    " * size: n = 1000003\n"
    " * arg x: float[n] inout iota\n"
    " * arg a: float[n] in random\n"
    " * arg b: int[n] in random(0, 100)\n"
    " * arg c: double[n + 3] in constant(0.5)\n"
    " * arg d: float[2 * n] in ones\n"
    " * arg y: double[n] out\n"
    " * arg s: double = 0.25\n"
    " * arg m: uint64 = n\n"
    " * arg k: int = 3\n"
    " * verify: reference mix_ref block 128\n"
    " */\n"
    "extern \"C\" __global__ void\n"
    "mix (float *x, const float *a, const int *b, const double *c, const float *d, double *y,\n"
    "     double s, unsigned long long m, int k)\n"
    "{\n"
    "  unsigned long long i = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= m)\n"
    "    return;\n"
    "  x[i] = x[i] * k + a[i];\n"
    "  y[i] = (double) b[i] * c[i + 3] + d[2 * i + 1] + s;\n"
    "}\n"
    "extern \"C\" __global__ void\n"
    "mix_ref (float *x, const float *a, const int *b, const double *c, const float *d, double *y,\n"
    "         double s, unsigned long long m, int k)\n"
    "{\n"
    "  for (unsigned long long i = (unsigned long long) blockIdx.x * blockDim.x + threadIdx.x;\n"
    "       i < m; i += (unsigned long long) gridDim.x * blockDim.x)\n"
    "    {\n"
    "      x[i] = x[i] * k + a[i];\n"
    "      y[i] = (double) b[i] * c[i + 3] + d[2 * i + 1] + s;\n"
    "    }\n"
    "}\n";

static void
test_packed_buffers (void)
{
  const char *path = write_file ("mix.cu", packed);
  const char *args[] = { "--source", path, "--reps", "3", "--transfer", "pageable,pinned", NULL };
  Output out;

  run_runner (&out, runner, args);
  tap_ok (out.exit_code == 0 && count_records (&out, "verify") == 2 && all_verified (&out),
          "4 inputs, an inout and a double output, packed, verify with pageable and pinned "
          "memory (exit %d)", out.exit_code);
  if (out.exit_code != 0)
    explain (&out);
  output_free (&out);
}

/* A kernel that is wrong must fail its verification, saying where. */
static void
test_wrong_kernel (void)
{
  const char *path = write_file ("wrong.cu",
                                 "/* warpscope\n * kernel: k\n * size: n = 100000\n"
                                 " * arg a: float[n] in\n * arg c: float[n] out\n * arg n: int = n\n"
                                 " * verify: reference r\n */\n"
                                 "extern \"C\" __global__ void k (const float *a, float *c, int n)\n"
                                 "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "  if (i < n && i != 777) c[i] = 2 * a[i]; }\n"
                                 "extern \"C\" __global__ void r (const float *a, float *c, int n)\n"
                                 "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "  if (i < n) c[i] = 2 * a[i]; }\n");
  const char *args[] = { "--source", path, "--reps", "3", NULL };
  Output out;
  const JValue *v;

  run_runner (&out, runner, args);
  v = find_record (&out, "verify", 0);
  tap_ok (out.exit_code == 1 && v != NULL && j_num (v, "pass") == 0
            && j_num (v, "first_bad_index") == 777 && j_num (v, "unwritten") == 1,
          "a kernel that skips element 777 fails: first bad 777, one element unwritten (exit %d)",
          out.exit_code);
  output_free (&out);
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: test-gpu-own-kernel RUNNER EXAMPLES_DIR\n");
      return 2;
    }
  runner = argv[1];
  snprintf (examples, sizeof examples, "%s", argv[2]);
  skip_without_gpu (runner);
  if (mkdtemp (tmp) == NULL)
    return 2;
  test_compile_error ();
  test_kernel_tuner ();
  test_packed_buffers ();
  test_wrong_kernel ();
  test_sweep ();
  test_compile_cache ();
  test_memcheck ();
  test_equivalents ();
  return tap_done ();
}
