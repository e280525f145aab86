/* ws-analysis-kernel.c: the rules about how one kernel configuration is launched, written once
 * for a sweep's run and a traced program's kernel: occupancy and what limits it, partial
 * warps, a grid too small for the GPU, a partial last wave, and launches that cost about as
 * much as the kernel. Each reads WsLaunchFacts,
 * which either source fills (ws-analysis-launch.c for a run, ws-analysis-trace-kernels.c
 * for a traced kernel).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "ws-units.h"

/* ---- the finding, wherever the facts came from ------------------------------------------- */

/* A library's kernel is what its authors chose: reported, but nothing for the program to fix. */
static WsSeverity
severity_for (const WsLaunchFacts *k, WsSeverity severity)
{
  return k->library ? WS_SEVERITY_INFO : severity;
}

static WsFinding *
finding_new_as (const WsLaunchFacts *k, WsFindingKind kind, WsSeverity severity, double value,
                double threshold)
{
  WsFinding *f = _ws_finding_new (kind, severity, k->run, value, threshold);

  if (k->run == NULL)
    {
      f->trace = TRUE;
      f->program = k->program;
      f->kernel = k->kernel;
    }
  return f;
}

/* A finding about the kernel's configuration: a library's is its authors' choice, marked as
 * theirs so that reports fold it after what the program can change. */
static WsFinding *
finding_new (const WsLaunchFacts *k, WsFindingKind kind, WsSeverity severity, double value,
             double threshold)
{
  WsFinding *f = finding_new_as (k, kind, severity_for (k, severity), value, threshold);

  f->library = k->library;
  return f;
}

static void
finding_add (const WsLaunchFacts *k, WsFinding *f, GPtrArray *out)
{
  if (k->run != NULL)
    _ws_finding_point_at (f, k->run, WS_ACTIVITY_KERNEL, -1);
  else if (k->spans != NULL)
    g_array_append_vals (f->activities, k->spans->data, k->spans->len);
  g_ptr_array_add (out, f);
}

/* A library's kernel: what to tell its caller instead of how to change it. TRUE when it was. */
static gboolean
library_note (const WsLaunchFacts *k, WsFinding *f)
{
  if (!k->library)
    return FALSE;
  _ws_finding_cause (f, _("It is a library's kernel: its block, grid and registers are its "
                       "authors' choice (tuned with this trade-off in mind), not the "
                       "program's."));
  _ws_finding_fix (f, _("Nothing to change in the kernel itself: larger or batched problems "
                     "give the library room for fuller configurations."));
  return TRUE;
}

static int
warp_size (const WsLaunchFacts *k)
{
  return k->device != NULL && k->device->warp_size > 0 ? k->device->warp_size : 32;
}

/* ---- occupancy --------------------------------------------------------------------------- */

static gboolean
occupancy_of (const WsArchLimits *arch, int threads, int registers, int smem, WsOccupancy *out)
{
  WsOccupancyInput in = { threads, registers, smem };

  return ws_occupancy_compute (arch, &in, out, NULL) && out->active_blocks > 0;
}

/* The multiples of the warp size nearest to the block's threads below and above (0: none)
 * that reach the best occupancy any block size reaches with these registers and shared
 * memory. */
static double
best_block_sizes (const WsArchLimits *arch, const WsLaunchFacts *k, int *below, int *above)
{
  int most = arch->max_threads_per_block;
  double best = 0;
  WsOccupancy o;

  if (k->kernel_max_threads > 0)
    most = MIN (most, k->kernel_max_threads);
  *below = *above = 0;
  for (int t = arch->warp_size; t <= most; t += arch->warp_size)
    if (occupancy_of (arch, t, k->registers, k->smem, &o))
      best = MAX (best, o.occupancy);
  for (int t = arch->warp_size; t <= most; t += arch->warp_size)
    if (t != (int) k->threads && occupancy_of (arch, t, k->registers, k->smem, &o)
        && o.occupancy >= best - 1e-9)
      {
        if (t < (int) k->threads)
          *below = t;
        else if (*above == 0)
          *above = t;
      }
  return best;
}

