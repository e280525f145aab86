/* ws-chart-params.c: the block-size chart for an own kernel whose tunable parameter was swept
 * (docs/own-kernels.md): kernel time against the parameter's values, one line per
 * configuration of everything else (kernel, size, block, transfer, the other parameters);
 * with two parameters swept, a heatmap of the fastest run at each pair of values, as 2D
 * blocks get.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

#include "ws-chart-blocks-private.h"
#include "ws-chart-format-private.h"

gboolean
_ws_params_parse (const char *text, GHashTable *values)
{
  g_auto (GStrv) parts = g_strsplit (text ? text : "", ",", -1);
  guint n = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *eq = strchr (parts[i], '=');
      char *end;
      double v;

      if (eq == NULL)
        return FALSE;
      *eq = '\0';
      v = g_ascii_strtod (eq + 1, &end);
      if (end == eq + 1 || *g_strstrip (end) != '\0' || *g_strstrip (parts[i]) == '\0')
        return FALSE;
      g_hash_table_insert (values, g_strdup (parts[i]), g_memdup2 (&v, sizeof v));
      n++;
    }
  return n > 0;
}

static void
add_value (GArray *values, double v)
{
  for (guint i = 0; i < values->len; i++)
    if (g_array_index (values, double, i) == v)
      return;
  g_array_append_val (values, v);
  g_array_sort (values, _ws_compare_double);
}

static guint
index_of (GArray *values, double v)
{
  for (guint i = 0; i < values->len; i++)
    if (g_array_index (values, double, i) == v)
      return i;
  return 0;
}

typedef struct
{
  WsRun *run;
  GHashTable *values; /* name → double */
  double ns, lo, hi;
} Measured;

static void
measured_free (Measured *m)
{
  g_object_unref (m->run);
  g_hash_table_unref (m->values);
  g_free (m);
}

/* The session's measured runs of own kernels, with their parameters read. */
static GPtrArray *
measured_runs (WsSession *session)
{
  GListModel *runs = ws_session_get_runs (session);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) measured_free);

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsTiming *t = ws_run_get_timing (run);
      GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      Measured *m;

      if (t == NULL || !(t->kernel.median > 0)
          || !_ws_params_parse (ws_run_get_config (run)->params, values))
        {
          g_hash_table_unref (values);
          continue;
        }
      m = g_new0 (Measured, 1);
      m->run = g_steal_pointer (&run);
      m->values = values;
      m->ns = t->kernel.median;
      m->lo = t->kernel.min > 0 ? t->kernel.min : m->ns;
      m->hi = t->kernel.max > 0 ? t->kernel.max : m->ns;
      g_ptr_array_add (out, m);
    }
  return out;
}

/* The parameters that take at least two values, in the order the runs name them. */
static GPtrArray *
swept_names (GPtrArray *measured)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < measured->len; i++)
    {
      Measured *m = g_ptr_array_index (measured, i);
      g_auto (GStrv) parts = g_strsplit (ws_run_get_config (m->run)->params, ",", -1);

      for (guint k = 0; parts[k] != NULL; k++)
        {
          g_autofree char *name = g_strndup (parts[k], strcspn (parts[k], "="));
          GArray *values;

          g_strstrip (name);
          values = g_hash_table_lookup (seen, name);
          if (values == NULL)
            {
              values = g_array_new (FALSE, FALSE, sizeof (double));
              g_hash_table_insert (seen, g_strdup (name), values);
              g_ptr_array_add (order, g_strdup (name));
            }
          add_value (values, *(double *) g_hash_table_lookup (m->values, name));
        }
    }
  for (guint i = 0; i < order->len; i++)
    if (((GArray *) g_hash_table_lookup (seen, g_ptr_array_index (order, i)))->len >= 2)
      g_ptr_array_add (names, g_strdup (g_ptr_array_index (order, i)));
  return names;
}

static double
value_of (Measured *m, const char *name)
{
  double *v = g_hash_table_lookup (m->values, name);

  return v ? *v : NAN;
}

/* What one line keeps fixed: the kernel, size, transfer and the parameters not swept. The
 * block is not: a tile's block follows the tile (restrict: block.x == TILE), and where
 * several blocks ran at one value the line goes through the fastest. */
