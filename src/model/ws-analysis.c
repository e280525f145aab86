/* ws-analysis.c: findings: the table of thresholds, the measures the rules share (speedups,
 * ceilings, crossovers, block rankings) and the analysis of a run or a whole session.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <math.h>
#include <string.h>

/* The one table of thresholds: docs/findings.md shows exactly these rows (a test checks it).
 * A finding's value and threshold are in the unit of its row. */
static const WsThreshold thresholds[] = {
  [WS_T_OCCUPANCY_LOW] = { "occupancy_low", 1.0, "fraction",
                           "theoretical occupancy below this is reported (low)" },
  [WS_T_OCCUPANCY_POOR] = { "occupancy_poor", 0.75, "fraction",
                            "theoretical occupancy below this is medium" },
  [WS_T_OCCUPANCY_VERY_LOW] = { "occupancy_very_low", 0.5, "fraction",
                                "theoretical occupancy below this is high" },
  [WS_T_PARTIAL_WARP_MEDIUM] = { "partial_warp_medium", 0.25, "fraction",
                                 "idle lanes of a block's warps: any is low, this share or more "
                                 "is medium" },
  [WS_T_SMALL_GRID_HIGH] = { "small_grid_high", 1, "× SMs",
                             "a grid with fewer blocks than this many per SM is high" },
  [WS_T_SMALL_GRID_LOW] = { "small_grid_low", 2, "× SMs",
                            "a grid with fewer blocks than this many per SM is low" },
  [WS_T_TAIL_MAX_FULL_WAVES] = { "tail_max_full_waves", 3, "waves",
                                 "a tail effect is looked for when there are 1 to this many full "
                                 "waves" },
  [WS_T_TAIL_IDLE] = { "tail_idle", 0.2, "fraction",
                       "a partial last wave is reported when it leaves this share of the SMs' "
                       "time idle: (⌈waves⌉ − waves) / ⌈waves⌉" },
  [WS_T_TRANSFER_BOUND] = { "transfer_bound", 1, "×",
                            "copies taking this many times the kernel's time or more are "
                            "transfer-bound (medium)" },
  [WS_T_TRANSFER_BOUND_HIGH] = { "transfer_bound_high", 10, "×",
                                 "copies taking this many times the kernel's time or more are "
                                 "high" },
  [WS_T_PAGEABLE_RATE] = { "pageable_rate", 0.5, "fraction",
                           "pageable copies slower than this share of the device's pinned rate "
                           "are reported" },
  [WS_T_SMALL_COPY_BYTES] = { "small_copy_bytes", 100000, "bytes",
                              "copies smaller than this on average are latency-bound" },
  [WS_T_OVERLAP_LOW] = { "overlap_low", 0.5, "fraction",
                         "streamed runs whose copies and kernels overlap for less than this "
                         "share of the shorter of the two are reported" },
  [WS_T_LAUNCH_OVERHEAD] = { "launch_overhead", 5, "µs",
                             "kernels shorter than this are launch-bound" },
  [WS_T_SPEED_OF_LIGHT] = { "speed_of_light", 0.6, "fraction",
                            "kernels below this share of their ceiling are reported (low)" },
  [WS_T_SPEED_OF_LIGHT_POOR] = { "speed_of_light_poor", 0.3, "fraction",
                                 "kernels below this share of their ceiling are medium" },
  [WS_T_CPU_SPEEDUP] = { "cpu_speedup", 1, "×",
                         "a GPU speedup over a CPU baseline below this is slower than the CPU" },
  [WS_T_NOISE_SPREAD] = { "noise_spread", 0.1, "fraction",
                          "kernel times whose (max − min) / median is this or more are noisy" },
  [WS_T_ACHIEVED_GAP] = { "achieved_gap", 0.1, "fraction",
                          "achieved occupancy (the GPU's counters) this far or more below the "
                          "theoretical is reported (low), twice this far medium" },
  [WS_T_UNCOALESCED] = { "uncoalesced", 2, "×",
                         "global accesses touching this many times the 4 sectors per warp "
                         "request that consecutive 4-byte elements need are reported (low), "
                         "twice this medium" },
  [WS_T_BANK_CONFLICTS] = { "bank_conflicts", 0.1, "fraction",
                            "shared-memory passes that are extra passes from bank conflicts: "
                            "this share is reported (low), twice this medium" },
  [WS_T_SIMT] = { "simt_efficiency", 0.75, "fraction",
                  "threads active per warp instruction, of 32, below this is divergent (low), "
                  "below half of the warp medium" },
  [WS_T_STALL_TOP] = { "stall_top", 0.4, "fraction",
                       "the largest stall reason is named when it holds this share of the "
                       "warps' stalled time (info)" },
  /* Traced programs (ws-analysis-trace*.c). */
  [WS_T_TIMED_COMPILE] = { "timed_compile", 10, "ms",
                           "a first call that waited this long for its kernel's compile or "
                           "module load is reported where a timer may hold it" },
  [WS_T_TIMED_COMPILE_HIGH] = { "timed_compile_high", 100, "×",
                                "a wait of this many times the kernel's own time or more is high" },
  [WS_T_STARTUP_TIME] = { "startup_time", 100, "ms",
                          "the time from the program's start to its first kernel is reported "
                          "from this long" },
  [WS_T_STARTUP_SHARE] = { "startup_share", 0.5, "fraction",
                           "the time before the first kernel is reported when it is also at "
                           "least this share of the program's time" },
  [WS_T_GPU_IDLE] = { "gpu_idle", 1, "ms",
                      "gaps between the GPU's work shorter than this are not reported" },
  [WS_T_GPU_IDLE_SHARE] = { "gpu_idle_share", 0.2, "fraction",
                            "gaps shorter than this share of the time from the GPU's first to "
                            "its last work are not reported either: the threshold grows with "
                            "the program" },
  [WS_T_GPU_IDLE_MEDIUM] = { "gpu_idle_medium", 0.5, "fraction",
                             "reported gaps that add up to this share of that time or more are "
                             "medium" },
  [WS_T_LAUNCH_BUSY] = { "launch_busy", 0.9, "fraction",
                         "a kernel launched again and again that keeps the GPU busy less than "
                         "this share of the time between its launches is launch-bound (low)" },
  [WS_T_LAUNCH_BUSY_MEDIUM] = { "launch_busy_medium", 0.5, "fraction",
                                "a launch-bound kernel that keeps the GPU busy less than this "
                                "share is medium" },
  [WS_T_LAUNCH_LAUNCHES] = { "launch_bound_launches", 3, "launches",
                             "launches of one configuration needed to judge it launch-bound" },
  [WS_T_PAGEABLE_MIN_TIME] = { "pageable_min_time", 1, "ms",
                               "a traced program's pageable copies with no pinned rate to compare "
                               "with are reported when they take this long" },
  [WS_T_MANY_SMALL_COPIES] = { "many_small_copies", 50, "copies",
                               "a program run with this many copies smaller than "
                               "small_copy_bytes is reported" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (thresholds) == WS_N_THRESHOLDS);

double
_ws_threshold (WsThresholdId id)
{
  g_assert (id < WS_N_THRESHOLDS);
  return thresholds[id].value;
}

const WsThreshold *
ws_analysis_get_thresholds (guint *n_thresholds)
{
  if (n_thresholds != NULL)
    *n_thresholds = G_N_ELEMENTS (thresholds);
  return thresholds;
}

double
ws_analysis_threshold (const char *name)
{
  g_return_val_if_fail (name != NULL, NAN);
  for (guint i = 0; i < G_N_ELEMENTS (thresholds); i++)
    if (g_str_equal (thresholds[i].name, name))
      return thresholds[i].value;
  g_critical ("ws_analysis_threshold: no threshold is named “%s”", name);
  return NAN;
}

static const char *const kind_names[] = {
  [WS_FINDING_VERIFICATION_FAILED] = "verification_failed",
  [WS_FINDING_RUN_ERROR] = "run_error",
  [WS_FINDING_TIMED_COMPILE] = "timed_compile",
  [WS_FINDING_UNDER_OCCUPIED] = "under_occupied",
  [WS_FINDING_PARTIAL_WARP] = "partial_warp",
  [WS_FINDING_SMALL_GRID] = "small_grid",
  [WS_FINDING_TAIL_EFFECT] = "tail_effect",
  [WS_FINDING_TRANSFER_BOUND] = "transfer_bound",
  [WS_FINDING_PAGEABLE_MEMORY] = "pageable_memory",
  [WS_FINDING_SYNCHRONOUS_COPIES] = "synchronous_copies",
  [WS_FINDING_SMALL_COPIES] = "small_copies",
  [WS_FINDING_LOW_OVERLAP] = "low_overlap",
  [WS_FINDING_GPU_IDLE] = "gpu_idle",
  [WS_FINDING_LAUNCH_BOUND] = "launch_bound",
  [WS_FINDING_BELOW_BANDWIDTH] = "below_bandwidth",
  [WS_FINDING_BELOW_COMPUTE] = "below_compute",
  [WS_FINDING_SLOWER_THAN_CPU] = "slower_than_cpu",
  [WS_FINDING_NOISY_TIMING] = "noisy_timing",
  [WS_FINDING_TIED_WITH_BEST] = "tied_with_best",
  [WS_FINDING_BEST_IN_SWEEP] = "best_in_sweep",
  [WS_FINDING_CPU_BASELINE_NOTE] = "cpu_baseline_note",
  [WS_FINDING_STARTUP_TIME] = "startup_time",
  [WS_FINDING_ACHIEVED_OCCUPANCY] = "achieved_occupancy",
  [WS_FINDING_UNCOALESCED] = "uncoalesced",
  [WS_FINDING_BANK_CONFLICTS] = "bank_conflicts",
  [WS_FINDING_DIVERGENT] = "divergent_warps",
  [WS_FINDING_STALLS] = "stall_reasons",
};

G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == WS_N_FINDING_KINDS);

