/* ws-inject-cupti.c: CUPTI's lifecycle and buffers inside a traced program. libcupti is loaded
 * at run time. The buffer-completed callback runs on CUPTI's thread or inside a flush: it only
 * swaps the records' names for interned copies and queues the buffer; the writer thread turns
 * it into records (ws-inject-records.c) and writes them (ws-inject-output.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ws-clock.h"
#include "ws-config.h"

static CUpti_SubscriberHandle subscriber;
static char kinds_enabled[256];

int
_ws_cupti_load (char *message, size_t len)
{
  char what[320];

  switch (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY | WS_CUPTI_NEED_PROGRAM, what, sizeof what))
    {
    case WS_CUPTI_LOADED:
      return 1;
    case WS_CUPTI_NO_LIBRARY:
      if (message != NULL)
        snprintf (message, len,
                  "CUPTI (%s) could not be loaded, so nothing is traced; the program runs as "
                  "usual. Put the CUDA toolkit's CUPTI folder in LD_LIBRARY_PATH, or name the "
                  "library in WARPSCOPE_LIBCUPTI.",
                  what);
      return 0;
    case WS_CUPTI_NO_FUNCTION:
      if (message != NULL)
        snprintf (message, len,
                  "The CUPTI library found lacks a function Warpscope needs (%s; it may be from "
                  "an older CUDA), so nothing is traced; the program runs as usual.",
                  what);
      return 0;
    }
  return 0;
}

/* ---- buffers ------------------------------------------------------------------------------ */

uint8_t *
_ws_buffer_new (size_t size)
{
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);

  return p != MAP_FAILED ? p : NULL;
}

void
_ws_buffer_free (uint8_t *buffer, size_t size)
{
  if (buffer != NULL)
    munmap (buffer, size);
}

void
_ws_item_free (WsItem *item)
{
  _ws_buffer_free (item->buffer, item->size);
  free (item);
}

/* CUPTI asks on the program's threads (a buffer for each thread that records, and again after
 * each flush). A fresh mapping is already zero and CUPTI is told so (_ws_cupti_start), so that
 * it does not clear the whole buffer there, on the program's time: only the pages its records
 * fill are ever touched. */
static void CUPTIAPI
buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  uint64_t t0 = _ws_timing_now ();

  *buffer = _ws_buffer_new (_ws_state.buffer_bytes);
  *size = *buffer != NULL ? _ws_state.buffer_bytes : 0;
  *max_records = 0;
  _ws_timing_add (WS_TIME_REQUEST, t0);
}

/* Swaps the names a record points at (CUPTI's) for interned copies (ours). */
static void
adopt_names (CUpti_Activity *record)
{
  switch (record->kind)
    {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      {
        CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *) record;

        k->name = _ws_name_intern (k->name);
        break;
      }
    case CUPTI_ACTIVITY_KIND_MARKER:
      {
        CUpti_ActivityMarker2 *m = (CUpti_ActivityMarker2 *) record;

        m->name = _ws_name_intern (m->name);
        m->domain = _ws_name_intern (m->domain);
        break;
      }
    case CUPTI_ACTIVITY_KIND_JIT:
      {
        CUpti_ActivityJit2 *j = (CUpti_ActivityJit2 *) record;

        j->cachePath = _ws_name_intern (j->cachePath);
        break;
      }
    default:
      break;
    }
}

