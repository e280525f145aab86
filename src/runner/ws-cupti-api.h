/* ws-cupti-api.h: libcupti, loaded at run time once for the process, for the runner and the
 * injection library alike: one table of CUPTI's functions, resolved together, and what was
 * missing when it could not be (the shape of HPCToolkit's cupti-api).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <cupti.h>

/* The Profiler Host API's parameters, by their tags (cupti_profiler_host.h defines them). */
struct CUpti_Profiler_Host_GetSupportedChips_Params;
struct CUpti_Profiler_Host_Initialize_Params;
struct CUpti_Profiler_Host_Deinitialize_Params;
struct CUpti_Profiler_Host_ConfigAddMetrics_Params;
struct CUpti_Profiler_Host_GetConfigImageSize_Params;
struct CUpti_Profiler_Host_GetConfigImage_Params;
struct CUpti_Profiler_Host_GetNumOfPasses_Params;
struct CUpti_Profiler_Host_EvaluateToGpuValues_Params;
struct CUpti_Profiler_Initialize_Params;
struct CUpti_Profiler_DeInitialize_Params;
struct CUpti_Device_GetChipName_Params;
struct CUpti_RangeProfiler_Enable_Params;
struct CUpti_RangeProfiler_Disable_Params;
struct CUpti_RangeProfiler_GetCounterDataSize_Params;
struct CUpti_RangeProfiler_CounterDataImage_Initialize_Params;
struct CUpti_RangeProfiler_SetConfig_Params;
struct CUpti_RangeProfiler_Start_Params;
struct CUpti_RangeProfiler_Stop_Params;
struct CUpti_RangeProfiler_DecodeData_Params;
struct CUpti_RangeProfiler_GetCounterDataInfo_Params;

typedef struct
{
  /* activity records: what the runner uses too */
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
  /* a whole program's: its API calls, contexts and modules (the injection library) */
  CUptiResult (*ActivityEnableDriverApi) (CUpti_CallbackId, uint8_t);
  CUptiResult (*ActivityEnableRuntimeApi) (CUpti_CallbackId, uint8_t);
  CUptiResult (*GetCallbackName) (CUpti_CallbackDomain, uint32_t, const char **);
  CUptiResult (*GetContextId) (CUcontext, uint32_t *);
  CUptiResult (*GetDeviceId) (CUcontext, uint32_t *);
  CUptiResult (*SetThreadIdType) (CUpti_ActivityThreadIdType);
  CUptiResult (*Subscribe) (CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
  CUptiResult (*EnableDomain) (uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
  /* the Profiler Host API (cupti_profiler_host.h): metric configurations for a chip, built
   * and evaluated on the host, with or without a GPU (ws-counters.c); declared by their
   * structs' tags, so that this header needs no C++ (that header includes <string>) */
  CUptiResult (*ProfilerHostGetSupportedChips) (struct CUpti_Profiler_Host_GetSupportedChips_Params *);
  CUptiResult (*ProfilerHostInitialize) (struct CUpti_Profiler_Host_Initialize_Params *);
  CUptiResult (*ProfilerHostDeinitialize) (struct CUpti_Profiler_Host_Deinitialize_Params *);
  CUptiResult (*ProfilerHostConfigAddMetrics) (struct CUpti_Profiler_Host_ConfigAddMetrics_Params *);
  CUptiResult (*ProfilerHostGetConfigImageSize) (
    struct CUpti_Profiler_Host_GetConfigImageSize_Params *);
  CUptiResult (*ProfilerHostGetConfigImage) (struct CUpti_Profiler_Host_GetConfigImage_Params *);
  CUptiResult (*ProfilerHostGetNumOfPasses) (struct CUpti_Profiler_Host_GetNumOfPasses_Params *);
  CUptiResult (*ProfilerHostEvaluateToGpuValues) (
    struct CUpti_Profiler_Host_EvaluateToGpuValues_Params *);
  /* the Range Profiler (cupti_range_profiler.h): counters read on the GPU, a launch at a time */
  CUptiResult (*ProfilerInitialize) (struct CUpti_Profiler_Initialize_Params *);
  CUptiResult (*ProfilerDeInitialize) (struct CUpti_Profiler_DeInitialize_Params *);
  CUptiResult (*DeviceGetChipName) (struct CUpti_Device_GetChipName_Params *);
  CUptiResult (*RangeProfilerEnable) (struct CUpti_RangeProfiler_Enable_Params *);
  CUptiResult (*RangeProfilerDisable) (struct CUpti_RangeProfiler_Disable_Params *);
  CUptiResult (*RangeProfilerGetCounterDataSize) (
    struct CUpti_RangeProfiler_GetCounterDataSize_Params *);
  CUptiResult (*RangeProfilerCounterDataImageInitialize) (
    struct CUpti_RangeProfiler_CounterDataImage_Initialize_Params *);
  CUptiResult (*RangeProfilerSetConfig) (struct CUpti_RangeProfiler_SetConfig_Params *);
  CUptiResult (*RangeProfilerStart) (struct CUpti_RangeProfiler_Start_Params *);
  CUptiResult (*RangeProfilerStop) (struct CUpti_RangeProfiler_Stop_Params *);
  CUptiResult (*RangeProfilerDecodeData) (struct CUpti_RangeProfiler_DecodeData_Params *);
  CUptiResult (*RangeProfilerGetCounterDataInfo) (
    struct CUpti_RangeProfiler_GetCounterDataInfo_Params *);
  /* optional: NULL where this CUPTI has none */
  CUptiResult (*ActivitySetAttribute) (CUpti_ActivityAttribute, size_t *, void *);
  int (*InitializeInjectionNvtx2) (const void *(*) (uint32_t));
} WsCuptiApi;

/* The table: every function NULL until ws_cupti_api_load succeeds, and again after it fails. */
extern WsCuptiApi ws_cupti_api;

/* Which of the table's groups a caller needs. */
typedef enum
{
  WS_CUPTI_NEED_ACTIVITY = 1 << 0,
  WS_CUPTI_NEED_PROGRAM = 1 << 1,
  WS_CUPTI_NEED_PROFILER_HOST = 1 << 2,
  WS_CUPTI_NEED_RANGE_PROFILER = 1 << 3,
} WsCuptiNeeds;

typedef enum
{
  WS_CUPTI_LOADED,
  WS_CUPTI_NO_LIBRARY,  /* no libcupti could be opened */
  WS_CUPTI_NO_FUNCTION, /* the library opened lacks a function `needs` names */
} WsCuptiLoad;

/* Opens libcupti (WARPSCOPE_LIBCUPTI, else libcupti.so.MAJOR by the loader's search, then the
 * toolkit's folders) and resolves the table, once; thread-safe, and later calls return the
 * first call's answer. On failure `what` names, for a message, the library looked for
 * (NO_LIBRARY) or the missing function and the library that lacks it (NO_FUNCTION). */
WsCuptiLoad ws_cupti_api_load (unsigned needs, char *what, size_t len);
/* CUPTI's API version; 0 unless loaded. */
uint32_t ws_cupti_api_version (void);
/* CUPTI's words for a result ("CUPTI_ERROR_NOT_INITIALIZED"). */
const char *ws_cupti_api_result_string (CUptiResult result);
/* The clock activity timestamps use, in ns: CUPTI's, or the monotonic clock without it. */
uint64_t ws_cupti_api_timestamp (void);