const char *
ws_finding_kind_to_string (WsFindingKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_names), NULL);
  return kind_names[kind];
}

const char *
ws_severity_to_label (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_INFO:
      return C_ ("severity", "info");
    case WS_SEVERITY_LOW:
      return C_ ("severity", "low");
    case WS_SEVERITY_MEDIUM:
      return C_ ("severity", "medium");
    case WS_SEVERITY_HIGH:
      return C_ ("severity", "high");
    default:
      g_return_val_if_reached (NULL);
    }
}

const char *
ws_severity_to_string (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_INFO:
      return "info";
    case WS_SEVERITY_LOW:
      return "low";
    case WS_SEVERITY_MEDIUM:
      return "medium";
    case WS_SEVERITY_HIGH:
      return "high";
    default:
      g_return_val_if_reached (NULL);
    }
}

/* ---- measures ---------------------------------------------------------------------------- */

double
ws_run_get_speedup (WsRun *run, gboolean all_cores, gboolean end_to_end)
{
  const WsTiming *t;
  const WsCpuBaseline *cpu;
  double gpu;

  g_return_val_if_fail (WS_IS_RUN (run), 0);
  t = ws_run_get_timing (run);
  if (t == NULL)
    return 0;
  cpu = all_cores ? &t->cpu_all : &t->cpu_one;
  gpu = end_to_end ? (t->e2e.n > 0 ? t->e2e.median : 0) : ws_run_get_kernel_ns (run);
  if (!cpu->present || cpu->skipped || cpu->stats.n == 0 || cpu->stats.median <= 0 || gpu <= 0)
    return 0;
  return cpu->stats.median / gpu;
}