static void
occupancy_cause (const WsLaunchFacts *k, const WsArchLimits *arch, WsFinding *f)
{
  const WsOccupancy *o = &k->occupancy;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];

  switch (k->limiter_known ? (int) o->limiter : -1)
    {
    case WS_LIMITER_BLOCKS:
      {
        int warp = warp_size (k);
        int need = o->limit_blocks > 0 ? (o->max_warps + o->limit_blocks - 1) / o->limit_blocks
                                           * warp
                                       : 0;

        _ws_finding_cause (f, _("An SM runs at most %d blocks at once, however small they are."),
                           o->limit_blocks);
        _ws_finding_cause (f, _("With %d threads per block, %d blocks fill only %d of the %d warp "
                             "slots."),
                           (int) k->threads, o->active_blocks, o->active_warps, o->max_warps);
        if (k->library)
          break;
        if (need > (int) k->threads)
          _ws_finding_fix (f, _("Use blocks of at least %d threads: then %d blocks fill all %d "
                             "warp slots."),
                           need, o->limit_blocks, o->max_warps);
        else
          _ws_finding_fix (f, _("Use larger blocks, so that the blocks an SM can hold bring "
                             "enough warps."));
        break;
      }
    case WS_LIMITER_WARPS:
      _ws_finding_cause (f, _("An SM holds %d warps. Blocks of %d warps fit %d times (%d warps); "
                           "the %d warp slots left over cannot take another block."),
                         o->max_warps, o->warps_per_block, o->active_blocks, o->active_warps,
                         o->max_warps - o->active_warps);
      break;
    case WS_LIMITER_REGISTERS:
      {
        WsOccupancy r;
        int per_block = k->registers * (int) k->threads;

        if (arch != NULL && occupancy_of (arch, (int) k->threads, k->registers, k->smem, &r))
          per_block = r.regs_per_block;
        _ws_finding_cause (f, g_dngettext (GETTEXT_PACKAGE,
                                           "Each thread uses %d registers, so a block of %d "
                                           "threads needs %s of the SM's %s registers: %d block "
                                           "fits (%d warps).",
                                           "Each thread uses %d registers, so a block of %d "
                                           "threads needs %s of the SM's %s registers: %d blocks "
                                           "fit (%d warps).",
                                           (gulong) MAX (o->active_blocks, 0)),
                           k->registers, (int) k->threads, _ws_fmt_count (x1, per_block),
                           _ws_fmt_count (x2, k->device ? k->device->regs_per_sm : 65536),
                           o->active_blocks, o->active_warps);
        break;
      }
    case WS_LIMITER_SHARED_MEMORY:
      _ws_finding_cause (f, g_dngettext (GETTEXT_PACKAGE,
                                         "Each block uses %s of shared memory and an SM has %s: "
                                         "%d block fits (%d warps).",
                                         "Each block uses %s of shared memory and an SM has %s: "
                                         "%d blocks fit (%d warps).",
                                         (gulong) MAX (o->active_blocks, 0)),
                         _ws_fmt_kib (x1, k->smem),
                         _ws_fmt_kib (x2, k->device ? k->device->smem_per_sm : 0),
                         o->active_blocks, o->active_warps);
      break;
    default:
      _ws_finding_cause (f, _("Occupancy is limited by %s."), k->limiter_words);
      break;
    }
  _ws_finding_cause (f, _("Fewer warps in flight hide less of the time each warp waits for "
                       "memory."));
}

/* The block size, registers or shared memory that would do better, worked out on the
 * architecture's limits. */
