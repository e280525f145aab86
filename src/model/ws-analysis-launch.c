/* ws-analysis-launch.c: findings about how a kernel is launched and how fast it runs:
 * occupancy, partial warps, the grid against the SMs, launch overhead, and the speed-of-light
 * comparison with the device's ceilings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <inttypes.h>
#include <math.h>

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

static gboolean
occupancy_of (const WsArchLimits *arch, int threads, int registers, int smem, WsOccupancy *out)
{
  WsOccupancyInput in = { threads, registers, smem };

  return ws_occupancy_compute (arch, &in, out, NULL) && out->active_blocks > 0;
}

/* The multiples of the warp size nearest to `threads` below and above (0: none) that reach
 * the best occupancy any block size reaches with these registers and shared memory. */
static double
best_block_sizes (const WsArchLimits *arch, const WsLaunch *l, int smem, int *below, int *above)
{
  int most = arch->max_threads_per_block;
  double best = 0;
  WsOccupancy o;

  if (l->kernel_max_threads > 0)
    most = MIN (most, l->kernel_max_threads);
  *below = *above = 0;
  for (int t = arch->warp_size; t <= most; t += arch->warp_size)
    if (occupancy_of (arch, t, l->registers, smem, &o))
      best = MAX (best, o.occupancy);
  for (int t = arch->warp_size; t <= most; t += arch->warp_size)
    if (t != l->threads_per_block && occupancy_of (arch, t, l->registers, smem, &o)
        && o.occupancy >= best - 1e-9)
      {
        if (t < l->threads_per_block)
          *below = t;
        else if (*above == 0)
          *above = t;
      }
  return best;
}

