/* ws-analysis-copies.c: findings about the copies between host and GPU: transfer-bound runs,
 * pageable host memory, copies too small to be efficient, and streams that fail to overlap.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

typedef struct
{
  guint count;         /* memcpy records of the sequences */
  guint pageable;      /* of which from or to pageable host memory */
  /* Sums in doubles: thousands of copies of up to 2^53 bytes or ns each would overflow an
   * integer, and only averages and rates are made of them. */
  double bytes;
  double ns;
} CopyStats;

static void
copy_stats (WsRun *run, CopyStats *s)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);

  memset (s, 0, sizeof *s);
  for (guint i = 0; i < n; i++)
    if (a[i].kind == WS_ACTIVITY_MEMCPY && a[i].phase == WS_PHASE_SEQUENCE)
      {
        s->count++;
        s->pageable += a[i].host_memory == WS_HOST_MEMORY_PAGEABLE;
        s->bytes += (double) a[i].bytes;
        s->ns += (double) ws_span_duration (&a[i]);
      }
}

static gboolean
is_pageable (WsRun *run, const CopyStats *s)
{
  if (s->count > 0)
    return s->pageable > 0;
  /* A record that names no host memory says nothing of it. */
  return ws_run_get_config (run)->transfer != NULL
         && ws_run_get_config (run)->transfer_kind == WS_TRANSFER_PAGEABLE;
}

double
_ws_run_get_kernel_in_sequence_ns (WsRun *run)
{
  const WsTiming *t = ws_run_get_timing (run);

  if (t != NULL && t->kernel_in_sequence.n > 0 && t->kernel_in_sequence.median > 0)
    return t->kernel_in_sequence.median;
  return ws_run_get_kernel_ns (run);
}

static gboolean
is_small (const CopyStats *s)
{
  return s->count > 0 && s->bytes / s->count < _ws_threshold (WS_T_SMALL_COPY_BYTES);
}

static void
check_transfer_bound (WsAnalysis *a, WsRun *run, const CopyStats *s, GPtrArray *out)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsRunConfig *c = ws_run_get_config (run);
  double copy, kernel, ratio, e2e;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  char x6[WS_FMT_LEN];
  WsFinding *f;

  if (t == NULL)
    return;
  copy = (t->h2d.n > 0 ? t->h2d.median : 0) + (t->d2h.n > 0 ? t->d2h.median : 0);
  kernel = _ws_run_get_kernel_in_sequence_ns (run);
  if (copy <= 0 || kernel <= 0 || (ratio = copy / kernel) < _ws_threshold (WS_T_TRANSFER_BOUND))
    return;
  f = _ws_finding_new (WS_FINDING_TRANSFER_BOUND,
                       ratio >= _ws_threshold (WS_T_TRANSFER_BOUND_HIGH) ? WS_SEVERITY_HIGH
                                                                         : WS_SEVERITY_MEDIUM,
                       run, ratio, _ws_threshold (WS_T_TRANSFER_BOUND));
  e2e = t->e2e.n > 0 ? t->e2e.median : 0;
  _ws_fmt_time (x1, copy);
  _ws_fmt_time (x3, t->h2d.median);
  _ws_fmt_time (x4, t->d2h.median);
  _ws_fmt_time (x5, kernel);
  /* The copies are traced and the end-to-end time is not: pageable copies vary enough between
   * repetitions that the traced ones can add up to more than the untraced whole. */
  _ws_finding_title (f, _("Transfer-bound: the copies take %s as long as the kernel"),
                     _ws_fmt_ratio (x2, ratio));
  if (e2e >= copy + kernel)
    _ws_finding_numbers (f, _("Copies take %s of the %s end to end (%s): %s host to device, %s "
                           "device to host."),
                         x1, _ws_fmt_time (x2, e2e), _ws_fmt_percent (x6, copy / e2e), x3, x4);
  else
    _ws_finding_numbers (f, _("Copies take %s: %s host to device, %s device to host."), x1, x3,
                         x4);
  _ws_finding_numbers (f, _("Between the copies, the kernel takes %s."), x5);
  if (e2e > 0 && e2e < copy + kernel)
    _ws_finding_numbers (f, _("End to end, untraced, the run took %s: its copies vary from one "
                           "repetition to the next."),
                         _ws_fmt_time (x2, e2e));
  _ws_finding_cause (f, _("Every byte crosses the link between host and GPU, which is much "
                       "slower than the GPU's own memory: these copies ran at %s."),
                     _ws_fmt_gbs (x1, (c->input_bytes + c->output_bytes) / copy));
  if (ws_analysis_get_ridge_point (a->device) > 0 && c->bytes > 0
      && ws_run_get_intensity (run) < ws_analysis_get_ridge_point (a->device))
    _ws_finding_cause (f, _("The kernel itself moves data at %s and does little work per byte "
                         "(%s FLOP per byte): it cannot win back the time of its copies."),
                       _ws_fmt_gbs (x1, c->bytes / kernel),
                       _ws_fmt_number (x2, ws_run_get_intensity (run)));
  _ws_finding_fix (f, _("Keep the data on the GPU across kernels and copy back only results."));
  if (is_pageable (run, s))
    _ws_finding_fix (f, _("Use pinned memory for the copies that remain."));
  _ws_finding_fix (f, _("Overlap copies with work on other chunks in streams."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_MEMCPY, WS_PHASE_SEQUENCE);
  g_ptr_array_add (out, f);
}