/* The label without what the all-core baseline kept. */
static char *
dup_label_of_run (const WsCpuBaseline *b)
{
  g_autofree char *library = NULL;

  if (b->library == NULL)
    {
      if (b->threads <= 0)
        return g_strdup (_("hand-written, threads unknown"));
      /* Translators: the CPU baseline is Warpscope's own code, on this many threads. */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "hand-written, %d thread",
                                           "hand-written, %d threads", b->threads),
                              b->threads);
    }
  library = b->library_version != NULL ? g_strdup_printf ("%s %s", b->library, b->library_version)
                                       : g_strdup (b->library);
  if (b->threads <= 0)
    /* Translators: a BLAS library ("OpenBLAS 0.3.21") that does not say how many threads. */
    return g_strdup_printf (_("%s, threads unknown"), library);
  /* Translators: a BLAS library and version ("OpenBLAS 0.3.21"), then its thread count. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %d thread", "%s, %d threads",
                                       b->threads),
                          library, b->threads);
}

char *
ws_cpu_baseline_dup_label (const WsCpuBaseline *b)
{
  g_autofree char *label = NULL;

  g_return_val_if_fail (b != NULL, NULL);
  if (!b->present)
    return NULL;
  label = dup_label_of_run (b);
  if (!b->one_thread_faster)
    return g_steal_pointer (&label);
  /* Translators: an all-core CPU baseline ("hand-written, 1 thread") that is the run on one
   * thread, as that was faster than the run on every core. */
  return g_strdup_printf (_("%s (faster than all cores)"), label);
}

