/* ws-analysis-results.c: findings about what a run produced: the runner's errors, wrong
 * results, the comparison with the CPU and its crossover size, CPU baselines cut short, and
 * timings too noisy to rank block sizes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

/* ---- the runner's errors ----------------------------------------------------------------- */

typedef struct
{
  WsErrorCode code;
  const char *title;
  const char *cause;
  const char *fix;
} ErrorText;

static const ErrorText error_texts[] = {
  { WS_ERROR_INVALID_BLOCK, N_("Run refused: the block does not fit this kernel or GPU"),
    N_("A block may have at most 1024 threads, each dimension within the GPU's limits, and no more "
       "threads than the kernel's registers allow."),
    N_("Use a smaller block, such as 256 threads or 16×16.") },
  { WS_ERROR_OUT_OF_MEMORY, N_("Run refused: out of GPU memory"),
    N_("The arrays of this size did not fit in the memory the GPU had free."),
    N_("Use a smaller size, or close other programs that use the GPU.") },
  { WS_ERROR_SIZE_TOO_LARGE, N_("Run refused: the size is too large for this GPU"),
    N_("The arrays or the grid of this size exceed what the GPU can hold or launch."),
    N_("Use a smaller size.") },
  { WS_ERROR_KERNEL_FAULT, N_("Run lost: the kernel crashed"),
    N_("The kernel touched memory it must not (an illegal address) or hit another fault, and the "
       "GPU could not go on with this session."),
    N_("Check the kernel's index arithmetic and its bounds test (i < n); compute-sanitizer names "
       "the line that faults.") },
  { WS_ERROR_NO_KERNEL_IMAGE, N_("Run refused: no machine code for this GPU"),
    N_("This build of the runner has no code for this GPU's architecture."),
    N_("Rebuild the runner with this GPU's architecture in -Dgpu_archs.") },
  { WS_ERROR_TRACE_INCOMPLETE, N_("Traced times left out: CUPTI lost records"),
    N_("CUPTI delivered a different number of kernel records than there were launches, so the "
       "traced figures of this run cannot be trusted."),
    N_("Run it again; the untraced times of this run are still valid.") },
  { WS_ERROR_CUPTI_UNAVAILABLE, N_("Not traced: CUPTI is unavailable"),
    N_("Without CUPTI the runner times with CUDA events, and the timeline has no spans."),
    N_("Install CUPTI with the CUDA toolkit, or give its path in WARPSCOPE_LIBCUPTI.") },
  { WS_ERROR_CUPTI_IN_USE, N_("Not traced: another profiler holds CUPTI"),
    N_("Only one profiler at a time can trace a process."),
    N_("Close the other profiler (Nsight Systems, Nsight Compute) and run it again.") },
  { WS_ERROR_NO_DRIVER, N_("No GPU driver on this machine"),
    N_("The NVIDIA driver library (libcuda.so.1) was not found."),
    N_("Install the NVIDIA driver, or run the runner on a machine with a GPU through a launcher "
       "prefix (ssh gpu-box).") },
  { WS_ERROR_DRIVER_TOO_OLD, N_("The GPU driver is too old for this runner"),
    N_("The driver supports an older CUDA than the runner was built with."),
    N_("Update the NVIDIA driver, or build the runner with an older CUDA toolkit.") },
  { WS_ERROR_NO_DEVICE, N_("No GPU found"),
    N_("The driver is installed but sees no GPU."),
    N_("Check that the GPU is visible (nvidia-smi) and not hidden by CUDA_VISIBLE_DEVICES.") },
};