static void
occupancy_fix (const WsLaunchFacts *k, const WsArchLimits *arch, WsFinding *f)
{
  const WsOccupancy *o = &k->occupancy;
  char x1[WS_FMT_LEN], x3[WS_FMT_LEN];

  if (arch != NULL && k->limiter_known && o->limiter == WS_LIMITER_WARPS)
    {
      int below, above;
      double best = best_block_sizes (arch, k, &below, &above);

      /* Suggested only when some block size does better with these resources. */
      if (best <= o->occupancy + 1e-9)
        below = above = 0;
      _ws_fmt_percent (x3, best);
      if (below > 0 && above > 0)
        _ws_finding_fix (f, _("Pick a block size whose warps divide %d: blocks of %d or %d "
                           "threads reach %s here."),
                         o->max_warps, below, above, x3);
      else if (below > 0 || above > 0)
        _ws_finding_fix (f, _("Pick a block size whose warps divide %d: blocks of %d threads "
                           "reach %s here."),
                         o->max_warps, MAX (below, above), x3);
    }
  else if (arch != NULL && k->limiter_known && o->limiter == WS_LIMITER_REGISTERS)
    {
      WsOccupancy r, best = { 0 };
      int at = 0;

      for (int reg = k->registers - 1; reg >= 1; reg--)
        if (occupancy_of (arch, (int) k->threads, reg, k->smem, &r)
            && r.occupancy > best.occupancy + 1e-9)
          best = r, at = reg;
      if (at > 0)
        _ws_finding_fix (f, _("With at most %d registers per thread, %d blocks would fit (%s): "
                           "cap them with __launch_bounds__ or -maxrregcount, and check that "
                           "nothing spills to local memory."),
                         at, best.active_blocks, _ws_fmt_percent (x3, best.occupancy));
    }
  else if (arch != NULL && k->limiter_known && o->limiter == WS_LIMITER_SHARED_MEMORY)
    {
      WsOccupancy r, best = { 0 };
      int at = -1;

      for (int s = k->smem - arch->smem_alloc_unit; s >= 0; s -= arch->smem_alloc_unit)
        if (occupancy_of (arch, (int) k->threads, k->registers, s, &r)
            && r.occupancy > best.occupancy + 1e-9)
          best = r, at = s;
      if (at >= 0)
        _ws_finding_fix (f, _("With at most %s of shared memory per block, %d blocks would fit "
                           "(%s): use smaller tiles, or a smaller type for what they hold."),
                         _ws_fmt_kib (x1, at), best.active_blocks,
                         _ws_fmt_percent (x3, best.occupancy));
    }
  if (f->fix == NULL)
    _ws_finding_fix (f, _("Change the block size or the resources each block uses; the occupancy "
                       "chart shows which sizes fill the SM."));
  /* Where the block size is chosen in Numba's launch syntax. */
  if (k->numba && k->limiter_known
      && (o->limiter == WS_LIMITER_WARPS || o->limiter == WS_LIMITER_BLOCKS))
    _ws_finding_fix (f, _("In Numba the block size is the second number of the launch: "
                       "kernel[blocks, 256](…)."));
}

static void
check_occupancy (const WsLaunchFacts *k, GPtrArray *out)
{
  const WsOccupancy *o = &k->occupancy;
  const WsArchLimits *arch = k->device && k->device->sm ? ws_arch_limits_lookup (k->device->sm)
                                                        : NULL;
  char pct[WS_FMT_LEN];
  WsFinding *f;

  if (!k->has_occupancy || o->occupancy <= 0
      || o->occupancy >= _ws_threshold (WS_T_OCCUPANCY_LOW))
    return;
  f = finding_new (k, WS_FINDING_UNDER_OCCUPIED, _ws_occupancy_severity (o->occupancy),
                   o->occupancy, _ws_threshold (WS_T_OCCUPANCY_LOW));
  _ws_fmt_percent (pct, o->occupancy);
  if (k->short_name != NULL)
    /* Translators: the kernel's short name, the share of warp slots in use, what limits it. */
    _ws_finding_title (f, _("%s under-occupied: %s of the warp slots, limited by %s"),
                       k->short_name, pct, k->limiter_words);
  else
    /* Translators: the share of warp slots in use ("50%"), then what limits it ("registers"). */
    _ws_finding_title (f, _("Under-occupied: %s of the warp slots, limited by %s"), pct,
                       k->limiter_words);
  if (o->active_blocks > 0 && o->max_warps > 0)
    _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                         "Each SM holds %d block of %u threads: %d of its %d warp "
                                         "slots are used (%s).",
                                         "Each SM holds %d blocks of %u threads: %d of its %d warp "
                                         "slots are used (%s).",
                                         (gulong) MAX (o->active_blocks, 0)),
                         o->active_blocks, k->threads, o->active_warps, o->max_warps, pct);
  else
    _ws_finding_numbers (f, _("The theoretical occupancy is %s."), pct);
  occupancy_cause (k, arch, f);
  if (!library_note (k, f))
    occupancy_fix (k, arch, f);
  finding_add (k, f, out);
}

/* ---- partial warps ----------------------------------------------------------------------- */

