/* ws-counters-range.c: counters read on the GPU with CUPTI's Range Profiler: one launch at a
 * time (auto ranges, one range per launch), replayed by the driver as many times as the
 * configuration has passes (kernel replay), then evaluated on the host by the Profiler Host
 * API into the catalogue's values.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-counters-private.h"

#include <cuda_runtime_api.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-cupti-api.h"

struct WsCountersSession
{
  char chip[64];
  WsCountersConfig config;
  const char *metrics[64];
  size_t n_metrics;
  CUpti_Profiler_Host_Object *host;     /* evaluates what the GPU counted */
  CUpti_RangeProfiler_Object *profiler; /* on the context */
  int profiler_initialized;
};

/* CUPTI's result in words, with what to change where there is something. */
static WsCountersStatus
refused (CUptiResult r, const char *what, char *message, size_t len)
{
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    {
      snprintf (message, len, "the driver lets only administrators read the GPU's counters "
                "(ERR_NVGPUCTRPERM): load the nvidia module with "
                "NVreg_RestrictProfilingToAdminUsers=0, or run as root (in a container, with "
                "CAP_SYS_ADMIN); everything else is measured as usual");
      return WS_COUNTERS_NO_PERMISSION;
    }
  snprintf (message, len, "the GPU's counters could not be read (%s: %s)%s", what,
            ws_cupti_api_result_string (r),
            r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                ? ": another profiler (Nsight Compute, Nsight Systems) holds the GPU's counters"
                : r == CUPTI_ERROR_NOT_SUPPORTED || r == CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED
                ? ": CUPTI cannot read counters on this GPU (a virtual GPU or MIG slice, or a "
                  "chip it does not support)"
                : "");
  return WS_COUNTERS_FAILED;
}

static CUcontext
current_context (void)
{
  CUresult (*get) (CUcontext *) = NULL;
  enum cudaDriverEntryPointQueryResult found;
  CUcontext ctx = NULL;

  /* The runtime's own context, through the driver's entry point: the runner links no libcuda. */
  if (cudaGetDriverEntryPointByVersion ("cuCtxGetCurrent", (void **) &get, 12000, cudaEnableDefault,
                                        &found)
          == cudaSuccess
      && found == cudaDriverEntryPointSuccess && get != NULL)
    get (&ctx);
  return ctx;
}

WsCountersSession *
ws_counters_session_new (int device, unsigned groups, WsCountersStatus *status, char *message,
                         size_t len)
{
  WsCountersSession *s = calloc (1, sizeof *s);
  CUpti_Device_GetChipName_Params chip = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };
  CUpti_Profiler_Initialize_Params init = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_Enable_Params enable = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
  CUptiResult r;

  *status = WS_COUNTERS_FAILED;
  if (s == NULL)
    {
      snprintf (message, len, "no memory for the counters");
      return NULL;
    }
  if (!_ws_counters_api_loaded (WS_CUPTI_NEED_PROFILER_HOST | WS_CUPTI_NEED_RANGE_PROFILER,
                                message, len))
    {
      *status = WS_COUNTERS_NO_CUPTI;
      free (s);
      return NULL;
    }
  chip.deviceIndex = (size_t) device;
  if ((r = ws_cupti_api.DeviceGetChipName (&chip)) != CUPTI_SUCCESS)
    {
      *status = refused (r, "naming the GPU's chip", message, len);
      free (s);
      return NULL;
    }
  snprintf (s->chip, sizeof s->chip, "%s", chip.pChipName);
  if ((*status = ws_counters_config_build (s->chip, groups, &s->config, message, len))
      != WS_COUNTERS_OK)
    {
      free (s);
      return NULL;
    }
  s->n_metrics = ws_counters_select (groups, s->metrics, sizeof s->metrics / sizeof s->metrics[0]);
  if ((s->host = _ws_counters_host_new (s->chip, s->metrics, s->n_metrics)) == NULL)
    {
      snprintf (message, len, "CUPTI could not evaluate the counters for %s", s->chip);
      ws_counters_session_free (s);
      return NULL;
    }
  if ((r = ws_cupti_api.ProfilerInitialize (&init)) != CUPTI_SUCCESS)
    {
      *status = refused (r, "starting the profiler", message, len);
      ws_counters_session_free (s);
      return NULL;
    }
  s->profiler_initialized = 1;
  enable.ctx = current_context ();
  if (enable.ctx == NULL)
    {
      snprintf (message, len, "the GPU's counters could not be read: no CUDA context here");
      ws_counters_session_free (s);
      return NULL;
    }
  if ((r = ws_cupti_api.RangeProfilerEnable (&enable)) != CUPTI_SUCCESS)
    {
      *status = refused (r, "enabling the range profiler", message, len);
      ws_counters_session_free (s);
      return NULL;
    }
  s->profiler = enable.pRangeProfilerObject;
  *status = WS_COUNTERS_OK;
  return s;
}

const char *
ws_counters_session_chip (const WsCountersSession *s)
{
  return s->chip;
}

size_t
ws_counters_session_passes (const WsCountersSession *s)
{
  return s->config.passes;
}

