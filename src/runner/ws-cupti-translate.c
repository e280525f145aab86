/* ws-cupti-translate.c: the one switch over CUPTI record kinds, turning versioned
 * CUpti_Activity* structs into Warpscope's WsCuptiRecord, each record cast once. Called from
 * the runner's buffer callback and the injection library's writer.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cupti-translate.h"

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

static const char *
jit_entry (CUpti_ActivityJitEntryType type)
{
  switch (type)
    {
    case CUPTI_ACTIVITY_JIT_ENTRY_PTX_TO_CUBIN: return "ptx_to_cubin";
    case CUPTI_ACTIVITY_JIT_ENTRY_NVVM_IR_TO_PTX: return "nvvm_ir_to_ptx";
    default: return "other";
    }
}

static const char *
jit_operation (CUpti_ActivityJitOperationType type)
{
  switch (type)
    {
    case CUPTI_ACTIVITY_JIT_OPERATION_CACHE_LOAD: return "cache_load";
    case CUPTI_ACTIVITY_JIT_OPERATION_CACHE_STORE: return "cache_store";
    case CUPTI_ACTIVITY_JIT_OPERATION_COMPILE: return "compile";
    default: return "other";
    }
}

static WsNvtxMarker
marker_kind (uint32_t flags)
{
  if (flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)
    return WS_NVTX_MARK;
  if (flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
    return WS_NVTX_START;
  if (flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
    return WS_NVTX_END;
  return WS_NVTX_NONE;
}

/* What every timed record holds under the same names, whichever version of its struct: the
 * span and the correlation with its API call; and what those that ran on a stream hold. */
#define TAKE_SPAN(out, r)                                                                   \
  ((out)->activity.start = (r)->start, (out)->activity.end = (r)->end,                        \
   (out)->activity.correlation = (r)->correlationId)
#define TAKE_STREAM(out, r)                                                                 \
  ((out)->activity.stream = (r)->streamId, (out)->activity.device = (r)->deviceId,            \
   (out)->context = (r)->contextId)
#define TAKE_GRAPH(out, r) ((out)->graph = (r)->graphId, (out)->graph_node = (r)->graphNodeId)

int
ws_cupti_translate (const void *record, WsCuptiRecord *out)
{
  const CUpti_Activity *base = record;
  WsRunnerActivity *a = &out->activity;

  memset (out, 0, sizeof *out);
  switch (base->kind)
    {
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      {
        const CUpti_ActivityMemcpy6 *r = record;

        a->kind = WS_ACTIVITY_MEMCPY;
        TAKE_SPAN (out, r);
        TAKE_STREAM (out, r);
        TAKE_GRAPH (out, r);
        a->bytes = r->bytes;
        a->direction = copy_direction (r->copyKind);
        if (r->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD)
          a->host_memory = memory_kind (r->srcKind);
        else if (r->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
          a->host_memory = memory_kind (r->dstKind);
        out->async = (r->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
        out->runtime_correlation = r->runtimeCorrelationId;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_MEMSET:
      {
        const CUpti_ActivityMemset4 *r = record;

        a->kind = WS_ACTIVITY_MEMSET;
        TAKE_SPAN (out, r);
        TAKE_STREAM (out, r);
        TAKE_GRAPH (out, r);
        a->bytes = r->bytes;
        out->value = r->value;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      {
        const CUpti_ActivityKernel10 *r = record;

        a->kind = WS_ACTIVITY_KERNEL;
        TAKE_SPAN (out, r);
        TAKE_STREAM (out, r);
        TAKE_GRAPH (out, r);
        out->name = r->name;
        a->grid[0] = r->gridX, a->grid[1] = r->gridY, a->grid[2] = r->gridZ;
        a->block[0] = r->blockX, a->block[1] = r->blockY, a->block[2] = r->blockZ;
        a->registers = r->registersPerThread;
        a->static_smem = r->staticSharedMemory;
        a->dynamic_smem = r->dynamicSharedMemory;
        out->local_bytes = r->localMemoryPerThread;
        out->smem_config = r->sharedMemoryExecuted;
        out->cluster[0] = r->clusterX, out->cluster[1] = r->clusterY, out->cluster[2] = r->clusterZ;
        out->cooperative = r->launchType == CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE
                           || r->launchType == CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      {
        const CUpti_ActivitySynchronization2 *r = record;

        a->kind = WS_ACTIVITY_SYNC;
        TAKE_SPAN (out, r);
        out->context = r->contextId;
        out->has_stream = r->streamId != CUPTI_SYNCHRONIZATION_INVALID_VALUE;
        a->stream = out->has_stream ? r->streamId : 0;
        out->has_event = r->cudaEventId != CUPTI_SYNCHRONIZATION_INVALID_VALUE;
        out->event = out->has_event ? r->cudaEventId : 0;
        out->result = r->returnValue;
        a->detail = sync_type (r->type);
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      {
        const CUpti_ActivityOverhead3 *r = record;

        a->kind = WS_ACTIVITY_OVERHEAD;
        TAKE_SPAN (out, r);
        a->detail = overhead_kind (r->overheadKind);
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      {
        const CUpti_ActivityAPI *r = record;

        a->kind = WS_ACTIVITY_API;
        TAKE_SPAN (out, r);
        out->driver_api = r->kind == CUPTI_ACTIVITY_KIND_DRIVER;
        out->cbid = r->cbid;
        out->thread = r->threadId;
        out->result = r->returnValue;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_MARKER:
      {
        const CUpti_ActivityMarker2 *r = record;

        a->kind = WS_ACTIVITY_NVTX;
        a->start = a->end = r->timestamp;
        if ((out->marker = marker_kind (r->flags)) == WS_NVTX_NONE)
          return 0;
        out->id = r->id;
        out->name = r->name;
        out->domain = r->domain;
        if (r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD)
          out->thread = r->objectId.pt.threadId;
        return 1;
      }
    case CUPTI_ACTIVITY_KIND_JIT:
      {
        const CUpti_ActivityJit2 *r = record;

        a->kind = WS_ACTIVITY_JIT;
        TAKE_SPAN (out, r);
        a->device = r->deviceId;
        a->detail = jit_entry (r->jitEntryType);
        out->operation = jit_operation (r->jitOperationType);
        out->cache_bytes = r->cacheSize;
        out->cache_path = r->cachePath;
        out->thread = r->threadId;
        return 1;
      }
    default:
      return 0;
    }
}