static void
check_partial_warp (const WsLaunchFacts *k, GPtrArray *out)
{
  int warp = warp_size (k);
  guint threads = k->threads, warps, lanes;
  char pct[WS_FMT_LEN], block[WS_FMT_LEN];
  g_autofree char *dims = NULL;
  double idle;
  WsFinding *f;

  /* Library kernels of a sweep (cuBLAS) choose their own blocks: their run records have none. */
  if (threads == 0 || threads % (guint) warp == 0 || !k->has_block)
    return;
  warps = (threads + (guint) warp - 1) / (guint) warp;
  lanes = warps * (guint) warp;
  idle = (double) (lanes - threads) / lanes;
  f = finding_new (k, WS_FINDING_PARTIAL_WARP,
                   idle >= _ws_threshold (WS_T_PARTIAL_WARP_MEDIUM) ? WS_SEVERITY_MEDIUM
                                                                     : WS_SEVERITY_LOW,
                   idle, 0);
  _ws_fmt_percent (pct, idle);
  dims = ws_units_block (k->block);
  /* Translators: a block size, "256" or "16×16". */
  snprintf (block, sizeof block, _("block %s"), dims);
  if (k->short_name != NULL)
    _ws_finding_title (f, _("%s: blocks of %u threads leave %s of their lanes idle"),
                       k->short_name, threads, pct);
  else
    _ws_finding_title (f, _("Partial warp: blocks of %u threads leave %s of their lanes idle"),
                       threads, pct);
  _ws_finding_numbers (f, _("A block of %u threads (%s) gets %u lanes in whole warps: %u of them "
                         "(%s) do nothing."),
                       threads, block, lanes, lanes - threads, pct);
  _ws_finding_cause (f, _("The GPU runs threads in warps of %d. A block whose size is not a "
                       "multiple of %d still gets whole warps, and its last warp runs with idle "
                       "lanes."),
                     warp, warp);
  if (library_note (k, f))
    ;
  else if (threads > (guint) warp)
    _ws_finding_fix (f, _("Use a multiple of %d threads per block, such as %u or %u; for a 2D "
                       "block, make width × height a multiple of %d (16×16, 32×8)."),
                     warp, threads / (guint) warp * (guint) warp, lanes, warp);
  else
    _ws_finding_fix (f, _("Use a multiple of %d threads per block, such as %u; for a 2D block, "
                       "make width × height a multiple of %d (16×16, 32×8)."),
                     warp, lanes, warp);
  finding_add (k, f, out);
}

/* ---- the grid against the SMs ------------------------------------------------------------ */

static void
small_grid_fix (const WsLaunchFacts *k, WsFinding *f)
{
  /* The smallest block that can still fill an SM under the cap on blocks per SM. */
  int warp = warp_size (k);
  int max_blocks = k->device->max_blocks_per_sm > 0 ? k->device->max_blocks_per_sm : 32;
  int max_warps = k->device->max_threads_per_sm / warp;
  guint small = (guint) ((max_warps + max_blocks - 1) / max_blocks * warp);
  double more = small > 0 ? ceil ((double) k->blocks * k->threads / small) : 0;
  char n[WS_FMT_LEN];

  if (small > 0 && small < k->threads && more > k->blocks)
    _ws_finding_fix (f, _("Smaller blocks make more of them: with %u threads per block this "
                       "problem makes %s blocks."),
                     small, _ws_fmt_count (n, more));
  _ws_finding_fix (f, _("If the problem itself is this small, the GPU cannot be filled: give each "
                     "launch more work (several problems at once) or leave it to the CPU."));
}

static void
check_small_grid (const WsLaunchFacts *k, GPtrArray *out)
{
  gint64 blocks = k->blocks;
  int sm = k->device->sm_count;
  double high = _ws_threshold (WS_T_SMALL_GRID_HIGH), low = _ws_threshold (WS_T_SMALL_GRID_LOW);
  int warp = warp_size (k);
  WsFinding *f;

  if (blocks >= low * sm)
    return;
  f = finding_new (k, WS_FINDING_SMALL_GRID,
                   blocks < high * sm ? WS_SEVERITY_HIGH : WS_SEVERITY_LOW,
                   (double) blocks / sm, blocks < high * sm ? high : low);
  if (k->short_name != NULL)
    _ws_finding_title (f, _("%s: small grid, %" PRIu64 " blocks for %d SMs"), k->short_name,
                       (guint64) blocks, sm);
  else
    _ws_finding_title (f, _("Small grid: %" PRId64 " blocks for %d SMs"), blocks, sm);
  if (blocks < high * sm)
    _ws_finding_numbers (f, _("The grid has %" PRId64 " blocks and the GPU has %d SMs: "
                           "%" PRId64 " SMs have nothing to do."),
                         blocks, sm, sm - blocks);
  else
    {
      int per_sm = (int) ((blocks + sm - 1) / sm);
      int warps = k->occupancy.warps_per_block > 0 ? k->occupancy.warps_per_block
                                                   : (int) (k->threads + warp - 1) / warp;
      int max_warps = k->occupancy.max_warps > 0 ? k->occupancy.max_warps
                                                 : k->device->max_threads_per_sm / warp;

      _ws_finding_numbers (f, _("The grid has %" PRId64 " blocks for %d SMs: at most %d "
                             "per SM, which brings %d of its %d warp slots."),
                           blocks, sm, per_sm, MIN (per_sm * warps, max_warps), max_warps);
    }
  _ws_finding_cause (f, _("A block runs on one SM. With fewer blocks than SMs, some SMs stay "
                       "idle; with fewer than two per SM, each SM has too few warps to hide the "
                       "time they wait for memory."));
  if (!library_note (k, f))
    small_grid_fix (k, f);
  finding_add (k, f, out);
}