static WsFinding *
finding_for_error (WsRun *run, const WsRunnerError *e)
{
  gboolean warning = e->severity == WS_ERROR_SEVERITY_WARNING;
  const ErrorText *text = NULL;
  WsFinding *f;

  for (guint i = 0; i < G_N_ELEMENTS (error_texts); i++)
    if (error_texts[i].code == e->code)
      text = &error_texts[i];
  f = _ws_finding_new (WS_FINDING_RUN_ERROR, warning ? WS_SEVERITY_INFO : WS_SEVERITY_HIGH, run,
                       0, 0);
  if (text != NULL)
    _ws_finding_title (f, "%s", _(text->title));
  else if (warning)
    _ws_finding_title (f, _("Runner warning: %s"), e->code_name);
  else if (run != NULL)
    _ws_finding_title (f, _("Run refused: %s"), e->code_name);
  else
    _ws_finding_title (f, _("Session error: %s"), e->code_name);
  /* Translators: the runner's own message, in English, then "." or nothing. */
  if (e->message != NULL && *e->message != '\0')
    _ws_finding_numbers (f, _("The runner says: %s%s"), e->message,
                         g_str_has_suffix (e->message, ".") ? "" : ".");
  if (e->detail != NULL && *e->detail != '\0')
    _ws_finding_numbers (f, _("CUDA says: %s."), e->detail);
  if (text != NULL)
    {
      _ws_finding_cause (f, "%s", _(text->cause));
      _ws_finding_fix (f, "%s", _(text->fix));
    }
  else
    {
      _ws_finding_cause (f, "%s", warning ? _("The runner went on with less than it was asked for.")
                                          : _("The runner stopped this run before it produced "
                                              "results."));
      _ws_finding_fix (f, _("The runner's message says what to change."));
    }
  if (run != NULL)
    _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, -1);
  return f;
}

WsFinding *
_ws_finding_for_session_error (const WsRunnerError *error)
{
  return finding_for_error (NULL, error);
}

void
_ws_check_errors (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  GPtrArray *errors = ws_run_get_errors (run);
  WsFinding *f;
  guint n;

  for (guint i = 0; i < errors->len; i++)
    g_ptr_array_add (out, finding_for_error (run, g_ptr_array_index (errors, i)));
  if (ws_run_get_state (run) != WS_RUN_STATE_INCOMPLETE)
    return;
  ws_run_get_activities (run, &n);
  f = _ws_finding_new (WS_FINDING_RUN_ERROR, WS_SEVERITY_HIGH, run, 0, 0);
  _ws_finding_title (f, _("Run lost: the stream ended before its results"));
  _ws_finding_numbers (f, _("Run %d was announced and %u activity records arrived, then the "
                         "runner's output stopped."),
                       ws_run_get_id (run), n);
  _ws_finding_cause (f, _("The runner was stopped or crashed, or the connection to it broke."));
  _ws_finding_fix (f, _("Run it again. If it stops at the same place, start warpscope-runner by "
                     "hand to read its messages."));
  g_ptr_array_add (out, f);
}

/* ---- wrong results ----------------------------------------------------------------------- */

