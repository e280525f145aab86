/* ws-cupti.c: CUPTI lifecycle and activity buffers. The buffer-completed callback runs on
 * CUPTI's thread (or inside a flush): it only decodes records into WsRunnerActivity values and
 * queues them under a lock held for the append alone; printing happens on the main thread.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cupti.h"

#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-clock.h"
#include "ws-config.h"

#define BUFFER_SIZE (8u << 20)
#define BUFFER_ALIGN 8

static struct
{
  CUptiResult (*ActivityRegisterCallbacks) (CUpti_BuffersCallbackRequestFunc,
                                            CUpti_BuffersCallbackCompleteFunc);
  CUptiResult (*ActivityEnable) (CUpti_ActivityKind);
  CUptiResult (*ActivityDisable) (CUpti_ActivityKind);
  CUptiResult (*ActivityFlushAll) (uint32_t);
  CUptiResult (*ActivityGetNextRecord) (uint8_t *, size_t, CUpti_Activity **);
  CUptiResult (*ActivityGetNumDroppedRecords) (CUcontext, uint32_t, size_t *);
  CUptiResult (*GetTimestamp) (uint64_t *);
  CUptiResult (*GetVersion) (uint32_t *);
  CUptiResult (*GetResultString) (CUptiResult, const char **);
} api;

static int available;
static int recording;
static int concurrent_kernels;
static uint32_t version;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static WsRunnerActivityList queue;
static uint64_t dropped;

static void CUPTIAPI
buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  *buffer = aligned_alloc (BUFFER_ALIGN, BUFFER_SIZE);
  *size = *buffer != NULL ? BUFFER_SIZE : 0;
  *max_records = 0;
}

static void CUPTIAPI
buffer_completed (CUcontext context, uint32_t stream, uint8_t *buffer, size_t size,
                  size_t valid)
{
  WsRunnerActivityList local = { 0 };
  CUpti_Activity *record = NULL;
  size_t lost = 0;

  (void) size;
  while (valid > 0 && api.ActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      WsRunnerActivity activity;

      if (ws_cupti_translate (record, &activity))
        {
          size_t before = local.len;

          ws_runner_activity_list_append (&local, &activity);
          if (local.len == before)
            {
              free (activity.name);
              lost++;
            }
        }
    }
  {
    size_t n = 0;

    if (api.ActivityGetNumDroppedRecords (context, stream, &n) == CUPTI_SUCCESS)
      lost += n;
  }
  free (buffer);

  pthread_mutex_lock (&queue_lock);
  for (size_t i = 0; i < local.len; i++)
    {
      size_t before = queue.len;

      ws_runner_activity_list_append (&queue, &local.items[i]);
      if (queue.len == before)
        {
          free (local.items[i].name);
          lost++;
        }
    }
  dropped += lost;
  pthread_mutex_unlock (&queue_lock);
  free (local.items);
}

static const char *
result_string (CUptiResult result)
{
  const char *s = NULL;

  if (api.GetResultString == NULL || api.GetResultString (result, &s) != CUPTI_SUCCESS
      || s == NULL)
    return "unknown CUPTI error";
  return s;
}

static void *
open_library (void)
{
  const char *override = getenv ("WARPSCOPE_LIBCUPTI");
  const char *candidates[] = { "libcupti.so." WS_CUDA_MAJOR_STRING, "libcupti.so",
                               WS_CUDA_LIBDIR "/libcupti.so." WS_CUDA_MAJOR_STRING,
                               WS_CUDA_ROOT "/extras/CUPTI/lib64/libcupti.so."
                                 WS_CUDA_MAJOR_STRING };

  if (override != NULL && *override != '\0')
    return dlopen (override, RTLD_NOW | RTLD_LOCAL);
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
    {
      void *lib = dlopen (candidates[i], RTLD_NOW | RTLD_LOCAL);

      if (lib != NULL)
        return lib;
    }
  return NULL;
}

#define LOAD(lib, field, symbol)                                                            \
  (*(void **) &api.field = dlsym (lib, symbol)) != NULL

int
ws_cupti_init (WsErrorCode *code, char *message, size_t len)
{
  void *lib = open_library ();
  CUptiResult result;

  if (lib == NULL)
    {
      *code = WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "CUPTI (libcupti.so." WS_CUDA_MAJOR_STRING ") could not be loaded, so kernels and "
                "copies are timed without tracing and the timeline stays empty. Install the "
                "CUDA toolkit's CUPTI (Debian: nvidia-cupti) or put its folder in "
                "LD_LIBRARY_PATH.");
      return 0;
    }
  if (!(LOAD (lib, ActivityRegisterCallbacks, "cuptiActivityRegisterCallbacks")
        && LOAD (lib, ActivityEnable, "cuptiActivityEnable")
        && LOAD (lib, ActivityDisable, "cuptiActivityDisable")
        && LOAD (lib, ActivityFlushAll, "cuptiActivityFlushAll")
        && LOAD (lib, ActivityGetNextRecord, "cuptiActivityGetNextRecord")
        && LOAD (lib, ActivityGetNumDroppedRecords, "cuptiActivityGetNumDroppedRecords")
        && LOAD (lib, GetTimestamp, "cuptiGetTimestamp")
        && LOAD (lib, GetVersion, "cuptiGetVersion")
        && LOAD (lib, GetResultString, "cuptiGetResultString")))
    {
      *code = WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "The CUPTI library found is missing functions Warpscope needs (it may be from "
                "an older CUDA), so kernels are timed without tracing.");
      memset (&api, 0, sizeof api);
      return 0;
    }
  api.GetVersion (&version);
  result = api.ActivityRegisterCallbacks (buffer_requested, buffer_completed);
  if (result != CUPTI_SUCCESS)
    {
      *code = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? WS_ERROR_CUPTI_IN_USE
                                                                       : WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "CUPTI refused to trace (%s); kernels are timed without tracing. %s",
                result_string (result),
                result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                  ? "Another profiler (Nsight Systems, Nsight Compute) is attached: run "
                    "Warpscope outside it to see the timeline."
                  : "");
      return 0;
    }
  available = 1;
  return 1;
}

uint32_t
ws_cupti_version (void)
{
  return version;
}

static const CUpti_ActivityKind traced_kinds[] = {
  CUPTI_ACTIVITY_KIND_MEMCPY,          CUPTI_ACTIVITY_KIND_MEMSET,
  CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_OVERHEAD,
};

int
ws_cupti_start (int concurrent, WsErrorCode *code, char *message, size_t len)
{
  CUptiResult result = CUPTI_SUCCESS;
  CUpti_ActivityKind kernel_kind
    = concurrent ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL : CUPTI_ACTIVITY_KIND_KERNEL;

  if (!available)
    return 0;
  if (recording)
    return 1;
  for (size_t i = 0; i < sizeof traced_kinds / sizeof traced_kinds[0]; i++)
    if ((result = api.ActivityEnable (traced_kinds[i])) != CUPTI_SUCCESS)
      break;
  if (result == CUPTI_SUCCESS)
    result = api.ActivityEnable (kernel_kind);
  if (result != CUPTI_SUCCESS)
    {
      for (size_t i = 0; i < sizeof traced_kinds / sizeof traced_kinds[0]; i++)
        api.ActivityDisable (traced_kinds[i]);
      *code = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? WS_ERROR_CUPTI_IN_USE
                                                                       : WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "CUPTI could not start tracing (%s); this run is timed without tracing. %s",
                result_string (result),
                result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                  ? "Another profiler is attached: run Warpscope outside it."
                  : "");
      available = 0;
      return 0;
    }
  concurrent_kernels = concurrent;
  recording = 1;
  return 1;
}

void
ws_cupti_stop (void)
{
  if (!recording)
    return;
  for (size_t i = 0; i < sizeof traced_kinds / sizeof traced_kinds[0]; i++)
    api.ActivityDisable (traced_kinds[i]);
  api.ActivityDisable (concurrent_kernels ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                          : CUPTI_ACTIVITY_KIND_KERNEL);
  recording = 0;
  api.ActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void
ws_cupti_take (WsRunnerActivityList *out)
{
  WsRunnerActivityList taken;

  pthread_mutex_lock (&queue_lock);
  taken = queue;
  memset (&queue, 0, sizeof queue);
  pthread_mutex_unlock (&queue_lock);

  if (out->len == 0 && out->items == NULL)
    *out = taken;
  else
    {
      for (size_t i = 0; i < taken.len; i++)
        ws_runner_activity_list_append (out, &taken.items[i]);
      free (taken.items);
    }
}

uint64_t
ws_cupti_dropped (void)
{
  uint64_t n;

  pthread_mutex_lock (&queue_lock);
  n = dropped;
  pthread_mutex_unlock (&queue_lock);
  return n;
}

uint64_t
ws_cupti_timestamp (void)
{
  uint64_t t;

  if (api.GetTimestamp != NULL && api.GetTimestamp (&t) == CUPTI_SUCCESS)
    return t;
  return ws_clock_ns ();
}

void
ws_cupti_shutdown (void)
{
  if (!available)
    return;
  ws_cupti_stop ();
  api.ActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