static char *
config_key (const WsRunConfig *c)
{
  return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT
                          "|%u|%u|%u",
                          c->kernel, c->shape[0], c->shape[1], c->shape[2], c->block[0],
                          c->block[1], c->block[2]);
}

WsRun *
_ws_analysis_pinned_twin (WsAnalysis *a, WsRun *run)
{
  g_autofree char *key = NULL;

  if (a->pinned == NULL)
    {
      GListModel *runs = ws_session_get_runs (a->session);

      a->pinned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
        {
          g_autoptr (WsRun) other = g_list_model_get_item (runs, i);
          const WsRunConfig *o = ws_run_get_config (other);
          char *k;

          if (o->transfer_kind != WS_TRANSFER_PINNED
              || ws_run_get_state (other) != WS_RUN_STATE_COMPLETE)
            continue;
          k = config_key (o);
          if (g_hash_table_contains (a->pinned, k))
            g_free (k);
          else
            g_hash_table_insert (a->pinned, k, other); /* the session holds it */
        }
    }
  key = config_key (ws_run_get_config (run));
  return g_hash_table_lookup (a->pinned, key);
}

static void
check_pageable (WsAnalysis *a, WsRun *run, const CopyStats *s, GPtrArray *out)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsRunConfig *c = ws_run_get_config (run);
  double h2d_rate = 0, d2h_rate = 0, h2d_pinned = 0, d2h_pinned = 0, achieved, pinned = 0;
  double copy, fraction = 0;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  gboolean bound;
  WsFinding *f;
  WsRun *twin;

  if (t == NULL || !is_pageable (run, s) || is_small (s))
    return;
  copy = (t->h2d.n > 0 ? t->h2d.median : 0) + (t->d2h.n > 0 ? t->d2h.median : 0);
  if (copy <= 0 || c->input_bytes + c->output_bytes <= 0)
    return;
  if (t->h2d.n > 0 && t->h2d.median > 0)
    h2d_rate = c->input_bytes / t->h2d.median;
  if (t->d2h.n > 0 && t->d2h.median > 0)
    d2h_rate = c->output_bytes / t->d2h.median;
  achieved = (c->input_bytes + c->output_bytes) / copy;
  if (a->device != NULL)
    {
      h2d_pinned = a->device->h2d_pinned_gbs;
      d2h_pinned = a->device->d2h_pinned_gbs;
    }
  /* Pinned time for the same bytes in each direction, to compare like with like. */
  if ((c->input_bytes == 0 || h2d_pinned > 0) && (c->output_bytes == 0 || d2h_pinned > 0))
    pinned = (c->input_bytes + c->output_bytes)
             / ((c->input_bytes > 0 ? c->input_bytes / h2d_pinned : 0)
                + (c->output_bytes > 0 ? c->output_bytes / d2h_pinned : 0));
  if (pinned > 0 && (fraction = achieved / pinned) >= _ws_threshold (WS_T_PAGEABLE_RATE))
    return;

  /* Pinned memory matters most where the copies are the larger part of the run. */
  bound = pinned > 0 && copy >= _ws_run_get_kernel_in_sequence_ns (run);
  f = _ws_finding_new (WS_FINDING_PAGEABLE_MEMORY, bound ? WS_SEVERITY_MEDIUM : WS_SEVERITY_LOW,
                       run, fraction, _ws_threshold (WS_T_PAGEABLE_RATE));
  if (pinned > 0)
    _ws_finding_title (f, _("Pageable memory: copies at %s, pinned memory reaches %s"),
                       _ws_fmt_gbs (x1, achieved), _ws_fmt_gbs (x2, pinned));
  else
    _ws_finding_title (f, _("Pageable memory: copies at %s"), _ws_fmt_gbs (x1, achieved));
  if (h2d_rate > 0)
    _ws_finding_numbers (f, _("Host to device: %s in %s, %s."), _ws_fmt_bytes (x1, c->input_bytes),
                         _ws_fmt_time (x2, t->h2d.median), _ws_fmt_gbs (x3, h2d_rate));
  if (d2h_rate > 0)
    _ws_finding_numbers (f, _("Device to host: %s in %s, %s."),
                         _ws_fmt_bytes (x1, c->output_bytes), _ws_fmt_time (x2, t->d2h.median),
                         _ws_fmt_gbs (x3, d2h_rate));
  if (h2d_pinned > 0 && d2h_pinned > 0)
    _ws_finding_numbers (f, _("Pinned memory on this GPU: %s host to device and %s device to host "
                           "(measured when the session started), %s as fast."),
                         _ws_fmt_gbs (x1, h2d_pinned), _ws_fmt_gbs (x2, d2h_pinned),
                         _ws_fmt_ratio (x4, 1 / MAX (fraction, 1e-9)));
  if ((twin = _ws_analysis_pinned_twin (a, run)) != NULL)
    {
      const WsTiming *tt = ws_run_get_timing (twin);

      if (tt != NULL && tt->h2d.n > 0 && tt->d2h.n > 0)
        _ws_finding_numbers (f, _("The same configuration with pinned memory (run %d) copies in "
                               "%s instead of %s."),
                             ws_run_get_id (twin), _ws_fmt_time (x1, tt->h2d.median
                                                                       + tt->d2h.median),
                             _ws_fmt_time (x2, copy));
    }
  _ws_finding_cause (f, _("The host arrays come from malloc: pageable memory, which the system "
                       "may move. The GPU cannot copy from it directly, so the driver first copies "
                       "each piece into a pinned buffer and then over the link, one after the "
                       "other."));
  _ws_finding_fix (f, _("Allocate the host arrays with cudaMallocHost, or pin them with "
                     "cudaHostRegister, and copy straight from them."));
  _ws_finding_fix_for (f, _("Run the sweep with --transfer pinned to compare."),
                       _("Set Host memory to Pinned in the sidebar and run again to compare."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_MEMCPY, WS_PHASE_SEQUENCE);
  g_ptr_array_add (out, f);
}

