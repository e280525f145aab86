/* ws-analysis-launch.c: a sweep's run as the launch rules read it (ws-analysis-kernel.c):
 * its launch record, its timing and the idle time between back-to-back launches; what the
 * launch rules share, and the speed-of-light comparison with the device's ceilings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ws-occupancy.h"

/* ---- occupancy --------------------------------------------------------------------------- */

const char *
_ws_limiter_words (WsLimiter limiter)
{
  switch (limiter)
    {
    case WS_LIMITER_WARPS:
      return _("warps per SM");
    case WS_LIMITER_BLOCKS:
      return _("blocks per SM");
    case WS_LIMITER_REGISTERS:
      return _("registers");
    case WS_LIMITER_SHARED_MEMORY:
      return _("shared memory");
    default:
      return _("a resource this version does not know");
    }
}

WsSeverity
_ws_occupancy_severity (double occupancy)
{
  if (occupancy < _ws_threshold (WS_T_OCCUPANCY_VERY_LOW))
    return WS_SEVERITY_HIGH;
  if (occupancy < _ws_threshold (WS_T_OCCUPANCY_POOR))
    return WS_SEVERITY_MEDIUM;
  return WS_SEVERITY_LOW;
}

double
_ws_tail_idle (double waves)
{
  double full = floor (waves);

  if (full < 1 || full > _ws_threshold (WS_T_TAIL_MAX_FULL_WAVES) || waves - full < 1e-9)
    return -1;
  return (ceil (waves) - waves) / ceil (waves);
}

static const char *
limiter_short (const char *limiter)
{
  WsLimiter l;

  if (limiter == NULL)
    return _("a resource the runner did not name");
  if (!ws_limiter_from_name (limiter, &l))
    return _("a resource this version does not know");
  return _ws_limiter_words (l);
}

/* ---- launch overhead --------------------------------------------------------------------- */

