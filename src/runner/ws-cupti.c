/* ws-cupti.c: CUPTI lifecycle and activity buffers. The buffer-completed callback runs on
 * CUPTI's thread (or inside a flush): it only decodes records into WsRunnerActivity values and
 * queues them under a lock held for the append alone; printing happens on the main thread.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cupti.h"

#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-cupti-api.h"
#include "ws-cupti-translate.h"

#define BUFFER_SIZE (8u << 20)
#define BUFFER_ALIGN 8

static int available;
static int recording;
static int concurrent_kernels;

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
  while (valid > 0
         && ws_cupti_api.ActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      WsCuptiRecord translated;

      if (ws_cupti_translate (record, &translated))
        {
          WsRunnerActivity activity = translated.activity;
          size_t before = local.len;

          /* The activity keeps a name of its own: CUPTI's is CUPTI's. */
          activity.name = translated.name != NULL ? strdup (translated.name) : NULL;
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

    if (ws_cupti_api.ActivityGetNumDroppedRecords (context, stream, &n) == CUPTI_SUCCESS)
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

int
ws_cupti_init (WsErrorCode *code, char *message, size_t len)
{
  char what[320];
  CUptiResult result;

  switch (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY, what, sizeof what))
    {
    case WS_CUPTI_LOADED:
      break;
    case WS_CUPTI_NO_LIBRARY:
      *code = WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "CUPTI (%s) could not be loaded, so kernels and copies are timed without "
                "tracing and the timeline stays empty. Install the CUDA toolkit's CUPTI "
                "(Debian: nvidia-cupti) or put its folder in LD_LIBRARY_PATH.",
                what);
      return 0;
    case WS_CUPTI_NO_FUNCTION:
      *code = WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "The CUPTI library found is missing a function Warpscope needs (%s; it may be "
                "from an older CUDA), so kernels are timed without tracing.",
                what);
      return 0;
    }
  result = ws_cupti_api.ActivityRegisterCallbacks (buffer_requested, buffer_completed);
  if (result != CUPTI_SUCCESS)
    {
      *code = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? WS_ERROR_CUPTI_IN_USE
                                                                       : WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "CUPTI refused to trace (%s); kernels are timed without tracing. %s",
                ws_cupti_api_result_string (result),
                result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                  ? "Another profiler (Nsight Systems, Nsight Compute) is attached: run "
                    "Warpscope outside it to see the timeline."
                  : "");
      return 0;
    }
  available = 1;
  return 1;
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
    if ((result = ws_cupti_api.ActivityEnable (traced_kinds[i])) != CUPTI_SUCCESS)
      break;
  if (result == CUPTI_SUCCESS)
    result = ws_cupti_api.ActivityEnable (kernel_kind);
  if (result != CUPTI_SUCCESS)
    {
      for (size_t i = 0; i < sizeof traced_kinds / sizeof traced_kinds[0]; i++)
        ws_cupti_api.ActivityDisable (traced_kinds[i]);
      *code = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? WS_ERROR_CUPTI_IN_USE
                                                                       : WS_ERROR_CUPTI_UNAVAILABLE;
      snprintf (message, len,
                "CUPTI could not start tracing (%s); this run is timed without tracing. %s",
                ws_cupti_api_result_string (result),
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
    ws_cupti_api.ActivityDisable (traced_kinds[i]);
  ws_cupti_api.ActivityDisable (concurrent_kernels ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                          : CUPTI_ACTIVITY_KIND_KERNEL);
  recording = 0;
  ws_cupti_api.ActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
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

void
ws_cupti_shutdown (void)
{
  if (!available)
    return;
  ws_cupti_stop ();
  ws_cupti_api.ActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