int
ws_cpu_baseline_get_cores (const WsCpuBaseline *b)
{
  g_return_val_if_fail (b != NULL, 0);
  if (!b->present)
    return 0;
  return b->max_threads > 0 ? b->max_threads : MAX (b->threads, 0);
}

char *
ws_run_dup_baseline_label (WsRun *run, gboolean all_cores)
{
  const WsTiming *t;

  g_return_val_if_fail (WS_IS_RUN (run), NULL);
  t = ws_run_get_timing (run);
  if (t == NULL)
    return NULL;
  return ws_cpu_baseline_dup_label (all_cores ? &t->cpu_all : &t->cpu_one);
}

double
ws_run_get_gbs (WsRun *run)
{
  double ns;

  g_return_val_if_fail (WS_IS_RUN (run), 0);
  ns = ws_run_get_kernel_ns (run);
  return ns > 0 ? ws_run_get_config (run)->bytes / ns : 0;
}

double
ws_run_get_gflops (WsRun *run)
{
  double ns;

  g_return_val_if_fail (WS_IS_RUN (run), 0);
  ns = ws_run_get_kernel_ns (run);
  return ns > 0 ? ws_run_get_config (run)->flops / ns : 0;
}

double
ws_run_get_intensity (WsRun *run)
{
  const WsRunConfig *c;

  g_return_val_if_fail (WS_IS_RUN (run), 0);
  c = ws_run_get_config (run);
  return c->bytes > 0 ? c->flops / c->bytes : 0;
}

double
ws_analysis_get_ridge_point (const WsDeviceInfo *device)
{
  if (device == NULL || device->fp32_peak_gflops <= 0 || device->bandwidth_measured_gbs <= 0)
    return 0;
  return device->fp32_peak_gflops / device->bandwidth_measured_gbs;
}

/* The first size where the series crosses 1×, and whether the GPU catches up there (rising)
 * or falls behind. */
static gboolean
find_crossing (WsSeries *series, gboolean all_cores, gboolean end_to_end, double *size,
               gboolean *rising)
{
  double prev_size = 0, prev_speedup = 0;

  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      double x = ws_run_get_config (run)->size;
      double s = ws_run_get_speedup (run, all_cores, end_to_end);

      if (s <= 0 || x <= 0)
        continue;
      if (prev_speedup > 0 && x > prev_size && (prev_speedup < 1) != (s < 1))
        {
          /* Straight between the two points on log–log axes, as the speedup chart draws. */
          double t = -log (prev_speedup) / (log (s) - log (prev_speedup));

          *size = exp (log (prev_size) + t * (log (x) - log (prev_size)));
          *rising = prev_speedup < 1;
          return TRUE;
        }
      prev_size = x;
      prev_speedup = s;
    }
  return FALSE;
}

gboolean
ws_analysis_find_crossover (WsSeries *series, gboolean all_cores, gboolean end_to_end,
                            double *size)
{
  double at;
  gboolean rising;

  g_return_val_if_fail (series != NULL, FALSE);
  if (!find_crossing (series, all_cores, end_to_end, &at, &rising))
    return FALSE;
  if (size != NULL)
    *size = at;
  return TRUE;
}

