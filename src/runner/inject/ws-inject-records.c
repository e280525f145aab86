/* ws-inject-records.c: the one switch over CUPTI record kinds inside a traced program, from
 * versioned CUpti_Activity* structs to the protocol's activity records. Copies, memsets,
 * kernels, synchronizations and CUPTI's overhead go through the runner's translation
 * (ws-cupti-translate.c) and gain what a whole program needs beside it (device, context,
 * mangled names); API calls, NVTX ranges and JIT compiles are translated here. Runs on the
 * writer thread, or where the trace is closed, under the output lock.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <stdlib.h>
#include <string.h>

#include "ws-runner-activity.h"
#include "ws-cupti.h"

static WsJson json;

void
_ws_json_time (WsJson *j, const char *key, uint64_t ts)
{
  if (ts == 0)
    ws_json_null (j, key); /* CUPTI could not time it */
  else
    _ws_jint (j, key, (int64_t) (ts - _ws_state.origin));
}

static void
begin_activity (WsActivityKind kind, uint64_t start, uint64_t end)
{
  _ws_output_begin (&json, WS_RECORD_TYPE_ACTIVITY);
  _ws_jstring (&json, WS_KEY_KIND, ws_activity_kind_to_string (kind));
  _ws_json_time (&json, WS_KEY_START, start);
  _ws_json_time (&json, WS_KEY_END, end);
}

static void
triple (const char *key, int32_t x, int32_t y, int32_t z)
{
  ws_json_begin_array (&json, key);
  _ws_jint (&json, NULL, x);
  _ws_jint (&json, NULL, y);
  _ws_jint (&json, NULL, z);
  ws_json_end_array (&json);
}

static void
graph (uint32_t graph_id, uint64_t node)
{
  if (graph_id != 0)
    _ws_juint (&json, WS_KEY_GRAPH, graph_id);
  if (node != 0)
    _ws_juint (&json, WS_KEY_GRAPH_NODE, node);
}

/* ---- through the runner's translation ----------------------------------------------------- */

static void
kernel (const CUpti_ActivityKernel10 *k, const WsRunnerActivity *a)
{
  const char *demangled = _ws_name_demangled (k->name);

  begin_activity (WS_ACTIVITY_KERNEL, a->start, a->end);
  _ws_jstring (&json, WS_KEY_NAME, demangled != NULL ? demangled : k->name);
  if (demangled != NULL)
    _ws_jstring (&json, WS_KEY_MANGLED, k->name);
  triple (WS_KEY_GRID, k->gridX, k->gridY, k->gridZ);
  triple (WS_KEY_BLOCK, k->blockX, k->blockY, k->blockZ);
  _ws_jint (&json, WS_KEY_REGISTERS, a->registers);
  _ws_jint (&json, WS_KEY_STATIC_SMEM, a->static_smem);
  _ws_jint (&json, WS_KEY_DYNAMIC_SMEM, a->dynamic_smem);
  _ws_juint (&json, WS_KEY_LOCAL_BYTES, k->localMemoryPerThread);
  /* The shared memory the driver configured on the SM for this launch (the carveout): what
     the blocks' shared memory is measured against for occupancy. */
  _ws_juint (&json, WS_KEY_SMEM_CONFIG, k->sharedMemoryExecuted);
  if ((uint64_t) k->clusterX * k->clusterY * k->clusterZ > 1)
    triple (WS_KEY_CLUSTER, (int32_t) k->clusterX, (int32_t) k->clusterY, (int32_t) k->clusterZ);
  if (k->launchType == CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE
      || k->launchType == CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE)
    ws_json_bool (&json, WS_KEY_COOPERATIVE, 1);
  graph (k->graphId, k->graphNodeId);
  _ws_juint (&json, WS_KEY_DEVICE, k->deviceId);
  _ws_juint (&json, WS_KEY_CONTEXT, k->contextId);
  _ws_juint (&json, WS_KEY_STREAM, k->streamId);
  _ws_juint (&json, WS_KEY_CORRELATION, k->correlationId);
}

