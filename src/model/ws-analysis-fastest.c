/* ws-analysis-fastest.c: the fastest configuration of each problem (with the ones tied with
 * it) and where each size series crosses the CPU, for the session's analysis.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"
#include "ws-session-analysis-private.h"

#include "ws-units.h"

void
_ws_fastest_free (WsFastest *fastest)
{
  if (fastest == NULL)
    return;
  g_free (fastest->label);
  g_clear_pointer (&fastest->tied, g_ptr_array_unref);
  g_clear_pointer (&fastest->others, g_ptr_array_unref);
  g_free (fastest);
}

static guint
count_distinct (GPtrArray *runs, char *(*key) (WsRun *run))
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < runs->len; i++)
    g_hash_table_add (seen, key (g_ptr_array_index (runs, i)));
  return g_hash_table_size (seen);
}

static char *
kernel_key (WsRun *run)
{
  return g_strdup (ws_run_get_config (run)->kernel);
}

static char *
transfer_key (WsRun *run)
{
  return g_strdup (ws_run_get_config (run)->transfer);
}

static char *
block_key (WsRun *run)
{
  return ws_run_dup_block_label (run);
}

static double
e2e_median (WsRun *run)
{
  const WsTiming *t = ws_run_get_timing (run);

  return t != NULL && t->e2e.n > 0 ? t->e2e.median : 0;
}

/* Only the host memory differs: the kernel is the same, so the copies decide. */
static WsFastest *
rank_end_to_end (GPtrArray *runs)
{
  WsFastest *fastest = g_new0 (WsFastest, 1);
  const WsTiming *best_timing;

  fastest->by_end_to_end = TRUE;
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);

      if (e2e_median (run) > 0
          && (fastest->best == NULL || e2e_median (run) < e2e_median (fastest->best)))
        fastest->best = run;
    }
  fastest->tied = g_ptr_array_new ();
  fastest->others = g_ptr_array_new ();
  if (fastest->best == NULL)
    return fastest;
  best_timing = ws_run_get_timing (fastest->best);
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      double median = e2e_median (run);

      if (run == fastest->best || !(median > 0))
        continue;
      if (median <= best_timing->e2e.max)
        g_ptr_array_add (fastest->tied, run);
      else
        g_ptr_array_add (fastest->others, run);
    }
  return fastest;
}

static WsFastest *
rank_kernels (GPtrArray *runs)
{
  WsFastest *fastest = g_new0 (WsFastest, 1);
  WsSeries series = { WS_SERIES_BY_BLOCK, NULL, NULL, NULL, runs };
  g_autoptr (GPtrArray) tied = g_ptr_array_new ();
  g_autoptr (GHashTable) best_of = g_hash_table_new (g_str_hash, g_str_equal);

  fastest->best = ws_analysis_rank_blocks (&series, tied);
  fastest->tied = g_ptr_array_new ();
  fastest->others = g_ptr_array_new ();
  if (fastest->best == NULL)
    return fastest;
  for (guint i = 0; i < tied->len; i++)
    if (g_ptr_array_index (tied, i) != fastest->best)
      g_ptr_array_add (fastest->tied, g_ptr_array_index (tied, i));

  /* Every other kernel's best run, so that "tiled beats naive" comes with its factor. */
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);
      const char *kernel = ws_run_get_config (run)->kernel;
      WsRun *known;

      if (g_str_equal (kernel, ws_run_get_config (fastest->best)->kernel)
          || !(ws_run_get_kernel_ns (run) > 0))
        continue;
      known = g_hash_table_lookup (best_of, kernel);
      if (known == NULL || ws_run_get_kernel_ns (run) < ws_run_get_kernel_ns (known))
        g_hash_table_insert (best_of, (gpointer) kernel, run);
    }
  for (guint i = 0; i < runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (runs, i);

      if (g_hash_table_lookup (best_of, ws_run_get_config (run)->kernel) == run)
        g_ptr_array_add (fastest->others, run);
    }
  return fastest;
}