/* The kernel's median and spread; FALSE when it has no kernel time. */
static gboolean
kernel_stats (WsRun *run, double *median, double *min, double *max)
{
  const WsTiming *t = ws_run_get_timing (run);

  if (t == NULL)
    return FALSE;
  if (t->kernel.n > 0 && t->kernel.median > 0)
    {
      *median = t->kernel.median;
      *min = MIN (t->kernel.min, t->kernel.median);
      *max = MAX (t->kernel.max, t->kernel.median);
      return TRUE;
    }
  *median = *min = *max = t->kernel_untraced_ns;
  return *median > 0;
}

WsRun *
ws_analysis_rank_blocks (WsSeries *series, GPtrArray *tied)
{
  WsRun *best = NULL;
  double best_median = G_MAXDOUBLE, best_min = 0, best_max = 0;

  g_return_val_if_fail (series != NULL, NULL);
  if (tied != NULL)
    g_ptr_array_set_size (tied, 0);
  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      double median, min, max;

      if (kernel_stats (run, &median, &min, &max) && median < best_median)
        best = run, best_median = median, best_min = min, best_max = max;
    }
  if (best == NULL || tied == NULL)
    return best;
  for (guint i = 0; i < series->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (series->runs, i);
      double median, min, max;

      if (kernel_stats (run, &median, &min, &max) && median >= best_min && median <= best_max)
        g_ptr_array_add (tied, run);
    }
  return best;
}

static char *
shape_key (const WsRunConfig *c)
{
  return g_strdup_printf ("%d:%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT,
                          c->shape_rank, c->shape[0], c->shape[1], c->shape[2]);
}

/* The best cuBLAS SGEMM rate among the session's runs of this shape, in GFLOP/s; 0: none.
 * The rates are gathered once per analysis: a sweep may hold thousands of runs. */
static double
cublas_rate (WsAnalysis *a, WsRun *run)
{
  g_autofree char *key = shape_key (ws_run_get_config (run));
  double *rate;

  if (a->cublas == NULL)
    {
      GListModel *runs = ws_session_get_runs (a->session);

      a->cublas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
        {
          g_autoptr (WsRun) other = g_list_model_get_item (runs, i);
          const WsRunConfig *oc = ws_run_get_config (other);
          double *best;
          char *k;

          if (!g_str_equal (oc->kernel, "matmul_cublas")
              || ws_run_get_state (other) != WS_RUN_STATE_COMPLETE)
            continue;
          k = shape_key (oc);
          if ((best = g_hash_table_lookup (a->cublas, k)) == NULL)
            {
              best = g_new0 (double, 1);
              g_hash_table_insert (a->cublas, k, best);
            }
          else
            g_free (k);
          *best = MAX (*best, ws_run_get_gflops (other));
        }
    }
  rate = g_hash_table_lookup (a->cublas, key);
  return rate != NULL ? *rate : 0;
}

WsCeiling
_ws_analysis_get_ceiling (WsAnalysis *a, WsRun *run, double *fraction, double *ceiling)
{
  const WsDeviceInfo *d = a->device;
  const WsRunConfig *c = ws_run_get_config (run);
  double ridge, achieved, top = 0;
  WsCeiling which = WS_CEILING_NONE;

  if (fraction != NULL)
    *fraction = 0;
  if (ceiling != NULL)
    *ceiling = 0;
  if (d == NULL || ws_run_get_kernel_ns (run) <= 0)
    return WS_CEILING_NONE;
  ridge = ws_analysis_get_ridge_point (d);

  if (c->bytes > 0 && d->bandwidth_measured_gbs > 0
      && (c->flops <= 0 || ridge <= 0 || c->flops / c->bytes < ridge))
    {
      which = WS_CEILING_COPY_BANDWIDTH;
      top = d->bandwidth_measured_gbs;
      achieved = ws_run_get_gbs (run);
    }
  else if (c->flops > 0)
    {
      achieved = ws_run_get_gflops (run);
      if (!g_str_equal (c->kernel, "matmul_cublas") && (top = cublas_rate (a, run)) > 0)
        which = WS_CEILING_CUBLAS;
      else if ((top = d->fp32_peak_gflops) > 0)
        which = WS_CEILING_FP32_PEAK;
      else
        return WS_CEILING_NONE;
    }
  else
    return WS_CEILING_NONE;
  if (fraction != NULL)
    *fraction = achieved / top;
  if (ceiling != NULL)
    *ceiling = top;
  return which;
}