void
_ws_check_verify (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsVerify *v = ws_run_get_verify (run);
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsFinding *f;

  if (v == NULL || v->pass)
    return;
  f = _ws_finding_new (WS_FINDING_VERIFICATION_FAILED, WS_SEVERITY_HIGH, run,
                       (double) (v->mismatches + v->unwritten), 0);
  if (v->unwritten > 0)
    _ws_finding_title (f, _("Wrong results: %s elements were never written"),
                       _ws_fmt_count (x1, v->unwritten));
  else if (v->mismatches > 0)
    _ws_finding_title (f, _("Wrong results: %s of %s elements are outside the tolerance"),
                       _ws_fmt_count (x1, v->mismatches), _ws_fmt_count (x2, v->checked));
  else
    _ws_finding_title (f, _("Wrong results: the output does not match the CPU's reference"));
  if (v->mismatches > 0)
    _ws_finding_numbers (f, _("%s of the %s elements checked are outside |gpu − ref| ≤ atol + "
                           "rtol·|ref| with atol = %g and rtol = %g."),
                         _ws_fmt_count (x1, v->mismatches), _ws_fmt_count (x2, v->checked),
                         v->atol, v->rtol);
  if (v->unwritten > 0)
    _ws_finding_numbers (f, _("%s elements still hold the NaN the output was filled with: no "
                           "thread wrote them."),
                         _ws_fmt_count (x1, v->unwritten));
  if (v->max_abs_err > 0 || v->max_rel_err > 0)
    _ws_finding_numbers (f, _("Largest errors: %.3g absolute, %.3g relative."), v->max_abs_err,
                         v->max_rel_err);
  if (v->first_bad_index >= 0)
    _ws_finding_numbers (f, _("The first wrong element is number %s: %g instead of %g."),
                         _ws_fmt_count (x1, v->first_bad_index), v->first_bad_value,
                         v->first_bad_expected);
  if (f->numbers == NULL)
    _ws_finding_numbers (f, _("The runner's check of the output failed."));
  if (v->unwritten > 0)
    {
      _ws_finding_cause (f, _("Elements that no thread wrote mean the grid does not cover the "
                           "output: too few blocks, or an index or bounds test that skips "
                           "elements."));
      _ws_finding_fix (f, _("Launch enough blocks to cover every element, (n + block − 1) / block, "
                         "and check the bounds test (i < n)."));
    }
  else
    {
      _ws_finding_cause (f, _("Wrong values come from a wrong index (a thread reads its "
                           "neighbour's data), a race between threads (a missing __syncthreads "
                           "around shared memory), or, when the errors are tiny, a tolerance too "
                           "tight for sums taken in another order."));
      _ws_finding_fix (f, _("Compare the first wrong element's index with the kernel's index "
                         "arithmetic; in tiled kernels, synchronize before and after each tile "
                         "is used."));
    }
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, WS_PHASE_SEQUENCE);
  g_ptr_array_add (out, f);
}

/* ---- the CPU ----------------------------------------------------------------------------- */

