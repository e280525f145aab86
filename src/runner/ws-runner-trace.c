/* ws-runner-trace.c: warpscope-runner --trace: runs the program (once per point of a sweep) with
 * libwarpscope-inject loaded by the driver, a pipe named in WARPSCOPE_TRACE_FD and a socket
 * named in WARPSCOPE_TRACE_SOCKET (which every process of the program reaches, whatever
 * descriptors it kept), relays the library's lines with the program run they belong to, and
 * frames them with the runner's
 * own records: hello, program, program_end, error, device (the copy ceilings) and done. The
 * records are written by ws-runner-trace-output.c, the program is run by
 * ws-runner-trace-child.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* pipe2 */
#include "ws-runner-trace.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-clock.h"
#include "ws-runner-device.h"
#include "ws-diagnose.h"
#include "ws-json.h"
#include "ws-output.h"
#include "ws-protocol.h"
#include "ws-runner-trace-private.h"

enum
{
  EXIT_OK = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_NO_GPU = 3,
  EXIT_INTERNAL = 5,
};

WsTraceState _ws_trace = { .sig_pipe = { -1, -1 } };

/* ---- one program run --------------------------------------------------------------------- */

static void
report_no_cuda (const WsTraceChild *c, const char *program)
{
  char message[1024], ending[96];
  const char *name = WIFSIGNALED (c->status) ? _ws_trace_signal_name (WTERMSIG (c->status)) : NULL;

  if (WIFSIGNALED (c->status))
    snprintf (ending, sizeof ending, "was ended by %s", name ? name : "a signal");
  else
    snprintf (ending, sizeof ending, "exited with status %d", WEXITSTATUS (c->status));
  /* Only what the runner heard is said: a process that initialized CUDA but could not reach
   * the trace (another user's, or inside a container) says so itself on stderr. */
  snprintf (message, sizeof message,
            "%s ran and %s, but no process of it reported to the trace: none initialized CUDA "
            "with the tracing library loaded, or those that did could not reach the trace (such "
            "a process says why on stderr: \"warpscope-inject: process … initialized CUDA but "
            "cannot report\"). Check that it uses the GPU (numba.cuda, torch.cuda, cupy) and can "
            "see one (CUDA_VISIBLE_DEVICES), and that it does not do its GPU work in a program "
            "started with a cleared environment",
            program, ending);
  _ws_trace_write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_CUDA_ACTIVITY, message, NULL);
}

typedef enum
{
  POINT_OK,
  POINT_FAILED,      /* ran: non-zero status, a signal, a timeout, no CUDA */
  POINT_NOT_STARTED,
  POINT_INTERNAL,
} PointResult;

static PointResult
run_point (const WsTraceOptions *o, int point, int of, const char *inject)
{
  const char *values[WS_TRACE_MAX_PARAMS];
  char **argv = calloc ((size_t) o->argc + 1, sizeof *argv);
  char *env_values[WS_TRACE_MAX_ENV] = { 0 };
  char *cwd = NULL, path[4096], cwd_now[4096];
  WsTraceChild c = { .id = point + 1, .listen_fd = -1 };
  PointResult result = POINT_INTERNAL;
  int found, error;

  _ws_trace_point_values (o, point, values);
  for (int i = 0; argv != NULL && i < o->argc; i++)
    if ((argv[i] = _ws_trace_substitute (o, values, o->argv[i])) == NULL)
      goto out;
  for (int i = 0; i < o->n_env; i++)
    if ((env_values[i] = _ws_trace_substitute (o, values, o->env_values[i])) == NULL)
      goto out;
  if (argv == NULL || (o->cwd != NULL && (cwd = _ws_trace_substitute (o, values, o->cwd)) == NULL))
    goto out;
  found = _ws_trace_find_program (argv[0], path, sizeof path, &error);
  _ws_trace_write_program (o, c.id, of, values, argv, env_values,
                           cwd ? cwd : (getcwd (cwd_now, sizeof cwd_now) ? cwd_now : NULL),
                           found ? path : NULL);
  if (!found)
    {
      char message[768];

      if (error == EACCES)
        {
          snprintf (message, sizeof message,
                    "%s cannot be run: it is a folder or not executable. Start a script with "
                    "its interpreter (python3 %s), or make it executable (chmod +x)",
                    argv[0], argv[0]);
          _ws_trace_write_error (c.id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_EXECUTABLE,
                                 message, NULL);
        }
      else
        {
          snprintf (message, sizeof message,
                    "%s was not found: %s. Check the name, or give the program's path",
                    argv[0], strchr (argv[0], '/') ? "there is no such file"
                                                   : "no folder on PATH holds a program of that "
                                                     "name");
          _ws_trace_write_error (c.id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_FOUND, message,
                                 NULL);
        }
      _ws_trace_write_not_started (c.id);
      result = POINT_NOT_STARTED;
      goto out;
    }
  if (!_ws_trace_start_child (&c, path, argv, env_values, cwd, o, inject))
    {
      _ws_trace_write_not_started (c.id);
      result = POINT_NOT_STARTED;
      goto out;
    }
  _ws_trace_follow_child (&c, o);
  if (c.processes == 0 && !c.stopped && !c.timed_out)
    report_no_cuda (&c, argv[0]);
  _ws_trace_write_program_end (&c);
  result = c.processes > 0 && !c.timed_out && !c.stopped && WIFEXITED (c.status)
                   && WEXITSTATUS (c.status) == 0
               ? POINT_OK
               : POINT_FAILED;
out:
  if (result == POINT_INTERNAL)
    _ws_trace_write_error (c.id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL, "out of memory", NULL);
  _ws_trace_free_strv (argv);
  for (int i = 0; i < o->n_env; i++)
    free (env_values[i]);
  free (cwd);
  return result;
}

