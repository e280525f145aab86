/* test-charts-inside.c: no chart writes outside its figure or its panel, at the sizes a
 * person exports (the CLI's 720 × 420, one column of 8.5 cm, a page width of 17 cm, a 16:9
 * slide, the app's 1600 × 900) and in presentation mode: every glyph of every bundled
 * recording's every chart, read back from the PDF, lies on the page; the occupancy chart's
 * three panels keep their headings and axis titles apart.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"

typedef struct
{
  const char *name;
  double width, height; /* points */
  double font_pt;       /* the body text in points; 0: the theme's */
} Size;

/* The app's figure presets (src/app/ws-figure.c) with their text, and the defaults. */
static const Size sizes[] = {
  { "cli", 720, 420, 0 },
  { "column", 241, 227, 8 },  /* 8.5 × 8 cm */
  { "page", 482, 283, 9 },    /* 17 × 10 cm */
  { "slide", 960, 540, 18 },  /* 33.87 × 19.05 cm, 16:9 */
  { "app", 1600, 900, 0 },
};

#ifdef HAVE_POPPLER
typedef struct
{
  PopplerDocument *doc;
  PopplerPage *page;
  char *text;
  PopplerRectangle *rects;
  guint n;
} Glyphs;

static void
glyphs_read (Glyphs *g, GBytes *pdf)
{
  g_autoptr (GError) error = NULL;

  g->doc = poppler_document_new_from_bytes (pdf, NULL, &error);
  g_assert_no_error (error);
  g->page = poppler_document_get_page (g->doc, 0);
  g->text = poppler_page_get_text (g->page);
  g->rects = NULL;
  g->n = 0;
  poppler_page_get_text_layout (g->page, &g->rects, &g->n);
}

static void
glyphs_clear (Glyphs *g)
{
  g_free (g->rects);
  g_free (g->text);
  g_object_unref (g->page);
  g_object_unref (g->doc);
}

/* The character of the page's text that rects[i] is the box of. */
static gunichar
glyph_char (const Glyphs *g, guint i)
{
  const char *c = g->text;

  for (guint k = 0; k < i && *c; k++)
    c = g_utf8_next_char (c);
  return *c ? g_utf8_get_char (c) : 0;
}

/* Every glyph inside [x0, x1] × [0, height], give or take a point: poppler boxes a glyph by
 * its font's ascent and descent, a little more than the layout measures. */
static void
assert_glyphs_within (const Glyphs *g, double x0, double x1, double height, const char *what)
{
  for (guint i = 0; i < g->n; i++)
    {
      const PopplerRectangle *r = &g->rects[i];
      gunichar ch = glyph_char (g, i);

      if (ch == 0 || g_unichar_isspace (ch))
        continue;
      if (r->x1 < x0 - 1 || r->x2 > x1 + 1 || r->y1 < -1 || r->y2 > height + 1)
        g_error ("%s: '%C' at x %.1f…%.1f, y %.1f…%.1f lies outside %.1f…%.1f × 0…%.1f in:\n%s",
                 what, ch, r->x1, r->x2, r->y1, r->y2, x0, x1, height, g->text);
    }
}
#endif

