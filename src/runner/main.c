/* main.c: warpscope-runner, the one Warpscope process that touches the GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cuda_runtime_api.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ws-args.h"
#include "ws-clock.h"
#include "ws-config.h"
#include "ws-cupti.h"
#include "ws-runner-device.h"
#include "ws-diagnose.h"
#include "ws-runner-memcheck.h"
#include "ws-output.h"
#include "ws-own-kernel.h"
#include "ws-runner.h"
#include "ws-selftest.h"
#include "ws-runner-trace.h"
#include "ws-shard.h"

enum
{
  EXIT_OK = 0,
  EXIT_RUN_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_NO_GPU = 3,
  EXIT_FAULT = 4,
  EXIT_INTERNAL = 5,
};

static int
finish (int runs, int failed, int exit_code)
{
  ws_cupti_shutdown ();
  ws_output_done (runs, failed, ws_cupti_dropped (), exit_code);
  fflush (stdout);
  return exit_code;
}

static int
fail_environment (WsErrorCode code, const char *message, const char *detail)
{
  ws_output_error (0, WS_ERROR_SEVERITY_ERROR, code, message, detail);
  return finish (0, 0, EXIT_NO_GPU);
}

/* Driver present and new enough, at least one device: 0, or the exit code after reporting. */
static int
check_environment (const WsDriverInfo *driver, int *count)
{
  char message[768], detail[256];
  WsErrorCode code = ws_driver_problem (driver, message, sizeof message);
  cudaError_t err;

  if (code != WS_ERROR_NONE)
    return fail_environment (code, message, NULL);
  err = cudaGetDeviceCount (count);
  if (err != cudaSuccess || *count == 0)
    {
      if (err == cudaSuccess)
        err = cudaErrorNoDevice;
      snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err), cudaGetErrorString (err));
      code = ws_device_problem (err, driver, message, sizeof message);
      return fail_environment (code, message, detail);
    }
  return 0;
}

static int
open_device (int index, WsRunnerDevice *device, const WsDriverInfo *driver, int calibrate)
{
  char message[768], detail[256];
  cudaError_t err = ws_device_query (index, device);

  if (err == cudaSuccess)
    {
      err = ws_device_check_image ();
      if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
        {
          snprintf (message, sizeof message,
                    "This build of Warpscope has no machine code for the %s (sm_%d%d): it was "
                    "compiled for sm_%s (and PTX of the newest). Rebuild it for this GPU: "
                    "meson configure build -Dgpu_archs=%d%d && meson compile -C build",
                    device->name, device->cc_major, device->cc_minor, WS_CUDA_ARCHS,
                    device->cc_major, device->cc_minor);
          for (char *p = message; *p; p++)
            if (*p == ',' && p[1] != ' ')
              *p = '/';
          snprintf (detail, sizeof detail, "%s", cudaGetErrorName (err));
          ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_KERNEL_IMAGE, message, detail);
          return 0;
        }
    }
  if (err == cudaSuccess && calibrate)
    err = ws_device_calibrate (device);
  if (err != cudaSuccess)
    {
      WsErrorCode code = ws_device_problem (err, driver, message, sizeof message);

      snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err), cudaGetErrorString (err));
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, code, message, detail);
      return 0;
    }
  return 1;
}

/* Expands the options into configurations, in order: kernel, transfer, size, block. A
 * kernel with a fixed block runs once per size, whatever --blocks lists. */
static WsRunSpec *
plan_runs (const WsOptions *o, uint64_t seed, int *n_out)
{
  int n_sizes = o->n_sizes ? o->n_sizes : 1, n_blocks = o->n_blocks ? o->n_blocks : 1;
  int total = o->n_kernels * o->n_transfers * n_sizes * n_blocks, n = 0;
  WsRunSpec *specs = calloc ((size_t) total, sizeof *specs);

  if (specs == NULL)
    return NULL;
  for (int k = 0; k < o->n_kernels; k++)
    for (int t = 0; t < o->n_transfers; t++)
      for (int si = 0; si < n_sizes; si++)
        for (int b = 0; b < (o->kernels[k]->block_fixed ? 1 : n_blocks); b++)
          {
            const WsKernelDesc *kernel = o->kernels[k];
            WsRunSpec *s = &specs[n++];

            s->id = n;
            s->kernel = kernel;
            if (o->n_sizes)
              {
                ws_size_shape (&o->sizes[si], kernel, s->shape);
                snprintf (s->size_text, sizeof s->size_text, "%s", o->sizes[si].text);
              }
            else
              {
                memcpy (s->shape, kernel->default_shape, sizeof s->shape);
                ws_shape_text (kernel, s->shape, s->size_text, sizeof s->size_text);
              }
            if (o->n_blocks && !kernel->block_fixed)
              memcpy (s->block, o->blocks[b].dims, sizeof s->block);
            else
              memcpy (s->block, kernel->default_block, sizeof s->block);
            kernel->grid_for (s->shape, s->block, s->grid);
            s->transfer = o->transfers[t].kind;
            s->streams = o->transfers[t].streams;
            s->reps = o->reps;
            s->warmup = o->warmup;
            s->seed = seed + (uint64_t) n;
            s->cache_cold = o->cache_cold;
          }
  *n_out = n;
  return specs;
}

