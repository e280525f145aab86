/* ws-analysis-trace-kernels.c: findings about a traced program's kernels, configuration by
 * configuration: occupancy and its limiter from the launch facts and the device, partial
 * warps, grids too small for the GPU, partial last waves, and kernels launched faster than
 * the host can launch them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-trace-private.h"

#include <inttypes.h>
#include <math.h>

/* A library's kernel is what its authors chose: reported, but nothing for the program to fix. */
static WsSeverity
severity_for (const WsTraceKernel *k, WsSeverity severity)
{
  return ws_trace_kernel_is_library (k->name) ? WS_SEVERITY_INFO : severity;
}

static void
library_note (WsFinding *f, const WsTraceKernel *k)
{
  if (!ws_trace_kernel_is_library (k->name))
    return;
  _ws_finding_cause (f, _("It is a library's kernel: its block, grid and registers are its "
                       "authors' choice (tuned with this trade-off in mind), not the "
                       "program's."));
  _ws_finding_fix (f, _("Nothing to change in the kernel itself: larger or batched problems "
                     "give the library room for fuller configurations."));
}

static void
check_occupancy (WsTraceAnalysis *a, const WsTraceKernel *k, GPtrArray *out)
{
  const WsOccupancy *o = &k->occupancy;
  guint threads = ws_trace_kernel_threads (k);
  char pct[WS_FMT_LEN], x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsFinding *f;

  if (!k->has_occupancy || o->occupancy >= _ws_threshold (WS_T_OCCUPANCY_LOW))
    return;
  f = _ws_trace_finding_new (a, WS_FINDING_UNDER_OCCUPIED,
                             severity_for (k, _ws_occupancy_severity (o->occupancy)), k->name,
                             o->occupancy, _ws_threshold (WS_T_OCCUPANCY_LOW));
  _ws_fmt_percent (pct, o->occupancy);
  /* Translators: the kernel's short name, the share of warp slots in use, what limits it. */
  _ws_finding_title (f, _("%s under-occupied: %s of the warp slots, limited by %s"),
                     k->short_name, pct, _ws_limiter_words (o->limiter));
  _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                       "Each SM holds %d block of %u threads: %d of its %d warp "
                                       "slots are used (%s).",
                                       "Each SM holds %d blocks of %u threads: %d of its %d warp "
                                       "slots are used (%s).",
                                       (gulong) MAX (o->active_blocks, 0)),
                       o->active_blocks, threads, o->active_warps, o->max_warps, pct);
  switch (o->limiter)
    {
    case WS_LIMITER_REGISTERS:
      _ws_finding_cause (f, _("Each thread uses %u registers, so a block of %u threads needs %s of "
                           "the SM's %s registers."),
                         k->registers, threads, _ws_fmt_count (x1, o->regs_per_block),
                         _ws_fmt_count (x2, k->device_info->regs_per_sm));
      break;
    case WS_LIMITER_SHARED_MEMORY:
      _ws_finding_cause (f, g_dngettext (GETTEXT_PACKAGE,
                                         "Each block uses %s of shared memory: %d block fits in "
                                         "an SM.",
                                         "Each block uses %s of shared memory: %d blocks fit in "
                                         "an SM.",
                                         (gulong) MAX (o->active_blocks, 0)),
                         _ws_fmt_kib (x1, k->static_smem + k->dynamic_smem), o->active_blocks);
      break;
    case WS_LIMITER_BLOCKS:
      _ws_finding_cause (f, _("An SM runs at most %d blocks at once, however small they are; "
                           "blocks of %u threads bring too few warps."),
                         o->limit_blocks, threads);
      break;
    case WS_LIMITER_WARPS:
    default:
      _ws_finding_cause (f, _("Blocks of %d warps fit %d times in the SM's %d warp slots; the "
                           "slots left over cannot take another block."),
                         o->warps_per_block, o->active_blocks, o->max_warps);
      break;
    }
  _ws_finding_cause (f, _("Fewer warps in flight hide less of the time each warp waits for "
                       "memory."));
  library_note (f, k);
  if (!ws_trace_kernel_is_library (k->name))
    {
      if (o->limiter == WS_LIMITER_BLOCKS || o->limiter == WS_LIMITER_WARPS)
        _ws_finding_fix (f, a->numba
                              ? _("Launch it with a block size whose warps divide the SM's "
                                  "warp slots, such as 256 or 512 threads: kernel[blocks, "
                                  "256](…).")
                              : _("Use a block size whose warps divide the SM's warp slots, such "
                                  "as 256 or 512 threads."));
      else if (o->limiter == WS_LIMITER_REGISTERS)
        _ws_finding_fix (f, _("Keep fewer values live per thread (split the kernel, recompute "
                           "instead of keeping), or cap the registers (__launch_bounds__, "
                           "-maxrregcount) and check that nothing spills."));
      else
        _ws_finding_fix (f, _("Use less shared memory per block: smaller tiles, or a smaller type "
                           "for what they hold."));
    }
  _ws_trace_finding_point (f, k->spans);
  g_ptr_array_add (out, f);
}

