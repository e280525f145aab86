/* ws-inject-records.c: a traced program's CUPTI records written as the protocol's activity
 * records. Each record is translated once by the runner's translation (ws-cupti-translate.c,
 * the one switch over CUPTI's versioned structs) and written here by Warpscope's kind of
 * activity, with what a whole program needs beside the runner's fields (device, context,
 * mangled names, API calls, NVTX ranges, JIT compiles). Runs on the writer thread, or where
 * the trace is closed, under the output lock.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <stdlib.h>
#include <string.h>

#include "ws-cupti-translate.h"

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

/* ---- kernels, copies, memsets, synchronizations, CUPTI's overhead -------------------------- */

static void
kernel (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;
  const char *demangled = _ws_name_demangled (r->name);

  begin_activity (WS_ACTIVITY_KERNEL, a->start, a->end);
  _ws_jstring (&json, WS_KEY_NAME, demangled != NULL ? demangled : r->name);
  if (demangled != NULL)
    _ws_jstring (&json, WS_KEY_MANGLED, r->name);
  triple (WS_KEY_GRID, a->grid[0], a->grid[1], a->grid[2]);
  triple (WS_KEY_BLOCK, a->block[0], a->block[1], a->block[2]);
  _ws_jint (&json, WS_KEY_REGISTERS, a->registers);
  _ws_jint (&json, WS_KEY_STATIC_SMEM, a->static_smem);
  _ws_jint (&json, WS_KEY_DYNAMIC_SMEM, a->dynamic_smem);
  _ws_juint (&json, WS_KEY_LOCAL_BYTES, r->local_bytes);
  /* The shared memory the driver configured on the SM for this launch (the carveout): what
     the blocks' shared memory is measured against for occupancy. */
  _ws_juint (&json, WS_KEY_SMEM_CONFIG, r->smem_config);
  if ((uint64_t) r->cluster[0] * r->cluster[1] * r->cluster[2] > 1)
    triple (WS_KEY_CLUSTER, (int32_t) r->cluster[0], (int32_t) r->cluster[1],
            (int32_t) r->cluster[2]);
  if (r->cooperative)
    ws_json_bool (&json, WS_KEY_COOPERATIVE, 1);
  graph (r->graph, r->graph_node);
  _ws_juint (&json, WS_KEY_DEVICE, a->device);
  _ws_juint (&json, WS_KEY_CONTEXT, r->context);
  _ws_juint (&json, WS_KEY_STREAM, a->stream);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
}

static void
memcpy_record (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;

  begin_activity (WS_ACTIVITY_MEMCPY, a->start, a->end);
  _ws_jstring (&json, WS_KEY_DIRECTION, ws_copy_direction_to_string (a->direction));
  _ws_juint (&json, WS_KEY_BYTES, a->bytes);
  _ws_jstring (&json, WS_KEY_HOST_MEMORY, ws_host_memory_to_string (a->host_memory));
  ws_json_bool (&json, WS_KEY_ASYNC, r->async);
  graph (r->graph, r->graph_node);
  _ws_juint (&json, WS_KEY_DEVICE, a->device);
  _ws_juint (&json, WS_KEY_CONTEXT, r->context);
  _ws_juint (&json, WS_KEY_STREAM, a->stream);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
  if (r->runtime_correlation != 0)
    _ws_juint (&json, WS_KEY_RUNTIME_CORRELATION, r->runtime_correlation);
}

static void
memset_record (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;

  begin_activity (WS_ACTIVITY_MEMSET, a->start, a->end);
  _ws_juint (&json, WS_KEY_BYTES, a->bytes);
  _ws_juint (&json, WS_KEY_VALUE, r->value);
  graph (r->graph, r->graph_node);
  _ws_juint (&json, WS_KEY_DEVICE, a->device);
  _ws_juint (&json, WS_KEY_CONTEXT, r->context);
  _ws_juint (&json, WS_KEY_STREAM, a->stream);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
}

static void
sync_record (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;

  begin_activity (WS_ACTIVITY_SYNC, a->start, a->end);
  _ws_jstring (&json, WS_KEY_SYNC, a->detail);
  _ws_juint (&json, WS_KEY_CONTEXT, r->context);
  if (r->has_stream)
    _ws_juint (&json, WS_KEY_STREAM, a->stream);
  if (r->has_event)
    _ws_juint (&json, WS_KEY_EVENT, r->event);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
  if (r->result != 0)
    _ws_juint (&json, WS_KEY_RESULT, r->result);
}

