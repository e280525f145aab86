/* test-gpu-inject.c: unmodified programs traced on a real GPU through libwarpscope-inject
 * (CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH): the tutorial's Numba scripts, PyTorch,
 * CuPy, CUDA C++ built with nvcc, several streams and threads, a fork, a program that fails
 * half-way in five ways, one that never touches CUDA. Each trace is checked for what the
 * program is known to do: kernels with their grid and block, copies with their bytes and host
 * memory, launches matched to their API calls, NVTX ranges, the closing record and the exit
 * status; a failed check prints what was recorded.
 * Arguments: RUNNER LIBRARY PROGRAMS_SOURCE_DIR PROGRAMS_BUILD_DIR. WARPSCOPE_PYTHON names the
 * Python (default python3); a Python program whose modules are missing is skipped.
 * WARPSCOPE_TEST_NVTX_LIB replaces the library as NVTX_INJECTION64_PATH.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject-support.h"

static const char *lib, *src_dir, *build_dir, *python;
static char path[1024];

static const char *
program (const char *dir, const char *name)
{
  snprintf (path, sizeof path, "%s/%s", dir, name);
  return path;
}

/* Whether this Python can run a program that needs `check` (a line of Python). */
static int
python_has (const char *check)
{
  const char *argv[] = { python, "-c", check, NULL };
  Trace t;
  int ok;

  trace_run (&t, "probe", NULL, argv, NULL, 120);
  ok = trace_exited (&t, 0);
  trace_free (&t);
  return ok;
}

static const char numba_check[]
  = "import numpy as np; np.row_stack = np.vstack; from numba import cuda; "
    "assert cuda.is_available()";

/* Every trace: whole lines of JSON, one hello per process first, every record of a known
 * process, and each process's last record its trace_end, with the exit status seen here. */
static int
well_formed (const Trace *t, int exit_code)
{
  double pids[16];
  size_t n = trace_pids (t, pids, 16);
  const JValue *first = t->len ? t->records[0] : NULL, *end;
  int ok = 1;

  ok &= t->bad_lines == 0;
  tap_ok (t->bad_lines == 0, "%s: every line of the trace is a whole JSON record (%zu are not)",
          t->name, t->bad_lines);
  ok &= first && strcmp (j_str (first, "type"), "hello") == 0 && j_num (first, "protocol") == 2
        && strcmp (j_str (first, "source") ?: "", "trace") == 0 && trace_pids_known (t);
  tap_ok (ok, "%s: the trace starts with hello (protocol 2, source trace), every record's pid "
          "is a traced process", t->name);
  for (size_t i = 0; i < n; i++)
    {
      end = trace_last (t, pids[i]);
      ok &= end != NULL;
      tap_ok (end != NULL && strcmp (j_str (end, "reason") ?: "", "exit") == 0
                && j_num (end, "exit_status") == exit_code && j_num (end, "dropped_records") == 0,
              "%s: process %g ends with trace_end: exit %g (expected %d), %g records dropped",
              t->name, pids[i], end ? j_num (end, "exit_status") : NAN, exit_code,
              end ? j_num (end, "dropped_records") : NAN);
      ok &= end != NULL && j_num (end, "exit_status") == exit_code;
    }
  return ok;
}

/* Every kernel was launched by an API call the trace has, which began before the kernel did. */
static int
launches_matched (const Trace *t, double pid)
{
  size_t kernels = 0, matched = 0, ordered = 0;

  for (size_t i = 0; i < t->len; i++)
    {
      const JValue *k = t->records[i], *api;

      if (strcmp (j_str (k, "type"), "activity") != 0
          || strcmp (j_str (k, "kind") ?: "", "kernel") != 0 || (pid >= 0 && j_num (k, "pid") != pid))
        continue;
      kernels++;
      api = trace_api_of (t, j_num (k, "pid"), j_num (k, "correlation"));
      matched += api != NULL;
      ordered += api != NULL && j_num (api, "start") <= j_num (k, "start")
                 && j_num (k, "start") < j_num (k, "end");
    }
  tap_ok (kernels > 0 && matched == kernels && ordered == kernels,
          "%s: each of the %zu kernels has its launch call (%zu matched by correlation, %zu "
          "starting after the call began)", t->name, kernels, matched, ordered);
  return kernels > 0 && matched == kernels && ordered == kernels;
}

