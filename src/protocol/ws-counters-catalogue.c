/* ws-counters-catalogue.c: the counters' catalogue, in the order the record writes them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-counters-catalogue.h"

#include <string.h>

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

int
ws_counters_index (const char *key)
{
  for (size_t i = 0; key != NULL && i < sizeof metrics / sizeof metrics[0]; i++)
    if (strcmp (metrics[i].key, key) == 0)
      return (int) i;
  return -1;
}