static void
check_small_copies (WsAnalysis *a, WsRun *run, const CopyStats *s, GPtrArray *out)
{
  guint n;
  const WsSpan *act;
  double each;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  WsFinding *f;

  if (!is_small (s) || s->ns <= 0)
    return;
  each = s->bytes / s->count;
  f = _ws_finding_new (WS_FINDING_SMALL_COPIES, WS_SEVERITY_LOW, run, each,
                       _ws_threshold (WS_T_SMALL_COPY_BYTES));
  _ws_finding_title (f, _("Small copies: %s each, so latency dominates"), _ws_fmt_bytes (x1, each));
  _ws_finding_numbers (f, _("Each copy moves %s and takes %s on average: %s."), x1,
                       _ws_fmt_time (x2, s->ns / s->count),
                       _ws_fmt_gbs (x3, s->bytes / s->ns));
  if (a->device != NULL && a->device->h2d_pinned_gbs > 0)
    _ws_finding_numbers (f, _("Large pinned copies reach %s on this GPU."),
                         _ws_fmt_gbs (x1, a->device->h2d_pinned_gbs));
  _ws_finding_cause (f, _("Every copy pays a fixed cost of a microsecond or more to start, "
                       "whatever its size. Below about %s, that cost is most of the copy's time."),
                     _ws_fmt_bytes (x1, _ws_threshold (WS_T_SMALL_COPY_BYTES)));
  _ws_finding_fix (f, _("Copy fewer, larger pieces: pack small arrays into one buffer, or keep the "
                     "data on the GPU between kernels. A problem this small is often faster on "
                     "the CPU."));
  act = ws_run_get_activities (run, &n);
  for (guint i = 0; i < n; i++)
    if (act[i].kind == WS_ACTIVITY_MEMCPY && act[i].phase == WS_PHASE_SEQUENCE
        && act[i].bytes < _ws_threshold (WS_T_SMALL_COPY_BYTES))
      g_array_append_val (f->activities, i);
  g_ptr_array_add (out, f);
}