static void
check_baseline_note (WsRun *run, const WsCpuBaseline *b, GPtrArray *out)
{
  char who[WS_FMT_LEN];
  WsFinding *f;

  /* Runs that share a baseline share its note: it is told once, by the run that measured it. */
  if (!b->present || b->from_run != 0 || (!b->skipped && b->note == NULL))
    return;
  g_snprintf (who, sizeof who,
              g_dngettext (GETTEXT_PACKAGE, "%d thread", "%d threads", MAX (b->threads, 1)),
              MAX (b->threads, 1));
  f = _ws_finding_new (WS_FINDING_CPU_BASELINE_NOTE, WS_SEVERITY_INFO, run, b->stats.n, 0);
  if (b->skipped)
    _ws_finding_title (f, _("CPU baseline skipped: %s"), who);
  else
    _ws_finding_title (f, _("CPU baseline ran %d times: %s"), b->stats.n, who);
  /* Translators: the runner's own note, in English, then "." or nothing. */
  if (b->note != NULL)
    _ws_finding_numbers (f, _("The runner says: %s%s"), b->note,
                         g_str_has_suffix (b->note, ".") ? "" : ".");
  _ws_finding_cause (f, _("The runner keeps each CPU baseline within a time budget, so that a "
                       "sweep does not wait minutes for the CPU."));
  /* The app has no control for the budget: it says where the budget can be raised. */
  if (b->skipped)
    _ws_finding_fix_for (f, _("Raise --cpu-budget to measure it; until then this run has no "
                              "speedup against it."),
                         _("The app keeps each CPU baseline within the runner's usual time "
                           "budget; warpscope-cli run can give it more. Until then this run has "
                           "no speedup against it."));
  else
    _ws_finding_fix_for (f, _("Raise --cpu-budget or --cpu-reps for more runs; with fewer, "
                              "speedups against this baseline are less certain."),
                         _("With fewer runs, speedups against this baseline are less certain; "
                           "the app keeps each CPU baseline within the runner's usual time "
                           "budget, and warpscope-cli run can give it more."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_CPU, -1);
  g_ptr_array_add (out, f);
}

/* The baseline as the subject of a sentence: "OpenBLAS 0.3.21 on 16 CPU threads", "the
 * hand-written CPU code on one thread". */
static void
baseline_words (const WsCpuBaseline *b, char *buf, gsize len)
{
  g_autofree char *library = NULL;

  if (b->library == NULL)
    {
      if (b->threads == 1)
        g_strlcpy (buf, _("the hand-written CPU code on one thread"), len);
      else
        g_snprintf (buf, len,
                    g_dngettext (GETTEXT_PACKAGE, "the hand-written CPU code on %d thread",
                                 "the hand-written CPU code on %d threads", MAX (b->threads, 1)),
                    MAX (b->threads, 1));
      return;
    }
  library = b->library_version != NULL ? g_strdup_printf ("%s %s", b->library, b->library_version)
                                       : g_strdup (b->library);
  if (b->threads <= 0)
    /* Translators: a BLAS library ("OpenBLAS 0.3.21") that does not say its threads. */
    g_snprintf (buf, len, _("%s on the CPU"), library);
  else if (b->threads == 1)
    /* Translators: a BLAS library ("OpenBLAS 0.3.21") on one thread. */
    g_snprintf (buf, len, _("%s on one CPU thread"), library);
  else
    /* Translators: a BLAS library ("OpenBLAS 0.3.21"), then its thread count. */
    g_snprintf (buf, len, g_dngettext (GETTEXT_PACKAGE, "%s on %d CPU thread",
                                       "%s on %d CPU threads", b->threads),
                library, b->threads);
}

typedef struct
{
  gboolean all_cores, end_to_end;
  WsSeverity severity;
} Comparison;

/* In order: the first comparison the GPU loses is the one a student should hear about. */
static const Comparison comparisons[] = {
  { FALSE, FALSE, WS_SEVERITY_HIGH },
  { FALSE, TRUE, WS_SEVERITY_MEDIUM },
  { TRUE, FALSE, WS_SEVERITY_MEDIUM },
  { TRUE, TRUE, WS_SEVERITY_LOW },
};

static void
crossover_sentence (WsAnalysis *a, WsRun *run, const Comparison *cmp, WsFinding *f)
{
  WsSeries *series = g_hash_table_lookup (a->size_series_of, run);
  const WsRunConfig *c = ws_run_get_config (run);
  char x1[WS_FMT_LEN];
  double size;
  gboolean rising;

  if (series == NULL)
    return;
  if (_ws_analysis_crossover (a, series, cmp->all_cores, cmp->end_to_end, &size, &rising))
    {
      if (rising)
        _ws_finding_numbers (f, _("In this size series (%s) the GPU catches up at %s."),
                             series->label, _ws_fmt_size (x1, c, size));
      else
        _ws_finding_numbers (f, _("In this size series (%s) the GPU falls behind from %s on."),
                             series->label, _ws_fmt_size (x1, c, size));
    }
  else
    {
      WsRun *last = g_ptr_array_index (series->runs, series->runs->len - 1);
      g_autofree char *largest = ws_run_dup_size_label (last);

      _ws_finding_numbers (f, _("In this size series (%s) the GPU does not catch up at any size, "
                             "up to %s."),
                           series->label, largest);
    }
}

void
_ws_check_cpu (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsTiming *t = ws_run_get_timing (run);
  const Comparison *cmp = NULL;
  const WsCpuBaseline *b;
  char who[WS_FMT_LEN], what[2 * WS_FMT_LEN], x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  double speedup = 0, gpu;
  WsFinding *f;

  if (t == NULL)
    return;
  check_baseline_note (run, &t->cpu_one, out);
  check_baseline_note (run, &t->cpu_all, out);
  for (guint i = 0; i < G_N_ELEMENTS (comparisons) && cmp == NULL; i++)
    {
      speedup = ws_run_get_speedup (run, comparisons[i].all_cores, comparisons[i].end_to_end);
      if (speedup > 0 && speedup < _ws_threshold (WS_T_CPU_SPEEDUP))
        cmp = &comparisons[i];
    }
  if (cmp == NULL)
    return;
  b = cmp->all_cores ? &t->cpu_all : &t->cpu_one;
  if (b->threads == 1)
    g_strlcpy (who, _("one CPU thread"), sizeof who);
  else if (b->threads <= 0)
    g_strlcpy (who, _("the CPU"), sizeof who);
  else
    g_snprintf (who, sizeof who,
                g_dngettext (GETTEXT_PACKAGE, "%d CPU thread", "%d CPU threads", b->threads),
                b->threads);
  baseline_words (b, what, sizeof what);
  gpu = cmp->end_to_end ? t->e2e.median : ws_run_get_kernel_ns (run);
  f = _ws_finding_new (WS_FINDING_SLOWER_THAN_CPU, cmp->severity, run, speedup,
                       _ws_threshold (WS_T_CPU_SPEEDUP));
  _ws_fmt_time (x1, gpu);
  _ws_fmt_time (x2, b->stats.median);
  _ws_fmt_ratio (x3, speedup);
  if (cmp->end_to_end)
    {
      _ws_finding_title (f, _("Slower than %s once the copies are counted"), what);
      _ws_finding_numbers (f, _("End to end, with its copies, the GPU takes %s; %s does the same "
                             "work in %s: the GPU runs at %s the CPU's speed."),
                           x1, what, x2, x3);
    }
  else
    {
      _ws_finding_title (f, _("Slower than %s, even without the copies"), what);
      _ws_finding_numbers (f, _("The kernel takes %s; %s does the same work in %s: the GPU runs "
                             "at %s the CPU's speed."),
                           x1, what, x2, x3);
      _ws_finding_cache_note (f, run);
    }
  crossover_sentence (a, run, cmp, f);
  if (!cmp->end_to_end)
    _ws_finding_cause (f, _("A GPU wins by running thousands of threads at once. At this size there "
                         "is too little work to fill it, and its fixed costs (a launch takes a few "
                         "µs) outweigh the work."));
  else
    _ws_finding_cause (f, _("The copies between host and GPU cost more than the GPU saves: %s of "
                         "copies against %s for the kernel between them (medians of the traced "
                         "repetitions)."),
                       _ws_fmt_time (x1, (t->h2d.n > 0 ? t->h2d.median : 0)
                                           + (t->d2h.n > 0 ? t->d2h.median : 0)),
                       _ws_fmt_time (x2, _ws_run_get_kernel_in_sequence_ns (run)));
  if (cmp->all_cores)
    _ws_finding_cause (f, _("%s working together are a strong baseline."), who);
  if (cmp->all_cores && ws_run_get_intensity (run) > 0
      && ws_run_get_intensity (run) < ws_analysis_get_ridge_point (a->device))
    _ws_finding_cause (f, _("A kernel that does little arithmetic per byte gains least from the "
                         "GPU: the CPU's memory keeps up with it."));
  if (cmp->end_to_end)
    _ws_finding_fix (f, _("Keep the data on the GPU across several kernels so that the copies are "
                       "paid once, give the GPU larger problems, or leave this one to the CPU."));
  else
    _ws_finding_fix (f, _("Give the GPU larger problems, or several at once, and leave problems "
                       "this small to the CPU."));
  _ws_finding_point_at (f, run, cmp->end_to_end ? -1 : WS_ACTIVITY_KERNEL, -1);
  if (cmp->end_to_end)
    {
      /* The whole sequence, and the CPU runs it was compared with. */
      g_array_set_size (f->activities, 0);
      _ws_finding_point_at (f, run, -1, WS_PHASE_SEQUENCE);
      _ws_finding_point_at (f, run, WS_ACTIVITY_CPU, WS_PHASE_CPU);
    }
  g_ptr_array_add (out, f);
}

/* ---- noise and the ranking of block sizes ------------------------------------------------ */

static char *
join_blocks (GPtrArray *runs, WsRun *except)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *r = g_ptr_array_index (runs, i);
      g_autofree char *label = NULL;

      if (r == except)
        continue;
      label = ws_run_dup_block_label (r);
      if (s->len > 0)
        g_string_append (s, ", ");
      g_string_append (s, label);
    }
  return g_string_free (s, FALSE);
}

