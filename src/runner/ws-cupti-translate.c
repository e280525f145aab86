/* ws-cupti-translate.c: the one switch over CUPTI record kinds, turning versioned
 * CUpti_Activity* structs into Warpscope's WsRunnerActivity. Called from the buffer callback.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cupti.h"

#include <cupti.h>
#include <stdlib.h>
#include <string.h>

static WsCopyDirection
copy_direction (uint8_t kind)
{
  switch (kind)
    {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return WS_COPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return WS_COPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return WS_COPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return WS_COPY_HTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return WS_COPY_PTOP;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return WS_COPY_HTOA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return WS_COPY_ATOH;
    default: return WS_COPY_OTHER;
    }
}

static WsHostMemory
memory_kind (uint8_t kind)
{
  switch (kind)
    {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return WS_HOST_MEMORY_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return WS_HOST_MEMORY_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: return WS_HOST_MEMORY_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return WS_HOST_MEMORY_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: return WS_HOST_MEMORY_MANAGED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return WS_HOST_MEMORY_DEVICE_STATIC;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return WS_HOST_MEMORY_MANAGED_STATIC;
    default: return WS_HOST_MEMORY_OTHER;
    }
}

static const char *
sync_type (CUpti_ActivitySynchronizationType type)
{
  switch (type)
    {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE: return "event_synchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT: return "stream_wait_event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE: return "stream_synchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE: return "context_synchronize";
    default: return "unknown";
    }
}

static const char *
overhead_kind (CUpti_ActivityOverheadKind kind)
{
  switch (kind)
    {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver_compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "cupti_buffer_flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "cupti_instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "cupti_resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "module_loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy_function_loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command_buffer_full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity_buffer_request";
    default: return "other";
    }
}

/* What every timed record holds under the same names, whichever version of its struct: the
 * span and the correlation with its API call; and what those that ran on a stream hold. */
#define TAKE_SPAN(out, r) \
  ((out)->start = (r)->start, (out)->end = (r)->end, (out)->correlation = (r)->correlationId)
#define TAKE_STREAM(out, r) ((out)->stream = (r)->streamId, (out)->device = (r)->deviceId)

int
ws_cupti_translate (const void *record, WsRunnerActivity *out)
{
  const CUpti_Activity *base = record;

  memset (out, 0, sizeof *out);
  switch (base->kind)
    {
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      {
        const CUpti_ActivityMemcpy6 *r = record;

        out->kind = WS_ACTIVITY_MEMCPY;
        TAKE_SPAN (out, r);
        TAKE_STREAM (out, r);
        out->bytes = r->bytes;
        out->direction = copy_direction (r->copyKind);
        if (r->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD)
          out->host_memory = memory_kind (r->srcKind);
        else if (r->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
          out->host_memory = memory_kind (r->dstKind);
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_MEMSET:
      {
        const CUpti_ActivityMemset4 *r = record;

        out->kind = WS_ACTIVITY_MEMSET;
        TAKE_SPAN (out, r);
        TAKE_STREAM (out, r);
        out->bytes = r->bytes;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      {
        const CUpti_ActivityKernel10 *r = record;

        out->kind = WS_ACTIVITY_KERNEL;
        TAKE_SPAN (out, r);
        TAKE_STREAM (out, r);
        out->name = r->name != NULL ? strdup (r->name) : NULL;
        out->grid[0] = r->gridX, out->grid[1] = r->gridY, out->grid[2] = r->gridZ;
        out->block[0] = r->blockX, out->block[1] = r->blockY, out->block[2] = r->blockZ;
        out->registers = r->registersPerThread;
        out->static_smem = r->staticSharedMemory;
        out->dynamic_smem = r->dynamicSharedMemory;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      {
        const CUpti_ActivitySynchronization2 *r = record;

        out->kind = WS_ACTIVITY_SYNC;
        TAKE_SPAN (out, r);
        out->stream = r->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : r->streamId;
        out->detail = sync_type (r->type);
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      {
        const CUpti_ActivityOverhead3 *r = record;

        out->kind = WS_ACTIVITY_OVERHEAD;
        TAKE_SPAN (out, r);
        out->detail = overhead_kind (r->overheadKind);
        return 1;
      }
    default:
      return 0;
    }
}