static char *
series_label (Measured *m, GPtrArray *swept)
{
  const WsRunConfig *c = ws_run_get_config (m->run);
  g_autofree char *size = _ws_chart_dup_size_label (m->run);
  GString *s = g_string_new (c->kernel);
  g_auto (GStrv) parts = g_strsplit (c->params, ",", -1);

  for (guint k = 0; parts[k] != NULL; k++)
    {
      g_autofree char *name = g_strstrip (g_strndup (parts[k], strcspn (parts[k], "=")));

      if (!g_ptr_array_find_with_equal_func (swept, name, g_str_equal, NULL))
        g_string_append_printf (s, " %s", g_strstrip (parts[k]));
    }
  g_string_append_printf (s, " %s, %s", size, c->transfer ? c->transfer : "");
  return g_string_free (s, FALSE);
}

static void
series_free (WsParamsSeries *s)
{
  g_free (s->label);
  g_array_unref (s->points);
  g_free (s);
}

/* One point per value: the fastest run there. */
static void
add_point (WsParamsSeries *s, const WsParamsPoint *p)
{
  for (guint k = 0; k < s->points->len; k++)
    {
      WsParamsPoint *q = &g_array_index (s->points, WsParamsPoint, k);

      if (q->x == p->x)
        {
          if (p->value < q->value)
            *q = *p;
          return;
        }
    }
  g_array_append_val (s->points, *p);
}

/* Each line's fastest point; when every line is fastest at one value, the text says so (the
 * fastest run of all is merely the smallest problem). */
static void
mark_bests (WsParamsData *data)
{
  double common = NAN;
  gboolean same = TRUE;
  char value[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < data->series->len; i++)
    {
      WsParamsSeries *s = g_ptr_array_index (data->series, i);
      WsParamsPoint *best = NULL;

      for (guint k = 0; k < s->points->len; k++)
        {
          WsParamsPoint *p = &g_array_index (s->points, WsParamsPoint, k);

          p->best = FALSE;
          if (best == NULL || p->value < best->value)
            best = p;
        }
      best->best = TRUE;
      same = same && (i == 0 || best->x == common);
      common = best->x;
    }
  if (data->series->len > 1 && same)
    {
      g_free (data->best_text);
      g_ascii_formatd (value, sizeof value, "%g", common);
      data->best_text = g_strdup_printf (_("fastest at every size: %s = %s"), data->x_name, value);
    }
}

static void
collect_lines (WsParamsData *data, GPtrArray *measured, GPtrArray *swept, const WsTheme *theme)
{
  g_autoptr (GHashTable) by_label = g_hash_table_new (g_str_hash, g_str_equal);

  data->series = g_ptr_array_new_with_free_func ((GDestroyNotify) series_free);
  for (guint i = 0; i < measured->len; i++)
    {
      Measured *m = g_ptr_array_index (measured, i);
      g_autofree char *label = series_label (m, swept);
      WsParamsSeries *s = g_hash_table_lookup (by_label, label);
      WsParamsPoint p = { value_of (m, data->x_name), m->ns, m->lo, m->hi,
                          ws_run_get_id (m->run), ws_run_get_id (m->run) == data->best };

      if (s == NULL)
        {
          s = g_new0 (WsParamsSeries, 1);
          s->label = g_steal_pointer (&label);
          s->color = theme->series[data->series->len % G_N_ELEMENTS (theme->series)];
          s->points = g_array_new (FALSE, FALSE, sizeof (WsParamsPoint));
          g_hash_table_insert (by_label, s->label, s);
          g_ptr_array_add (data->series, s);
          _ws_legend_add (&data->legend, s->label, &s->color, WS_LEGEND_LINE, WS_MARKER_CIRCLE);
        }
      add_point (s, &p);
    }
  /* Where several blocks ran at one value a line shows only the fastest of them: without
   * these words a reader takes each point for the one block measured there. */
  _ws_legend_add (&data->legend, _("each point: the fastest block size at that value"),
                  &theme->muted, WS_LEGEND_MARKER, WS_MARKER_CIRCLE);
  /* The axis spans the points drawn, not the slower runs they stand for: a block that ran
   * 3.6× slower at one value would otherwise leave most of the plot empty. */
  data->lo = INFINITY;
  data->hi = 0;
  for (guint i = 0; i < data->series->len; i++)
    {
      WsParamsSeries *s = g_ptr_array_index (data->series, i);

      g_array_sort (s->points, _ws_compare_double);
      for (guint k = 0; k < s->points->len; k++)
        {
          data->lo = MIN (data->lo, g_array_index (s->points, WsParamsPoint, k).value);
          data->hi = MAX (data->hi, g_array_index (s->points, WsParamsPoint, k).value);
        }
    }
  mark_bests (data);
}