static void CUPTIAPI
buffer_completed (CUcontext context, uint32_t stream, uint8_t *buffer, size_t size,
                  size_t valid)
{
  CUpti_Activity *record = NULL;
  size_t records = 0, dropped = 0;
  WsItem *item;
  uint64_t t0 = _ws_timing_now ();

  if (atomic_load (&_ws_state.inherited))
    {
      _ws_buffer_free (buffer, size);
      return;
    }
  while (valid > 0
         && ws_cupti_api.ActivityGetNextRecord (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      adopt_names (record);
      records++;
    }
  if (ws_cupti_api.ActivityGetNumDroppedRecords (context, stream, &dropped) == CUPTI_SUCCESS
      && dropped > 0)
    atomic_fetch_add (&_ws_state.dropped, dropped);
  if (records == 0 || (item = calloc (1, sizeof *item)) == NULL)
    {
      atomic_fetch_add (&_ws_state.lost, records);
      _ws_buffer_free (buffer, size);
      _ws_timing_add (WS_TIME_COMPLETE, t0);
      return;
    }
  item->kind = WS_ITEM_BUFFER;
  item->buffer = buffer;
  item->size = size;
  item->valid = valid;
  _ws_queue_push (item);
  _ws_timing_add (WS_TIME_COMPLETE, t0);
}

void
_ws_cupti_flush (int forced)
{
  if (atomic_load (&_ws_state.tracing))
    ws_cupti_api.ActivityFlushAll (forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

/* ---- resource callbacks: contexts (their devices) and modules ----------------------------- */

void _ws_register_exit (void); /* ws-inject.c */

static atomic_int destroy_flushing;

static void
push_context (CUcontext context, int ending)
{
  WsItem *item = calloc (1, sizeof *item);

  if (item == NULL)
    return;
  item->kind = WS_ITEM_CONTEXT;
  item->at = ws_cupti_api_timestamp ();
  item->ending = ending;
  ws_cupti_api.GetContextId (context, &item->context);
  if (ws_cupti_api.GetDeviceId (context, &item->device) != CUPTI_SUCCESS)
    item->device = UINT32_MAX;
  _ws_queue_push (item);
}

static void
push_module (const CUpti_ResourceData *resource, int ending)
{
  const CUpti_ModuleResourceData *module = resource->resourceDescriptor;
  WsItem *item;

  if (module == NULL || (item = calloc (1, sizeof *item)) == NULL)
    return;
  item->kind = WS_ITEM_MODULE;
  item->at = ws_cupti_api_timestamp ();
  item->ending = ending;
  item->module = module->moduleId;
  item->cubin_bytes = module->cubinSize;
  ws_cupti_api.GetContextId (resource->context, &item->context);
  _ws_queue_push (item);
}

static void CUPTIAPI
resource_callback (void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                   const void *data)
{
  const CUpti_ResourceData *resource = data;
  uint64_t t0 = _ws_timing_now ();

  (void) userdata;
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || atomic_load (&_ws_state.inherited))
    return;
  switch (cbid)
    {
    case CUPTI_CBID_RESOURCE_CU_INIT_FINISHED:
      _ws_register_exit ();
      break;
    case CUPTI_CBID_RESOURCE_CONTEXT_CREATED:
      _ws_register_exit ();
      push_context (resource->context, 0);
      break;
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
      /* The context still lives: what its work left in CUPTI's buffers comes out now (the
         buffer callback runs on this thread and only queues), before it goes. Nothing here
         calls CUDA, which would deadlock against the context being destroyed. */
      if (atomic_exchange (&destroy_flushing, 1) == 0)
        {
          _ws_cupti_flush (1);
          atomic_store (&destroy_flushing, 0);
        }
      push_context (resource->context, 1);
      break;
    case CUPTI_CBID_RESOURCE_MODULE_LOADED:
      push_module (resource, 0);
      break;
    case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
      push_module (resource, 1);
      break;
    default:
      break;
    }
  _ws_timing_add (WS_TIME_RESOURCE, t0);
}

/* ---- starting ----------------------------------------------------------------------------- */

/* The API calls that launch, copy, set, synchronize, load code or allocate: what shows the
 * host's side of the GPU's work. Matched against CUPTI's names, so that every variant of a
 * call (_v2, _ptsz, _ptds, Async) is included without listing callback ids. */
static const char *const driver_prefixes[] = {
  "cuLaunch", "cuGraphLaunch", "cuMemcpy", "cuMemset", "cuCtxSynchronize",
  "cuStreamSynchronize", "cuEventSynchronize", "cuStreamWaitEvent", "cuModuleLoad",
  "cuModuleUnload", "cuModuleGetFunction", "cuLibraryLoad", "cuLibraryUnload",
  "cuLibraryGetKernel", "cuLink", "cuMemAlloc", "cuMemFree", "cuMemHostAlloc",
  "cuMemHostRegister", "cuMemHostUnregister", "cuMemPrefetch", "cuCtxCreate", "cuCtxDestroy",
  "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxReset",
};
static const char *const runtime_prefixes[] = {
  "cudaLaunch", "cudaGraphLaunch", "cudaMemcpy", "cudaMemset", "cudaDeviceSynchronize",
  "cudaStreamSynchronize", "cudaEventSynchronize", "cudaStreamWaitEvent", "cudaMalloc",
  "cudaFree", "cudaHostAlloc", "cudaHostRegister", "cudaHostUnregister", "cudaMemPrefetch",
  "cudaDeviceReset", "cudaLibraryLoad", "cudaStreamCreate", "cudaStreamDestroy",
};

static int
has_prefix (const char *name, const char *const *prefixes, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strncmp (name, prefixes[i], strlen (prefixes[i])) == 0)
      return 1;
  return 0;
}

/* Names every call (the writer then never asks CUPTI, which may be stuck at the end of a
 * trace) and enables the ones asked for. */
static void
enable_api_calls (void)
{
  int launch = _ws_state.api_mode == WS_API_LAUNCH;

  if (_ws_state.api_mode == WS_API_ALL)
    {
      ws_cupti_api.ActivityEnable (CUPTI_ACTIVITY_KIND_DRIVER);
      ws_cupti_api.ActivityEnable (CUPTI_ACTIVITY_KIND_RUNTIME);
    }
  for (uint32_t cbid = 1; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; cbid++)
    {
      const char *name = NULL;

      if (ws_cupti_api.GetCallbackName (CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name) != CUPTI_SUCCESS
          || name == NULL)
        continue;
      _ws_records_api_name (CUPTI_CB_DOMAIN_DRIVER_API, cbid, name);
      if (launch
          && has_prefix (name, driver_prefixes, sizeof driver_prefixes / sizeof *driver_prefixes))
        ws_cupti_api.ActivityEnableDriverApi (cbid, 1);
    }
  for (uint32_t cbid = 1; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++)
    {
      const char *name = NULL;

      if (ws_cupti_api.GetCallbackName (CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) != CUPTI_SUCCESS
          || name == NULL)
        continue;
      _ws_records_api_name (CUPTI_CB_DOMAIN_RUNTIME_API, cbid, name);
      if (launch
          && has_prefix (name, runtime_prefixes, sizeof runtime_prefixes / sizeof *runtime_prefixes))
        ws_cupti_api.ActivityEnableRuntimeApi (cbid, 1);
    }
}

static const struct
{
  CUpti_ActivityKind kind;
  const char *name;
  int required;
} kinds[] = {
  /* Concurrent kernel records leave the program's kernels free to overlap, as untraced. */
  { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernel", 1 },
  { CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy", 0 },
  { CUPTI_ACTIVITY_KIND_MEMSET, "memset", 0 },
  { CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "sync", 0 },
  { CUPTI_ACTIVITY_KIND_OVERHEAD, "overhead", 0 },
  { CUPTI_ACTIVITY_KIND_MARKER, "nvtx", 0 },
  { CUPTI_ACTIVITY_KIND_JIT, "jit", 0 },
};

static WsErrorCode
failure_code (CUptiResult result)
{
  return result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? WS_ERROR_CUPTI_IN_USE
                                                                  : WS_ERROR_CUPTI_UNAVAILABLE;
}

static const char *
failure_hint (CUptiResult result)
{
  return result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
           ? " Another profiler (Nsight Systems, Nsight Compute) is attached: trace the program "
             "outside it."
           : "";
}

int
_ws_cupti_start (WsErrorCode *code, char *message, size_t len)
{
  CUptiResult result;
  size_t used = 0;
  uint64_t t0 = _ws_timing_now ();
  uint8_t zeroed = 1;
  size_t zeroed_size = sizeof zeroed;

  /* Thread ids as the system knows them (gettid), the same in API and NVTX records. */
  ws_cupti_api.SetThreadIdType (CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  /* Our buffers come zeroed (buffer_requested): CUPTI need not clear them itself. Without the
     function (an older CUPTI) it clears them, as before. */
  if (ws_cupti_api.ActivitySetAttribute != NULL)
    ws_cupti_api.ActivitySetAttribute (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zeroed_size,
                                    &zeroed);
  result = ws_cupti_api.ActivityRegisterCallbacks (buffer_requested, buffer_completed);
  if (result == CUPTI_SUCCESS)
    result = ws_cupti_api.Subscribe (&subscriber, resource_callback, NULL);
  if (result == CUPTI_SUCCESS)
    result = ws_cupti_api.EnableDomain (1, subscriber, CUPTI_CB_DOMAIN_RESOURCE);
  if (result != CUPTI_SUCCESS)
    {
      *code = failure_code (result);
      snprintf (message, len, "CUPTI refused to trace (%s), so nothing is traced; the program "
                "runs as usual.%s", ws_cupti_api_result_string (result), failure_hint (result));
      return 0;
    }
  _ws_timing_add (WS_TIME_SUBSCRIBE, t0);
  t0 = _ws_timing_now ();
  kinds_enabled[0] = '\0';
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    {
      result = ws_cupti_api.ActivityEnable (kinds[i].kind);
      if (result == CUPTI_SUCCESS)
        used += (size_t) snprintf (kinds_enabled + used, sizeof kinds_enabled - used, "%s%s",
                                   used ? "," : "", kinds[i].name);
      else if (kinds[i].required)
        {
          *code = failure_code (result);
          snprintf (message, len, "CUPTI could not record kernels (%s), so nothing is traced; "
                    "the program runs as usual.%s", ws_cupti_api_result_string (result),
                    failure_hint (result));
          return 0;
        }
      if (used >= sizeof kinds_enabled)
        used = sizeof kinds_enabled - 1;
    }
  _ws_timing_add (WS_TIME_KINDS, t0);
  t0 = _ws_timing_now ();
  enable_api_calls ();
  _ws_timing_add (WS_TIME_API, t0);
  if (_ws_state.api_mode != WS_API_NONE && used + 5 < sizeof kinds_enabled)
    strcat (kinds_enabled, ",api");
  atomic_store (&_ws_state.tracing, 1);
  return 1;
}

const char *
_ws_cupti_kinds_enabled (void)
{
  return kinds_enabled;
}
