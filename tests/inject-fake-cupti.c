/* inject-fake-cupti.c: a stand-in for libcupti, so that tests/test-inject-trace.c can drive
 * libwarpscope-inject's whole path (buffers, the writer thread, records, the end of a trace)
 * on a machine without a GPU. The test program hands it real CUPTI activity structs with
 * fake_cupti_record() and resource events with fake_cupti_resource(); a flush delivers them to
 * the library's buffer callback as CUPTI would.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__ ((visibility ("default")))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUpti_BuffersCallbackRequestFunc requested;
static CUpti_BuffersCallbackCompleteFunc completed;
static CUpti_CallbackFunc subscriber_callback;
static uint8_t *buffer;
static size_t buffer_size, buffer_used;
static size_t dropped_once = 2; /* reported by the first query: the library must sum it */
static int flushes;

/* Records are laid one after another, each padded to 8 bytes; its size is kept before it. */
typedef struct
{
  uint64_t size;
} Header;

EXPORT void
fake_cupti_record (const void *record, size_t size)
{
  size_t need = sizeof (Header) + ((size + 7) & ~(size_t) 7);
  size_t max_records;

  pthread_mutex_lock (&lock);
  if (buffer != NULL && buffer_used + need > buffer_size)
    {
      uint8_t *full = buffer;
      size_t used = buffer_used;

      buffer = NULL;
      pthread_mutex_unlock (&lock);
      completed (NULL, 0, full, buffer_size, used);
      pthread_mutex_lock (&lock);
    }
  if (buffer == NULL)
    {
      requested (&buffer, &buffer_size, &max_records);
      buffer_used = 0;
    }
  ((Header *) (void *) (buffer + buffer_used))->size = need - sizeof (Header);
  memcpy (buffer + buffer_used + sizeof (Header), record, size);
  buffer_used += need;
  pthread_mutex_unlock (&lock);
}

EXPORT void
fake_cupti_resource (CUpti_CallbackId cbid, uint32_t context, uint32_t module, size_t cubin)
{
  CUpti_ModuleResourceData m = { module, cubin, NULL };
  CUpti_ResourceData r = { (CUcontext) (uintptr_t) context, { NULL }, &m };

  if (subscriber_callback != NULL)
    subscriber_callback (NULL, CUPTI_CB_DOMAIN_RESOURCE, cbid, &r);
}

EXPORT int
fake_cupti_flushes (void)
{
  return flushes;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityFlushAll (uint32_t flag)
{
  uint8_t *full;
  size_t used, size;

  (void) flag;
  pthread_mutex_lock (&lock);
  flushes++;
  full = buffer;
  used = buffer_used;
  size = buffer_size;
  buffer = NULL;
  pthread_mutex_unlock (&lock);
  if (full != NULL)
    completed (NULL, 0, full, size, used);
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityGetNextRecord (uint8_t *buf, size_t valid, CUpti_Activity **record)
{
  uint8_t *at;

  if (*record == NULL)
    at = buf;
  else
    at = (uint8_t *) *record + ((Header *) (void *) ((uint8_t *) *record - sizeof (Header)))->size;
  at += sizeof (Header);
  if ((size_t) (at - buf) >= valid)
    return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = (CUpti_Activity *) (void *) at;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityGetNumDroppedRecords (CUcontext context, uint32_t stream, size_t *dropped)
{
  (void) context;
  (void) stream;
  pthread_mutex_lock (&lock);
  *dropped = dropped_once;
  dropped_once = 0;
  pthread_mutex_unlock (&lock);
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityRegisterCallbacks (CUpti_BuffersCallbackRequestFunc request,
                                CUpti_BuffersCallbackCompleteFunc complete)
{
  requested = request;
  completed = complete;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiSubscribe (CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback, void *data)
{
  (void) data;
  *subscriber = (CUpti_SubscriberHandle) (uintptr_t) 1;
  subscriber_callback = callback;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiGetCallbackName (CUpti_CallbackDomain domain, uint32_t cbid, const char **name)
{
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000)
    *name = "cudaLaunchKernel_v7000";
  else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020)
    *name = "cudaMemcpy_v3020";
  else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2)
    *name = "cuMemcpyHtoD_v2";
  else
    *name = "cuSomethingElse";
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiGetTimestamp (uint64_t *t)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  *t = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiGetContextId (CUcontext context, uint32_t *id)
{
  *id = (uint32_t) (uintptr_t) context;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiGetDeviceId (CUcontext context, uint32_t *id)
{
  (void) context;
  *id = 0;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiGetVersion (uint32_t *version)
{
  *version = 130001;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiGetResultString (CUptiResult result, const char **s)
{
  (void) result;
  *s = "fake";
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityEnable (CUpti_ActivityKind kind)
{
  (void) kind;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityDisable (CUpti_ActivityKind kind)
{
  (void) kind;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityEnableDriverApi (CUpti_CallbackId cbid, uint8_t enable)
{
  (void) cbid;
  (void) enable;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiActivityEnableRuntimeApi (CUpti_CallbackId cbid, uint8_t enable)
{
  (void) cbid;
  (void) enable;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiSetThreadIdType (CUpti_ActivityThreadIdType type)
{
  (void) type;
  return CUPTI_SUCCESS;
}

EXPORT CUptiResult CUPTIAPI
cuptiEnableDomain (uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain)
{
  (void) enable;
  (void) subscriber;
  (void) domain;
  return CUPTI_SUCCESS;
}

EXPORT int
InitializeInjectionNvtx2 (const void *(*get_export_table) (uint32_t))
{
  return get_export_table == NULL ? 1 : 0;
}