static void
memcpy_record (const CUpti_ActivityMemcpy6 *m, const WsRunnerActivity *a)
{
  begin_activity (WS_ACTIVITY_MEMCPY, a->start, a->end);
  _ws_jstring (&json, WS_KEY_DIRECTION, ws_copy_direction_to_string (a->direction));
  _ws_juint (&json, WS_KEY_BYTES, a->bytes);
  _ws_jstring (&json, WS_KEY_HOST_MEMORY, ws_host_memory_to_string (a->host_memory));
  ws_json_bool (&json, WS_KEY_ASYNC, (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0);
  graph (m->graphId, m->graphNodeId);
  _ws_juint (&json, WS_KEY_DEVICE, m->deviceId);
  _ws_juint (&json, WS_KEY_CONTEXT, m->contextId);
  _ws_juint (&json, WS_KEY_STREAM, m->streamId);
  _ws_juint (&json, WS_KEY_CORRELATION, m->correlationId);
  if (m->runtimeCorrelationId != 0)
    _ws_juint (&json, WS_KEY_RUNTIME_CORRELATION, m->runtimeCorrelationId);
}

static void
memset_record (const CUpti_ActivityMemset4 *m, const WsRunnerActivity *a)
{
  begin_activity (WS_ACTIVITY_MEMSET, a->start, a->end);
  _ws_juint (&json, WS_KEY_BYTES, a->bytes);
  _ws_juint (&json, WS_KEY_VALUE, m->value);
  graph (m->graphId, m->graphNodeId);
  _ws_juint (&json, WS_KEY_DEVICE, m->deviceId);
  _ws_juint (&json, WS_KEY_CONTEXT, m->contextId);
  _ws_juint (&json, WS_KEY_STREAM, m->streamId);
  _ws_juint (&json, WS_KEY_CORRELATION, m->correlationId);
}

static void
sync_record (const CUpti_ActivitySynchronization2 *s, const WsRunnerActivity *a)
{
  begin_activity (WS_ACTIVITY_SYNC, a->start, a->end);
  _ws_jstring (&json, WS_KEY_SYNC, a->detail);
  _ws_juint (&json, WS_KEY_CONTEXT, s->contextId);
  if (s->streamId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
    _ws_juint (&json, WS_KEY_STREAM, s->streamId);
  if (s->cudaEventId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
    _ws_juint (&json, WS_KEY_EVENT, s->cudaEventId);
  _ws_juint (&json, WS_KEY_CORRELATION, s->correlationId);
  if (s->returnValue != 0)
    _ws_juint (&json, WS_KEY_RESULT, s->returnValue);
}

static void
overhead_record (const WsRunnerActivity *a)
{
  begin_activity (WS_ACTIVITY_OVERHEAD, a->start, a->end);
  _ws_jstring (&json, WS_KEY_OVERHEAD, a->detail);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
}

static int
translated (const CUpti_Activity *record)
{
  WsRunnerActivity a;

  if (!ws_cupti_translate (record, &a))
    return 0;
  free (a.name); /* kernels are named from the interned name */
  switch (a.kind)
    {
    case WS_ACTIVITY_KERNEL: kernel ((const void *) record, &a); break;
    case WS_ACTIVITY_MEMCPY: memcpy_record ((const void *) record, &a); break;
    case WS_ACTIVITY_MEMSET: memset_record ((const void *) record, &a); break;
    case WS_ACTIVITY_SYNC: sync_record ((const void *) record, &a); break;
    case WS_ACTIVITY_OVERHEAD: overhead_record (&a); break;
    default: return 0;
    }
  return 1;
}

/* ---- API calls ---------------------------------------------------------------------------- */

static const char *driver_names[CUPTI_DRIVER_TRACE_CBID_SIZE];
static const char *runtime_names[CUPTI_RUNTIME_TRACE_CBID_SIZE];

static const char **
name_slot (CUpti_CallbackDomain domain, uint32_t cbid)
{
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
    return &driver_names[cbid];
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
    return &runtime_names[cbid];
  return NULL;
}

/* CUPTI's name of a call, kept without the runtime's version suffix ("cudaMemcpy_v3020"
 * becomes "cudaMemcpy"); the driver's _v2 is part of its symbol and stays. */
void
_ws_records_api_name (CUpti_CallbackDomain domain, uint32_t cbid, const char *name)
{
  const char **slot = name_slot (domain, cbid);
  char *clean, *v;

  if (slot == NULL || *slot != NULL || (clean = strdup (name)) == NULL)
    return;
  v = strrchr (clean, '_');
  if (v != NULL && v[1] == 'v' && strlen (v + 2) >= 4
      && strspn (v + 2, "0123456789") == strlen (v + 2))
    *v = '\0';
  *slot = clean;
}

static const char *
api_name (CUpti_CallbackDomain domain, uint32_t cbid)
{
  const char **slot = name_slot (domain, cbid);
  const char *name = NULL;

  if (slot != NULL && *slot != NULL)
    return *slot;
  /* A call CUPTI did not name at the start (a newer driver's): ask now. */
  if (ws_cupti_api.GetCallbackName (domain, cbid, &name) != CUPTI_SUCCESS || name == NULL)
    return NULL;
  _ws_records_api_name (domain, cbid, name);
  return slot != NULL && *slot != NULL ? *slot : name;
}

static int
api (const CUpti_ActivityAPI *r)
{
  CUpti_CallbackDomain domain = r->kind == CUPTI_ACTIVITY_KIND_DRIVER
                                  ? CUPTI_CB_DOMAIN_DRIVER_API
                                  : CUPTI_CB_DOMAIN_RUNTIME_API;

  /* The writer's own device queries are Warpscope's, not the program's. */
  if ((int) r->threadId == atomic_load (&_ws_state.writer_tid))
    return 0;
  /* 600 is "not ready" in both APIs: a query's answer, not a failure. */
  if (r->returnValue != 0 && r->returnValue != 600)
    atomic_fetch_add (&_ws_state.api_errors, 1);
  begin_activity (WS_ACTIVITY_API, r->start, r->end);
  _ws_jstring (&json, WS_KEY_API, domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime");
  _ws_jstring (&json, WS_KEY_NAME, api_name (domain, r->cbid));
  _ws_juint (&json, WS_KEY_CBID, r->cbid);
  _ws_juint (&json, WS_KEY_THREAD, r->threadId);
  _ws_juint (&json, WS_KEY_CORRELATION, r->correlationId);
  _ws_juint (&json, WS_KEY_RESULT, r->returnValue);
  return 1;
}

/* ---- JIT compiles ------------------------------------------------------------------------- */

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

static int
jit (const CUpti_ActivityJit2 *r)
{
  begin_activity (WS_ACTIVITY_JIT, r->start, r->end);
  _ws_jstring (&json, WS_KEY_JIT, jit_entry (r->jitEntryType));
  _ws_jstring (&json, WS_KEY_OPERATION, jit_operation (r->jitOperationType));
  _ws_juint (&json, WS_KEY_CACHE_BYTES, r->cacheSize);
  _ws_jstring (&json, WS_KEY_CACHE_PATH, r->cachePath);
  _ws_juint (&json, WS_KEY_DEVICE, r->deviceId);
  _ws_juint (&json, WS_KEY_THREAD, r->threadId);
  _ws_juint (&json, WS_KEY_CORRELATION, r->correlationId);
  return 1;
}

/* ---- NVTX: CUPTI gives a range's start and end as two markers with one id ------------------ */

typedef struct
{
  uint32_t id;
  int state; /* 0: free, 1: used, 2: deleted */
  int has_start, has_end;
  uint64_t start, end;
  const char *name, *domain;
  uint32_t thread, end_thread;
} WsRange;

static WsRange *ranges;
static size_t ranges_cap, ranges_used; /* used counts deleted slots too, until a rehash */

static WsRange *range_slot (uint32_t id, int create);

static int
ranges_grow (void)
{
  size_t cap = ranges_cap ? ranges_cap * 2 : 256, old_cap = ranges_cap;
  WsRange *old = ranges, *grown = calloc (cap, sizeof *grown);

  if (grown == NULL)
    return 0;
  ranges = grown;
  ranges_cap = cap;
  ranges_used = 0;
  for (size_t k = 0; k < old_cap; k++)
    if (old[k].state == 1)
      *range_slot (old[k].id, 1) = old[k];
  free (old);
  return 1;
}

static WsRange *
range_slot (uint32_t id, int create)
{
  WsRange *tomb = NULL;
  size_t mask;

  if (create && (ranges_used + 1) * 2 > ranges_cap && !ranges_grow ())
    return NULL;
  if (ranges_cap == 0)
    return NULL;
  mask = ranges_cap - 1;
  for (size_t i = (id * 2654435761u) & mask;; i = (i + 1) & mask)
    {
      WsRange *r = &ranges[i];

      if (r->state == 1 && r->id == id)
        return r;
      if (r->state == 2 && tomb == NULL)
        tomb = r;
      if (r->state == 0)
        {
          if (!create)
            return NULL;
          if (tomb != NULL)
            r = tomb;
          else
            ranges_used++;
          memset (r, 0, sizeof *r);
          r->state = 1;
          r->id = id;
          return r;
        }
    }
}

static void
range_record (const WsRange *r)
{
  begin_activity (WS_ACTIVITY_NVTX, r->start, r->has_end ? r->end : 0);
  _ws_jstring (&json, WS_KEY_NVTX, "range");
  _ws_jstring (&json, WS_KEY_NAME, r->name);
  if (r->domain != NULL)
    _ws_jstring (&json, WS_KEY_DOMAIN, r->domain);
  _ws_juint (&json, WS_KEY_ID, r->id);
  if (r->thread != 0)
    _ws_juint (&json, WS_KEY_THREAD, r->thread);
  if (r->has_end && r->end_thread != 0 && r->end_thread != r->thread)
    _ws_juint (&json, WS_KEY_END_THREAD, r->end_thread);
  if (!r->has_end)
    ws_json_bool (&json, WS_KEY_OPEN, 1);
  _ws_output_emit (&json);
}

static uint32_t
marker_thread (const CUpti_ActivityMarker2 *m)
{
  return m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0;
}

/* A mark is one record; a range is written when both its ends have come (the end may come
 * first, when its buffer is delivered before the start's). 1 when a record was begun. */
static int
marker (const CUpti_ActivityMarker2 *m)
{
  WsRange *r;

  if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)
    {
      begin_activity (WS_ACTIVITY_NVTX, m->timestamp, m->timestamp);
      _ws_jstring (&json, WS_KEY_NVTX, "mark");
      _ws_jstring (&json, WS_KEY_NAME, m->name);
      if (m->domain != NULL)
        _ws_jstring (&json, WS_KEY_DOMAIN, m->domain);
      if (marker_thread (m) != 0)
        _ws_juint (&json, WS_KEY_THREAD, marker_thread (m));
      return 1;
    }
  if (!(m->flags & (CUPTI_ACTIVITY_FLAG_MARKER_START | CUPTI_ACTIVITY_FLAG_MARKER_END)))
    return 0;
  if ((r = range_slot (m->id, 1)) == NULL)
    {
      atomic_fetch_add (&_ws_state.lost, 1);
      return 0;
    }
  if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
    {
      r->has_start = 1;
      r->start = m->timestamp;
      r->name = m->name;
      r->domain = m->domain;
      r->thread = marker_thread (m);
    }
  else
    {
      r->has_end = 1;
      r->end = m->timestamp;
      r->end_thread = marker_thread (m);
    }
  if (r->has_start && r->has_end)
    {
      range_record (r);
      r->state = 2;
    }
  return 0;
}

void
_ws_records_open_ranges (void)
{
  for (size_t i = 0; i < ranges_cap; i++)
    if (ranges[i].state == 1 && ranges[i].has_start)
      {
        range_record (&ranges[i]);
        ranges[i].state = 2;
      }
}

/* ---- the switch --------------------------------------------------------------------------- */

void
_ws_records_buffer (uint8_t *buffer, size_t valid)
{
  CUpti_Activity *record = NULL;

  while (ws_cupti_api.ActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      int built;

      switch (record->kind)
        {
        case CUPTI_ACTIVITY_KIND_DRIVER:
        case CUPTI_ACTIVITY_KIND_RUNTIME:
          built = api ((const CUpti_ActivityAPI *) record);
          break;
        case CUPTI_ACTIVITY_KIND_MARKER:
          built = marker ((const CUpti_ActivityMarker2 *) record);
          break;
        case CUPTI_ACTIVITY_KIND_JIT:
          built = jit ((const CUpti_ActivityJit2 *) record);
          break;
        default:
          built = translated (record);
          break;
        }
      if (built)
        _ws_output_emit (&json);
    }
}