WsCeiling
ws_analysis_get_ceiling (WsSession *session, WsRun *run, double *fraction, double *ceiling)
{
  WsDevice *device;
  WsAnalysis a = { 0 };
  WsCeiling which;

  g_return_val_if_fail (WS_IS_SESSION (session), WS_CEILING_NONE);
  g_return_val_if_fail (WS_IS_RUN (run), WS_CEILING_NONE);
  device = ws_session_get_run_device (session, run);
  a.session = session;
  a.device = device != NULL ? ws_device_get_info (device) : NULL;
  which = _ws_analysis_get_ceiling (&a, run, fraction, ceiling);
  g_clear_pointer (&a.cublas, g_hash_table_unref);
  return which;
}

const char *
ws_ceiling_describe (WsCeiling ceiling)
{
  switch (ceiling)
    {
    case WS_CEILING_NONE:
      return _("no ceiling");
    case WS_CEILING_COPY_BANDWIDTH:
      return _("the measured copy bandwidth");
    case WS_CEILING_CUBLAS:
      return _("cuBLAS SGEMM at this size");
    case WS_CEILING_FP32_PEAK:
      return _("the theoretical FP32 peak");
    default:
      g_return_val_if_reached (NULL);
    }
}

/* ---- the analysis ------------------------------------------------------------------------ */

typedef struct
{
  gboolean found[4], rising[4];
  double size[4];
} Crossovers;

gboolean
_ws_analysis_crossover (WsAnalysis *a, WsSeries *series, gboolean all_cores, gboolean end_to_end,
                        double *size, gboolean *rising)
{
  Crossovers *c;
  int i = (all_cores ? 2 : 0) + (end_to_end ? 1 : 0);

  if (a->crossovers == NULL)
    a->crossovers = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  if ((c = g_hash_table_lookup (a->crossovers, series)) == NULL)
    {
      c = g_new0 (Crossovers, 1);
      for (int k = 0; k < 4; k++)
        c->found[k] = find_crossing (series, k >= 2, k % 2 == 1, &c->size[k], &c->rising[k]);
      g_hash_table_insert (a->crossovers, series, c);
    }
  if (c->found[i])
    *size = c->size[i], *rising = c->rising[i];
  return c->found[i];
}

typedef struct
{
  WsRun *best;
  GPtrArray *tied; /* the best included */
} Ranking;

static void
ranking_free (Ranking *r)
{
  g_ptr_array_unref (r->tied);
  g_free (r);
}

WsRun *
_ws_analysis_ranking (WsAnalysis *a, WsSeries *series, GPtrArray **tied)
{
  Ranking *r;

  if (a->rankings == NULL)
    a->rankings = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) ranking_free);
  if ((r = g_hash_table_lookup (a->rankings, series)) == NULL)
    {
      r = g_new0 (Ranking, 1);
      r->tied = g_ptr_array_new ();
      r->best = ws_analysis_rank_blocks (series, r->tied);
      g_hash_table_insert (a->rankings, series, r);
    }
  if (tied != NULL)
    *tied = r->tied;
  return r->best;
}

static void
index_series (GPtrArray *series, GHashTable *of)
{
  for (guint i = 0; i < series->len; i++)
    {
      WsSeries *s = g_ptr_array_index (series, i);

      for (guint r = 0; r < s->runs->len; r++)
        g_hash_table_insert (of, g_ptr_array_index (s->runs, r), s);
    }
}

static void
analysis_init (WsAnalysis *a, WsSession *session)
{
  WsDevice *device = ws_session_get_device (session);

  a->session = session;
  a->device = device != NULL ? ws_device_get_info (device) : NULL;
  a->size_series = ws_session_get_series (session, WS_SERIES_BY_SIZE, 2);
  a->block_series = ws_session_get_series (session, WS_SERIES_BY_BLOCK, 2);
  a->size_series_of = g_hash_table_new (NULL, NULL);
  a->block_series_of = g_hash_table_new (NULL, NULL);
  index_series (a->size_series, a->size_series_of);
  index_series (a->block_series, a->block_series_of);
}

