/* test-charts-floors.c: the floors every chart keeps at small sizes (a 1024×600 or 960×540
 * window, one column of a paper), read from the layout it drew: three labelled ticks on each
 * axis (in a window), axis titles no smaller than the tick labels, the legend above the plot
 * and clear of it. The plot's share of the figure is reported, not yet held to a half.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"

typedef struct
{
  const char *name;
  double width, height;
  gboolean window; /* the app's: three labelled ticks on every axis */
} Size;

/* The chart's share of the app's window at 1024×600 and at 960×540 (GDK_SCALE=2), and an
 * 8.5 × 6 cm figure in points. */
static const Size sizes[] = {
  { "1024x600", 1000, 390, TRUE },
  { "960x540", 936, 330, TRUE },
  { "one-column", 241, 170, FALSE },
};

static WsChartDrawn
draw_recorded (WsSession *session, WsChartKind kind, const Size *size)
{
  g_autoptr (GPtrArray) sessions = one (session);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                         (int) size->width, (int) size->height);
  cairo_t *cr = cairo_create (surface);
  WsChartOptions options;
  WsChartDrawn drawn;

  ws_chart_options_init (&options, kind, NULL, size->width, size->height);
  _ws_chart_draw_recorded (cr, sessions, &options, &drawn);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return drawn;
}

/* ticks_held: the tick floor is asserted (the speedup and occupancy charts, where a window
 * drew one tick before); the others are reported. */
static void
check_floors (const char *what, const Size *size, const WsChartDrawn *d, gboolean ticks_held)
{
  g_test_message ("%s at %s: plot %.0f of %.0f high, %u axes, legend %.0f high%s", what,
                  size->name, d->plot.height, size->height, d->n_axes, d->legend.height,
                  d->legend_compact ? " (folded)" : "");
  for (guint i = 0; i < d->n_axes; i++)
    g_test_message ("  axis %d: %u labelled ticks", d->axes[i].side, d->axes[i].labels);
  for (guint i = 0; i < d->n_axes; i++)
    {
      const WsDrawnAxis *a = &d->axes[i];

      if (size->window && ticks_held && a->labels < 3)
        g_error ("%s at %s: axis %d has %u labelled ticks", what, size->name, a->side,
                 a->labels);
      if (a->title_size > 0 && a->title_size < a->label_size - 1e-6)
        g_error ("%s at %s: axis %d's title is %.1f pt, its labels %.1f pt", what, size->name,
                 a->side, a->title_size, a->label_size);
    }
  /* The legend is above the plot, never over it (a heatmap draws no axes of these). */
  if (d->legend.height > 0 && d->n_axes > 0)
    g_assert_cmpfloat (d->legend.y + d->legend.height, <=, d->plot.y + 1e-6);
}

static void
test_floors (gconstpointer data)
{
  WsChartKind kind = GPOINTER_TO_UINT (data);

  for (guint s = 0; s < samples->len; s++)
    {
      WsSession *session = g_ptr_array_index (samples, s);
      g_autofree char *what = NULL;

      if (!chart_applies (session, kind))
        continue;
      what = g_strdup_printf ("%s of %s", ws_chart_kind_to_string (kind),
                              (const char *) g_ptr_array_index (sample_names, s));
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          WsChartDrawn d = draw_recorded (session, kind, &sizes[i]);

          check_floors (what, &sizes[i], &d,
                        kind == WS_CHART_SPEEDUP || kind == WS_CHART_OCCUPANCY);
        }
    }
}

/* Presentation mode draws no list of crossovers under the plot: each crossover keeps its
 * number beside its diamond, in a sentence where there is room and as "≈ 5.8 K" where there
 * is not. vector-add-sizes at a projector's size (the app's presentation text, 1.64 times),
 * run 1 picked, the pinned series pale: before, two of its three crossovers had no label. */
static void
test_presentation_crossovers (void)
{
  g_autoptr (WsSession) session = load_recording ("vector-add-sizes-h200.jsonl");
  g_autoptr (GPtrArray) sessions = one (session);
  g_autofree WsTheme *theme = ws_theme_scaled (ws_theme_get (WS_THEME_LIGHT), 1.64);
  const char *const numbers[] = { "6.1 K", "5.8 K", "95 K" };
  WsChartOptions options;
  g_autoptr (GBytes) svg = NULL;
  g_autofree char *text = NULL;

  ws_chart_options_init (&options, WS_CHART_SPEEDUP, theme, 994, 420);
  options.annotate = TRUE;
  options.run = 1;
  options.audience = WS_AUDIENCE_APP;
  svg = render (sessions, &options, WS_EXPORT_SVG, 1);
  text = svg_text_content (svg);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (strstr (text, numbers[i]) == NULL)
      g_error ("presentation: the crossover at n ≈ %s has no label", numbers[i]);
}

int
main (int argc, char **argv)
{
  static const WsChartKind kinds[] = { WS_CHART_SPEEDUP, WS_CHART_OCCUPANCY, WS_CHART_BLOCKS,
                                       WS_CHART_BREAKDOWN, WS_CHART_ROOFLINE, WS_CHART_PARAMS };

  g_test_init (&argc, &argv, NULL);
  load_samples ();
  g_test_add_func ("/charts/floors/presentation-crossovers", test_presentation_crossovers);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *path = g_strdup_printf ("/charts/floors/%s",
                                               ws_chart_kind_to_string (kinds[i]));

      g_test_add_data_func (path, GUINT_TO_POINTER (kinds[i]), test_floors);
    }
  return g_test_run ();
}