static void
check_tail (const WsLaunchFacts *k, GPtrArray *out)
{
  int active = k->occupancy.active_blocks;
  double waves, last, idle;
  gint64 per_wave;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsFinding *f;

  if (!k->has_occupancy || active <= 0)
    return;
  per_wave = (gint64) active * k->device->sm_count;
  waves = (double) k->blocks / per_wave;
  last = waves - floor (waves);
  idle = _ws_tail_idle (waves);
  if (idle < 0 || idle < _ws_threshold (WS_T_TAIL_IDLE))
    return;
  f = finding_new (k, WS_FINDING_TAIL_EFFECT, WS_SEVERITY_LOW, idle,
                   _ws_threshold (WS_T_TAIL_IDLE));
  _ws_fmt_percent (x1, last);
  if (k->short_name != NULL)
    _ws_finding_title (f, _("%s: tail effect, the last of %.0f waves is %s full"), k->short_name,
                       ceil (waves), x1);
  else
    _ws_finding_title (f, _("Tail effect: the last of %.0f waves is %s full"), ceil (waves), x1);
  _ws_finding_numbers (f, _("The grid's %" PRId64 " blocks make %.2f waves of %" PRId64
                         " blocks (%d per SM × %d SMs)."),
                       k->blocks, waves, per_wave, active, k->device->sm_count);
  _ws_finding_numbers (f, _("The last wave keeps %s of the SMs busy, so %s of the SMs' time is "
                         "idle."),
                       x1, _ws_fmt_percent (x2, idle));
  _ws_finding_cause (f, _("Blocks start in waves: as many as fit on all SMs at once. When the "
                       "last wave is partial, most SMs finish early and wait for the few still "
                       "working."));
  if (!library_note (k, f))
    _ws_finding_fix (f, _("Size the grid in whole waves (a multiple of %" PRId64
                       " blocks), or give it many waves (more work per launch), so that a "
                       "partial one matters less."),
                     per_wave);
  finding_add (k, f, out);
}

/* For the rules of ws-analysis-counted.c: a finding about the launch, and its place. */
WsFinding *
_ws_launch_finding_new (const WsLaunchFacts *k, WsFindingKind kind, WsSeverity severity,
                        double value, double threshold)
{
  return finding_new (k, kind, severity, value, threshold);
}

void
_ws_launch_finding_add (const WsLaunchFacts *k, WsFinding *f, GPtrArray *out)
{
  finding_add (k, f, out);
}

void
_ws_check_launch (const WsLaunchFacts *k, GPtrArray *out)
{
  check_occupancy (k, out);
  _ws_check_counted (k, out);
  check_partial_warp (k, out);
  /* A grid of more blocks than a launch record may give (2^53, ws-session-ranges.c) is not
   * judged, nor one on a device the session does not describe. */
  if (k->device == NULL || k->device->sm_count <= 0 || k->blocks <= 0)
    return;
  check_small_grid (k, out);
  check_tail (k, out);
}

/* ---- launch overhead --------------------------------------------------------------------- */