static void
check_partial_warp (WsTraceAnalysis *a, const WsTraceKernel *k, GPtrArray *out)
{
  int warp = k->device_info && k->device_info->warp_size > 0 ? k->device_info->warp_size : 32;
  guint threads = ws_trace_kernel_threads (k), lanes;
  double idle;
  char pct[WS_FMT_LEN];
  WsFinding *f;

  if (threads == 0 || threads % (guint) warp == 0)
    return;
  lanes = (threads + (guint) warp - 1) / (guint) warp * (guint) warp;
  idle = (double) (lanes - threads) / lanes;
  f = _ws_trace_finding_new (a, WS_FINDING_PARTIAL_WARP,
                             severity_for (k, idle >= _ws_threshold (WS_T_PARTIAL_WARP_MEDIUM)
                                                ? WS_SEVERITY_MEDIUM
                                                : WS_SEVERITY_LOW),
                             k->name, idle, 0);
  _ws_fmt_percent (pct, idle);
  _ws_finding_title (f, _("%s: blocks of %u threads leave %s of their lanes idle"),
                     k->short_name, threads, pct);
  _ws_finding_numbers (f, _("A block of %u threads gets %u lanes in whole warps: %u of them do "
                         "nothing."),
                       threads, lanes, lanes - threads);
  _ws_finding_cause (f, _("The GPU runs threads in warps of %d; a block whose size is not a "
                       "multiple of %d still gets whole warps."),
                     warp, warp);
  library_note (f, k);
  _ws_finding_fix (f, _("Use a multiple of %d threads per block, such as %u."), warp, lanes);
  _ws_trace_finding_point (f, k->spans);
  g_ptr_array_add (out, f);
}

static void
check_grid (WsTraceAnalysis *a, const WsTraceKernel *k, GPtrArray *out)
{
  guint64 blocks = ws_trace_kernel_blocks (k);
  int sm = k->device_info ? k->device_info->sm_count : 0;
  double high = _ws_threshold (WS_T_SMALL_GRID_HIGH), low = _ws_threshold (WS_T_SMALL_GRID_LOW);
  WsFinding *f;

  if (sm <= 0 || blocks == 0 || (double) blocks >= low * sm)
    return;
  f = _ws_trace_finding_new (a, WS_FINDING_SMALL_GRID,
                             severity_for (k, (double) blocks < high * sm ? WS_SEVERITY_HIGH
                                                                         : WS_SEVERITY_LOW),
                             k->name, (double) blocks / sm,
                             (double) blocks < high * sm ? high : low);
  _ws_finding_title (f, _("%s: small grid, %" PRIu64 " blocks for %d SMs"),
                     k->short_name, blocks, sm);
  if ((double) blocks < high * sm)
    _ws_finding_numbers (f, _("%d SMs have no block to run."), sm - (int) blocks);
  else
    _ws_finding_numbers (f, _("At most %d blocks go to each SM: too few warps to hide the time "
                           "they wait for memory."),
                         (int) ((blocks + (guint64) sm - 1) / (guint64) sm));
  _ws_finding_cause (f, _("A block runs on one SM: with fewer blocks than SMs some SMs stay "
                       "idle, with fewer than two per SM each has too little to switch between."));
  library_note (f, k);
  if (!ws_trace_kernel_is_library (k->name))
    _ws_finding_fix (f, _("Give each launch more work (a larger problem, several at once), or "
                       "use smaller blocks so that there are more of them."));
  _ws_trace_finding_point (f, k->spans);
  g_ptr_array_add (out, f);
}

static void
check_tail (WsTraceAnalysis *a, const WsTraceKernel *k, GPtrArray *out)
{
  double waves = k->waves, full = floor (waves), idle = _ws_tail_idle (waves);
  char pct[WS_FMT_LEN];
  WsFinding *f;

  if (idle < 0 || idle < _ws_threshold (WS_T_TAIL_IDLE))
    return;
  f = _ws_trace_finding_new (a, WS_FINDING_TAIL_EFFECT, severity_for (k, WS_SEVERITY_LOW),
                             k->name, idle, _ws_threshold (WS_T_TAIL_IDLE));
  _ws_fmt_percent (pct, waves - full);
  _ws_finding_title (f, _("%s: tail effect, the last of %.0f waves is %s full"), k->short_name,
                     ceil (waves), pct);
  _ws_finding_numbers (f, _("The grid's %" PRIu64 " blocks make %.2f waves of %d "
                         "blocks (%d per SM)."),
                       ws_trace_kernel_blocks (k), waves,
                       k->occupancy.active_blocks * k->device_info->sm_count,
                       k->occupancy.active_blocks);
  _ws_finding_cause (f, _("Blocks start in waves, as many as fit on all SMs at once; a partial "
                       "last wave leaves most SMs idle while it runs."));
  library_note (f, k);
  _ws_finding_fix (f, _("Size the grid in whole waves, or give it many waves."));
  _ws_trace_finding_point (f, k->spans);
  g_ptr_array_add (out, f);
}