static void
test_inside (gconstpointer data)
{
  WsSession *session = g_ptr_array_index (samples, GPOINTER_TO_UINT (data));
  const char *name = g_ptr_array_index (sample_names, GPOINTER_TO_UINT (data));
  g_autoptr (GPtrArray) sessions = one (session);

#ifndef HAVE_POPPLER
  g_test_skip ("poppler-glib is not installed");
  return;
#else
  for (int k = 0; k < WS_N_CHARTS; k++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (int annotate = 0; annotate <= 1; annotate++)
        {
          WsChartOptions options;
          g_autoptr (GBytes) pdf = NULL;
          g_autofree char *what = NULL;
          g_autofree WsTheme *theme = NULL;
          const WsTheme *base = ws_theme_get (WS_THEME_LIGHT);
          Glyphs g;

          /* As ws_figure_apply sizes the text: the theme's font_size is 1/96 inch units. */
          if (sizes[s].font_pt > 0)
            theme = ws_theme_scaled (base, sizes[s].font_pt / (base->font_size * 96.0 / 72.0));
          ws_chart_options_init (&options, (WsChartKind) k, theme, sizes[s].width,
                                 sizes[s].height);
          options.annotate = annotate;
          pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
          what = g_strdup_printf ("%s, %s chart, %s (%g × %g)%s", name,
                                  ws_chart_kind_to_string ((WsChartKind) k), sizes[s].name,
                                  sizes[s].width, sizes[s].height,
                                  annotate ? ", annotated" : "");
          glyphs_read (&g, pdf);
          assert_glyphs_within (&g, 0, sizes[s].width, sizes[s].height, what);
          glyphs_clear (&g);
        }
#endif
}

/* The breakdown's bold row labels ("run 8 · vector_add_vec4 · 1024 threads") were set right
 * to the bars, in a column a third of the figure wide: at 720 points they began before x = 0,
 * cut in the app and in every export. Now a label fits its column, whole or cut short with
 * an ellipsis. */
static void
test_breakdown_labels (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-ladder"));

  for (double w = 240; w <= 1600; w += 40)
    {
      WsChartOptions options;
      g_autoptr (GBytes) svg = NULL;
      g_autofree char *text = NULL;
      const char *at;
      guint n = 0;

      ws_chart_options_init (&options, WS_CHART_BREAKDOWN, NULL, w, 420);
      svg = render (sessions, &options, WS_EXPORT_SVG, 1);
      text = g_strndup (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
      /* No text of the SVG is anchored before x = 0 (the glyphs are read from the PDF). */
      for (at = strstr (text, "<text x=\""); at; at = strstr (at + 1, "<text x=\""))
        {
          double x = g_ascii_strtod (at + strlen ("<text x=\""), NULL);

          g_assert_cmpfloat (x, >=, 0);
          n++;
        }
      g_assert_cmpuint (n, >, 10);
#ifdef HAVE_POPPLER
      {
        g_autoptr (GBytes) pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
        g_autofree char *what = g_strdup_printf ("breakdown at %g × 420", w);
        Glyphs g;

        glyphs_read (&g, pdf);
        assert_glyphs_within (&g, 0, w, 420, what);
        /* Where there is room, the label is whole. */
        if (w >= 1000)
          g_assert_nonnull (strstr (g.text, "run 8 · vector_add_vec4 · 1024 threads"));
        glyphs_clear (&g);
      }
#endif
    }
}

/* The occupancy chart's third panel ran its heading ("Shared memory per block (KiB)") and its
 * axis title off the figure at 720 points, and the first panel's "…: the limit" into the
 * second: each panel's words stay in its third of the figure. */
static void
test_occupancy_panels (void)
{
  const char *names[] = { "matmul-naive-blocks", "vector-add-blocks" };

#ifndef HAVE_POPPLER
  g_test_skip ("poppler-glib is not installed");
  return;
#else
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (double w = 360; w <= 1600; w += 40)
      {
        g_autoptr (GPtrArray) sessions = one (sample (names[i]));
        WsChartOptions options;
        g_autoptr (GBytes) pdf = NULL;
        Glyphs g;
        double top = 0;
        guint first = 0;

        ws_chart_options_init (&options, WS_CHART_OCCUPANCY, NULL, w, 420);
        pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
        glyphs_read (&g, pdf);
        assert_glyphs_within (&g, 0, w, 420, "occupancy");
        /* Below the title and subtitle (the first glyph of "Threads per block" on), the
         * panels' glyphs each lie in one third: none straddles a boundary between two. */
        {
          const char *found = strstr (g.text, "Threads per block");

          g_assert_nonnull (found);
          first = (guint) g_utf8_pointer_to_offset (g.text, found);
          top = g.rects[first].y1 - 0.5;
        }
        for (guint k = first; k < g.n; k++)
          {
            const PopplerRectangle *r = &g.rects[k];
            double third = w / 3;
            gunichar ch = glyph_char (&g, k);

            if (ch == 0 || g_unichar_isspace (ch) || r->y1 < top)
              continue;
            for (int b = 1; b <= 2; b++)
              {
                /* The gaps between panels lie around these; a glyph across one of them
                 * belongs to no panel. */
                double edge = b * third;

                if (r->x1 < edge - 0.5 && r->x2 > edge + 0.5)
                  g_error ("%s at %g: '%C' (%.1f…%.1f) runs across x = %.1f in:\n%s",
                           names[i], w, ch, r->x1, r->x2, edge, g.text);
              }
          }
        glyphs_clear (&g);
      }
#endif
}

/* The speedup chart's crossover labels were placed where there was room or not at all:
 * three at 1600 × 900, one in the app, none at the CLI's 720 × 420. Each is now said at every
 * size, beside its diamond or listed under the plot. */
static void
test_speedup_crossovers (void)
{
  g_autoptr (GPtrArray) sessions = one (sample ("vector-add-sizes"));
  const char *expected[] = { "GPU faster above n ≈ 6.1 K (kernel only, vs 1 thread)",
                             "GPU faster above n ≈ 5.8 K (kernel only, vs 1 thread)",
                             "GPU faster above n ≈ 95 K (with copies, vs 1 thread)" };
  /* From a page's width up; and the presets with their text below. */
  const double widths[] = { 482, 600, 720, 960, 1200, 1600 };
  const double heights[] = { 360, 420, 540, 700, 900 };

#ifndef HAVE_POPPLER
  g_test_skip ("poppler-glib is not installed");
  return;
#else
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    for (guint j = 0; j < G_N_ELEMENTS (heights); j++)
      {
        WsChartOptions options;
        g_autoptr (GBytes) pdf = NULL;
        g_autofree char *what = g_strdup_printf ("speedup at %g × %g", widths[i], heights[j]);
        g_autofree char *flat = NULL;
        Glyphs g;

        ws_chart_options_init (&options, WS_CHART_SPEEDUP, NULL, widths[i], heights[j]);
        pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
        glyphs_read (&g, pdf);
        assert_glyphs_within (&g, 0, widths[i], heights[j], what);
        /* A label is one line of the page's text, wherever it went; from the CLI's default
         * size up all three are there, below it those left out are counted. */
        for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
          if (strstr (g.text, expected[k]) == NULL
              && ((widths[i] >= 720 && heights[j] >= 420) || !strstr (g.text, "more crossover")))
            g_error ("%s: no \"%s\" in:\n%s", what, expected[k], g.text);
        glyphs_clear (&g);
      }
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      const WsTheme *base = ws_theme_get (WS_THEME_LIGHT);
      g_autofree WsTheme *theme = NULL;
      WsChartOptions options;
      g_autoptr (GBytes) pdf = NULL;
      Glyphs g;
      guint found = 0;

      if (sizes[i].font_pt > 0)
        theme = ws_theme_scaled (base, sizes[i].font_pt / (base->font_size * 96.0 / 72.0));
      ws_chart_options_init (&options, WS_CHART_SPEEDUP, theme, sizes[i].width,
                             sizes[i].height);
      pdf = render (sessions, &options, WS_EXPORT_PDF, 1);
      glyphs_read (&g, pdf);
      assert_glyphs_within (&g, 0, sizes[i].width, sizes[i].height, sizes[i].name);
      /* Each whole, or the ones left out counted. */
      for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
        found += strstr (g.text, expected[k]) != NULL;
      if (found < G_N_ELEMENTS (expected) && !strstr (g.text, "more crossover"))
        g_error ("%s: %u of 3 crossovers said, and nothing about the others:\n%s",
                 sizes[i].name, found, g.text);
      glyphs_clear (&g);
    }
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load_samples ();

  g_test_add_func ("/charts/inside/breakdown-labels", test_breakdown_labels);
  g_test_add_func ("/charts/inside/occupancy-panels", test_occupancy_panels);
  g_test_add_func ("/charts/inside/speedup-crossovers", test_speedup_crossovers);
  for (guint s = 0; s < samples->len; s++)
    {
      g_autofree char *path = g_strdup_printf ("/charts/inside/%s",
                                               (char *) g_ptr_array_index (sample_names, s));

      g_test_add_data_func (path, GUINT_TO_POINTER (s), test_inside);
    }
  return g_test_run ();
}