/* A sweep's kernel against what a launch costs: its numbers and wording. */
static WsFinding *
launch_bound_in_sweep (const WsLaunchFacts *k)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsFinding *f;

  if (k->kernel_ns <= 0 || k->kernel_ns >= _ws_threshold (WS_T_LAUNCH_OVERHEAD) * 1e3)
    return NULL;
  f = finding_new_as (k, WS_FINDING_LAUNCH_BOUND, WS_SEVERITY_MEDIUM, k->kernel_ns / 1e3,
                      _ws_threshold (WS_T_LAUNCH_OVERHEAD));
  _ws_finding_title (f, _("Launch-bound: the kernel takes %s, about what launching it costs"),
                     _ws_fmt_time (x1, k->kernel_ns));
  if (k->launches > 0)
    _ws_finding_numbers (f, _("The kernel runs for %s (median of %d launches); a launch costs a "
                           "few µs."),
                         x1, (int) k->launches);
  else
    _ws_finding_numbers (f, _("The kernel runs for %s; a launch costs a few µs."), x1);
  if (k->gap_ns > 0)
    _ws_finding_numbers (f, _("Between back-to-back launches the GPU also waited %s."),
                         _ws_fmt_time (x2, k->gap_ns));
  _ws_finding_cache_note (f, k->run);
  _ws_finding_cause (f, _("Starting a kernel costs the CPU and the GPU a few microseconds, "
                       "whatever the kernel does. A kernel this short spends about as long being "
                       "launched as working, so its time says little about the kernel itself."));
  _ws_finding_fix (f, _("Give each launch more work: a larger problem, several problems in one "
                     "launch, or fused kernels. When many short kernels must run in a row, a CUDA "
                     "graph cuts the cost of each launch."));
  return f;
}

/* A traced kernel against the pace of its launches: its numbers and wording. */
static WsFinding *
launch_bound_paced (const WsLaunchFacts *k)
{
  double busy;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  WsFinding *f;

  if ((double) k->launches < _ws_threshold (WS_T_LAUNCH_LAUNCHES) || !k->waited)
    return NULL;
  busy = k->interval_ns > 0 ? k->kernel_ns / k->interval_ns : 1;
  if (busy >= _ws_threshold (WS_T_LAUNCH_BUSY))
    return NULL;
  /* A library's kernel launched too often is the program's doing: its severity stands. */
  f = finding_new_as (k, WS_FINDING_LAUNCH_BOUND,
                      busy < _ws_threshold (WS_T_LAUNCH_BUSY_MEDIUM) ? WS_SEVERITY_MEDIUM
                                                                     : WS_SEVERITY_LOW,
                      busy, _ws_threshold (WS_T_LAUNCH_BUSY));
  _ws_fmt_time (x1, k->kernel_ns);
  _ws_fmt_time (x2, k->interval_ns);
  _ws_finding_title (f, _("%s launch-bound: it runs %s, and its launches come %s apart"),
                     k->short_name, x1, x2);
  _ws_finding_numbers (f, _("Over %u launches the GPU works %s of the time between two of them "
                         "and waits for the next launch the rest."),
                       k->launches, _ws_fmt_percent (x3, busy));
  if (k->call_ns > 0)
    _ws_finding_numbers (f, k->numba
                              ? _("The driver's launch call takes %s (median); the rest of each "
                                  "%s passes in Python, in Numba's preparation of the launch "
                                  "and the program's loop.")
                              : _("The driver's launch call takes %s (median); the rest of each "
                                  "%s passes in the program between launches."),
                         _ws_fmt_time (x4, k->call_ns), x2);
  _ws_finding_cause (f, _("Launching a kernel costs the host microseconds, from Python tens of "
                       "them. A kernel shorter than that finishes before the next launch "
                       "arrives, and the GPU idles in between."));
  if (k->numba)
    _ws_finding_fix (f, _("Give each launch more work: several elements per thread with a "
                       "grid-stride loop (for i in range(cuda.grid(1), n, cuda.gridsize(1))), "
                       "larger arrays per call, or consecutive steps fused into one kernel. Pass "
                       "device arrays, so that no copy hides in the call."));
  else
    _ws_finding_fix (f, _("Give each launch more work, fuse consecutive kernels, or capture the "
                       "sequence in a CUDA graph (cudaGraphLaunch, torch.cuda.CUDAGraph) so that "
                       "one launch replays it."));
  return f;
}

void
_ws_check_launch_bound (const WsLaunchFacts *k, GPtrArray *out)
{
  WsFinding *f = k->paced ? launch_bound_paced (k) : launch_bound_in_sweep (k);

  if (f != NULL)
    finding_add (k, f, out);
}