/* Why the fastest of a block sweep wins, from the counters of it and of the slowest run whose
 * counters were read too: what differs between them, in one sentence; nothing without
 * counters. */
static void
why_fastest (WsFinding *f, WsRun *best, GPtrArray *runs)
{
  const WsCounters *cb = ws_run_get_counters (best), *cs = NULL;
  WsRun *slowest = NULL;
  g_autoptr (GString) what = g_string_new (NULL);
  char b[WS_FMT_LEN], s[WS_FMT_LEN], x[WS_FMT_LEN], y[WS_FMT_LEN];
  double ab, as, db, ds;

  if (cb == NULL)
    return;
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *r = g_ptr_array_index (runs, i);

      if (r != best && ws_run_get_counters (r) != NULL
          && (slowest == NULL || ws_run_get_kernel_ns (r) > ws_run_get_kernel_ns (slowest)))
        slowest = r;
    }
  if (slowest == NULL || !(ws_run_get_kernel_ns (best) > 0))
    return;
  cs = ws_run_get_counters (slowest);
  ab = ws_counters_get (cb, "achieved_occupancy");
  as = ws_counters_get (cs, "achieved_occupancy");
  db = ws_counters_get (cb, "dram_bytes_read") + ws_counters_get (cb, "dram_bytes_write");
  ds = ws_counters_get (cs, "dram_bytes_read") + ws_counters_get (cs, "dram_bytes_write");
  if (isfinite (ab) && isfinite (as))
    {
      g_string_append_printf (what, _("achieved occupancy %s against %s"),
                              _ws_fmt_percent (x, ab / 100), _ws_fmt_percent (y, as / 100));
    }
  if (isfinite (db) && isfinite (ds) && ds > 0)
    {
      if (what->len > 0)
        g_string_append (what, ", ");
      if (fabs (db / ds - 1) < 0.05)
        g_string_append_printf (what, _("the same DRAM traffic (%s against %s)"),
                                _ws_fmt_bytes (x, db), _ws_fmt_bytes (y, ds));
      else
        g_string_append_printf (what, _("DRAM traffic %s against %s"), _ws_fmt_bytes (x, db),
                                _ws_fmt_bytes (y, ds));
    }
  if (what->len == 0)
    return;
  _ws_fmt_block (b, best);
  _ws_fmt_block (s, slowest);
  _ws_finding_cause (f, _("Measured by the GPU's counters, %s beats %s by %s: %s."), b, s,
                     _ws_fmt_percent (x, ws_run_get_kernel_ns (slowest)
                                           / ws_run_get_kernel_ns (best) - 1),
                     what->str);
}