char *
_ws_fastest_problem_key (WsRun *run)
{
  const WsRunConfig *c = ws_run_get_config (run);

  /* Only complete runs with a kernel time are ranked. */
  if (ws_run_get_state (run) != WS_RUN_STATE_COMPLETE || !(ws_run_get_kernel_ns (run) > 0))
    return NULL;
  return g_strdup_printf ("%s|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT "|%" G_GUINT64_FORMAT,
                          c->family, c->shape[0], c->shape[1], c->shape[2]);
}

WsFastest *
_ws_fastest_rank (GPtrArray *group, WsSession *session)
{
  guint kernels, transfers, blocks;
  WsFastest *fastest;

  if (group->len < 2)
    return NULL;
  kernels = count_distinct (group, kernel_key);
  transfers = count_distinct (group, transfer_key);
  blocks = count_distinct (group, block_key);
  if (kernels == 1 && blocks == 1 && transfers > 1)
    fastest = rank_end_to_end (group);
  else
    fastest = rank_kernels (group);
  if (fastest->best == NULL)
    {
      _ws_fastest_free (fastest);
      return NULL;
    }
  fastest->block_sweep = kernels == 1 && transfers == 1 && blocks > 1;
  fastest->session = session;
  fastest->n_runs = group->len;
  fastest->label = ws_run_dup_size_label (fastest->best);
  return fastest;
}

WsCrossover *
_ws_crossover_new (WsSeries *series)
{
  WsCrossover *x = g_new0 (WsCrossover, 1);
  WsRun *first = g_ptr_array_index (series->runs, 0);
  WsRun *last = g_ptr_array_index (series->runs, series->runs->len - 1);

  x->shape_rank = ws_run_get_config (first)->shape_rank;
  for (int all_cores = 0; all_cores < 2; all_cores++)
    for (int e2e = 0; e2e < 2; e2e++)
      {
        x->found[all_cores][e2e]
          = ws_analysis_find_crossover (series, all_cores, e2e, &x->size[all_cores][e2e]);
        x->lowest[all_cores][e2e] = ws_run_get_speedup (first, all_cores, e2e);
        x->highest[all_cores][e2e] = ws_run_get_speedup (last, all_cores, e2e);
        for (guint r = 0; r < series->runs->len; r++)
          x->best[all_cores][e2e]
            = MAX (x->best[all_cores][e2e],
                   ws_run_get_speedup (g_ptr_array_index (series->runs, r), all_cores, e2e));
      }
  x->series = series;
  return x;
}

char *
ws_fastest_dup_summary (const WsFastest *f)
{
  const WsRunConfig *c;
  g_autofree char *block = NULL, *time = NULL;
  GString *s;

  g_return_val_if_fail (f != NULL && f->best != NULL, NULL);
  c = ws_run_get_config (f->best);
  block = ws_run_dup_block_label (f->best);
  s = g_string_new (NULL);
  if (f->by_end_to_end)
    {
      time = ws_units_duration (e2e_median (f->best));
      /* TRANSLATORS: kernel, problem size, host memory (pageable, pinned), end-to-end time */
      g_string_append_printf (s, _("%s %s with %s host memory — %s end to end"), c->kernel,
                              f->label, ws_transfer_label (c->transfer), time);
    }
  else
    {
      time = ws_units_duration (ws_run_get_kernel_ns (f->best));
      if (*block != '\0')
        /* TRANSLATORS: kernel, problem size, block, the kernel's median time */
        g_string_append_printf (s, _("%s %s at block %s — %s"), c->kernel, f->label, block,
                                time);
      else
        g_string_append_printf (s, _("%s %s — %s"), c->kernel, f->label, time);
    }
  if (f->tied->len > 0)
    g_string_append_printf (s,
                            g_dngettext (GETTEXT_PACKAGE, " (%u more within its spread)",
                                         " (%u more within its spread)", f->tied->len),
                            f->tied->len);
  return g_string_free (s, FALSE);
}
