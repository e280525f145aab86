/* ws-analysis-copies.c: a sweep's run as the copy rules read it (ws-analysis-transfer.c): the
 * copies of its sequences, their timing and host memory, the same configuration with pinned
 * memory where the session ran it, and how its streams overlapped copies with kernels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <math.h>
#include <string.h>

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

/* The indices of the run's sequence copies (and kernels, with `kernels`); of the copies only
 * those under `below` bytes. */
static GArray *
sequence_spans (WsRun *run, gboolean kernels, double below)
{
  guint n;
  const WsSpan *act = ws_run_get_activities (run, &n);
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < n; i++)
    if (act[i].phase == WS_PHASE_SEQUENCE
        && ((act[i].kind == WS_ACTIVITY_MEMCPY && act[i].bytes < below)
            || (kernels && act[i].kind == WS_ACTIVITY_KERNEL)))
      g_array_append_val (spans, i);
  return spans;
}

static WsCopyLeg
leg_of (WsCopyDirection direction, const WsStats *stats, gint64 bytes, double pinned_gbs)
{
  WsCopyLeg l = { 0 };

  l.direction = direction;
  l.count = stats->n > 0 ? (guint) stats->n : 0;
  l.bytes = (double) bytes;
  l.ns = stats->n > 0 ? stats->median : 0;
  l.pinned_gbs = pinned_gbs;
  l.pinned_measured = pinned_gbs > 0;
  return l;
}

void
_ws_copy_facts_of_run (WsAnalysis *a, WsRun *run, WsCopyFacts *k)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsRunConfig *c = ws_run_get_config (run);
  const WsDeviceInfo *d = a->device;
  CopyStats s;
  WsTotals totals;

  memset (k, 0, sizeof *k);
  copy_stats (run, &s);
  k->run = run;
  k->device = d;
  k->kernel_ns = _ws_run_get_kernel_in_sequence_ns (run);
  k->kernel_alone_ns = ws_run_get_kernel_ns (run);
  k->copy_spans = sequence_spans (run, FALSE, INFINITY);
  k->rate_bytes = (double) (c->input_bytes + c->output_bytes);
  k->kernel_bytes = c->bytes;
  k->intensity = ws_run_get_intensity (run);
  k->ridge = ws_analysis_get_ridge_point (d);
  k->pageable = is_pageable (run, &s);
  k->pageable_recorded = s.pageable > 0;
  if (t != NULL)
    {
      k->in = leg_of (WS_COPY_HTOD, &t->h2d, c->input_bytes, d ? d->h2d_pinned_gbs : 0);
      k->back = leg_of (WS_COPY_DTOH, &t->d2h, c->output_bytes, d ? d->d2h_pinned_gbs : 0);
      k->e2e_ns = t->e2e.n > 0 ? t->e2e.median : 0;
    }
  /* Small copies are latency, not memory: their rate says nothing of pinned memory. */
  if (t != NULL && k->pageable && !is_small (&s))
    {
      k->pageable_legs = g_array_new (FALSE, FALSE, sizeof (WsCopyLeg));
      g_array_append_val (k->pageable_legs, k->in);
      g_array_append_val (k->pageable_legs, k->back);
      k->pageable_spans = g_array_ref (k->copy_spans);
      k->pinned_twin = _ws_analysis_pinned_twin (a, run);
    }
  k->all.count = s.count;
  k->all.bytes = s.bytes;
  k->all.ns = s.ns;
  k->small_spans = sequence_spans (run, FALSE, _ws_threshold (WS_T_SMALL_COPY_BYTES));
  k->streamed = is_streamed (run);
  if (k->streamed)
    {
      ws_run_get_totals (run, &totals);
      k->overlap_copy_ns = totals.copy_ns;
      k->overlap_kernel_ns = totals.kernel_ns;
      k->overlap_ns = totals.overlap_ns;
      k->overlap_spans = sequence_spans (run, TRUE, INFINITY);
    }
}