static void
analysis_clear (WsAnalysis *a)
{
  g_clear_pointer (&a->size_series, g_ptr_array_unref);
  g_clear_pointer (&a->block_series, g_ptr_array_unref);
  g_clear_pointer (&a->size_series_of, g_hash_table_unref);
  g_clear_pointer (&a->block_series_of, g_hash_table_unref);
  g_clear_pointer (&a->cublas, g_hash_table_unref);
  g_clear_pointer (&a->pinned, g_hash_table_unref);
  g_clear_pointer (&a->crossovers, g_hash_table_unref);
  g_clear_pointer (&a->rankings, g_hash_table_unref);
}

/* Whether `g` goes before `f`: what the program can change before what a library chose (the
 * libraries by name, each one's together), then most severe first, then by kind. */
static gboolean
finding_before (const WsFinding *g, const WsFinding *f)
{
  if ((g->library == NULL) != (f->library == NULL))
    return g->library == NULL;
  if (g->library != NULL && strcmp (g->library, f->library) != 0)
    return strcmp (g->library, f->library) < 0;
  return g->severity > f->severity || (g->severity == f->severity && g->kind <= f->kind);
}

/* Most severe first; within a severity, in the order of WsFindingKind; otherwise as found;
 * a library's kernels' findings last (finding_before). */
static void
sort_findings (GPtrArray *findings)
{
  for (guint i = 1; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);
      guint j = i;

      while (j > 0)
        {
          WsFinding *g = g_ptr_array_index (findings, j - 1);

          if (finding_before (g, f))
            break;
          findings->pdata[j] = g;
          j--;
        }
      findings->pdata[j] = f;
    }
}

void
_ws_sort_findings (GPtrArray *findings)
{
  sort_findings (findings);
}

void
_ws_analysis_run (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  WsDevice *device = ws_session_get_run_device (a->session, run);
  WsLaunchFacts facts;
  WsCopyFacts copies;

  /* A session merged from several GPUs judges each run against its own GPU's ceilings. */
  a->device = device != NULL ? ws_device_get_info (device) : NULL;
  _ws_check_errors (a, run, found);
  if (ws_run_get_state (run) == WS_RUN_STATE_COMPLETE
      || ws_run_get_state (run) == WS_RUN_STATE_FAILED)
    {
      _ws_check_verify (a, run, found);
      _ws_launch_facts_of_run (a, run, &facts);
      _ws_check_launch (&facts, found);
      _ws_copy_facts_of_run (a, run, &copies);
      _ws_check_copies (&copies, found);
      _ws_copy_facts_clear (&copies);
      _ws_check_launch_bound (&facts, found);
      _ws_check_ceiling (a, run, found);
      _ws_check_cpu (a, run, found);
      _ws_check_timing_spread (a, run, found);
    }
  sort_findings (found);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (out, g_ptr_array_index (found, i));
}

GPtrArray *
ws_analyze_run (WsSession *session, WsRun *run)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  WsAnalysis a = { 0 };

  g_return_val_if_fail (WS_IS_SESSION (session), out);
  g_return_val_if_fail (WS_IS_RUN (run), out);
  analysis_init (&a, session);
  _ws_analysis_run (&a, run, out);
  analysis_clear (&a);
  return out;
}

GPtrArray *
ws_analyze_session (WsSession *session)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  WsAnalysis a = { 0 };
  GListModel *runs;
  GPtrArray *errors;

  g_return_val_if_fail (WS_IS_SESSION (session), out);
  analysis_init (&a, session);
  runs = ws_session_get_runs (session);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);

      _ws_analysis_run (&a, run, out);
    }
  errors = ws_session_get_errors (session);
  for (guint i = 0; i < errors->len; i++)
    g_ptr_array_add (out, _ws_finding_for_session_error (g_ptr_array_index (errors, i)));
  analysis_clear (&a);
  return out;
}