/* 1 when --device names a GPU that is there; otherwise reports it and returns 0. */
static int
device_exists (const WsOptions *o, int count)
{
  char message[256];

  if (o->device < count)
    return 1;
  snprintf (message, sizeof message,
            "--device %d: there %s only %d GPU%s here (0 to %d); run --device-info without "
            "--device to see them all",
            o->device, count == 1 ? "is" : "are", count, count == 1 ? "" : "s", count - 1);
  ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INVALID_DEVICE, message, NULL);
  return 0;
}

static int
run_mode (const WsOptions *o, const WsDriverInfo *driver, int tracing)
{
  WsRunnerDevice device;
  WsRunSpec *specs;
  WsRunner *runner;
  int count = 0, n = 0, failed = 0, done = 0, rc, tail_failures = 0;
  uint64_t seed = o->seed ? o->seed : (uint64_t) time (NULL) ^ ws_clock_ns ();

  /* A share of a sweep with fewer configurations than runners may be empty: nothing to run,
   * no GPU to wake. */
  if (o->shard_count > 0 && o->mode == WS_MODE_RUN && ws_shard_share (o) == 0)
    return finish (0, 0, EXIT_OK);
  if ((rc = check_environment (driver, &count)) != 0)
    return rc;
  if (!device_exists (o, count))
    return finish (0, 0, EXIT_USAGE);
  /* WARPSCOPE_CALIBRATE=0 leaves the bandwidths unmeasured: --memcheck's checked run, whose
   * copies under compute-sanitizer would take long and mean nothing. */
  if (!open_device (o->device, &device, driver,
                    getenv ("WARPSCOPE_CALIBRATE") == NULL
                      || strcmp (getenv ("WARPSCOPE_CALIBRATE"), "0") != 0))
    return finish (0, 0, EXIT_NO_GPU);
  ws_output_device (&device);

  if (o->mode == WS_MODE_SELF_TEST)
    specs = ws_selftest_plan (o, seed, &n);
  else if (o->source != NULL)
    {
      /* An own kernel: its records, its configurations, its variants compiled and loaded. */
      if ((specs = ws_own_plan (o, &device, seed, &n, &rc)) == NULL)
        return finish (0, 0, rc);
    }
  else
    specs = plan_runs (o, seed, &n);
  if (specs != NULL && o->shard_count > 0)
    n = ws_shard_keep (specs, n, sizeof *specs, o);
  /* The catalog entries of the kernels in this session, so that a recording carries their
   * titles and formulas. */
  for (size_t c = 0; specs != NULL && c < ws_catalog_size (); c++)
    for (int i = 0; i < n; i++)
      if (specs[i].kernel == ws_catalog_get (c))
        {
          ws_output_kernel (specs[i].kernel);
          break;
        }
  runner = specs ? ws_runner_new (o, &device, tracing) : NULL;
  if (runner == NULL)
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                       "Out of memory while planning the runs.", NULL);
      free (specs);
      return finish (0, 0, EXIT_INTERNAL);
    }
  /* Every configuration is checked against the device before the first one runs. */
  for (int i = 0; i < n; i++)
    {
      WsErrorCode code;
      char message[640];

      if (!ws_runner_check (runner, &specs[i], &code, message, sizeof message))
        {
          ws_output_error (0, WS_ERROR_SEVERITY_ERROR, code, message, NULL);
          ws_runner_free (runner);
          free (specs);
          return finish (0, 0, EXIT_USAGE);
        }
    }
  if (o->mode == WS_MODE_SELF_TEST)
    {
      int fault;

      tail_failures = ws_selftest_tails (&fault);
      if (fault)
        {
          free (specs);
          return finish (0, 1, EXIT_FAULT);
        }
    }
  /* A share says its size at once: the runner merging the shares counts them all. */
  if (o->shard_count > 0)
    ws_output_progress (0, n);
  for (int i = 0; i < n; i++)
    {
      WsRunStatus status = ws_runner_run (runner, &specs[i]);

      done++;
      if (status == WS_RUN_FAULT)
        {
          free (specs);
          /* The context is gone: release nothing on the GPU, just flush and leave. */
          return finish (done, failed + 1, EXIT_FAULT);
        }
      if (status != WS_RUN_OK)
        failed++;
      if (n > 1 || o->shard_count > 0)
        ws_output_progress (done, n);
    }
  if (o->mode == WS_MODE_SELF_TEST)
    fprintf (stderr,
             "warpscope-runner: self-test: %d runs, %d passed, %d failed; %d small cases of "
             "the 1D kernels failed\n",
             n, n - failed, failed, tail_failures);
  ws_runner_free (runner);
  free (specs);
  return finish (done, failed, failed || tail_failures ? EXIT_RUN_FAILED : EXIT_OK);
}