/* ---- the copy ceilings of the GPUs the program used ---------------------------------------- */

static void
measure_ceilings (void)
{
  int count = 0;
  cudaError_t err;
  char detail[256];

  if (_ws_trace.n_uuids == 0)
    return;
  if ((err = cudaGetDeviceCount (&count)) != cudaSuccess)
    {
      snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err), cudaGetErrorString (err));
      _ws_trace_write_error (0, WS_ERROR_SEVERITY_WARNING, WS_ERROR_CEILINGS_UNAVAILABLE,
                             "the copy bandwidths of the GPU could not be measured after the "
                             "program: findings about its copies go without the pinned rate",
                             detail);
      return;
    }
  for (int i = 0; i < count && !_ws_trace.stop_signal; i++)
    {
      WsRunnerDevice d;
      int used = 0;

      if (ws_device_query (i, &d) != cudaSuccess)
        continue;
      for (int u = 0; u < _ws_trace.n_uuids; u++)
        used |= strcmp (_ws_trace.uuids[u], d.uuid) == 0;
      if (!used)
        continue;
      if ((err = ws_device_calibrate (&d)) != cudaSuccess)
        {
          snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err),
                    cudaGetErrorString (err));
          _ws_trace_write_error (0, WS_ERROR_SEVERITY_WARNING, WS_ERROR_CEILINGS_UNAVAILABLE,
                                 "the copy bandwidths of the GPU could not be measured after the "
                                 "program: findings about its copies go without the pinned rate",
                                 detail);
          continue;
        }
      ws_output_device (&d);
      fflush (stdout);
    }
}

/* ---- the mode ---------------------------------------------------------------------------- */

int
ws_trace_requested (int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--trace") == 0)
      return 1;
  return 0;
}

static int
finish (int runs, int failed, int exit_code)
{
  _ws_trace_write_done (runs, failed, exit_code);
  ws_json_clear (&_ws_trace.json);
  return exit_code;
}

static int
run_points (const WsTraceOptions *o, const char *inject, int *runs, int *failed)
{
  int n = _ws_trace_n_points (o), exit_code = EXIT_OK;
  int program_varies = strchr (o->argv[0], '{') != NULL;

  for (int p = 0; p < n && !_ws_trace.stop_signal && !_ws_trace.output_failed; p++)
    {
      PointResult r = run_point (o, p, n, inject);

      (*runs)++;
      if (r == POINT_OK)
        continue;
      (*failed)++;
      if (r == POINT_INTERNAL)
        return EXIT_INTERNAL;
      if (r == POINT_NOT_STARTED && !program_varies)
        return EXIT_USAGE; /* every point would fail the same way */
      exit_code = EXIT_FAILED;
    }
  return exit_code;
}

int
ws_trace_main (int argc, char **argv)
{
  WsTraceOptions opts;
  WsArgError arg_error;
  WsDriverInfo driver;
  char inject[4096], looked[2048], message[3072];
  int ok, runs = 0, failed = 0, exit_code;

  ok = _ws_trace_parse (argc, argv, &opts, &arg_error);
  if (ok && opts.help)
    {
      fputs (_ws_trace_usage, stdout);
      _ws_trace_options_clear (&opts);
      return EXIT_OK;
    }
  ws_output_init (0);
  ws_json_init (&_ws_trace.json);
  _ws_trace.start_ns = ws_clock_ns ();
  ws_driver_probe (&driver);
  _ws_trace_write_hello (&driver, argc, argv);
  if (!ok)
    {
      _ws_trace_write_error (0, WS_ERROR_SEVERITY_ERROR, arg_error.code, arg_error.message, NULL);
      fprintf (stderr, "Run warpscope-runner --trace --help for the options.\n");
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_USAGE);
    }
  if (!driver.libcuda_found)
    {
      ws_driver_problem (&driver, message, sizeof message);
      _ws_trace_write_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_DRIVER, message, NULL);
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_NO_GPU);
    }
  if (!_ws_trace_find_inject (inject, sizeof inject, looked, sizeof looked))
    {
      snprintf (message, sizeof message,
                "libwarpscope-inject.so, which records the program, is not here (looked for "
                "%s). Build it with the runner (meson compile -C build), or name it with "
                "WARPSCOPE_INJECT",
                looked);
      _ws_trace_write_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INJECT_NOT_FOUND, message, NULL);
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_INTERNAL);
    }
  if (pipe2 (_ws_trace.sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    {
      _ws_trace_write_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                             "could not create a pipe", strerror (errno));
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_INTERNAL);
    }
  _ws_trace_install_handlers ();
  exit_code = run_points (&opts, inject, &runs, &failed);
  if (opts.ceilings && !_ws_trace.stop_signal && !_ws_trace.output_failed)
    measure_ceilings ();
  if (_ws_trace.stop_signal)
    exit_code = 128 + _ws_trace.stop_signal;
  _ws_trace_options_clear (&opts);
  return finish (runs, failed, exit_code);
}
