/* ws-chart-blocks-trace.c: the block-size chart of a traced program swept over its own
 * parameter (warpscope-cli trace --sweep TPB=…): a program run per value, each kernel's most
 * time-consuming configuration in it (ws_trace_collect_series) plotted at its threads per
 * block, with the spread of its launches and the occupancy its resources allow; the fastest
 * run marked, and those whose fastest launch beats its slowest as tied.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-blocks-private.h"
#include "ws-chart-format-private.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

static int
compare_points (gconstpointer a, gconstpointer b)
{
  const WsBlocksPoint *x = a, *y = b;

  return x->tpb < y->tpb ? -1 : x->tpb > y->tpb;
}

/* Two block sizes at least: something to compare. */
static gboolean
is_sweep (const WsTraceSeries *series)
{
  for (guint i = 1; i < series->points->len; i++)
    if (ws_trace_kernel_threads (g_ptr_array_index (series->points, i))
        != ws_trace_kernel_threads (g_ptr_array_index (series->points, 0)))
      return TRUE;
  return FALSE;
}

gboolean
_ws_blocks_trace_has_sweep (WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) all = NULL;

  if (trace == NULL)
    return FALSE;
  all = ws_trace_collect_series (trace);
  for (guint i = 0; i < all->len; i++)
    if (is_sweep (g_ptr_array_index (all, i)))
      return TRUE;
  return FALSE;
}

static char *
best_text (const WsTraceKernel *best, guint n_tied, gboolean name_kernel, WsTrace *trace)
{
  g_autofree char *block = ws_trace_format_dims (best->block);
  const WsTraceProgram *p = ws_trace_get_program (trace, best->program);
  g_autofree char *params = p != NULL ? ws_trace_describe_params (p) : g_strdup ("");
  /* TRANSLATORS: the block of the fastest run, then the sweep's values that gave it:
   * "block 256 (TPB=256)" */
  g_autofree char *shape = *params ? g_strdup_printf (_("block %s (%s)"), block, params)
                                   : g_strdup_printf (_("block %s"), block);

  return _ws_blocks_best_text (name_kernel ? best->short_name : NULL, shape, best->median_ns,
                               n_tied);
}

static WsBlocksSeries *
series_of (const WsTraceSeries *t, const WsColor *color, gboolean name_kernel, WsTrace *trace)
{
  WsBlocksSeries *s = g_new0 (WsBlocksSeries, 1);
  const WsTraceKernel *best = NULL;

  s->kernel = g_strdup (t->short_name);
  s->color = *color;
  s->band = t->points->len > 8;
  s->points = g_array_new (FALSE, FALSE, sizeof (WsBlocksPoint));
  for (guint i = 0; i < t->points->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (t->points, i);

      if (best == NULL || k->median_ns < best->median_ns)
        best = k;
    }
  for (guint i = 0; i < t->points->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (t->points, i);
      WsBlocksPoint p = { (int) k->program, ws_trace_kernel_threads (k), k->median_ns,
                          k->min_ns, k->max_ns };

      p.whisker = k->count > 1;
      p.occupancy = k->has_occupancy ? k->occupancy.occupancy : NAN;
      p.best = k == best;
      /* Within the fastest one's spread: the launches overlap. */
      p.tied = best != NULL && k->min_ns <= best->max_ns;
      s->n_tied += p.tied;
      g_array_append_val (s->points, p);
    }
  g_array_sort (s->points, compare_points);
  s->curve = _ws_blocks_curve_of (s->points);
  if (best != NULL)
    {
      s->best = (int) best->program;
      s->n_tied = MAX (s->n_tied, 1);
      s->best_text = best_text (best, s->n_tied, name_kernel, trace);
    }
  return s;
}

gboolean
_ws_blocks_collect_trace (WsBlocksData *data, WsSession *session, const WsChartBase *base)
{
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) all = trace != NULL ? ws_trace_collect_series (trace) : NULL;
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  g_autoptr (GString) kernels = g_string_new (NULL);

  for (guint i = 0; all != NULL && i < all->len; i++)
    if (is_sweep (g_ptr_array_index (all, i)))
      {
        const WsTraceSeries *t = g_ptr_array_index (all, i);

        g_ptr_array_add (data->series,
                         series_of (t, &base->theme->series[data->series->len % 8], FALSE,
                                    trace));
        if (kernels->len < 80)
          g_string_append_printf (kernels, "%s%s", kernels->len ? ", " : "", t->short_name);
      }
  if (data->series->len == 0)
    return FALSE;
  data->n_main = data->series->len;
  for (guint i = 0; data->n_main > 1 && i < data->series->len; i++)
    {
      WsBlocksSeries *s = g_ptr_array_index (data->series, i);
      const WsTraceSeries *t = NULL;

      for (guint k = 0; k < all->len && t == NULL; k++)
        if (g_strcmp0 (((WsTraceSeries *) g_ptr_array_index (all, k))->short_name, s->kernel) == 0)
          t = g_ptr_array_index (all, k);
      g_free (s->best_text);
      s->best_text = NULL;
      if (t != NULL && s->best != 0)
        for (guint k = 0; k < t->points->len; k++)
          if (((WsTraceKernel *) g_ptr_array_index (t->points, k))->program == (guint) s->best)
            s->best_text = best_text (g_ptr_array_index (t->points, k), s->n_tied, TRUE, trace);
    }
  /* TRANSLATORS: "Block size · add_kernel, a traced program swept" */
  data->frame.title = g_strdup_printf (_("%s · %s, a traced program's sweep"),
                                       ws_chart_kind_title (WS_CHART_BLOCKS), kernels->str);
  g_ptr_array_add (sessions, session);
  _ws_blocks_collect_legend (data, sessions, base->theme);
  data->x_title = _("Threads per block");
  _ws_blocks_collect_axes (data);
  return TRUE;
}