static void
finish (Trace *t, int ok)
{
  if (!ok)
    trace_dump (t);
  trace_free (t);
}

/* ---- the programs ------------------------------------------------------------------------- */

static void
cxx_vector_add (void)
{
  const char *argv[] = { program (build_dir, "inject-vector-add"), NULL };
  const JValue *k, *dev;
  Trace t;
  int ok;

  trace_run (&t, "C++ vector add", lib, argv, NULL, 300);
  ok = trace_exited (&t, 0);
  tap_ok (ok, "C++ vector add: exits 0 traced");
  ok &= well_formed (&t, 0);
  dev = trace_nth (&t, "device", NULL, -1, 0);
  ok &= dev && j_num (dev, "index") == 0 && j_num (dev, "sm_count") > 0 && j_str (dev, "name");
  tap_ok (dev && j_num (dev, "sm_count") > 0, "C++ vector add: a device record (%s, %g SMs)",
          dev ? j_str (dev, "name") : "none", dev ? j_num (dev, "sm_count") : NAN);
  k = trace_nth (&t, "activity", "kernel", -1, 0);
  ok &= trace_kernels (&t, NULL, -1) == 11;
  tap_ok (trace_kernels (&t, NULL, -1) == 11, "C++ vector add: 11 kernels (%zu)",
          trace_kernels (&t, NULL, -1));
  ok &= k && strcmp (j_str (k, "name") ?: "", "add_kernel(float const*, float const*, float*, int)") == 0
        && strcmp (j_str (k, "mangled") ?: "", "_Z10add_kernelPKfS0_Pfi") == 0;
  tap_ok (ok, "C++ vector add: the kernel is named add_kernel(float const*, float const*, "
          "float*, int), demangled from _Z10add_kernelPKfS0_Pfi (%s / %s)",
          k ? j_str (k, "name") : "none", k ? j_str (k, "mangled") : "none");
  ok &= k && j_triple_is (k, "grid", 39063, 1, 1) && j_triple_is (k, "block", 256, 1, 1)
        && j_num (k, "registers") > 0 && j_num (k, "dynamic_smem") == 0;
  tap_ok (k && j_triple_is (k, "grid", 39063, 1, 1) && j_triple_is (k, "block", 256, 1, 1),
          "C++ vector add: grid 39063×1×1, block 256×1×1, %g registers",
          k ? j_num (k, "registers") : NAN);
  ok &= trace_copies (&t, "htod", 4e7, "pageable") == 2
        && trace_copies (&t, "dtoh", 4e7, "pageable") == 1;
  tap_ok (trace_copies (&t, "htod", 4e7, "pageable") == 2
            && trace_copies (&t, "dtoh", 4e7, "pageable") == 1,
          "C++ vector add: two 40,000,000-byte copies in and one out, from pageable memory");
  ok &= launches_matched (&t, -1);
  ok &= trace_count (&t, "activity", "sync", -1) >= 2;
  tap_ok (trace_count (&t, "activity", "sync", -1) >= 2,
          "C++ vector add: the two cudaDeviceSynchronize calls are sync records (%zu)",
          trace_count (&t, "activity", "sync", -1));
  finish (&t, ok);
}

