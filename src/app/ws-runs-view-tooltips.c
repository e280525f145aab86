/* ws-runs-view-tooltips.c: the runs table's tooltips, each built from the cell's run and
 * column only when GTK asks for it, so that binding rows while scrolling builds none; and its
 * headers' tooltips, for the columns whose cells a title alone does not explain.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runs-view-private.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "ws-analysis.h"
#include "ws-units.h"

/* A cell's tooltip, NULL for none: built only when GTK asks for it (_ws_runs_view_query_tooltip_cb). */
static char *
cell_tooltip (WsRunsView *self, WsRun *run, Column column)
{
  const WsRunConfig *c = ws_run_get_config (run);
  const WsTiming *t = ws_run_get_timing (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsVerify *v = ws_run_get_verify (run);

  switch (column)
    {
    case COL_DEVICE:
      return g_strdup (c->device_uuid);
    case COL_KERNEL_TIME:
      if (t && t->kernel.n > 0)
        {
          g_autofree char *min = ws_units_duration (t->kernel.min), *max = ws_units_duration (t->kernel.max);
          g_autofree char *tooltip = g_strdup_printf (_("Median of %d traced launches, back to "
                                                        "back; range %s – %s"),
                                                      t->kernel.n, min, max);

          if (t->kernel_in_sequence.n > 0
              && fabs (t->kernel_in_sequence.median - t->kernel.median) > 0.02 * t->kernel.median)
            {
              /* The findings time the kernel between its copies: say why theirs differs. */
              g_autofree char *seq = ws_units_duration (t->kernel_in_sequence.median);

              return g_strdup_printf (_("%s. Between its copies, in sequence, the kernel "
                                        "took %s: that is the time the findings use."),
                                      tooltip, seq);
            }
          return g_steal_pointer (&tooltip);
        }
      return NULL;
    case COL_E2E:
      if (t == NULL)
        return NULL;
      {
        double copies = (t->h2d.n > 0 ? t->h2d.median : 0) + (t->d2h.n > 0 ? t->d2h.median : 0);

        if (copies > t->e2e.median && t->e2e.n > 0)
          {
            /* The findings add up the traced copies, which can come to more than this. */
            g_autofree char *sum = ws_units_duration (copies);

            return g_strdup_printf (_("Copies in, kernel, copy out, between one pair of "
                                      "CUDA events, untraced. The traced copies add up to "
                                      "%s, more than this: copies from pageable memory vary "
                                      "from one repetition to the next."), sum);
          }
        return g_strdup (_("Copies in, kernel, copy out, between one pair of CUDA events"));
      }
    case COL_SPEEDUP_ONE:
    case COL_SPEEDUP_ALL:
      {
        gboolean all = column == COL_SPEEDUP_ALL;
        double k = ws_run_get_speedup (run, all, FALSE), e = ws_run_get_speedup (run, all, TRUE);
        g_autofree char *ks = NULL, *es = NULL;

        if (!(k > 0))
          return NULL;
        ks = ws_units_ratio (k);
        es = ws_units_ratio (e);
        return g_strdup_printf (_("Kernel alone %s faster than the CPU; with the copies, %s"),
                                ks, es);
      }
    case COL_OCCUPANCY:
      if (l == NULL)
        return NULL;
      return g_strdup_printf (_("%d blocks of %d warps per SM, limited by %s; %.2f waves"),
                              l->active_blocks_per_sm, l->warps_per_block,
                              l->limiter ? l->limiter : "?", l->waves);
    case COL_VERIFIED:
      {
        WsRunState state = ws_run_get_state (run);

        /* As the cell's text: a run without its results says so, and has no tooltip. */
        if (state == WS_RUN_STATE_RUNNING || state == WS_RUN_STATE_REFUSED
            || state == WS_RUN_STATE_INCOMPLETE || v == NULL)
          return NULL;
      }
      return g_strdup_printf (_("%" PRId64 " of %" PRId64
                                " elements checked (%s); max relative error %.2g"),
                              v->checked, v->total, v->method ? v->method : "", v->max_rel_err);
    case COL_FINDINGS:
      {
        GPtrArray *f = ws_run_get_state (run) == WS_RUN_STATE_RUNNING
                         ? NULL
                         : _ws_runs_view_get_findings (self, run);

        if (f != NULL && f->len > 0)
          return g_strdup (((WsFinding *) g_ptr_array_index (f, 0))->title);
        return NULL;
      }
    default:
      return NULL;
    }
}

char *
ws_runs_view_dup_cell_tooltip (WsRunsView *self, GtkWidget *cell)
{
  WsRun *run = g_object_get_data (G_OBJECT (cell), "run");

  g_return_val_if_fail (WS_IS_RUNS_VIEW (self), NULL);
  if (run == NULL)
    return NULL;
  return cell_tooltip (self, run,
                       GPOINTER_TO_INT (g_object_get_data (G_OBJECT (cell), "column")));
}

gboolean
_ws_runs_view_query_tooltip_cb (GtkWidget *cell, int x, int y, gboolean keyboard,
                                GtkTooltip *tooltip, gpointer data)
{
  GtkWidget *view = gtk_widget_get_ancestor (cell, WS_TYPE_RUNS_VIEW);
  g_autofree char *text = NULL;

  if (view == NULL)
    return FALSE;
  text = ws_runs_view_dup_cell_tooltip (WS_RUNS_VIEW (view), cell);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* "302× / 0.92×" is two numbers under one short title: the header says which is which. */
static const char *
header_tooltip (Column column)
{
  switch (column)
    {
    case COL_SPEEDUP_ONE:
      return _("How many times faster than one CPU thread: the kernel alone / with its copies "
               "to and from the GPU. Under 1× is slower than the CPU: 0.92× takes a little "
               "longer.");
    case COL_SPEEDUP_ALL:
      return _("How many times faster than all the CPU's cores: the kernel alone / with its "
               "copies to and from the GPU. Under 1× is slower than the CPU: 0.92× takes a "
               "little longer.");
    default:
      return NULL;
    }
}

void
_ws_runs_view_set_header_tooltips (GtkColumnView *columns)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (columns));
  GtkWidget *title;
  int c = 0;

  /* GTK 4.8: the header's children are the columns' titles, in their order
   * (ws-column-widths.c reads them too); GTK has no call for a title's tooltip. */
  g_return_if_fail (header != NULL && g_strcmp0 (gtk_widget_get_css_name (header), "header") == 0);
  for (title = gtk_widget_get_first_child (header); title && c < N_COLUMNS;
       title = gtk_widget_get_next_sibling (title), c++)
    gtk_widget_set_tooltip_text (title, header_tooltip ((Column) c));
}