static void
collect_cells (WsParamsData *data, GPtrArray *measured)
{
  guint nx = data->xs->len, ny = data->ys->len;

  data->cells = g_array_new (FALSE, TRUE, sizeof (WsParamsCell));
  g_array_set_size (data->cells, nx * ny);
  /* Each pair of values: its fastest run, over blocks, sizes and the rest. */
  for (guint i = 0; i < measured->len; i++)
    {
      Measured *m = g_ptr_array_index (measured, i);
      guint x = index_of (data->xs, value_of (m, data->x_name));
      guint y = index_of (data->ys, value_of (m, data->y_name));
      WsParamsCell *c = &g_array_index (data->cells, WsParamsCell, x * ny + y);

      if (c->run == 0 || m->ns < c->value)
        {
          c->run = ws_run_get_id (m->run);
          c->value = m->ns;
        }
    }
  /* The shades span the cells drawn, each the fastest of its pair. */
  data->lo = INFINITY;
  data->hi = 0;
  for (guint i = 0; i < data->cells->len; i++)
    if (g_array_index (data->cells, WsParamsCell, i).run != 0)
      {
        data->lo = MIN (data->lo, g_array_index (data->cells, WsParamsCell, i).value);
        data->hi = MAX (data->hi, g_array_index (data->cells, WsParamsCell, i).value);
      }
  for (guint i = 0; i < data->cells->len; i++)
    {
      WsParamsCell *c = &g_array_index (data->cells, WsParamsCell, i);

      if (c->run == 0)
        continue;
      c->time = ws_units_duration (c->value);
      c->best = c->run == data->best;
      c->shade = data->hi > data->lo ? log (c->value / data->lo) / log (data->hi / data->lo) : 0;
    }
}

WsParamsData *
_ws_params_collect (WsSession *session, const WsChartBase *base)
{
  g_autoptr (GPtrArray) measured = measured_runs (session);
  g_autoptr (GPtrArray) swept = swept_names (measured);
  WsParamsData *data;
  Measured *best = NULL;
  g_autofree char *best_time = NULL;
  char value[G_ASCII_DTOSTR_BUF_SIZE];

  if (swept->len == 0)
    return NULL;
  data = g_new0 (WsParamsData, 1);
  _ws_legend_init (&data->legend);
  data->x_name = g_strdup (g_ptr_array_index (swept, 0));
  data->y_name = swept->len >= 2 ? g_strdup (g_ptr_array_index (swept, 1)) : NULL;
  data->xs = g_array_new (FALSE, FALSE, sizeof (double));
  data->ys = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < measured->len; i++)
    {
      Measured *m = g_ptr_array_index (measured, i);

      add_value (data->xs, value_of (m, data->x_name));
      if (data->y_name)
        add_value (data->ys, value_of (m, data->y_name));
      if (best == NULL || m->ns < best->ns)
        best = m;
    }
  data->best = ws_run_get_id (best->run);
  best_time = ws_units_duration (best->ns);
  g_ascii_formatd (value, sizeof value, "%g", value_of (best, data->x_name));
  data->best_text = g_strdup_printf (_("fastest: %s = %s, %s (run %d)"), data->x_name, value,
                                     best_time, data->best);
  if (data->y_name)
    collect_cells (data, measured);
  else
    collect_lines (data, measured, swept, base->theme);
  return data;
}

void
_ws_params_data_free (WsParamsData *data)
{
  if (data == NULL)
    return;
  for (guint i = 0; data->cells != NULL && i < data->cells->len; i++)
    g_free (g_array_index (data->cells, WsParamsCell, i).time);
  g_clear_pointer (&data->cells, g_array_unref);
  g_clear_pointer (&data->series, g_ptr_array_unref);
  g_clear_pointer (&data->xs, g_array_unref);
  g_clear_pointer (&data->ys, g_array_unref);
  _ws_legend_clear (&data->legend);
  g_free (data->x_name);
  g_free (data->y_name);
  g_free (data->best_text);
  g_free (data);
}

/* ---- draw ------------------------------------------------------------------------------- */

static char *
value_tick (double value, double step, gpointer data)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (text, sizeof text, "%g", value));
}

/* A slot's label: the value that sits there. */
static char *
slot_tick (double slot, double step, gpointer user_data)
{
  const WsParamsData *data = user_data;
  guint k = (guint) MAX (slot + 0.5, 0);

  return value_tick (g_array_index (data->xs, double, MIN (k, data->xs->len - 1)), step, NULL);
}