static void
overhead_record (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;

  begin_activity (WS_ACTIVITY_OVERHEAD, a->start, a->end);
  _ws_jstring (&json, WS_KEY_OVERHEAD, a->detail);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
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
api (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;
  CUpti_CallbackDomain domain = r->driver_api ? CUPTI_CB_DOMAIN_DRIVER_API
                                              : CUPTI_CB_DOMAIN_RUNTIME_API;

  /* The writer's own device queries are Warpscope's, not the program's. */
  if ((int) r->thread == atomic_load (&_ws_state.writer_tid))
    return 0;
  /* 600 is "not ready" in both APIs: a query's answer, not a failure. */
  if (r->result != 0 && r->result != 600)
    atomic_fetch_add (&_ws_state.api_errors, 1);
  begin_activity (WS_ACTIVITY_API, a->start, a->end);
  _ws_jstring (&json, WS_KEY_API, r->driver_api ? "driver" : "runtime");
  _ws_jstring (&json, WS_KEY_NAME, api_name (domain, r->cbid));
  _ws_juint (&json, WS_KEY_CBID, r->cbid);
  _ws_juint (&json, WS_KEY_THREAD, r->thread);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
  _ws_juint (&json, WS_KEY_RESULT, r->result);
  return 1;
}

/* ---- JIT compiles ------------------------------------------------------------------------- */

static int
jit (const WsCuptiRecord *r)
{
  const WsRunnerActivity *a = &r->activity;

  begin_activity (WS_ACTIVITY_JIT, a->start, a->end);
  _ws_jstring (&json, WS_KEY_JIT, a->detail);
  _ws_jstring (&json, WS_KEY_OPERATION, r->operation);
  _ws_juint (&json, WS_KEY_CACHE_BYTES, r->cache_bytes);
  _ws_jstring (&json, WS_KEY_CACHE_PATH, r->cache_path);
  _ws_juint (&json, WS_KEY_DEVICE, a->device);
  _ws_juint (&json, WS_KEY_THREAD, r->thread);
  _ws_juint (&json, WS_KEY_CORRELATION, a->correlation);
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

/* A mark is one record; a range is written when both its ends have come (the end may come
 * first, when its buffer is delivered before the start's). 1 when a record was begun. */
static int
marker (const WsCuptiRecord *m)
{
  WsRange *r;

  if (m->marker == WS_NVTX_MARK)
    {
      begin_activity (WS_ACTIVITY_NVTX, m->activity.start, m->activity.end);
      _ws_jstring (&json, WS_KEY_NVTX, "mark");
      _ws_jstring (&json, WS_KEY_NAME, m->name);
      if (m->domain != NULL)
        _ws_jstring (&json, WS_KEY_DOMAIN, m->domain);
      if (m->thread != 0)
        _ws_juint (&json, WS_KEY_THREAD, m->thread);
      return 1;
    }
  if ((r = range_slot (m->id, 1)) == NULL)
    {
      atomic_fetch_add (&_ws_state.lost, 1);
      return 0;
    }
  if (m->marker == WS_NVTX_START)
    {
      r->has_start = 1;
      r->start = m->activity.start;
      r->name = m->name;
      r->domain = m->domain;
      r->thread = m->thread;
    }
  else
    {
      r->has_end = 1;
      r->end = m->activity.end;
      r->end_thread = m->thread;
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

/* ---- each record, by Warpscope's kind ---------------------------------------------------- */

void
_ws_records_buffer (uint8_t *buffer, size_t valid)
{
  CUpti_Activity *record = NULL;

  while (ws_cupti_api.ActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      WsCuptiRecord r;
      int built = 1;

      if (!ws_cupti_translate (record, &r))
        continue;
      switch (r.activity.kind)
        {
        case WS_ACTIVITY_KERNEL: kernel (&r); break;
        case WS_ACTIVITY_MEMCPY: memcpy_record (&r); break;
        case WS_ACTIVITY_MEMSET: memset_record (&r); break;
        case WS_ACTIVITY_SYNC: sync_record (&r); break;
        case WS_ACTIVITY_OVERHEAD: overhead_record (&r); break;
        case WS_ACTIVITY_API: built = api (&r); break;
        case WS_ACTIVITY_NVTX: built = marker (&r); break;
        case WS_ACTIVITY_JIT: built = jit (&r); break;
        default: built = 0; break;
        }
      if (built)
        _ws_output_emit (&json);
    }
}
