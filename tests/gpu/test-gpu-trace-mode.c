/* test-gpu-trace-mode.c: warpscope-runner --trace on a real GPU: the tutorial's vector add
 * traced unchanged (its kernel, its pageable copies, its ending, the copy ceilings the runner
 * measures afterwards for the GPU it used), a sweep over the threads per block of a vector add
 * that reads --tpb, a CUDA C++ program, a program that never uses CUDA, and a Python program
 * whose GPU work is done by its children (multiprocessing spawn and fork, a subprocess that
 * execs another CUDA program with its descriptors closed): each child traced, apart, with its
 * parent.
 * Arguments: RUNNER PROGRAMS_SOURCE_DIR PROGRAMS_BUILD_DIR. WARPSCOPE_PYTHON names the Python
 * (default python3); without Numba the Python programs are skipped.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu-support.h"

static const char *runner, *src_dir, *build_dir, *python;

static int
numba_here (void)
{
  char cmd[1024];

  snprintf (cmd, sizeof cmd,
            "'%s' -c 'import numpy as np; np.row_stack = np.vstack; from numba import cuda; "
            "assert cuda.is_available()' >/dev/null 2>&1",
            python);
  return system (cmd) == 0;
}

static int
is (const JValue *r, const char *type)
{
  return j_str (r, "type") != NULL && strcmp (j_str (r, "type"), type) == 0;
}

static int
is_activity (const JValue *r, const char *kind)
{
  return is (r, "activity") && j_str (r, "kind") && strcmp (j_str (r, "kind"), kind) == 0;
}

/* The runner's hello first, done last with the runner's status; every line of a traced
 * process names its program run. */
static void
check_frame (const char *name, const Output *out, int exit_code)
{
  const JValue *first = out->len ? out->records[0] : NULL;
  const JValue *last = out->len ? out->records[out->len - 1] : NULL;
  int tagged = 1;

  tap_ok (first && is (first, "hello") && j_num (first, "protocol") == 2
            && strcmp (j_str (first, "source") ?: "", "trace") == 0 && j_str (first, "runner")
            && isnan (j_num (first, "pid")),
          "%s: the stream starts with the runner's hello (protocol 2, source trace)", name);
  tap_ok (last && is (last, "done") && j_num (last, "exit_code") == exit_code
            && out->exit_code == exit_code,
          "%s: it ends with done, exit %d (the runner exited %d, done says %g)", name, exit_code,
          out->exit_code, last ? j_num (last, "exit_code") : NAN);
  for (size_t i = 0; i < out->len; i++)
    if (!isnan (j_num (out->records[i], "pid")) && !(j_num (out->records[i], "program_run") >= 1))
      tagged = 0;
  tap_ok (tagged, "%s: every record of a traced process names its program run", name);
}

static int
triple_is (const JValue *v, const char *key, double x, double y, double z)
{
  const JValue *t = j_get (v, key);

  return t && t->type == J_ARRAY && t->len == 3 && t->items[0]->number == x
         && t->items[1]->number == y && t->items[2]->number == z;
}