static int
device_info_mode (const WsOptions *o, const WsDriverInfo *driver)
{
  int count = 0, rc, problems = 0;

  if ((rc = check_environment (driver, &count)) != 0)
    return rc;
  if (o->device_given && !device_exists (o, count))
    return finish (0, 0, EXIT_USAGE);
  for (int i = o->device_given ? o->device : 0; i < (o->device_given ? o->device + 1 : count);
       i++)
    {
      WsRunnerDevice device;

      if (open_device (i, &device, driver, 1))
        ws_output_device (&device);
      else
        problems++;
    }
  return finish (0, 0, problems ? EXIT_NO_GPU : EXIT_OK);
}

int
main (int argc, char **argv)
{
  WsOptions opts;
  WsArgError arg_error;
  WsDriverInfo driver;
  int ok, tracing = 0, rc;
  WsErrorCode cupti_code = WS_ERROR_NONE;
  char cupti_message[512] = "";

  /* --trace runs a program of the user's instead of kernels (ws-runner-trace.c). */
  if (ws_trace_requested (argc, argv))
    return ws_trace_main (argc, argv);
  ok = ws_args_parse (argc, argv, &opts, &arg_error);
  if (ok && opts.mode == WS_MODE_HELP)
    {
      fputs (ws_args_usage, stdout);
      return EXIT_OK;
    }
  if (ok && opts.mode == WS_MODE_VERSION)
    {
      printf ("warpscope-runner %s (CUDA archs %s)\n", WS_VERSION, WS_CUDA_ARCHS);
      return EXIT_OK;
    }
  if (ok && opts.mode == WS_MODE_SELF_TEST)
    ws_selftest_options (&opts);
  ws_output_init (ok && opts.summary);
  ws_driver_probe (&driver);
  if (ok && !opts.check
      && (opts.mode == WS_MODE_RUN || opts.mode == WS_MODE_SELF_TEST
          || opts.mode == WS_MODE_DEVICE_INFO)
      && opts.memcheck == NULL
      && driver.libcuda_found && (opts.trace || opts.mode == WS_MODE_DEVICE_INFO))
    tracing = ws_cupti_init (&cupti_code, cupti_message, sizeof cupti_message);
  ws_output_set_origin (ws_cupti_api_timestamp ());
  ws_output_hello (&driver, ws_cupti_api_version (), argc, argv);

  if (!ok)
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, arg_error.code, arg_error.message, NULL);
      if (opts.summary || isatty (fileno (stderr)))
        fprintf (stderr, "Run warpscope-runner --help for the options.\n");
      return finish (0, 0, EXIT_USAGE);
    }
  /* An own kernel's header is read and checked before anything else, with or without a GPU. */
  if (opts.source != NULL && opts.mode == WS_MODE_RUN && (rc = ws_own_load (&opts)) != 0)
    return finish (0, 0, rc);
  /* Host memory is not checked here: --check runs where the app runs, and the runner may run
   * on another machine (a target behind ssh). */
  if (opts.check)
    return finish (0, 0, EXIT_OK);
  if (cupti_code != WS_ERROR_NONE && opts.trace)
    ws_output_error (0, WS_ERROR_SEVERITY_WARNING, cupti_code, cupti_message, NULL);

  switch (opts.mode)
    {
    case WS_MODE_LIST:
      for (size_t i = 0; i < ws_catalog_size (); i++)
        if (!ws_catalog_get (i)->hidden)
          ws_output_kernel (ws_catalog_get (i));
      return finish (0, 0, EXIT_OK);
    case WS_MODE_DEVICE_INFO:
      return device_info_mode (&opts, &driver);
    case WS_MODE_CHECK_SOURCE:
      return finish (0, 0, ws_own_check_source (&opts, &driver));
    case WS_MODE_RUN:
      if (opts.memcheck != NULL)
        return finish (0, 0, ws_runner_memcheck_run (&opts, argv[0]));
      rc = run_mode (&opts, &driver, tracing && opts.trace);
      ws_own_free ();
      return rc;
    case WS_MODE_SELF_TEST:
      return run_mode (&opts, &driver, tracing && opts.trace);
    default:
      return finish (0, 0, EXIT_INTERNAL);
    }
}