const char *const *
ws_counters_session_metrics (const WsCountersSession *s, size_t *n)
{
  *n = s->n_metrics;
  return s->metrics;
}

WsCountersStatus
ws_counters_profile (WsCountersSession *s, int (*launch) (void *), void *data, double *values,
                     char *message, size_t len)
{
  CUpti_RangeProfiler_GetCounterDataSize_Params size = {
    CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE
  };
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params image = {
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE
  };
  CUpti_RangeProfiler_SetConfig_Params config = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_Start_Params start = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_Stop_Params stop = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_DecodeData_Params decode = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
    CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE
  };
  CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate = {
    CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE
  };
  WsCountersStatus status = WS_COUNTERS_OK;
  uint8_t *counter_data = NULL;
  CUptiResult r;

  for (size_t i = 0; i < s->n_metrics; i++)
    values[i] = NAN;
  size.pRangeProfilerObject = s->profiler;
  size.pMetricNames = s->metrics;
  size.numMetrics = s->n_metrics;
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  if ((r = ws_cupti_api.RangeProfilerGetCounterDataSize (&size)) != CUPTI_SUCCESS)
    return refused (r, "sizing the counter data", message, len);
  if ((counter_data = calloc (1, size.counterDataSize)) == NULL)
    {
      snprintf (message, len, "no memory for the counter data (%zu bytes)", size.counterDataSize);
      return WS_COUNTERS_FAILED;
    }
  image.pRangeProfilerObject = s->profiler;
  image.counterDataSize = size.counterDataSize;
  image.pCounterData = counter_data;
  config.pRangeProfilerObject = s->profiler;
  config.configSize = s->config.image_size;
  config.pConfig = s->config.image;
  config.counterDataImageSize = size.counterDataSize;
  config.pCounterDataImage = counter_data;
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  start.pRangeProfilerObject = s->profiler;
  stop.pRangeProfilerObject = s->profiler;
  decode.pRangeProfilerObject = s->profiler;
  if ((r = ws_cupti_api.RangeProfilerCounterDataImageInitialize (&image)) != CUPTI_SUCCESS)
    status = refused (r, "preparing the counter data", message, len);
  else if ((r = ws_cupti_api.RangeProfilerSetConfig (&config)) != CUPTI_SUCCESS)
    status = refused (r, "configuring the range profiler", message, len);
  else if ((r = ws_cupti_api.RangeProfilerStart (&start)) != CUPTI_SUCCESS)
    status = refused (r, "starting the range profiler", message, len);
  else
    {
      int failed = launch (data);

      r = ws_cupti_api.RangeProfilerStop (&stop);
      if (failed)
        {
          snprintf (message, len, "the profiled launch failed");
          status = WS_COUNTERS_LAUNCH_FAILED;
        }
      else if (r != CUPTI_SUCCESS)
        status = refused (r, "stopping the range profiler", message, len);
      else if ((r = ws_cupti_api.RangeProfilerDecodeData (&decode)) != CUPTI_SUCCESS)
        status = refused (r, "decoding the counters", message, len);
    }
  info.pCounterDataImage = counter_data;
  info.counterDataImageSize = size.counterDataSize;
  if (status == WS_COUNTERS_OK
      && ((r = ws_cupti_api.RangeProfilerGetCounterDataInfo (&info)) != CUPTI_SUCCESS
          || info.numTotalRanges < 1))
    {
      if (r != CUPTI_SUCCESS)
        status = refused (r, "reading the counter data", message, len);
      else
        {
          snprintf (message, len, "the profiler saw no launch (%zu ranges, %zu dropped)",
                    info.numTotalRanges, decode.numOfRangeDropped);
          status = WS_COUNTERS_FAILED;
        }
    }
  if (status == WS_COUNTERS_OK)
    {
      evaluate.pHostObject = s->host;
      evaluate.pCounterDataImage = counter_data;
      evaluate.counterDataImageSize = size.counterDataSize;
      evaluate.rangeIndex = 0;
      evaluate.ppMetricNames = s->metrics;
      evaluate.numMetrics = s->n_metrics;
      evaluate.pMetricValues = values;
      if ((r = ws_cupti_api.ProfilerHostEvaluateToGpuValues (&evaluate)) != CUPTI_SUCCESS)
        status = refused (r, "evaluating the counters", message, len);
    }
  free (counter_data);
  return status;
}

void
ws_counters_session_free (WsCountersSession *s)
{
  if (s == NULL)
    return;
  if (s->profiler != NULL)
    {
      CUpti_RangeProfiler_Disable_Params disable = {
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE
      };

      disable.pRangeProfilerObject = s->profiler;
      ws_cupti_api.RangeProfilerDisable (&disable);
    }
  if (s->profiler_initialized)
    {
      CUpti_Profiler_DeInitialize_Params deinit = {
        CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE
      };

      ws_cupti_api.ProfilerDeInitialize (&deinit);
    }
  _ws_counters_host_free (s->host);
  ws_counters_config_clear (&s->config);
  free (s);
}