static void
test_vector_add (void)
{
  char program[1024];
  const char *args[] = { "--trace", "--", python, program, NULL };
  Output out;
  size_t kernels = 0, htod = 0, dtoh = 0, pageable = 0;
  const JValue *kernel = NULL, *end, *measured = NULL, *device = NULL;

  snprintf (program, sizeof program, "%s/vector_add.py", src_dir);
  run_runner (&out, runner, args);
  check_frame ("vector_add.py", &out, 0);
  for (size_t i = 0; i < out.len; i++)
    {
      const JValue *r = out.records[i];

      if (is_activity (r, "kernel"))
        kernels++, kernel = r;
      if (is_activity (r, "memcpy") && j_num (r, "bytes") == 40000000)
        {
          htod += strcmp (j_str (r, "direction"), "htod") == 0;
          dtoh += strcmp (j_str (r, "direction"), "dtoh") == 0;
          pageable += strcmp (j_str (r, "host_memory") ?: "", "pageable") == 0;
        }
      if (is (r, "device") && isnan (j_num (r, "pid")))
        measured = r;
      else if (is (r, "device"))
        device = r;
    }
  tap_ok (kernels == 1 && strstr (j_str (kernel, "name") ?: "", "add_kernel") != NULL
            && triple_is (kernel, "grid", 39063, 1, 1) && triple_is (kernel, "block", 256, 1, 1),
          "vector_add.py: one kernel, add_kernel, grid 39063, block 256 (%zu kernels)", kernels);
  tap_ok (htod == 2 && dtoh == 1 && pageable == 3,
          "vector_add.py: two 40 MB copies in, one out, all pageable (%zu, %zu, %zu)", htod, dtoh,
          pageable);
  end = find_record (&out, "program_end", 0);
  tap_ok (end && strcmp (j_str (end, "reason"), "exit") == 0 && j_num (end, "exit_status") == 0
            && j_num (end, "processes") == 1 && j_num (end, "ended_processes") == 1
            && j_num (end, "dropped_lines") == 0,
          "vector_add.py: its run ends: exit 0, one process that closed its records");
  /* The pinned rate the findings hold the pageable copies against, for the GPU it used. */
  tap_ok (measured && device && j_str (measured, "uuid") && j_str (device, "uuid")
            && strcmp (j_str (measured, "uuid"), j_str (device, "uuid")) == 0
            && j_num (measured, "h2d_pinned_gbs") > 5 && j_num (measured, "d2h_pinned_gbs") > 5,
          "vector_add.py: the runner measured the copy ceilings of the GPU the program used "
          "(pinned %g GB/s in, %g GB/s out)",
          measured ? j_num (measured, "h2d_pinned_gbs") : NAN,
          measured ? j_num (measured, "d2h_pinned_gbs") : NAN);
  output_free (&out);
}

/* One program run per value; each run's kernel has the block its run was given. */
static void
test_sweep (void)
{
  char program[1024];
  const char *args[] = { "--trace", "--no-ceilings", "--sweep", "TPB=32,256", "--", python,
                         program, "--tpb", "{TPB}", NULL };
  Output out;
  int blocks_ok = 1;
  size_t kernels = 0;

  snprintf (program, sizeof program, "%s/vector_add_tpb.py", src_dir);
  run_runner (&out, runner, args);
  check_frame ("vector_add_tpb.py sweep", &out, 0);
  tap_ok (count_records (&out, "program") == 2 && count_records (&out, "program_end") == 2,
          "sweep: two program runs, each with its end");
  for (size_t i = 0; i < out.len; i++)
    if (is_activity (out.records[i], "kernel"))
      {
        double run = j_num (out.records[i], "program_run");

        kernels++;
        blocks_ok &= triple_is (out.records[i], "block", run == 1 ? 32 : 256, 1, 1)
                     && triple_is (out.records[i], "grid", run == 1 ? 312500 : 39063, 1, 1);
      }
  tap_ok (kernels == 2 && blocks_ok,
          "sweep: run 1 launched blocks of 32 (grid 312500), run 2 of 256 (grid 39063)");
  output_free (&out);
}

static void
test_cpp (void)
{
  char program[1024];
  const char *args[] = { "--trace", "--no-ceilings", "--", program, NULL };
  Output out;
  size_t kernels = 0;

  snprintf (program, sizeof program, "%s/inject-vector-add", build_dir);
  run_runner (&out, runner, args);
  check_frame ("inject-vector-add", &out, 0);
  for (size_t i = 0; i < out.len; i++)
    kernels += is_activity (out.records[i], "kernel");
  tap_ok (kernels >= 1, "inject-vector-add (C++): its kernels are traced (%zu)", kernels);
  output_free (&out);
}

static void
test_no_cuda (void)
{
  char program[1024];
  const char *args[] = { "--trace", "--no-ceilings", "--", python, program, NULL };
  Output out;
  const JValue *error = NULL, *end;

  snprintf (program, sizeof program, "%s/no_cuda.py", src_dir);
  run_runner (&out, runner, args);
  check_frame ("no_cuda.py", &out, 1);
  for (size_t i = 0; i < out.len; i++)
    if (is (out.records[i], "error")
        && strcmp (j_str (out.records[i], "code") ?: "", "no_cuda_activity") == 0)
      error = out.records[i];
  end = find_record (&out, "program_end", 0);
  tap_ok (error != NULL && end && j_num (end, "exit_status") == 3 && j_num (end, "processes") == 0,
          "no_cuda.py: no_cuda_activity, and its own exit status 3");
  output_free (&out);
}

static double
read_pid (const char *path)
{
  FILE *f = fopen (path, "r");
  double pid = NAN;
  int n;

  if (f != NULL && fscanf (f, "%d", &n) == 1)
    pid = n;
  if (f != NULL)
    fclose (f);
  remove (path);
  return pid;
}