/* ---- launched faster than the host can launch ------------------------------------------------ */

static int
compare_start (gconstpointer x, gconstpointer y, gpointer data)
{
  const WsSpan *spans = data;
  gint64 a = spans[*(const guint *) x].start, b = spans[*(const guint *) y].start;

  return a < b ? -1 : a > b;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  guint n = values->len;

  g_array_sort (values, compare_double);
  return n % 2 ? g_array_index (values, double, n / 2)
               : (g_array_index (values, double, n / 2 - 1) + g_array_index (values, double, n / 2))
                   / 2;
}

static void
check_launch_bound (WsTraceAnalysis *a, const WsTraceKernel *k, GPtrArray *out)
{
  g_autoptr (GArray) order = g_array_copy (k->spans);
  g_autoptr (GArray) intervals = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (double));
  guint waited = 0;
  double interval, busy, call;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  WsFinding *f;

  if ((double) k->count < _ws_threshold (WS_T_LAUNCH_LAUNCHES))
    return;
  g_array_sort_with_data (order, compare_start, (gpointer) a->spans);
  /* The first launch may wait for a compile: the steady state is what follows. */
  for (guint i = 1; i + 1 < order->len; i++)
    {
      const WsSpan *s = &a->spans[g_array_index (order, guint, i)];
      const WsSpan *next = &a->spans[g_array_index (order, guint, i + 1)];
      const WsSpan *launch = _ws_trace_launch_of (a, next);
      double d = (double) (next->start - s->start);

      g_array_append_val (intervals, d);
      /* The GPU had finished before the host asked for the next one. */
      waited += launch != NULL && launch->start >= s->end;
    }
  for (guint i = 1; i < order->len; i++)
    {
      guint index = g_array_index (order, guint, i);
      const WsSpan *launch = _ws_trace_launch_of (a, &a->spans[index]);

      if (launch != NULL)
        {
          double d = (double) (launch->end - launch->start);

          g_array_append_val (calls, d);
        }
    }
  if (intervals->len == 0 || 2 * waited < intervals->len)
    return;
  interval = median (intervals);
  busy = interval > 0 ? k->median_ns / interval : 1;
  if (busy >= _ws_threshold (WS_T_LAUNCH_BUSY))
    return;
  call = calls->len > 0 ? median (calls) : 0;
  f = _ws_trace_finding_new (a, WS_FINDING_LAUNCH_BOUND,
                             busy < _ws_threshold (WS_T_LAUNCH_BUSY_MEDIUM) ? WS_SEVERITY_MEDIUM
                                                                            : WS_SEVERITY_LOW,
                             k->name, busy, _ws_threshold (WS_T_LAUNCH_BUSY));
  _ws_fmt_time (x1, k->median_ns);
  _ws_fmt_time (x2, interval);
  _ws_finding_title (f, _("%s launch-bound: it runs %s, and its launches come %s apart"),
                     k->short_name, x1, x2);
  _ws_finding_numbers (f, _("Over %u launches the GPU works %s of the time between two of them "
                         "and waits for the next launch the rest."),
                       k->count, _ws_fmt_percent (x3, busy));
  if (call > 0)
    _ws_finding_numbers (f, a->numba
                              ? _("The driver's launch call takes %s (median); the rest of each "
                                  "%s passes in Python, in Numba's preparation of the launch "
                                  "and the program's loop.")
                              : _("The driver's launch call takes %s (median); the rest of each "
                                  "%s passes in the program between launches."),
                         _ws_fmt_time (x4, call), x2);
  _ws_finding_cause (f, _("Launching a kernel costs the host microseconds, from Python tens of "
                       "them. A kernel shorter than that finishes before the next launch "
                       "arrives, and the GPU idles in between."));
  if (a->numba)
    _ws_finding_fix (f, _("Give each launch more work: several elements per thread with a "
                       "grid-stride loop (for i in range(cuda.grid(1), n, cuda.gridsize(1))), "
                       "larger arrays per call, or consecutive steps fused into one kernel. Pass "
                       "device arrays, so that no copy hides in the call."));
  else
    _ws_finding_fix (f, _("Give each launch more work, fuse consecutive kernels, or capture the "
                       "sequence in a CUDA graph (cudaGraphLaunch, torch.cuda.CUDAGraph) so that "
                       "one launch replays it."));
  _ws_trace_finding_point (f, k->spans);
  g_ptr_array_add (out, f);
}

void
_ws_trace_check_kernels (WsTraceAnalysis *a, GPtrArray *out)
{
  for (guint i = 0; i < a->kernels->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (a->kernels, i);

      check_occupancy (a, k, out);
      check_partial_warp (a, k, out);
      check_grid (a, k, out);
      check_tail (a, k, out);
      check_launch_bound (a, k, out);
    }
}
