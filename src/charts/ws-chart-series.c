/* ws-chart-series.c: which series the charts of sweeps show, and the CSV of them: the size
 * series of a speedup chart (a kernel's default block standing for its other shapes), the
 * block series of a block-size chart (the widest sweep and the kernels measured beside it).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <math.h>
#include <string.h>

#include "ws-chart-frame-private.h"
#include "ws-chart-series-private.h"

int
_ws_compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

double
_ws_median (GArray *values)
{
  guint n = values->len;

  if (n == 0)
    return NAN;
  g_array_sort (values, _ws_compare_double);
  return n % 2 ? g_array_index (values, double, n / 2)
               : (g_array_index (values, double, n / 2 - 1) + g_array_index (values, double, n / 2))
                     / 2;
}

/* Does the series hold run `id`? */
gboolean
_ws_series_has_run (WsSeries *series, int id)
{
  for (guint i = 0; id != 0 && i < series->runs->len; i++)
    if (ws_run_get_id (g_ptr_array_index (series->runs, i)) == id)
      return TRUE;
  return FALSE;
}

/* ---- over sizes: the speedup chart ------------------------------------------------------ */

static gboolean
is_default_block (WsSession *session, WsSeries *series)
{
  WsKernelEntry *kernel = ws_session_find_kernel (session, series->kernel);
  const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (series->runs, 0));

  return kernel != NULL && ws_kernel_entry_is_default_block (kernel, c->block);
}

/* Several block shapes of one kernel over the same sizes would be a tangle of lines: the
 * kernel's default block stands for them, else the series with most runs. Transfer modes are
 * kept apart: they are what the dashed lines compare. */
static gboolean
stands_for_its_kernel (WsSession *session, GPtrArray *all, guint i)
{
  WsSeries *s = g_ptr_array_index (all, i);
  gboolean s_def = is_default_block (session, s);

  for (guint j = 0; j < all->len; j++)
    {
      WsSeries *o = g_ptr_array_index (all, j);
      gboolean o_def;

      if (j == i || g_strcmp0 (o->kernel, s->kernel) != 0
          || g_strcmp0 (o->transfer, s->transfer) != 0)
        continue;
      o_def = is_default_block (session, o);
      if (o_def != s_def ? !s_def
          : o->runs->len != s->runs->len ? s->runs->len < o->runs->len
                                         : j < i)
        return FALSE;
    }
  return TRUE;
}

GPtrArray *
_ws_speedup_pick_series (WsSession *session, const WsChartBase *base)
{
  /* The analysis's series, borrowed: the picked ones too. */
  WsSessionAnalysis *analysis = _ws_chart_analysis (session);
  g_autoptr (GPtrArray) all
    = g_ptr_array_copy (ws_session_analysis_get_series (analysis, WS_SERIES_BY_SIZE), NULL, NULL);
  g_autoptr (GArray) keep = g_array_new (FALSE, FALSE, sizeof (gboolean));
  GPtrArray *picked = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++)
    {
      WsSeries *s = g_ptr_array_index (all, i);
      /* A run picked adds its own series to the natural ones; the chart draws it in full
       * colour and the others pale, instead of dropping them. */
      gboolean k = _ws_series_has_run (s, base->run) || _ws_series_has_run (s, base->compare_run)
                   || stands_for_its_kernel (session, all, i);

      g_array_append_val (keep, k);
    }
  for (guint i = all->len; i-- > 0;)
    if (!g_array_index (keep, gboolean, i))
      g_ptr_array_remove_index (all, i);
  while (all->len > 0)
    g_ptr_array_add (picked, g_ptr_array_steal_index (all, 0));
  return picked;
}

/* ---- over block sizes: the block-size chart ---------------------------------------------- */

static gboolean
wants_heatmap (WsSeries *series)
{
  g_autoptr (GHashTable) xs = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) ys = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < series->runs->len; i++)
    {
      const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (series->runs, i));

      g_hash_table_add (xs, GUINT_TO_POINTER (c->block[0]));
      g_hash_table_add (ys, GUINT_TO_POINTER (c->block[1]));
    }
  /* A grid of shapes, not a diagonal of square ones (8×8, 16×16, 32×32 read better as a
   * line against threads per block). */
  return g_hash_table_size (xs) >= 2 && g_hash_table_size (ys) >= 2
         && series->runs->len > MAX (g_hash_table_size (xs), g_hash_table_size (ys));
}

static double
series_size (WsSeries *s)
{
  return ws_run_get_config (g_ptr_array_index (s->runs, 0))->size;
}

/* The sweep with the most configurations, the largest size on a tie; then the other kernels
 * measured at the same size and transfer mode, to compare them. */
static void
pick_natural (GPtrArray *all, GPtrArray *picked)
{
  WsSeries *first = NULL;
  const WsRunConfig *fc;

  for (guint i = 0; i < all->len; i++)
    {
      WsSeries *s = g_ptr_array_index (all, i);

      if (first == NULL || s->runs->len > first->runs->len
          || (s->runs->len == first->runs->len && series_size (s) > series_size (first)))
        first = s;
    }
  if (first == NULL)
    return;
  fc = ws_run_get_config (g_ptr_array_index (first->runs, 0));
  for (guint i = 0; i < all->len; i++)
    {
      WsSeries *s = g_ptr_array_index (all, i);
      const WsRunConfig *c = ws_run_get_config (g_ptr_array_index (s->runs, 0));

      if (s == first)
        g_ptr_array_insert (picked, 0, g_ptr_array_steal_index (all, i--));
      else if (memcmp (c->shape, fc->shape, sizeof c->shape) == 0
               && g_strcmp0 (c->transfer, fc->transfer) == 0)
        g_ptr_array_add (picked, g_ptr_array_steal_index (all, i--));
    }
}

GPtrArray *
_ws_blocks_pick_series (WsSession *session, const WsChartBase *base, gboolean *heatmap)
{
  /* The analysis's series, borrowed: the picked ones too. */
  WsSessionAnalysis *analysis = _ws_chart_analysis (session);
  g_autoptr (GPtrArray) all
    = g_ptr_array_copy (ws_session_analysis_get_series (analysis, WS_SERIES_BY_BLOCK), NULL, NULL);
  GPtrArray *picked = g_ptr_array_new ();

  *heatmap = FALSE;
  if (base->run != 0)
    {
      for (guint i = 0; i < all->len; i++)
        {
          WsSeries *s = g_ptr_array_index (all, i);

          if (_ws_series_has_run (s, base->run) || _ws_series_has_run (s, base->compare_run))
            g_ptr_array_add (picked, g_ptr_array_steal_index (all, i--));
        }
    }
  else
    pick_natural (all, picked);
  if (picked->len > 0 && wants_heatmap (g_ptr_array_index (picked, 0)))
    {
      *heatmap = TRUE;
      g_ptr_array_set_size (picked, 1);
    }
  return picked;
}
