/* ws-inject.c: libwarpscope-inject's entry points. The CUDA driver calls InitializeInjection
 * at cuInit when CUDA_INJECTION64_PATH names this library; NVTX calls
 * InitializeInjectionNvtx2 at the program's first NVTX call when NVTX_INJECTION64_PATH names
 * it, and that is handed to CUPTI as if NVTX had loaded CUPTI itself. Neither ever makes the
 * program fail: when tracing cannot start, the program runs untraced and the trace says why.
 *
 * Environment: WARPSCOPE_TRACE_FILE (a file, appended to), WARPSCOPE_TRACE_SOCKET (a Unix
 * socket to connect to, whatever descriptors the process kept) or WARPSCOPE_TRACE_FD (an
 * inherited descriptor, optionally checked against WARPSCOPE_TRACE_FD_INODE="DEV:INO"); and
 * WARPSCOPE_TRACE_API (launch, all, none), WARPSCOPE_TRACE_FLUSH_MS, WARPSCOPE_TRACE_BUFFER_MB,
 * WARPSCOPE_TRACE_SIGNALS=0, WARPSCOPE_TRACE_NVTX=0, WARPSCOPE_LIBCUPTI, WARPSCOPE_LIBCUDA,
 * WARPSCOPE_INJECT_TIMING=1 (docs/protocol.md, "Traced programs").
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-clock.h"

WsInjectState _ws_state;

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;
static atomic_int exit_handlers;

static long
env_long (const char *name, long fallback, long min, long max)
{
  const char *s = getenv (name);
  char *end = NULL;
  long v;

  if (s == NULL || *s == '\0')
    return fallback;
  v = strtol (s, &end, 10);
  if (end == s || *end != '\0' || v < min || v > max)
    {
      fprintf (stderr, "warpscope-inject: %s=%s is not a number from %ld to %ld; using %ld\n",
               name, s, min, max, fallback);
      return fallback;
    }
  return v;
}

static void
read_settings (void)
{
  const char *api = getenv ("WARPSCOPE_TRACE_API");

  _ws_state.api_mode = WS_API_LAUNCH;
  if (api != NULL && strcmp (api, "all") == 0)
    _ws_state.api_mode = WS_API_ALL;
  else if (api != NULL && strcmp (api, "none") == 0)
    _ws_state.api_mode = WS_API_NONE;
  else if (api != NULL && *api != '\0' && strcmp (api, "launch") != 0)
    fprintf (stderr, "warpscope-inject: WARPSCOPE_TRACE_API=%s is not launch, all or none; "
             "using launch\n", api);
  _ws_state.flush_ms = (int) env_long ("WARPSCOPE_TRACE_FLUSH_MS", 500, 0, 600000);
  /* A buffer holds about 3,000 launches' records at 1 MB: full buffers reach the writer while
     the program runs, and what is left for the exit handler to write is at most a buffer per
     thread. A buffer costs only the pages its records fill (_ws_buffer_new), so a larger one
     saves nothing but the turnover, a few µs a buffer. */
  _ws_state.buffer_bytes = (size_t) env_long ("WARPSCOPE_TRACE_BUFFER_MB", 1, 1, 1024) << 20;
}

static void
exit_handler (int status, void *data)
{
  (void) data;
  _ws_finish_exit (status);
}

/* Exit handlers run last registered first: registered again once CUDA is initialized and
 * when its first context exists, ours runs before whatever the driver registered meanwhile,
 * while CUPTI can still flush. It runs once; later calls find the trace closed. */
void
_ws_register_exit (void)
{
  if (atomic_fetch_add (&exit_handlers, 1) < 3)
    on_exit (exit_handler, NULL);
}

static void
atfork_child (void)
{
  _ws_output_forked_child ();
}

static void
start (void)
{
  char message[2048], note[2048];
  WsErrorCode code = WS_ERROR_CUPTI_UNAVAILABLE;
  int have_cupti;
  uint64_t t0;

  _ws_state.pid = getpid ();
  _ws_state.start_ns = ws_clock_ns ();
  read_settings ();
  if (!_ws_output_open (message, sizeof message, note, sizeof note))
    {
      fprintf (stderr, "warpscope-inject: %s\n", message);
      return;
    }
  t0 = _ws_timing_now ();
  have_cupti = _ws_cupti_load (message, sizeof message);
  _ws_timing_add (WS_TIME_LOAD, t0);
  _ws_state.origin = ws_cupti_api_timestamp ();
  _ws_state.origin_monotonic = ws_clock_ns ();
  _ws_output_hello ();
  if (note[0] != '\0')
    _ws_output_error (WS_ERROR_SEVERITY_WARNING, WS_ERROR_TRACE_UNREACHABLE, note);
  /* How the program ends is worth its closing record even when nothing can be traced. */
  _ws_register_exit ();
  pthread_atfork (_ws_output_atfork_prepare, _ws_output_atfork_parent, atfork_child);
  if (env_long ("WARPSCOPE_TRACE_SIGNALS", 1, 0, 1))
    _ws_signals_install ();
  if (!have_cupti)
    {
      _ws_output_error (WS_ERROR_SEVERITY_ERROR, WS_ERROR_CUPTI_UNAVAILABLE, message);
      return;
    }
  if (_ws_driver_version () <= 0)
    {
      _ws_output_error (WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_DRIVER,
                        "The NVIDIA driver library (libcuda.so.1) is not in this process, so "
                        "nothing is traced: the library is meant to be loaded by the driver, "
                        "through CUDA_INJECTION64_PATH.");
      return;
    }
  if (!_ws_cupti_start (&code, message, sizeof message))
    {
      _ws_output_error (WS_ERROR_SEVERITY_ERROR, code, message);
      return;
    }
  _ws_names_init ();
  if (!_ws_writer_start ())
    _ws_output_error (WS_ERROR_SEVERITY_WARNING, WS_ERROR_INTERNAL,
                      "The trace's writer thread could not start: records are kept in memory "
                      "and written when the program exits.");
}

WS_EXPORT int InitializeInjection (void);

WS_EXPORT int
InitializeInjection (void)
{
  int first;
  const char *timing = getenv ("WARPSCOPE_INJECT_TIMING");
  uint64_t t0;

  pthread_mutex_lock (&start_lock);
  first = !started;
  started = 1;
  pthread_mutex_unlock (&start_lock);
  /* Outside the lock: should starting CUPTI come back here, it finds us started. */
  if (first)
    {
      _ws_timing = timing != NULL && strcmp (timing, "1") == 0;
      t0 = _ws_timing_now ();
      start ();
      _ws_timing_add (WS_TIME_INIT, t0);
    }
  return 1; /* 0 could make the driver fail cuInit: the program must run traced or not */
}

typedef const void *(*WsNvtxGetExportTable) (uint32_t);

WS_EXPORT int InitializeInjectionNvtx2 (WsNvtxGetExportTable get_export_table);

WS_EXPORT int
InitializeInjectionNvtx2 (WsNvtxGetExportTable get_export_table)
{
  const char *nvtx = getenv ("WARPSCOPE_TRACE_NVTX");

  if (nvtx != NULL && strcmp (nvtx, "0") == 0)
    return 0; /* NVTX stays a no-op */
  if (!_ws_cupti_load (NULL, 0) || ws_cupti_api.InitializeInjectionNvtx2 == NULL)
    return 0;
  return ws_cupti_api.InitializeInjectionNvtx2 (get_export_table);
}