static void
numba_vector_add (void)
{
  const char *argv[] = { python, program (src_dir, "vector_add.py"), NULL };
  const JValue *k;
  Trace t;
  int ok;

  if (!python_has (numba_check))
    {
      tap_skip ("the tutorial's §4 vector add: %s cannot import numba with a GPU", python);
      return;
    }
  trace_run (&t, "§4 vector add (Numba)", lib, argv, NULL, 300);
  ok = trace_exited (&t, 0) && trace_said (&t, "结果验证成功");
  tap_ok (ok, "§4 vector add: exits 0 traced and verifies, as untraced");
  ok &= well_formed (&t, 0);
  k = trace_nth (&t, "activity", "kernel", -1, 0);
  ok &= trace_kernels (&t, NULL, -1) == 1 && k && strstr (j_str (k, "name") ?: "", "add_kernel")
        && strncmp (j_str (k, "mangled") ?: "", "_Z", 2) == 0;
  tap_ok (ok, "§4 vector add: one kernel, add_kernel, demangled from Numba's name (%s)",
          k ? j_str (k, "name") : "none");
  ok &= k && j_triple_is (k, "grid", 39063, 1, 1) && j_triple_is (k, "block", 256, 1, 1);
  tap_ok (k && j_triple_is (k, "grid", 39063, 1, 1) && j_triple_is (k, "block", 256, 1, 1),
          "§4 vector add: grid 39063×1×1 and block 256×1×1, as the tutorial computes them "
          "(%g registers, %g ns)", k ? j_num (k, "registers") : NAN,
          k ? j_num (k, "end") - j_num (k, "start") : NAN);
  ok &= trace_copies (&t, "htod", 4e7, "pageable") == 2
        && trace_copies (&t, "dtoh", 4e7, "pageable") == 1;
  tap_ok (trace_copies (&t, "htod", 4e7, "pageable") == 2
            && trace_copies (&t, "dtoh", 4e7, "pageable") == 1,
          "§4 vector add: cuda.to_device twice and copy_to_host once, 40,000,000 bytes each, "
          "from pageable memory");
  ok &= trace_count (&t, "module", NULL, -1) >= 1;
  tap_ok (trace_count (&t, "module", NULL, -1) >= 1, "§4 vector add: the module Numba loaded "
          "(%zu module records, %zu JIT records)", trace_count (&t, "module", NULL, -1),
          trace_count (&t, "activity", "jit", -1));
  ok &= launches_matched (&t, -1);
  finish (&t, ok);
}

static void
numba_matmul (void)
{
  const char *argv[] = { python, program (src_dir, "matmul_tiled.py"), NULL };
  const JValue *k;
  Trace t;
  int ok;

  if (!python_has (numba_check))
    {
      tap_skip ("the tutorial's §5 matmul: %s cannot import numba with a GPU", python);
      return;
    }
  trace_run (&t, "§5 tiled matmul (Numba)", lib, argv, NULL, 300);
  ok = trace_exited (&t, 0) && trace_said (&t, "矩阵乘法验证成功");
  tap_ok (ok, "§5 matmul: exits 0 traced and verifies");
  ok &= well_formed (&t, 0);
  k = trace_nth (&t, "activity", "kernel", -1, 0);
  ok &= trace_kernels (&t, NULL, -1) == 1 && k
        && strstr (j_str (k, "name") ?: "", "matmul_shared_mem") && j_triple_is (k, "grid", 32, 32, 1)
        && j_triple_is (k, "block", 16, 16, 1) && j_num (k, "static_smem") >= 2048;
  tap_ok (ok, "§5 matmul: one matmul_shared_mem kernel, grid 32×32, block 16×16, two 16×16 "
          "float tiles of shared memory (%g B static)", k ? j_num (k, "static_smem") : NAN);
  ok &= trace_copies (&t, "htod", 1048576, "pageable") == 3
        && trace_copies (&t, "dtoh", 1048576, "pageable") == 1;
  tap_ok (trace_copies (&t, "htod", 1048576, "pageable") == 3
            && trace_copies (&t, "dtoh", 1048576, "pageable") == 1,
          "§5 matmul: A, B and C copied in, C out, 1 MiB each");
  finish (&t, ok);
}

/* Kernels whose launch call began inside the range. */
static size_t
launched_inside (const Trace *t, const JValue *range)
{
  size_t n = 0;

  for (size_t i = 0; range != NULL && i < t->len; i++)
    {
      const JValue *k = t->records[i], *api;

      if (strcmp (j_str (k, "kind") ?: "", "kernel") != 0)
        continue;
      api = trace_api_of (t, j_num (k, "pid"), j_num (k, "correlation"));
      n += api && j_num (api, "start") >= j_num (range, "start")
           && j_num (api, "start") <= j_num (range, "end");
    }
  return n;
}