static char *
time_tick (double value, double step, gpointer data)
{
  return ws_units_duration (value);
}

/* The values evenly spaced, as the parameter's list is: 8, 16, 32 or 1, 2, 4, 8. */
static double
slot (const WsParamsData *data, GArray *values, double v)
{
  return values->len > 1 ? (double) index_of (values, v) : 0.5;
}

static void
draw_lines (WsChartContext *ctx, const WsParamsData *data, WsRect content)
{
  cairo_t *cr = ctx->cr;
  WsAxis x, y;
  WsRect plot;
  g_autoptr (GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *x_title = g_strdup_printf (_("%s (tunable parameter)"), data->x_name);

  _ws_legend_draw_above (ctx, &data->legend, &content);
  for (guint i = 0; i < data->xs->len; i++)
    {
      double t = (double) i;

      g_array_append_val (ticks, t);
    }
  _ws_axis_init (&x, WS_AXIS_BOTTOM, WS_SCALE_LINEAR, -0.5, MAX (data->xs->len, 1) - 0.5,
                 x_title);
  x.fixed = g_steal_pointer (&ticks);
  x.no_grid = TRUE;
  x.format = slot_tick;
  x.format_data = (gpointer) data;
  _ws_axis_init (&y, WS_AXIS_LEFT, WS_SCALE_LOG, data->lo / 1.5, data->hi * 1.5,
                 _("Kernel time"));
  y.format = time_tick;
  _ws_plot_layout (ctx, &content, &x, &y, NULL, &plot);
  _ws_axis_draw_grid (ctx, &y, &plot);
  for (guint s = 0; s < data->series->len; s++)
    {
      const WsParamsSeries *series = g_ptr_array_index (data->series, s);

      _ws_set_color (cr, &series->color);
      cairo_set_line_width (cr, ctx->theme->line_width);
      for (guint i = 0; i < series->points->len; i++)
        {
          const WsParamsPoint *p = &g_array_index (series->points, WsParamsPoint, i);
          double px = _ws_scale_map (&x.scale, slot (data, data->xs, p->x));
          double py = _ws_scale_map (&y.scale, p->value);

          if (i == 0)
            cairo_move_to (cr, px, py);
          else
            cairo_line_to (cr, px, py);
        }
      cairo_stroke (cr);
      for (guint i = 0; i < series->points->len; i++)
        {
          const WsParamsPoint *p = &g_array_index (series->points, WsParamsPoint, i);
          double px = _ws_scale_map (&x.scale, slot (data, data->xs, p->x));

          /* The spread of its launches, then the median. */
          cairo_move_to (cr, px, _ws_scale_map (&y.scale, p->lo));
          cairo_line_to (cr, px, _ws_scale_map (&y.scale, p->hi));
          cairo_stroke (cr);
          cairo_arc (cr, px, _ws_scale_map (&y.scale, p->value), (p->best ? 5 : 3.5) * ctx->unit,
                     0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
  _ws_axis_draw (ctx, &x, &plot);
  _ws_axis_draw (ctx, &y, &plot);
  _ws_text_show (ctx, WS_FONT_BOLD, data->best_text, plot.x + 8 * ctx->unit,
                 plot.y + 6 * ctx->unit, 0, 0, &ctx->theme->foreground);
  _ws_axis_clear (&x);
  _ws_axis_clear (&y);
}

static void
draw_cells (WsChartContext *ctx, const WsParamsData *data, WsRect content)
{
  cairo_t *cr = ctx->cr;
  guint nx = data->xs->len, ny = data->ys->len;
  double label_w = 0, label_h = ctx->line_height * 2.5;
  double cw, ch, x0, y0;
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint j = 0; j < ny; j++)
    {
      g_autofree char *l = g_strdup_printf ("%s = %s", data->y_name,
                                            g_ascii_formatd (text, sizeof text, "%g",
                                                             g_array_index (data->ys, double, j)));

      label_w = MAX (label_w, _ws_text_width (ctx, WS_FONT_NORMAL, l));
    }
  x0 = content.x + label_w + 12 * ctx->unit;
  y0 = content.y + ctx->line_height * 1.5;
  cw = (content.x + content.width - x0) / MAX (nx, 1);
  ch = (content.y + content.height - label_h - y0) / MAX (ny, 1);
  _ws_text_show (ctx, WS_FONT_BOLD, data->best_text, x0, content.y, 0, 0,
                 &ctx->theme->foreground);
  for (guint i = 0; i < nx; i++)
    for (guint j = 0; j < ny; j++)
      {
        const WsParamsCell *c = &g_array_index (data->cells, WsParamsCell, i * ny + j);
        double cx = x0 + i * cw, cy = y0 + (ny - 1 - j) * ch;
        WsColor fill = c->run ? _ws_heatmap_ramp (c->shade) : ctx->theme->grid;
        WsColor ink = _ws_color_text_on (&fill);

        _ws_set_color (cr, &fill);
        cairo_rectangle (cr, cx + 1, cy + 1, cw - 2, ch - 2);
        cairo_fill (cr);
        if (c->best)
          {
            _ws_set_color (cr, &ctx->theme->highlight);
            cairo_set_line_width (cr, 3 * ctx->unit);
            cairo_rectangle (cr, cx + 2, cy + 2, cw - 4, ch - 4);
            cairo_stroke (cr);
          }
        _ws_text_show (ctx, WS_FONT_NORMAL, c->run ? c->time : _("not measured"), cx + cw / 2,
                       cy + ch / 2, 0.5, 0.5, &ink);
      }
  for (guint j = 0; j < ny; j++)
    {
      g_autofree char *l = g_strdup_printf ("%s = %s", data->y_name,
                                            g_ascii_formatd (text, sizeof text, "%g",
                                                             g_array_index (data->ys, double, j)));

      _ws_text_show (ctx, WS_FONT_NORMAL, l, x0 - 6 * ctx->unit, y0 + (ny - 1 - j + 0.5) * ch, 1,
                     0.5, &ctx->theme->foreground);
    }
  for (guint i = 0; i < nx; i++)
    {
      g_autofree char *l = g_strdup_printf ("%s = %s", data->x_name,
                                            g_ascii_formatd (text, sizeof text, "%g",
                                                             g_array_index (data->xs, double, i)));

      _ws_text_show (ctx, WS_FONT_NORMAL, l, x0 + (i + 0.5) * cw, y0 + ny * ch + 6 * ctx->unit,
                     0.5, 0, &ctx->theme->foreground);
    }
}

void
_ws_params_draw (WsChartContext *ctx, const WsParamsData *data, const WsRect *content)
{
  if (data->y_name != NULL)
    draw_cells (ctx, data, *content);
  else
    draw_lines (ctx, data, *content);
}

const char *
_ws_params_no_sweep_message (WsAudience audience)
{
  if (audience == WS_AUDIENCE_APP)
    return _("No tunable parameter was swept in this session. Open your own kernel, toggle "
             "several values of one of its parameters in the sidebar, and run a sweep.");
  return _("No tunable parameter was swept in this session. Run your own kernel over several "
           "values of one (run --source FILE --param TILE=8,16,32).");
}

WsBlocksData *
_ws_params_chart_collect (WsSession *session, const WsChartBase *base)
{
  WsBlocksData *data = g_new0 (WsBlocksData, 1);

  data->series = g_ptr_array_new_with_free_func ((GDestroyNotify) _ws_blocks_series_free);
  _ws_legend_init (&data->legend);
  data->frame.subtitle = _ws_chart_subtitle (session, NULL);
  data->params = session != NULL ? _ws_params_collect (session, base) : NULL;
  if (data->params == NULL)
    {
      data->frame.title = g_strdup (ws_chart_kind_title (WS_CHART_PARAMS));
      data->frame.message = g_strdup (_ws_params_no_sweep_message (base->audience));
    }
  else if (data->params->y_name != NULL)
    data->frame.title = g_strdup_printf (_("Kernel time over %s and %s"), data->params->x_name,
                                         data->params->y_name);
  else
    data->frame.title = g_strdup_printf (_("Kernel time over %s"), data->params->x_name);
  if (data->params != NULL && base->annotate)
    {
      /* Presentation mode: the findings of the runs it plots. */
      g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func (g_object_unref);
      GListModel *model = ws_session_get_runs (session);

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr (WsRun) run = g_list_model_get_item (model, i);

          if (ws_run_get_config (run)->params != NULL && ws_run_get_kernel_ns (run) > 0)
            g_ptr_array_add (runs, g_steal_pointer (&run));
        }
      _ws_chart_frame_add_notes (&data->frame, session, runs, base->audience);
    }
  return data;
}