gboolean
_ws_run_is_launch_bound (WsRun *run)
{
  double ns = ws_run_get_kernel_ns (run);

  return ns > 0 && ns < _ws_threshold (WS_T_LAUNCH_OVERHEAD) * 1e3;
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median idle time between back-to-back launches, as CUPTI saw it; 0 when unknown. */
static double
launch_gap (WsRun *run)
{
  guint n;
  const WsSpan *act = ws_run_get_activities (run, &n);
  g_autoptr (GArray) gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  const WsSpan *prev = NULL;

  for (guint i = 0; i < n; i++)
    {
      if (act[i].kind != WS_ACTIVITY_KERNEL || act[i].phase != WS_PHASE_KERNELS)
        continue;
      if (prev != NULL && act[i].start >= prev->end)
        {
          gint64 gap = act[i].start - prev->end;

          g_array_append_val (gaps, gap);
        }
      prev = &act[i];
    }
  if (gaps->len == 0)
    return 0;
  g_array_sort (gaps, compare_gint64);
  return (double) g_array_index (gaps, gint64, gaps->len / 2);
}

/* ---- a run's launch, as the launch rules read it ----------------------------------------- */

/* What the GPU's counters say of the launch, where they were read. */
static void
counted_facts (const WsCounters *c, WsLaunchFacts *k)
{
  double achieved = ws_counters_get (c, "achieved_occupancy");

  k->counters = c;
  k->stall_barrier = ws_counters_get (c, "stall_barrier");
  k->stall_total = ws_counters_get (c, "stall_total");
  if (!isfinite (achieved) || achieved <= 0 || achieved > 100)
    return;
  k->has_achieved = TRUE;
  k->achieved_occupancy = achieved / 100;
}

void
_ws_launch_facts_of_run (WsAnalysis *a, WsRun *run, WsLaunchFacts *k)
{
  const WsLaunch *l = ws_run_get_launch (run);
  const WsRunConfig *c = ws_run_get_config (run);
  const guint *g = c->grid;
  guint64 product;

  memset (k, 0, sizeof *k);
  k->run = run;
  k->device = a->device;
  k->kernel_ns = ws_run_get_kernel_ns (run);
  if (ws_run_get_timing (run) != NULL && ws_run_get_timing (run)->kernel.n > 0)
    k->launches = ws_run_get_timing (run)->kernel.n;
  /* Told only of a launch-bound kernel: not worked out for each of thousands of runs. */
  if (_ws_run_is_launch_bound (run))
    k->gap_ns = launch_gap (run);
  k->threads = c->threads_per_block;
  memcpy (k->block, c->block, sizeof k->block);
  k->has_block = c->has_block;
  /* Three 32-bit dimensions can multiply past 2^63: a grid of more blocks than a launch
   * record may give (2^53, ws-session-ranges.c) is not judged. */
  if (!g_uint64_checked_mul (&product, g[0], g[1])
      || !g_uint64_checked_mul (&product, product, g[2]))
    product = G_MAXUINT64;
  if (l && l->blocks > 0)
    k->blocks = l->blocks;
  else if (c->has_grid && product <= G_GUINT64_CONSTANT (1) << 53)
    k->blocks = (gint64) product;
  counted_facts (ws_run_get_counters (run), k);
  if (l == NULL)
    return;
  k->registers = l->registers;
  k->smem = l->static_smem + l->dynamic_smem;
  k->kernel_max_threads = l->kernel_max_threads;
  k->has_occupancy = TRUE;
  k->occupancy.occupancy = l->occupancy;
  k->occupancy.warps_per_block = l->warps_per_block;
  k->occupancy.active_blocks = l->active_blocks_per_sm;
  k->occupancy.active_warps = l->active_warps_per_sm;
  k->occupancy.max_warps = l->max_warps_per_sm;
  k->occupancy.limit_blocks = l->limit_blocks;
  /* A limiter of a later protocol gets the general words. */
  k->limiter_known = l->limiter != NULL && ws_limiter_from_name (l->limiter, &k->occupancy.limiter);
  k->limiter_words = limiter_short (l->limiter);
}

/* ---- speed of light ---------------------------------------------------------------------- */

void
_ws_check_ceiling (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsRunConfig *c = ws_run_get_config (run);
  const WsLaunch *l = ws_run_get_launch (run);
  double fraction, ceiling, ns = ws_run_get_kernel_ns (run);
  double ridge = ws_analysis_get_ridge_point (a->device);
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  WsCeiling which;
  WsFinding *f;

  /* A launch-bound kernel is held back by its launch, not by memory or arithmetic. */
  if (_ws_run_is_launch_bound (run))
    return;
  which = _ws_analysis_get_ceiling (a, run, &fraction, &ceiling);
  if (which == WS_CEILING_NONE || fraction >= _ws_threshold (WS_T_SPEED_OF_LIGHT))
    return;
  f = _ws_finding_new (which == WS_CEILING_COPY_BANDWIDTH ? WS_FINDING_BELOW_BANDWIDTH
                                                          : WS_FINDING_BELOW_COMPUTE,
                       fraction < _ws_threshold (WS_T_SPEED_OF_LIGHT_POOR) ? WS_SEVERITY_MEDIUM
                                                                          : WS_SEVERITY_LOW,
                       run, fraction, _ws_threshold (WS_T_SPEED_OF_LIGHT));
  _ws_fmt_percent (x3, fraction);
  _ws_fmt_number (x4, ws_run_get_intensity (run));
  _ws_fmt_number (x5, ridge);
  if (which == WS_CEILING_COPY_BANDWIDTH)
    {
      _ws_finding_title (f, _("Below the memory ceiling: %s, %s of what this GPU copies"),
                         _ws_fmt_gbs (x1, ws_run_get_gbs (run)), x3);
      _ws_finding_numbers (f, _("The kernel moves at least %s in %s: %s."),
                           _ws_fmt_bytes (x1, c->bytes), _ws_fmt_time (x2, ns),
                           _ws_fmt_gbs (x5, ws_run_get_gbs (run)));
      _ws_finding_numbers (f, _("This GPU copies %s device to device (measured when the session "
                             "started): the kernel reaches %s."),
                           _ws_fmt_gbs (x1, ceiling), x3);
      _ws_finding_cache_note (f, run);
      _ws_fmt_number (x5, ridge);
      if (c->flops > 0 && ridge > 0)
        _ws_finding_cause (f, _("At %s FLOP per byte, below this GPU's ridge point (%s FLOP per "
                             "byte), the kernel is memory-bound: its memory traffic sets its "
                             "speed."),
                           x4, x5);
      else
        _ws_finding_cause (f, _("The kernel is memory-bound: its memory traffic sets its speed."));
      _ws_finding_cause (f, _("Below %s of the copy rate, memory sits idle part of the time: too "
                           "few loads in flight, scattered accesses that waste part of each "
                           "transfer, or too little work per launch."),
                         _ws_fmt_percent (x1, _ws_threshold (WS_T_SPEED_OF_LIGHT)));
      if (l != NULL && l->occupancy > 0 && l->occupancy < _ws_threshold (WS_T_OCCUPANCY_LOW))
        _ws_finding_cause (f, _("Its occupancy is %s, so fewer warps keep loads in flight."),
                           _ws_fmt_percent (x1, l->occupancy));
      _ws_finding_fix (f, _("Keep enough warps on each SM (full occupancy), let neighbouring "
                         "threads read neighbouring addresses, and read each value once."));
    }
  else
    {
      if (which == WS_CEILING_CUBLAS)
        _ws_finding_title (f, _("Below the compute ceiling: %s, %s of cuBLAS"),
                           _ws_fmt_gflops (x1, ws_run_get_gflops (run)), x3);
      else
        _ws_finding_title (f, _("Below the compute ceiling: %s, %s of the FP32 peak"),
                           _ws_fmt_gflops (x1, ws_run_get_gflops (run)), x3);
      _ws_finding_numbers (f, _("The kernel does %s in %s: %s."), _ws_fmt_flops (x1, c->flops),
                           _ws_fmt_time (x2, ns), _ws_fmt_gflops (x3, ws_run_get_gflops (run)));
      _ws_fmt_percent (x3, fraction);
      if (which == WS_CEILING_CUBLAS)
        _ws_finding_numbers (f, _("cuBLAS SGEMM reaches %s on this GPU at the same size: the "
                               "kernel reaches %s of it."),
                             _ws_fmt_gflops (x1, ceiling), x3);
      else
        _ws_finding_numbers (f, _("The theoretical FP32 peak of this GPU is %s (%d SMs × %d lanes "
                               "× 2 FLOP × %.2f GHz): the kernel reaches %s."),
                             _ws_fmt_gflops (x1, ceiling), a->device->sm_count,
                             a->device->fp32_lanes_per_sm, a->device->sm_clock_khz / 1e6, x3);
      _ws_finding_cache_note (f, run);
      _ws_finding_cause (f, _("At %s FLOP per byte, above this GPU's ridge point (%s FLOP per "
                           "byte), arithmetic and not memory should set this kernel's speed."),
                         x4, x5);
      _ws_finding_cause (f, _("Far below the ceiling, the SMs wait: usually for values read again "
                           "and again from global or shared memory instead of being reused from "
                           "registers."));
      if (which == WS_CEILING_FP32_PEAK)
        _ws_finding_cause (f, _("The peak counts every lane doing a fused multiply-add every "
                             "cycle: tuned libraries come close, hand-written kernels rarely do."));
      _ws_finding_fix (f, _("Reuse every value you load: stage tiles in shared memory, compute "
                         "several outputs per thread from registers, and make the tiles as large "
                         "as occupancy allows. For matrix products, cuBLAS is the reference."));
    }
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  g_ptr_array_add (out, f);
}