static void
torch_matmul (void)
{
  const char *argv[] = { python, program (src_dir, "torch_matmul.py"), "4096", "50", NULL };
  const JValue *loop, *warm, *mark;
  Trace t;
  int ok;

  if (!python_has ("import torch; assert torch.cuda.is_available()"))
    {
      tap_skip ("PyTorch matmul loop: %s has no torch with CUDA", python);
      return;
    }
  trace_run (&t, "PyTorch matmul", lib, argv, NULL, 600);
  ok = trace_exited (&t, 0);
  tap_ok (ok, "PyTorch matmul: exits 0 traced");
  ok &= well_formed (&t, 0);
  ok &= trace_kernels (&t, NULL, -1) >= 51;
  tap_ok (trace_kernels (&t, NULL, -1) >= 51, "PyTorch matmul: at least 51 kernels (%zu)",
          trace_kernels (&t, NULL, -1));
  loop = trace_nvtx (&t, "range", "matmul loop");
  warm = trace_nvtx (&t, "range", "warm-up");
  mark = trace_nvtx (&t, "mark", "done");
  ok &= loop && warm && mark && j_num (loop, "start") < j_num (loop, "end")
        && j_num (warm, "end") <= j_num (loop, "start");
  tap_ok (loop && warm && mark, "PyTorch matmul: NVTX push/pop \"matmul loop\", start/end "
          "\"warm-up\" before it, mark \"done\" (%s, %s, %s)", loop ? "found" : "missing",
          warm ? "found" : "missing", mark ? "found" : "missing");
  ok &= launched_inside (&t, loop) >= 50;
  tap_ok (launched_inside (&t, loop) >= 50, "PyTorch matmul: the 50 matmuls were launched "
          "inside the \"matmul loop\" range (%zu)", launched_inside (&t, loop));
  finish (&t, ok);
}

static void
cupy_rawkernel (void)
{
  const char *argv[] = { python, program (src_dir, "cupy_rawkernel.py"), NULL };
  size_t scale = 0, right = 0;
  Trace t;
  int ok;

  if (!python_has ("import cupy; cupy.cuda.runtime.getDeviceCount()"))
    {
      tap_skip ("CuPy RawKernel: %s has no working cupy", python);
      return;
    }
  trace_run (&t, "CuPy RawKernel", lib, argv, NULL, 300);
  ok = trace_exited (&t, 0) && trace_said (&t, "scale ok");
  tap_ok (ok, "CuPy RawKernel: exits 0 traced, result right");
  ok &= well_formed (&t, 0);
  for (size_t i = 0; i < t.len; i++)
    {
      const JValue *k = t.records[i];

      if (strcmp (j_str (k, "kind") ?: "", "kernel") != 0
          || strcmp (j_str (k, "name") ?: "", "scale") != 0)
        continue;
      scale++;
      right += j_get (k, "mangled") == NULL && j_triple_is (k, "grid", 8192, 1, 1)
               && j_triple_is (k, "block", 128, 1, 1);
    }
  ok &= scale == 10 && right == 10;
  tap_ok (scale == 10 && right == 10, "CuPy RawKernel: 10 kernels named scale, not mangled, "
          "grid 8192, block 128 (%zu, %zu right)", scale, right);
  ok &= trace_count (&t, "module", NULL, -1) >= 1;
  tap_ok (trace_count (&t, "module", NULL, -1) >= 1, "CuPy RawKernel: NVRTC's module load is "
          "recorded (%zu)", trace_count (&t, "module", NULL, -1));
  finish (&t, ok);
}

