/* ws-counters.c: the counters' catalogue and their configuration for a chip through CUPTI's
 * Profiler Host API (loaded with the rest of CUPTI by ws-cupti-api.c), on the host alone.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-counters-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-cupti-api.h"

/* ---- the Profiler Host API ---------------------------------------------------------------- */

int
_ws_counters_api_loaded (unsigned needs, char *message, size_t len)
{
  char what[320] = "";

  if (ws_cupti_api_load (WS_CUPTI_NEED_ACTIVITY, what, sizeof what) != WS_CUPTI_LOADED)
    {
      snprintf (message, len, "CUPTI could not be loaded (%s): hardware counters need it", what);
      return 0;
    }
  if (ws_cupti_api.ProfilerHostInitialize == NULL || ws_cupti_api.ProfilerHostGetNumOfPasses == NULL
      || ws_cupti_api.ProfilerHostGetSupportedChips == NULL
      || ws_cupti_api.ProfilerHostEvaluateToGpuValues == NULL
      || ((needs & WS_CUPTI_NEED_RANGE_PROFILER)
          && (ws_cupti_api.RangeProfilerEnable == NULL || ws_cupti_api.ProfilerInitialize == NULL
              || ws_cupti_api.DeviceGetChipName == NULL)))
    {
      snprintf (message, len, "this CUPTI (API version %u) has no Range Profiler: hardware "
                "counters need CUDA 12.6 or later", ws_cupti_api_version ());
      return 0;
    }
  return 1;
}

static int
host_api_loaded (char *message, size_t len)
{
  return _ws_counters_api_loaded (WS_CUPTI_NEED_PROFILER_HOST, message, len);
}

int
ws_counters_supported_chips (char *out, size_t len)
{
  CUpti_Profiler_Host_GetSupportedChips_Params p = {
    CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE
  };
  char message[400];
  size_t used = 0;

  if (len == 0 || !host_api_loaded (message, sizeof message)
      || ws_cupti_api.ProfilerHostGetSupportedChips (&p) != CUPTI_SUCCESS)
    return 0;
  out[0] = '\0';
  for (size_t i = 0; i < p.numChips && used + 1 < len; i++)
    used += (size_t) snprintf (out + used, len - used, "%s%s", i ? " " : "", p.ppChipNames[i]);
  return 1;
}

static int
chip_supported (const char *chip)
{
  CUpti_Profiler_Host_GetSupportedChips_Params p = {
    CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE
  };

  if (ws_cupti_api.ProfilerHostGetSupportedChips (&p) != CUPTI_SUCCESS)
    return 1; /* cannot tell: let Initialize say */
  for (size_t i = 0; i < p.numChips; i++)
    if (strcmp (p.ppChipNames[i], chip) == 0)
      return 1;
  return 0;
}

static CUpti_Profiler_Host_Object *
host_new (const char *chip)
{
  CUpti_Profiler_Host_Initialize_Params p = { CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };

  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip;
  return ws_cupti_api.ProfilerHostInitialize (&p) == CUPTI_SUCCESS ? p.pHostObject : NULL;
}

void
_ws_counters_host_free (CUpti_Profiler_Host_Object *host)
{
  CUpti_Profiler_Host_Deinitialize_Params p = {
    CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE
  };

  if (host == NULL)
    return;
  p.pHostObject = host;
  ws_cupti_api.ProfilerHostDeinitialize (&p);
}

static CUptiResult
add_metrics (CUpti_Profiler_Host_Object *host, const char **names, size_t n)
{
  CUpti_Profiler_Host_ConfigAddMetrics_Params p = {
    CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE
  };

  p.pHostObject = host;
  p.ppMetricNames = names;
  p.numMetrics = n;
  return ws_cupti_api.ProfilerHostConfigAddMetrics (&p);
}