void
_ws_check_transfers (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  CopyStats s;

  copy_stats (run, &s);
  check_transfer_bound (a, run, &s, out);
  check_pageable (a, run, &s, out);
  check_small_copies (a, run, &s, out);
}

/* Streamed modes ("streams:4", and any later ones) split the work over several streams; a run
 * whose copies and kernels use more than one stream is streamed whatever its mode is called. */
static gboolean
is_streamed (WsRun *run)
{
  const char *transfer = ws_run_get_config (run)->transfer;
  const char *count = transfer != NULL ? strchr (transfer, ':') : NULL;
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);
  guint32 stream = 0;
  gboolean seen = FALSE;

  /* "streams:1" is one stream: nothing to overlap with. */
  if (transfer != NULL && g_str_has_prefix (transfer, "stream")
      && (count == NULL || g_ascii_strtoll (count + 1, NULL, 10) > 1))
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      if (a[i].phase != WS_PHASE_SEQUENCE
          || (a[i].kind != WS_ACTIVITY_MEMCPY && a[i].kind != WS_ACTIVITY_KERNEL))
        continue;
      if (seen && a[i].stream != stream)
        return TRUE;
      stream = a[i].stream;
      seen = TRUE;
    }
  return FALSE;
}

static int
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

void
_ws_check_overlap (WsAnalysis *a, WsRun *run, GPtrArray *out)
{
  WsTotals t;
  CopyStats s;
  double possible, share;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  WsFinding *f;

  if (!is_streamed (run))
    return;
  ws_run_get_totals (run, &t);
  possible = MIN (t.copy_ns, t.kernel_ns);
  if (possible <= 0 || (share = t.overlap_ns / possible) >= _ws_threshold (WS_T_OVERLAP_LOW))
    return;
  f = _ws_finding_new (WS_FINDING_LOW_OVERLAP, WS_SEVERITY_MEDIUM, run, share,
                       _ws_threshold (WS_T_OVERLAP_LOW));
  _ws_finding_title (f, _("Low overlap: copies and kernels overlap for %s of the possible time"),
                     _ws_fmt_percent (x1, share));
  _ws_finding_numbers (f, _("Over its sequences, copies take %s and kernels %s; they run at the "
                         "same time for %s, %s of the %s that could overlap."),
                       _ws_fmt_time (x1, t.copy_ns), _ws_fmt_time (x2, t.kernel_ns),
                       _ws_fmt_time (x3, t.overlap_ns), _ws_fmt_percent (x4, share),
                       _ws_fmt_time (x5, possible));
  _ws_finding_cause (f, _("Streams let a copy run while a kernel works on another chunk, but only "
                       "when copies are asynchronous from pinned memory and each chunk's copies "
                       "and kernel are queued in their own stream."));
  copy_stats (run, &s);
  if (s.pageable > 0)
    _ws_finding_cause (f, _("These copies use pageable memory, which makes cudaMemcpyAsync wait "
                         "for the copy: nothing can overlap."));
  _ws_finding_fix (f, _("Use pinned host memory, queue each chunk's copy in, kernel and copy out "
                     "in its own stream, and use at least three or four chunks. The timeline "
                     "shows which spans wait for which."));
  _ws_finding_point_at (f, run, WS_ACTIVITY_MEMCPY, WS_PHASE_SEQUENCE);
  _ws_finding_point_at (f, run, WS_ACTIVITY_KERNEL, WS_PHASE_SEQUENCE);
  g_array_sort (f->activities, compare_guint);
  g_ptr_array_add (out, f);
}