static void
check_ranking (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  WsSeries *series = g_hash_table_lookup (a->block_series_of, run);
  GPtrArray *tied;
  const WsTiming *bt, *t = ws_run_get_timing (run);
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  WsRun *best;
  WsFinding *f;

  if (series == NULL || (best = _ws_analysis_ranking (a, series, &tied)) == NULL)
    return;
  bt = ws_run_get_timing (best);
  _ws_fmt_block (x1, best);
  _ws_fmt_time (x2, ws_run_get_kernel_ns (best));
  _ws_fmt_time (x3, bt->kernel.n > 0 ? bt->kernel.min : ws_run_get_kernel_ns (best));
  _ws_fmt_time (x4, bt->kernel.n > 0 ? bt->kernel.max : ws_run_get_kernel_ns (best));
  if (run == best)
    {
      g_autofree char *others = join_blocks (tied, best);

      f = _ws_finding_new (WS_FINDING_BEST_IN_SWEEP, WS_SEVERITY_INFO, run, tied->len - 1, 0);
      _ws_finding_title (f, _("Fastest of %u block sizes: %s (%s)"), series->runs->len, x1, x2);
      _ws_finding_numbers (f, _("Its launches took %s to %s."), x3, x4);
      if (tied->len > 1)
        {
          _ws_finding_numbers (f, _("Tied with it, within that spread: %s."), others);
          _ws_finding_cause (f, _("Block sizes whose medians lie within the fastest one's own "
                               "range differ by less than the noise between launches."));
          _ws_finding_fix (f, _("Treat the tied sizes as equally fast, and prefer the one that "
                             "suits the other sizes of the problem too."));
        }
      else
        {
          _ws_finding_numbers (f, _("No other block size comes within that range."));
          _ws_finding_cause (f, _("The difference to the next size is larger than the noise "
                               "between launches."));
          _ws_finding_fix (f, _("Keep this block size for this kernel and problem size."));
        }
      why_fastest (f, best, series->runs);
      _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, WS_PHASE_KERNELS);
      g_ptr_array_add (out, f);
      return;
    }
  if (!g_ptr_array_find (tied, run, NULL))
    return;
  f = _ws_finding_new (WS_FINDING_TIED_WITH_BEST, WS_SEVERITY_INFO, run,
                       ws_run_get_kernel_ns (run) / ws_run_get_kernel_ns (best), 0);
  {
    char mine[WS_FMT_LEN], median[WS_FMT_LEN];

    _ws_fmt_block (mine, run);
    _ws_fmt_time (median, t->kernel.n > 0 ? t->kernel.median : ws_run_get_kernel_ns (run));
    _ws_finding_title (f, _("Tied with the fastest: %s (%s) against %s (%s)"), mine, median, x1,
                       x2);
    _ws_finding_numbers (f, _("Its median, %s, lies within the %s to %s that the fastest, %s, "
                           "took."),
                         median, x3, x4, x1);
  }
  _ws_finding_cause (f, _("The difference is smaller than the fastest configuration's own spread "
                       "from launch to launch: it is noise, not a ranking."));
  _ws_finding_fix (f, _("Treat the tied sizes as equally fast."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, WS_PHASE_KERNELS);
  g_ptr_array_add (out, f);
}

