/* ws-counters.c: the counters' catalogue and their configuration for a chip through CUPTI's
 * Profiler Host API (loaded with the rest of CUPTI by ws-cupti-api.c), on the host alone.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-counters-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-cupti-api.h"

#define B WS_COUNTERS_BASIC
#define M WS_COUNTERS_MEMORY
#define S WS_COUNTERS_STALLS
#define X WS_COUNTERS_EXTRA
#define STALL(reason)                                                                        \
  { "stall_" #reason, "smsp__average_warps_issue_stalled_" #reason "_per_issue_active.ratio", \
    WS_COUNTER_RATIO, S }

/* Each name checked against the Profiler Host API for GH100 (tests/test-counters.c) and read by
 * `ncu --metrics NAME` the same way. */
static const WsCounterMetric metrics[] = {
  /* what the hardware did against what theory said it could */
  { "achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", WS_COUNTER_PERCENT, B },
  { "issue_active", "sm__issue_active.avg.pct_of_peak_sustained_active", WS_COUNTER_PERCENT, B },
  /* Nsight Compute's "Speed of Light": the busiest unit of the SM and of the memory system.
   * Each is the highest of many units' throughputs and takes 5 to 8 kernel replays on GH100
   * (basic takes 2 without them): in `all` only. */
  { "sm_throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed", WS_COUNTER_PERCENT, X },
  { "memory_throughput", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    WS_COUNTER_PERCENT, X },
  { "dram_throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed", WS_COUNTER_PERCENT, B },
  { "dram_bytes_read", "dram__bytes_read.sum", WS_COUNTER_BYTES, B },
  { "dram_bytes_write", "dram__bytes_write.sum", WS_COUNTER_BYTES, B },
  { "duration", "gpu__time_duration.sum", WS_COUNTER_NS, B },
  { "threads_per_instruction", "smsp__thread_inst_executed_per_inst_executed.ratio",
    WS_COUNTER_RATIO, B },
  { "instructions", "smsp__inst_executed.sum", WS_COUNTER_COUNT, B },
  /* executed floating-point instructions, per thread: FLOP = add + mul + 2 × fma */
  { "fp32_add", "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", WS_COUNTER_COUNT, B },
  { "fp32_mul", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", WS_COUNTER_COUNT, B },
  { "fp32_fma", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", WS_COUNTER_COUNT, B },
  { "fp64_add", "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", WS_COUNTER_COUNT, X },
  { "fp64_mul", "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", WS_COUNTER_COUNT, X },
  { "fp64_fma", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", WS_COUNTER_COUNT, X },
  { "fp16_add", "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", WS_COUNTER_COUNT, X },
  { "fp16_mul", "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", WS_COUNTER_COUNT, X },
  { "fp16_fma", "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", WS_COUNTER_COUNT, X },
  /* the memory hierarchy: caches, coalescing, shared memory's banks */
  { "l1_hit_rate", "l1tex__t_sector_hit_rate.pct", WS_COUNTER_PERCENT, M },
  { "l2_hit_rate", "lts__t_sector_hit_rate.pct", WS_COUNTER_PERCENT, M },
  { "global_load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", WS_COUNTER_COUNT, M },
  { "global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", WS_COUNTER_COUNT, M },
  { "global_store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", WS_COUNTER_COUNT, M },
  { "global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", WS_COUNTER_COUNT,
    M },
  { "shared_load_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    WS_COUNTER_COUNT, M },
  { "shared_store_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    WS_COUNTER_COUNT, M },
  { "shared_load_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    WS_COUNTER_COUNT, M },
  { "shared_store_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    WS_COUNTER_COUNT, M },
  /* stalls: warps waiting per issued instruction, in all and by reason (their shares) */
  { "stall_total", "smsp__average_warp_latency_per_inst_issued.ratio", WS_COUNTER_RATIO, S },
  STALL (long_scoreboard),
  STALL (barrier),
  STALL (mio_throttle),
  STALL (lg_throttle),
  STALL (math_pipe_throttle),
  STALL (not_selected),
  STALL (wait),
  STALL (short_scoreboard),
  STALL (membar),
  STALL (branch_resolving),
  STALL (dispatch_stall),
  STALL (drain),
  STALL (imc_miss),
  STALL (no_instruction),
  STALL (selected),
  STALL (sleeping),
  STALL (tex_throttle),
};

const WsCounterMetric *
ws_counters_metrics (size_t *n)
{
  *n = sizeof metrics / sizeof metrics[0];
  return metrics;
}

int
ws_counters_parse_groups (const char *text, unsigned *groups)
{
  static const struct
  {
    const char *name;
    unsigned bits;
  } names[] = {
    { "basic", WS_COUNTERS_BASIC },
    { "memory", WS_COUNTERS_MEMORY },
    { "stalls", WS_COUNTERS_STALLS },
    { "all", WS_COUNTERS_ALL },
  };
  const char *p = text;

  *groups = 0;
  /* Every word one of them: an empty one too ("basic,") is a mistake to say. */
  while (p != NULL)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      int found = 0;

      for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen (names[i].name) == len && strncmp (names[i].name, p, len) == 0)
          {
            *groups |= names[i].bits;
            found = 1;
          }
      if (!found)
        return 0;
      p = comma ? comma + 1 : NULL;
    }
  return *groups != 0;
}

size_t
ws_counters_select (unsigned groups, const char **names, size_t max)
{
  size_t n = 0;

  for (size_t i = 0; i < sizeof metrics / sizeof metrics[0] && n < max; i++)
    if (metrics[i].groups & groups)
      names[n++] = metrics[i].metric;
  return n;
}

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
  const char *names[sizeof metrics / sizeof metrics[0]];
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