static void
streams_threads (void)
{
  const char *argv[] = { program (build_dir, "inject-streams-threads"), NULL };
  double streams[64], threads[64];
  size_t n_streams = 0, n_threads = 0, ranges = 0;
  Trace t;
  int ok;

  trace_run (&t, "streams and threads", lib, argv, NULL, 300);
  ok = trace_exited (&t, 0);
  tap_ok (ok, "streams and threads: exits 0 traced");
  ok &= well_formed (&t, 0);
  for (size_t i = 0; i < t.len; i++)
    {
      const JValue *r = t.records[i];
      const char *kind = j_str (r, "kind") ?: "";
      double v;
      size_t k;

      if (strcmp (kind, "kernel") == 0)
        {
          for (v = j_num (r, "stream"), k = 0; k < n_streams && streams[k] != v; k++)
            ;
          if (k == n_streams && n_streams < 64)
            streams[n_streams++] = v;
        }
      if (strcmp (kind, "nvtx") == 0 && strncmp (j_str (r, "name") ?: "", "worker ", 7) == 0)
        {
          ranges++;
          for (v = j_num (r, "thread"), k = 0; k < n_threads && threads[k] != v; k++)
            ;
          if (k == n_threads && n_threads < 64)
            threads[n_threads++] = v;
        }
    }
  ok &= trace_kernels (&t, "busy(float*, int, int)", -1) == 32 && n_streams >= 4;
  tap_ok (trace_kernels (&t, "busy(float*, int, int)", -1) == 32 && n_streams >= 4,
          "streams and threads: 32 kernels on %zu streams (4 expected)", n_streams);
  ok &= trace_copies (&t, "htod", 16777216, "pinned") == 32
        && trace_copies (&t, "dtoh", 16777216, "pinned") == 32;
  tap_ok (trace_copies (&t, "htod", 16777216, "pinned") == 32
            && trace_copies (&t, "dtoh", 16777216, "pinned") == 32,
          "streams and threads: 32 copies each way of 16 MiB from pinned memory");
  ok &= ranges == 4 && n_threads == 4 && trace_nvtx (&t, "range", "all workers")
        && trace_nvtx (&t, "mark", "done");
  tap_ok (ranges == 4 && n_threads == 4 && trace_nvtx (&t, "range", "all workers")
            && trace_nvtx (&t, "mark", "done"),
          "streams and threads: four \"worker N\" push/pop ranges on four threads (%zu on %zu), "
          "the start/end range \"all workers\" and the mark \"done\"", ranges, n_threads);
  ok &= launches_matched (&t, -1);
  finish (&t, ok);
}

static void
fork_child (void)
{
  const char *argv[] = { program (build_dir, "inject-fork-child"), NULL };
  double pids[16];
  size_t n;
  const JValue *parent = NULL, *child = NULL;
  Trace t;
  int ok;

  trace_run (&t, "fork", lib, argv, NULL, 300);
  ok = trace_exited (&t, 0);
  tap_ok (ok, "fork: exits 0 traced");
  ok &= well_formed (&t, 0);
  n = trace_pids (&t, pids, 16);
  for (size_t i = 0; i < n; i++)
    {
      const JValue *h = trace_nth (&t, "hello", NULL, pids[i], 0);

      if (trace_kernels (&t, NULL, pids[i]) == 5)
        parent = h;
      else if (trace_kernels (&t, NULL, pids[i]) == 3)
        child = h;
    }
  ok &= n == 2 && parent && child && j_num (child, "ppid") == j_num (parent, "pid");
  tap_ok (ok, "fork: two processes traced apart, the parent with 5 kernels, its child with 3 "
          "(%zu processes); the child forked after CUDA wrote nothing", n);
  finish (&t, ok);
}

