/* ws-untraced.c: the timing phases with tracing off: the cross-check of the kernel time
 * (back-to-back launches between one event pair, or with --cache cold one event pair around
 * each launch), end-to-end sequences, and the copies when CUPTI is missing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-clock.h"
#include "ws-runner-private.h"

/* Without CUPTI the copies are timed with one event pair each (they last milliseconds),
 * whole and on one stream whatever the transfer mode. */
WsRunStatus
_ws_untraced_copies (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t)
{
  int reps = s->reps, out = s->kernel->n_inputs;
  double *h2d = calloc ((size_t) reps, sizeof (double)), *d2h = calloc ((size_t) reps, sizeof (double));
  cudaStream_t stream = r->streams[0];
  WsRunStatus status = WS_RUN_OK;
  float ms;

  for (int rep = 0; rep < reps && h2d && d2h; rep++)
    {
      cudaEventRecord (r->start, stream);
      WS_TRY (_ws_copy_in (r, s), "copying the inputs");
      cudaEventRecord (r->stop, stream);
      WS_TRY (cudaEventSynchronize (r->stop), "copying the inputs");
      cudaEventElapsedTime (&ms, r->start, r->stop);
      h2d[rep] = ms * 1e6;
      cudaEventRecord (r->start, stream);
      WS_TRY (cudaMemcpyAsync (r->host[out], r->dev[out], r->elems[out] * sizeof (float),
                               cudaMemcpyDeviceToHost, stream),
              "copying the output");
      cudaEventRecord (r->stop, stream);
      WS_TRY (cudaEventSynchronize (r->stop), "copying the output");
      cudaEventElapsedTime (&ms, r->start, r->stop);
      d2h[rep] = ms * 1e6;
    }
  if (h2d && d2h)
    {
      t->h2d = _ws_stats_of (h2d, reps);
      t->d2h = _ws_stats_of (d2h, reps);
    }
  free (h2d);
  free (d2h);
  return status;
}

/* `launches` kernels captured into one graph, replayed once between an event pair. Returns 0
 * when graphs cannot be used here, so the caller falls back to stream launches. */
