/* ws-cupti-api.c: libcupti opened and its functions resolved once, for the runner and the
 * injection library: one list of the functions with the group that needs each, so that a
 * CUPTI too old for one of them is named by what it lacks.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cupti-api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-clock.h"
#include "ws-config.h"

WsCuptiApi ws_cupti_api;

#define FUNCTION(field, need) { "cupti" #field, (void **) &ws_cupti_api.field, need }

static const struct
{
  const char *symbol;
  void **slot;
  unsigned need; /* WsCuptiNeeds; 0: optional */
} functions[] = {
  FUNCTION (ActivityRegisterCallbacks, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (ActivityEnable, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (ActivityDisable, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (ActivityFlushAll, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (ActivityGetNextRecord, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (ActivityGetNumDroppedRecords, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (GetTimestamp, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (GetVersion, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (GetResultString, WS_CUPTI_NEED_ACTIVITY),
  FUNCTION (ActivityEnableDriverApi, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (ActivityEnableRuntimeApi, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (GetCallbackName, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (GetContextId, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (GetDeviceId, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (SetThreadIdType, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (Subscribe, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (EnableDomain, WS_CUPTI_NEED_PROGRAM),
  FUNCTION (ProfilerHostGetSupportedChips, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostInitialize, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostDeinitialize, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostConfigAddMetrics, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostGetConfigImageSize, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostGetConfigImage, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostGetNumOfPasses, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerHostEvaluateToGpuValues, WS_CUPTI_NEED_PROFILER_HOST),
  FUNCTION (ProfilerInitialize, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (ProfilerDeInitialize, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (DeviceGetChipName, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerEnable, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerDisable, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerGetCounterDataSize, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerCounterDataImageInitialize, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerSetConfig, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerStart, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerStop, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerDecodeData, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (RangeProfilerGetCounterDataInfo, WS_CUPTI_NEED_RANGE_PROFILER),
  FUNCTION (ActivitySetAttribute, 0),
  /* NVTX's entry point in CUPTI: not a cupti* name. */
  { "InitializeInjectionNvtx2", (void **) &ws_cupti_api.InitializeInjectionNvtx2, 0 },
};

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int tried;
static WsCuptiLoad loaded;
static char missing[320];
static uint32_t version;

/* The name that opened, or the names looked for, in `name`. */
static void *
open_library (char *name, size_t len)
{
  const char *override = getenv ("WARPSCOPE_LIBCUPTI");
  /* A program may have loaded a CUPTI of this major version already (a framework's
     profiler): dlopen by soname returns that one, so that there is one CUPTI in the process. */
  const char *candidates[] = { "libcupti.so." WS_CUDA_MAJOR_STRING, "libcupti.so",
                               WS_CUDA_LIBDIR "/libcupti.so." WS_CUDA_MAJOR_STRING,
                               WS_CUDA_ROOT "/extras/CUPTI/lib64/libcupti.so."
                                 WS_CUDA_MAJOR_STRING };

  if (override != NULL && *override != '\0')
    {
      snprintf (name, len, "%s", override);
      return dlopen (override, RTLD_NOW | RTLD_LOCAL);
    }
  snprintf (name, len, "%s", candidates[0]);
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
    {
      void *lib = dlopen (candidates[i], RTLD_NOW | RTLD_LOCAL);

      if (lib != NULL)
        {
          snprintf (name, len, "%s", candidates[i]);
          return lib;
        }
    }
  return NULL;
}

static WsCuptiLoad
load (unsigned needs)
{
  char name[256];
  void *lib = open_library (name, sizeof name);

  if (lib == NULL)
    {
      snprintf (missing, sizeof missing, "%s", name);
      return WS_CUPTI_NO_LIBRARY;
    }
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
    {
      *functions[i].slot = dlsym (lib, functions[i].symbol);
      if (*functions[i].slot == NULL && (functions[i].need & needs) != 0)
        {
          snprintf (missing, sizeof missing, "%s in %s", functions[i].symbol, name);
          /* Nothing of a CUPTI that cannot trace is called, not even its clock. */
          memset (&ws_cupti_api, 0, sizeof ws_cupti_api);
          return WS_CUPTI_NO_FUNCTION;
        }
    }
  ws_cupti_api.GetVersion (&version);
  return WS_CUPTI_LOADED;
}

WsCuptiLoad
ws_cupti_api_load (unsigned needs, char *what, size_t len)
{
  WsCuptiLoad result;

  pthread_mutex_lock (&load_lock);
  if (!tried)
    {
      tried = 1;
      loaded = load (needs);
    }
  result = loaded;
  if (result != WS_CUPTI_LOADED && what != NULL && len > 0)
    snprintf (what, len, "%s", missing);
  pthread_mutex_unlock (&load_lock);
  return result;
}

uint32_t
ws_cupti_api_version (void)
{
  return version;
}

const char *
ws_cupti_api_result_string (CUptiResult result)
{
  const char *s = NULL;

  if (ws_cupti_api.GetResultString == NULL
      || ws_cupti_api.GetResultString (result, &s) != CUPTI_SUCCESS || s == NULL)
    return "unknown CUPTI error";
  return s;
}

uint64_t
ws_cupti_api_timestamp (void)
{
  uint64_t t;

  if (ws_cupti_api.GetTimestamp != NULL && ws_cupti_api.GetTimestamp (&t) == CUPTI_SUCCESS)
    return t;
  return ws_clock_ns ();
}