void
_ws_check_occupancy (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsLaunch *l = ws_run_get_launch (run);
  const WsArchLimits *arch = a->device && a->device->sm ? ws_arch_limits_lookup (a->device->sm)
                                                      : NULL;
  char pct[WS_FMT_LEN], x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  WsFinding *f;
  int smem;
  WsLimiter limiter;
  gboolean known;

  if (l == NULL || l->occupancy <= 0 || l->occupancy >= _ws_threshold (WS_T_OCCUPANCY_LOW))
    return;
  /* A limiter of a later protocol gets the general words. */
  known = l->limiter != NULL && ws_limiter_from_name (l->limiter, &limiter);
  smem = l->static_smem + l->dynamic_smem;

  f = _ws_finding_new (WS_FINDING_UNDER_OCCUPIED, _ws_occupancy_severity (l->occupancy), run,
                       l->occupancy, _ws_threshold (WS_T_OCCUPANCY_LOW));
  _ws_fmt_percent (pct, l->occupancy);
  /* Translators: the share of warp slots in use ("50%"), then what limits it ("registers"). */
  _ws_finding_title (f, _("Under-occupied: %s of the warp slots, limited by %s"), pct,
                     limiter_short (l->limiter));
  if (l->active_blocks_per_sm > 0 && l->max_warps_per_sm > 0)
    _ws_finding_numbers (f, _("Each SM holds %d blocks of %d threads: %d of its %d warp slots are "
                           "used (%s)."),
                         l->active_blocks_per_sm, l->threads_per_block, l->active_warps_per_sm,
                         l->max_warps_per_sm, pct);
  else
    _ws_finding_numbers (f, _("The theoretical occupancy is %s."), pct);

  switch (known ? (int) limiter : -1)
    {
    case WS_LIMITER_BLOCKS:
      {
        int warp = a->device && a->device->warp_size > 0 ? a->device->warp_size : 32;
        int need = l->limit_blocks > 0 ? (l->max_warps_per_sm + l->limit_blocks - 1)
                                           / l->limit_blocks * warp
                                       : 0;

        _ws_finding_cause (f, _("An SM runs at most %d blocks at once, however small they are."),
                           l->limit_blocks);
        _ws_finding_cause (f, _("With %d threads per block, %d blocks fill only %d of the %d warp "
                             "slots."),
                           l->threads_per_block, l->active_blocks_per_sm,
                           l->active_warps_per_sm, l->max_warps_per_sm);
        if (need > l->threads_per_block)
          _ws_finding_fix (f, _("Use blocks of at least %d threads: then %d blocks fill all %d "
                             "warp slots."),
                           need, l->limit_blocks, l->max_warps_per_sm);
        else
          _ws_finding_fix (f, _("Use larger blocks, so that the blocks an SM can hold bring "
                             "enough warps."));
        break;
      }
    case WS_LIMITER_WARPS:
      _ws_finding_cause (f, _("An SM holds %d warps. Blocks of %d warps fit %d times (%d warps); "
                           "the %d warp slots left over cannot take another block."),
                         l->max_warps_per_sm, l->warps_per_block, l->active_blocks_per_sm,
                         l->active_warps_per_sm, l->max_warps_per_sm - l->active_warps_per_sm);
      break;
    case WS_LIMITER_REGISTERS:
      {
        WsOccupancy o;
        int per_block = l->registers * l->threads_per_block;

        if (arch != NULL && occupancy_of (arch, l->threads_per_block, l->registers, smem, &o))
          per_block = o.regs_per_block;
        _ws_finding_cause (f, _("Each thread uses %d registers, so a block of %d threads needs "
                             "%s of the SM's %s registers: %d blocks fit (%d warps)."),
                           l->registers, l->threads_per_block, _ws_fmt_count (x1, per_block),
                           _ws_fmt_count (x2, a->device ? a->device->regs_per_sm : 65536),
                           l->active_blocks_per_sm, l->active_warps_per_sm);
        break;
      }
    case WS_LIMITER_SHARED_MEMORY:
      _ws_finding_cause (f, _("Each block uses %s of shared memory and an SM has %s: %d blocks "
                           "fit (%d warps)."),
                         _ws_fmt_kib (x1, smem),
                         _ws_fmt_kib (x2, a->device ? a->device->smem_per_sm : 0),
                         l->active_blocks_per_sm, l->active_warps_per_sm);
      break;
    default:
      _ws_finding_cause (f, _("Occupancy is limited by %s."), limiter_short (l->limiter));
      break;
    }
  _ws_finding_cause (f, _("Fewer warps in flight hide less of the time each warp waits for "
                       "memory."));

  if (arch != NULL && known && limiter == WS_LIMITER_WARPS)
    {
      int below, above;
      double best = best_block_sizes (arch, l, smem, &below, &above);

      /* Suggested only when some block size does better with these resources. */
      if (best <= l->occupancy + 1e-9)
        below = above = 0;
      _ws_fmt_percent (x3, best);
      if (below > 0 && above > 0)
        _ws_finding_fix (f, _("Pick a block size whose warps divide %d: blocks of %d or %d "
                           "threads reach %s here."),
                         l->max_warps_per_sm, below, above, x3);
      else if (below > 0 || above > 0)
        _ws_finding_fix (f, _("Pick a block size whose warps divide %d: blocks of %d threads "
                           "reach %s here."),
                         l->max_warps_per_sm, MAX (below, above), x3);
    }
  else if (arch != NULL && known && limiter == WS_LIMITER_REGISTERS)
    {
      WsOccupancy o, best = { 0 };
      int at = 0;

      for (int r = l->registers - 1; r >= 1; r--)
        if (occupancy_of (arch, l->threads_per_block, r, smem, &o)
            && o.occupancy > best.occupancy + 1e-9)
          best = o, at = r;
      if (at > 0)
        _ws_finding_fix (f, _("With at most %d registers per thread, %d blocks would fit (%s): "
                           "cap them with __launch_bounds__ or -maxrregcount, and check that "
                           "nothing spills to local memory."),
                         at, best.active_blocks, _ws_fmt_percent (x3, best.occupancy));
    }
  else if (arch != NULL && known && limiter == WS_LIMITER_SHARED_MEMORY)
    {
      WsOccupancy o, best = { 0 };
      int at = -1;

      for (int s = smem - arch->smem_alloc_unit; s >= 0; s -= arch->smem_alloc_unit)
        if (occupancy_of (arch, l->threads_per_block, l->registers, s, &o)
            && o.occupancy > best.occupancy + 1e-9)
          best = o, at = s;
      if (at >= 0)
        _ws_finding_fix (f, _("With at most %s of shared memory per block, %d blocks would fit "
                           "(%s): use smaller tiles, or a smaller type for what they hold."),
                         _ws_fmt_kib (x1, at), best.active_blocks,
                         _ws_fmt_percent (x3, best.occupancy));
    }
  if (f->fix == NULL)
    _ws_finding_fix (f, _("Change the block size or the resources each block uses; the occupancy "
                       "chart shows which sizes fill the SM."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  g_ptr_array_add (out, f);
}

void
_ws_check_partial_warp (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsRunConfig *c = ws_run_get_config (run);
  int warp = a->device && a->device->warp_size > 0 ? a->device->warp_size : 32;
  guint threads = c->threads_per_block, warps, lanes;
  char pct[WS_FMT_LEN], block[WS_FMT_LEN];
  double idle;
  WsFinding *f;

  /* Library kernels (cuBLAS) choose their own blocks and grid: their run records have none. */
  if (threads == 0 || threads % warp == 0 || !c->has_block)
    return;
  warps = (threads + warp - 1) / warp;
  lanes = warps * warp;
  idle = (double) (lanes - threads) / lanes;
  f = _ws_finding_new (WS_FINDING_PARTIAL_WARP,
                       idle >= _ws_threshold (WS_T_PARTIAL_WARP_MEDIUM) ? WS_SEVERITY_MEDIUM
                                                                         : WS_SEVERITY_LOW,
                       run, idle, 0);
  _ws_fmt_percent (pct, idle);
  _ws_fmt_block (block, run);
  _ws_finding_title (f, _("Partial warp: blocks of %u threads leave %s of their lanes idle"),
                     threads, pct);
  _ws_finding_numbers (f, _("A block of %u threads (%s) gets %u lanes in whole warps: %u of them "
                         "(%s) do nothing."),
                       threads, block, lanes, lanes - threads, pct);
  _ws_finding_cause (f, _("The GPU runs threads in warps of %d. A block whose size is not a "
                       "multiple of %d still gets whole warps, and its last warp runs with idle "
                       "lanes."),
                     warp, warp);
  if (threads > (guint) warp)
    _ws_finding_fix (f, _("Use a multiple of %d threads per block, such as %u or %u; for a 2D "
                       "block, make width × height a multiple of %d (16×16, 32×8)."),
                     warp, threads / warp * warp, lanes, warp);
  else
    _ws_finding_fix (f, _("Use a multiple of %d threads per block, such as %u; for a 2D block, "
                       "make width × height a multiple of %d (16×16, 32×8)."),
                     warp, lanes, warp);
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  g_ptr_array_add (out, f);
}

/* ---- the grid against the SMs ------------------------------------------------------------ */

static void
check_small_grid (WsAnalysis *a, WsRun *run, gint64 blocks, GPtrArray *out)
{
  const WsLaunch *l = ws_run_get_launch (run);
  const WsRunConfig *c = ws_run_get_config (run);
  int sm = a->device->sm_count;
  double high = _ws_threshold (WS_T_SMALL_GRID_HIGH), low = _ws_threshold (WS_T_SMALL_GRID_LOW);
  int warp = a->device->warp_size > 0 ? a->device->warp_size : 32;
  char n[WS_FMT_LEN];
  WsFinding *f;

  if (blocks >= low * sm)
    return;
  f = _ws_finding_new (WS_FINDING_SMALL_GRID,
                       blocks < high * sm ? WS_SEVERITY_HIGH : WS_SEVERITY_LOW, run,
                       (double) blocks / sm, blocks < high * sm ? high : low);
  _ws_finding_title (f, _("Small grid: %" PRId64 " blocks for %d SMs"), blocks, sm);
  if (blocks < high * sm)
    _ws_finding_numbers (f, _("The grid has %" PRId64 " blocks and the GPU has %d SMs: "
                           "%" PRId64 " SMs have nothing to do."),
                         blocks, sm, sm - blocks);
  else
    {
      int per_sm = (int) ((blocks + sm - 1) / sm);
      int warps = l ? l->warps_per_block : (int) (c->threads_per_block + warp - 1) / warp;
      int max_warps = l && l->max_warps_per_sm > 0 ? l->max_warps_per_sm
                                                    : a->device->max_threads_per_sm / warp;

      _ws_finding_numbers (f, _("The grid has %" PRId64 " blocks for %d SMs: at most %d "
                             "per SM, which brings %d of its %d warp slots."),
                           blocks, sm, per_sm, MIN (per_sm * warps, max_warps), max_warps);
    }
  _ws_finding_cause (f, _("A block runs on one SM. With fewer blocks than SMs, some SMs stay "
                       "idle; with fewer than two per SM, each SM has too few warps to hide the "
                       "time they wait for memory."));
  {
    /* The smallest block that can still fill an SM under the cap on blocks per SM. */
    int max_blocks = a->device->max_blocks_per_sm > 0 ? a->device->max_blocks_per_sm : 32;
    int max_warps = a->device->max_threads_per_sm / warp;
    guint small = (guint) ((max_warps + max_blocks - 1) / max_blocks * warp);
    double more = small > 0 ? ceil ((double) blocks * c->threads_per_block / small) : 0;

    if (small > 0 && small < c->threads_per_block && more > blocks)
      _ws_finding_fix (f, _("Smaller blocks make more of them: with %u threads per block this "
                         "problem makes %s blocks."),
                       small, _ws_fmt_count (n, more));
  }
  _ws_finding_fix (f, _("If the problem itself is this small, the GPU cannot be filled: give each "
                     "launch more work (several problems at once) or leave it to the CPU."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  g_ptr_array_add (out, f);
}

static void
check_tail (WsAnalysis *a, WsRun *run, gint64 blocks, GPtrArray *out)
{
  const WsLaunch *l = ws_run_get_launch (run);
  double waves, last, idle;
  gint64 per_wave;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsFinding *f;

  if (l == NULL || l->active_blocks_per_sm <= 0)
    return;
  per_wave = (gint64) l->active_blocks_per_sm * a->device->sm_count;
  waves = (double) blocks / per_wave;
  last = waves - floor (waves);
  idle = _ws_tail_idle (waves);
  if (idle < 0 || idle < _ws_threshold (WS_T_TAIL_IDLE))
    return;
  f = _ws_finding_new (WS_FINDING_TAIL_EFFECT, WS_SEVERITY_LOW, run, idle,
                       _ws_threshold (WS_T_TAIL_IDLE));
  _ws_finding_title (f, _("Tail effect: the last of %.0f waves is %s full"), ceil (waves),
                     _ws_fmt_percent (x1, last));
  _ws_finding_numbers (f, _("The grid's %" PRId64 " blocks make %.2f waves of %" PRId64
                         " blocks (%d per SM × %d SMs)."),
                       blocks, waves, per_wave, l->active_blocks_per_sm, a->device->sm_count);
  _ws_finding_numbers (f, _("The last wave keeps %s of the SMs busy, so %s of the SMs' time is "
                         "idle."),
                       _ws_fmt_percent (x1, last), _ws_fmt_percent (x2, idle));
  _ws_finding_cause (f, _("Blocks start in waves: as many as fit on all SMs at once. When the "
                       "last wave is partial, most SMs finish early and wait for the few still "
                       "working."));
  _ws_finding_fix (f, _("Size the grid in whole waves (a multiple of %" PRId64
                     " blocks), or give it many waves (more work per launch), so that a partial "
                     "one matters less."),
                   per_wave);
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  g_ptr_array_add (out, f);
}

void
_ws_check_grid (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsLaunch *l = ws_run_get_launch (run);
  const guint *g = ws_run_get_config (run)->grid;
  guint64 product;
  gint64 blocks;

  /* Three 32-bit dimensions can multiply past 2^63: a grid of more blocks than a launch
   * record may give (2^53, ws-session-ranges.c) is not judged. */
  if (!g_uint64_checked_mul (&product, g[0], g[1])
      || !g_uint64_checked_mul (&product, product, g[2]))
    product = G_MAXUINT64;
  if (l && l->blocks > 0)
    blocks = l->blocks;
  else
    blocks = product <= G_GUINT64_CONSTANT (1) << 53 ? (gint64) product : 0;
  if (a->device == NULL || a->device->sm_count <= 0 || blocks <= 0
      || (l == NULL && !ws_run_get_config (run)->has_grid))
    return;
  check_small_grid (a, run, blocks, out);
  check_tail (a, run, blocks, out);
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

void
_ws_check_launch_bound (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsTiming *t = ws_run_get_timing (run);
  double ns = ws_run_get_kernel_ns (run), gap;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsFinding *f;

  if (!_ws_run_is_launch_bound (run))
    return;
  f = _ws_finding_new (WS_FINDING_LAUNCH_BOUND, WS_SEVERITY_MEDIUM, run, ns / 1e3,
                       _ws_threshold (WS_T_LAUNCH_OVERHEAD));
  _ws_finding_title (f, _("Launch-bound: the kernel takes %s, about what launching it costs"),
                     _ws_fmt_time (x1, ns));
  if (t != NULL && t->kernel.n > 0)
    _ws_finding_numbers (f, _("The kernel runs for %s (median of %d launches); a launch costs a "
                           "few µs."),
                         x1, t->kernel.n);
  else
    _ws_finding_numbers (f, _("The kernel runs for %s; a launch costs a few µs."), x1);
  if ((gap = launch_gap (run)) > 0)
    _ws_finding_numbers (f, _("Between back-to-back launches the GPU also waited %s."),
                         _ws_fmt_time (x2, gap));
  _ws_finding_cache_note (f, run);
  _ws_finding_cause (f, _("Starting a kernel costs the CPU and the GPU a few microseconds, "
                       "whatever the kernel does. A kernel this short spends about as long being "
                       "launched as working, so its time says little about the kernel itself."));
  _ws_finding_fix (f, _("Give each launch more work: a larger problem, several problems in one "
                     "launch, or fused kernels. When many short kernels must run in a row, a CUDA "
                     "graph cuts the cost of each launch."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  g_ptr_array_add (out, f);
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