CUpti_Profiler_Host_Object *
_ws_counters_host_new (const char *chip, const char **names, size_t n)
{
  CUpti_Profiler_Host_Object *host = host_new (chip);

  if (host != NULL && add_metrics (host, names, n) != CUPTI_SUCCESS)
    {
      _ws_counters_host_free (host);
      return NULL;
    }
  return host;
}

/* A host object refuses everything after one metric it does not know: each is tried in one of
 * its own, to name the first the chip lacks. */
static const char *
first_unknown (const char *chip, const char **names, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      CUpti_Profiler_Host_Object *host = host_new (chip);
      CUptiResult r = host ? add_metrics (host, &names[i], 1) : CUPTI_ERROR_UNKNOWN;

      _ws_counters_host_free (host);
      if (r != CUPTI_SUCCESS)
        return names[i];
    }
  return NULL;
}

WsCountersStatus
ws_counters_config_build (const char *chip, unsigned groups, WsCountersConfig *config,
                          char *message, size_t len)
{
  const char *names[64];
  size_t n = ws_counters_select (groups, names, sizeof names / sizeof names[0]);
  CUpti_Profiler_Host_Object *host;
  CUpti_Profiler_Host_GetConfigImageSize_Params size = {
    CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE
  };
  CUpti_Profiler_Host_GetConfigImage_Params image = {
    CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE
  };
  CUpti_Profiler_Host_GetNumOfPasses_Params passes = {
    CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE
  };
  CUptiResult r;

  memset (config, 0, sizeof *config);
  if (!host_api_loaded (message, len))
    return WS_COUNTERS_NO_CUPTI;
  if (!chip_supported (chip) || (host = host_new (chip)) == NULL)
    {
      char chips[600] = "";

      ws_counters_supported_chips (chips, sizeof chips);
      snprintf (message, len, "CUPTI %u reads no counters of the chip %s; it knows %s",
                ws_cupti_api_version (), chip, *chips ? chips : "no chip");
      return WS_COUNTERS_UNKNOWN_CHIP;
    }
  if ((r = add_metrics (host, names, n)) != CUPTI_SUCCESS)
    {
      const char *bad = first_unknown (chip, names, n);

      _ws_counters_host_free (host);
      if (bad != NULL)
        {
          snprintf (message, len, "the chip %s has no counter %s (CUPTI %u)", chip, bad,
                    ws_cupti_api_version ());
          return WS_COUNTERS_BAD_METRIC;
        }
      snprintf (message, len, "CUPTI refused the counters for %s: %s", chip,
                ws_cupti_api_result_string (r));
      return WS_COUNTERS_FAILED;
    }
  size.pHostObject = host;
  r = ws_cupti_api.ProfilerHostGetConfigImageSize (&size);
  if (r == CUPTI_SUCCESS && size.configImageSize > 0
      && (config->image = malloc (size.configImageSize)) != NULL)
    {
      image.pHostObject = host;
      image.configImageSize = size.configImageSize;
      image.pConfigImage = config->image;
      r = ws_cupti_api.ProfilerHostGetConfigImage (&image);
    }
  else if (r == CUPTI_SUCCESS)
    r = CUPTI_ERROR_OUT_OF_MEMORY;
  _ws_counters_host_free (host);
  if (r == CUPTI_SUCCESS)
    {
      passes.configImageSize = size.configImageSize;
      passes.pConfigImage = config->image;
      r = ws_cupti_api.ProfilerHostGetNumOfPasses (&passes);
    }
  if (r != CUPTI_SUCCESS)
    {
      ws_counters_config_clear (config);
      snprintf (message, len, "CUPTI could not build the counters' configuration for %s: %s",
                chip, ws_cupti_api_result_string (r));
      return WS_COUNTERS_FAILED;
    }
  config->image_size = size.configImageSize;
  config->passes = passes.numOfPasses;
  config->n_metrics = n;
  return WS_COUNTERS_OK;
}

void
ws_counters_config_clear (WsCountersConfig *config)
{
  free (config->image);
  memset (config, 0, sizeof *config);
}