static int
graph_batch (WsRunner *r, const WsRunSpec *s, int launches, float *ms)
{
  cudaStream_t stream = r->streams[0];
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int ok = 0;

  if (cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    goto out;
  for (int i = 0; i < launches; i++)
    if (_ws_launch (r, s) != cudaSuccess)
      break;
  if (cudaStreamEndCapture (stream, &graph) != cudaSuccess || graph == NULL)
    goto out;
  if (cudaGraphInstantiate (&exec, graph, 0) != cudaSuccess)
    goto out;
  /* The first replay uploads the graph; the second is timed. */
  if (cudaGraphLaunch (exec, stream) != cudaSuccess
      || cudaStreamSynchronize (stream) != cudaSuccess)
    goto out;
  ok = cudaEventRecord (r->start, stream) == cudaSuccess
       && cudaGraphLaunch (exec, stream) == cudaSuccess
       && cudaEventRecord (r->stop, stream) == cudaSuccess
       && cudaEventSynchronize (r->stop) == cudaSuccess
       && cudaEventElapsedTime (ms, r->start, r->stop) == cudaSuccess;
out:
  if (exec != NULL)
    cudaGraphExecDestroy (exec);
  if (graph != NULL)
    cudaGraphDestroy (graph);
  if (!ok)
    cudaGetLastError ();
  return ok;
}

/* `launches` kernels queued behind ws_hold_stream, between an event pair. The hold lasts
 * longer than the host takes to submit them (checked: the start event must still be pending
 * when the last launch is queued; if not, once more with a longer hold), so the kernels run
 * back to back without waiting for the host, as in an application that queues its work. */
static cudaError_t
held_batch (WsRunner *r, const WsRunSpec *s, int launches, float *ms)
{
  cudaStream_t stream = r->streams[0];
  double hold_ns = 100e3 + 4e3 * launches;
  cudaError_t err = cudaSuccess;

  for (int attempt = 0; attempt < 3 && err == cudaSuccess; attempt++)
    {
      uint64_t begin = ws_clock_ns ();
      double submitted;
      cudaError_t pending;

      err = ws_hold_stream (stream, hold_ns);
      if (err == cudaSuccess)
        err = cudaEventRecord (r->start, stream);
      for (int i = 0; i < launches && err == cudaSuccess; i++)
        err = _ws_launch (r, s);
      if (err == cudaSuccess)
        err = cudaEventRecord (r->stop, stream);
      if (err != cudaSuccess)
        break;
      pending = cudaEventQuery (r->start);
      submitted = (double) (ws_clock_ns () - begin);
      err = cudaEventSynchronize (r->stop);
      if (err == cudaSuccess)
        err = cudaEventElapsedTime (ms, r->start, r->stop);
      if (err != cudaSuccess || pending == cudaErrorNotReady)
        break;
      if (pending != cudaSuccess)
        {
          err = pending;
          break;
        }
      /* The GPU caught up with the host: hold it for twice as long as submitting took. */
      hold_ns = fmin (2 * submitted + 100e3, 500e6);
    }
  return err;
}

/* Back-to-back launches between one event pair, the way WARPSCOPE_CROSS_CHECK asks (for
 * benchmarks that compare them): "held", the default, queues the launches behind a kernel
 * that keeps the GPU busy until all of them are submitted, so they run back to back as fast
 * as the GPU starts them; "stream" launches straight from the host; "graph" replays them
 * captured in a CUDA graph. Returns the way used. */
static const char *
warm_batch (WsRunner *r, const WsRunSpec *s, int launches, float *ms, cudaError_t *err)
{
  const char *method = getenv ("WARPSCOPE_CROSS_CHECK");
  cudaStream_t stream = r->streams[0];

  *err = cudaSuccess;
  if (method != NULL && strcmp (method, "graph") == 0 && graph_batch (r, s, launches, ms))
    return "graph";
  if (method != NULL && strcmp (method, "stream") == 0)
    {
      *err = cudaEventRecord (r->start, stream);
      for (int i = 0; i < launches && *err == cudaSuccess; i++)
        *err = _ws_launch (r, s);
      if (*err == cudaSuccess)
        *err = cudaEventRecord (r->stop, stream);
      if (*err == cudaSuccess)
        *err = cudaEventSynchronize (r->stop);
      if (*err == cudaSuccess)
        *err = cudaEventElapsedTime (ms, r->start, r->stop);
      return "stream";
    }
  *err = held_batch (r, s, launches, ms);
  return "held";
}

/* --cache cold: `launches` pairs of (flush, kernel), each kernel between an event pair of
 * its own, queued behind a hold so that the host's submissions leave no gaps; the figure is
 * the median of the pairs. A flush between launches means that no two kernels run back to
 * back, so one event pair around many launches would time the flushes too; subtracting the
 * flushes timed on their own does not work either, as a flush after a kernel also writes
 * back the kernel's dirty lines. An event pair per launch adds the GPU's own start-up of the
 * kernel (about a microsecond on an H200), which matters only for the shortest kernels; the
 * CUPTI durations, which the kernel time is, do not include it. */
static cudaError_t
cold_batch (WsRunner *r, const WsRunSpec *s, int launches, double *median_ns)
{
  cudaStream_t stream = r->streams[0];
  double times[WS_COLD_LAUNCHES];
  cudaError_t err = cudaSuccess;

  if (launches > WS_COLD_LAUNCHES)
    launches = WS_COLD_LAUNCHES;
  if (r->cold_events == NULL)
    {
      r->cold_events = calloc (2 * WS_COLD_LAUNCHES, sizeof *r->cold_events);
      if (r->cold_events == NULL)
        return cudaErrorMemoryAllocation;
    }
  while (r->n_cold_events < 2 * launches)
    {
      if ((err = cudaEventCreate (&r->cold_events[r->n_cold_events])) != cudaSuccess)
        return err;
      r->n_cold_events++;
    }
  /* Longer than the host takes to queue a pair (a flush, two events, a launch). */
  err = ws_hold_stream (stream, 100e3 + 50e3 * launches);
  for (int i = 0; i < launches && err == cudaSuccess; i++)
    {
      err = _ws_flush (r);
      if (err == cudaSuccess)
        err = cudaEventRecord (r->cold_events[2 * i], stream);
      if (err == cudaSuccess)
        err = _ws_launch (r, s);
      if (err == cudaSuccess)
        err = cudaEventRecord (r->cold_events[2 * i + 1], stream);
    }
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (stream);
  for (int i = 0; i < launches && err == cudaSuccess; i++)
    {
      float ms = 0;

      err = cudaEventElapsedTime (&ms, r->cold_events[2 * i], r->cold_events[2 * i + 1]);
      times[i] = (double) ms * 1e6;
    }
  if (err == cudaSuccess)
    *median_ns = _ws_stats_of (times, launches).median;
  return err;
}

WsRunStatus
_ws_untraced_phases (WsRunner *r, const WsRunSpec *s, WsRunnerTiming *t)
{
  int reps = s->reps, launches = reps;
  double *e2e = calloc ((size_t) reps, sizeof (double));
  cudaStream_t stream = r->streams[0];
  cudaError_t err;
  float ms = 0;

  if (e2e == NULL)
    return _ws_run_failure (s, cudaErrorMemoryAllocation, "keeping timing records");
  /* Back-to-back launches between one event pair: the launch gaps overlap the kernels, and
   * enough of them (about 2 ms in all) that the events' own cost is spread thin. */
  if (t->kernel.n > 0 && t->kernel.median > 0)
    {
      double wanted = ceil (2e6 / t->kernel.median);

      launches = wanted > 100000 ? 100000 : wanted > reps ? (int) wanted : reps;
    }
  if (launches > 20000)
    launches = 20000;
  if (s->cache_cold)
    {
      double median = 0;

      launches = launches < WS_COLD_LAUNCHES ? launches : WS_COLD_LAUNCHES;
      t->untraced_method = "events";
      WS_TRY (cold_batch (r, s, launches, &median), "running the kernel after L2 flushes");
      t->kernel_untraced_ns = median;
    }
  else
    {
      float batch_ms = 0;

      t->untraced_method = warm_batch (r, s, launches, &batch_ms, &err);
      WS_TRY (err, "running the kernel back to back");
      t->kernel_untraced_ns = (double) batch_ms * 1e6 / launches;
    }
  t->untraced_launches = launches;

  /* The whole sequence between one event pair on streams[0], which every piece of a
   * streams:K sequence waits for and which waits for all of them. */
  for (int rep = 0; rep < reps; rep++)
    {
      WS_TRY (cudaEventRecord (r->start, stream), "recording an event");
      WS_TRY (_ws_sequence_issue (r, s, 0), "running end to end");
      WS_TRY (cudaEventRecord (r->stop, stream), "recording an event");
      WS_TRY (cudaEventSynchronize (r->stop), "running end to end");
      WS_TRY (cudaEventElapsedTime (&ms, r->start, r->stop), "reading events");
      e2e[rep] = (double) ms * 1e6;
    }
  t->e2e = _ws_stats_of (e2e, reps);
  free (e2e);
  return WS_RUN_OK;
}