void
_ws_check_timing_spread (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  const WsTiming *t = ws_run_get_timing (run);
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  double spread;
  WsFinding *f;

  check_ranking (a, run, out);
  if (t == NULL || t->kernel.n < 2 || t->kernel.median <= 0)
    return;
  spread = (t->kernel.max - t->kernel.min) / t->kernel.median;
  if (spread < _ws_threshold (WS_T_NOISE_SPREAD))
    return;
  f = _ws_finding_new (WS_FINDING_NOISY_TIMING, WS_SEVERITY_LOW, run, spread,
                       _ws_threshold (WS_T_NOISE_SPREAD));
  _ws_finding_title (f, _("Noisy timing: the kernel's times spread over %s of the median"),
                     _ws_fmt_percent (x1, spread));
  _ws_finding_numbers (f, _("The %d launches took %s to %s around a median of %s."), t->kernel.n,
                       _ws_fmt_time (x1, t->kernel.min), _ws_fmt_time (x2, t->kernel.max),
                       _ws_fmt_time (x3, t->kernel.median));
  if (g_hash_table_contains (a->block_series_of, run))
    _ws_finding_numbers (f, _("Block sizes closer than that to each other cannot be ranked."));
  _ws_finding_cause (f, _("Short kernels are measured close to the clock's resolution and feel "
                       "every disturbance: clock changes, other programs on the GPU, the first "
                       "launch after a pause."));
  _ws_finding_fix_for (f, _("Use more repetitions (--reps), close other programs that use the "
                            "GPU, and compare configurations by median and spread, not by "
                            "single runs."),
                       _("Raise Repetitions in the sidebar, close other programs that use the "
                         "GPU, and compare configurations by median and spread, not by single "
                         "runs."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, WS_PHASE_KERNELS);
  g_ptr_array_add (out, f);
}