static void
cuda_error (const char *mode, int code, int sig, double result)
{
  int launch = strcmp (mode, "launch") == 0;
  const char *argv[] = { program (build_dir, "inject-cuda-error"), mode, NULL };
  const JValue *end;
  size_t failing = 0;
  char name[64];
  Trace t;
  int ok;

  snprintf (name, sizeof name, "fails by %s", mode);
  trace_run (&t, name, lib, argv, NULL, 300);
  ok = sig ? trace_signaled (&t, sig) : trace_exited (&t, code);
  tap_ok (ok, "%s: %s %d, as untraced", name, sig ? "killed by signal" : "exits",
          sig ? sig : code);
  ok &= t.bad_lines == 0 && trace_count (&t, "hello", NULL, -1) == 1;
  ok &= trace_kernels (&t, "fill(float*, int, float)", -1) >= 3;
  tap_ok (trace_kernels (&t, "fill(float*, int, float)", -1) >= 3,
          "%s: the three launches before the failure are kept (%zu)", name,
          trace_kernels (&t, "fill(float*, int, float)", -1));
  end = t.len > 0 ? trace_last (&t, j_num (t.records[0], "pid")) : NULL;
  if (sig)
    ok &= end && strcmp (j_str (end, "reason") ?: "", "signal") == 0 && j_num (end, "signal") == sig;
  else
    ok &= end && strcmp (j_str (end, "reason") ?: "", "exit") == 0
          && j_num (end, "exit_status") == code && j_num (end, "api_errors") >= 1;
  tap_ok (ok, "%s: the trace ends with trace_end saying %s %d", name, sig ? "signal" : "exit",
          sig ? sig : code);
  /* result < 0: the error the program printed ("launch: error 1 (…)"), which differs between
   * CUDA versions; the failing call is then a launch. */
  if (result < 0)
    {
      const char *said = t.output ? strstr (t.output, "launch: error ") : NULL;

      result = said ? atof (said + strlen ("launch: error ")) : 0;
    }
  for (size_t i = 0; result > 0 && i < t.len; i++)
    failing += strcmp (j_str (t.records[i], "kind") ?: "", "api") == 0
               && j_num (t.records[i], "result") == result
               && (!launch || strncmp (j_str (t.records[i], "name") ?: "", "cudaLaunch", 10) == 0);
  if (result != 0 || launch)
    {
      ok &= failing >= 1;
      tap_ok (failing >= 1, "%s: the failing %s is recorded with the error the program got, %g "
              "(%zu)", name, launch ? "launch" : "call", result, failing);
    }
  finish (&t, ok);
}

static void
no_cuda (void)
{
  const char *argv[] = { python, program (src_dir, "no_cuda.py"), NULL };
  Trace t;
  int ok;

  trace_run (&t, "no CUDA", lib, argv, NULL, 120);
  ok = trace_exited (&t, 3) && trace_said (&t, "no CUDA here") && t.len == 0 && t.bad_lines == 0;
  tap_ok (ok, "no CUDA: exits 3 as untraced, and the library, never loaded, wrote nothing (%zu "
          "records)", t.len);
  finish (&t, ok);
}

int
main (int argc, char **argv)
{
  if (argc < 5)
    {
      fprintf (stderr, "usage: %s RUNNER LIBRARY PROGRAMS_SOURCE_DIR PROGRAMS_BUILD_DIR\n",
               argv[0]);
      return 2;
    }
  skip_without_gpu (argv[1]);
  lib = argv[2];
  src_dir = argv[3];
  build_dir = argv[4];
  python = getenv ("WARPSCOPE_PYTHON") ? getenv ("WARPSCOPE_PYTHON") : "python3";
  cxx_vector_add ();
  numba_vector_add ();
  numba_matmul ();
  torch_matmul ();
  cupy_rawkernel ();
  streams_threads ();
  fork_child ();
  /* A block of 2048 threads is refused with cudaErrorInvalidValue (1) by CUDA 13,
     cudaErrorInvalidConfiguration (9) before: -1 takes the one the program printed.
     cudaErrorIllegalAddress is 700 (the driver's CUDA_ERROR_ILLEGAL_ADDRESS too). */
  cuda_error ("launch", 1, 0, -1);
  cuda_error ("fault", 2, 0, 700);
  cuda_error ("segv", 0, SIGSEGV, 0);
  cuda_error ("abort", 0, SIGABRT, 0);
  cuda_error ("term", 0, SIGTERM, 0);
  no_cuda ();
  return tap_done ();
}