static const JValue *
hello_of (const Output *out, double pid)
{
  for (size_t i = 0; i < out->len; i++)
    if (is (out->records[i], "hello") && j_num (out->records[i], "pid") == pid)
      return out->records[i];
  return NULL;
}

/* The pid of the process that launched a kernel whose name holds `kernel`; NaN when none. */
static double
pid_of_kernel (const Output *out, const char *kernel)
{
  for (size_t i = 0; i < out->len; i++)
    if (is_activity (out->records[i], "kernel")
        && strstr (j_str (out->records[i], "name") ?: "", kernel) != NULL)
      return j_num (out->records[i], "pid");
  return NAN;
}

/* children.py MODE: the process that runs child_kernel reports in a process of its own, whose
 * parent is the program's first process, and the runner says nothing of a program without
 * CUDA. Its kernel is checked where the child exits through its exit handlers (spawn's child
 * and the exec'd program do): multiprocessing's fork child leaves by os._exit, which runs
 * none, so CUPTI's last buffer reaches the trace only if the periodic flush took it first. */
static void
test_children (const char *mode)
{
  char program[1024], pidfile[64], child_pidfile[80], name[64];
  const char *args[] = { "--trace", "--no-ceilings", "--", python, program, mode, pidfile, NULL };
  int exec_mode = strcmp (mode, "exec") == 0, fork_mode = strcmp (mode, "fork") == 0;
  Output out;
  const JValue *child, *end;
  double top, kid;
  size_t no_cuda = 0;

  snprintf (program, sizeof program, "%s/children.py", src_dir);
  snprintf (pidfile, sizeof pidfile, "/tmp/ws-children-%d-%s", (int) getpid (), mode);
  snprintf (child_pidfile, sizeof child_pidfile, "%s.child", pidfile);
  snprintf (name, sizeof name, "children.py %s", mode);
  run_runner (&out, runner, args);
  check_frame (name, &out, 0);
  top = read_pid (pidfile);
  kid = read_pid (child_pidfile);
  for (size_t i = 0; i < out.len; i++)
    no_cuda += is (out.records[i], "error")
               && strcmp (j_str (out.records[i], "code") ?: "", "no_cuda_activity") == 0;
  child = hello_of (&out, kid);
  tap_ok (!isnan (top) && !isnan (kid) && kid != top && child != NULL
            && j_num (child, "ppid") == top,
          "%s: the process that ran child_kernel (pid %g) reported on its own, its parent the "
          "program's first process (ppid %g, first %g)",
          name, kid, child ? j_num (child, "ppid") : NAN, top);
  if (!fork_mode)
    tap_ok (pid_of_kernel (&out, "child_kernel") == kid,
            "%s: child_kernel is traced in that process", name);
  tap_ok (exec_mode ? pid_of_kernel (&out, "parent_kernel") == top && hello_of (&out, top)
                    : hello_of (&out, top) == NULL,
          "%s: the first process %s", name,
          exec_mode ? "traced its own parent_kernel" : "did not report (it never used CUDA)");
  end = find_record (&out, "program_end", 0);
  tap_ok (end && j_num (end, "exit_status") == 0 && j_num (end, "processes") >= (exec_mode ? 2 : 1)
            && (fork_mode || j_num (end, "ended_processes") == j_num (end, "processes"))
            && no_cuda == 0,
          "%s: the program exits 0 (its kernels' results right), %g processes reported, %g "
          "closed their records, no no_cuda_activity",
          name, end ? j_num (end, "processes") : NAN, end ? j_num (end, "ended_processes") : NAN);
  output_free (&out);
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: %s RUNNER PROGRAMS_SOURCE_DIR PROGRAMS_BUILD_DIR\n", argv[0]);
      return 2;
    }
  runner = argv[1];
  src_dir = argv[2];
  build_dir = argv[3];
  python = getenv ("WARPSCOPE_PYTHON") ? getenv ("WARPSCOPE_PYTHON") : "python3";
  skip_without_gpu (runner);
  test_cpp ();
  if (numba_here ())
    {
      test_vector_add ();
      test_sweep ();
      test_no_cuda ();
      test_children ("spawn");
      test_children ("fork");
      test_children ("exec");
    }
  else
    tap_skip ("%s has no Numba with a GPU: the Python programs are not traced", python);
  return tap_done ();
}
