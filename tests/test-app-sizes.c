/* test-app-sizes.c: the window on the screens a classroom has: 1024×600, 1024×768 (a
 * projector), 1280×720, 1366×768, 1920×1080, at scale 2, and in Chinese. Each size gets an
 * X server of its own (Xvfb at that size, GDK_SCALE for scale 2) and a child of this program
 * that opens a recording there and asserts from the widget tree: the window is the screen's
 * size (nothing forces it wider), the chart has more than 55% of it and more than any other
 * pane, every view can be reached by a visible, sensitive switcher button, and no two panes
 * overlap. In presentation mode, the same, and: the chart has more, no text the takeaway or
 * the callouts show is smaller than 24 px, nor the chart's own from 720 pixels high up (18 px
 * below), no text on the chart lies over other text, and the runs step forward and back.
 * WS_TEST_SCREENSHOTS=DIR writes what each child saw.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <signal.h>
#include <unistd.h>
#if __has_include(<poppler.h>)
#include <poppler.h>
#define HAVE_POPPLER 1
#endif

#include "test-app-util.h"
#include "ws-callout-strip.h"
#include "ws-chart-view.h"
#include "ws-config.h"
#include "ws-export.h"
#include "ws-i18n.h"
#include "ws-run.h"
#include "ws-takeaway.h"

typedef struct
{
  const char *name;
  int width, height; /* logical pixels */
  int scale;
  const char *language; /* NULL: English */
} Screen;

static const Screen screens[] = {
  { "1024x600", 1024, 600, 1, NULL },
  { "1024x768", 1024, 768, 1, NULL },
  { "1280x720", 1280, 720, 1, NULL },
  { "1366x768", 1366, 768, 1, NULL },
  { "1600x900", 1600, 900, 1, NULL },
  { "1920x1080", 1920, 1080, 1, NULL },
  { "1024x768-scale2", 1024, 768, 2, NULL },
  { "1280x720-scale2", 1280, 720, 2, NULL },
  { "1024x768-zh_CN", 1024, 768, 1, "zh_CN" },
};

/* ---- the child: one screen ------------------------------------------------------------- */

static const Screen *screen;
/* What the chart must have of the window: more than half, or, on a projector, most. */
static double least_share = 0.55;

static graphene_rect_t
bounds_of (GtkWidget *widget, GtkWidget *window)
{
  graphene_rect_t r = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (!gtk_widget_compute_bounds (widget, window, &r))
    g_error ("%s has no bounds in the window", G_OBJECT_TYPE_NAME (widget));
  return r;
}

static double
area (const graphene_rect_t *r)
{
  return (double) r->size.width * r->size.height;
}

/* Shown: mapped, with a size, and not a folded flap's hidden pane. */
static gboolean
shown (GtkWidget *widget)
{
  return widget != NULL && gtk_widget_get_mapped (widget) && gtk_widget_get_child_visible (widget)
         && gtk_widget_get_width (widget) > 0 && gtk_widget_get_height (widget) > 0;
}

/* The window fills the screen (its surface; the widget may keep a resize border inside). */
static gboolean
window_at_size (gpointer data)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (data));

  return surface != NULL && gdk_surface_get_width (surface) == screen->width
         && gdk_surface_get_height (surface) == screen->height;
}

static void
settle (WsWindow *window)
{
  GdkSurface *surface;

  /* A few frames' worth of layout after anything changed. */
  ws_test_spin_for (300);
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_assert_cmpint (gdk_surface_get_width (surface), ==, screen->width);
  g_assert_cmpint (gdk_surface_get_height (surface), ==, screen->height);
}

typedef struct
{
  const char *id;
  GtkWidget *widget;
} Pane;

/* No two panes that are shown overlap, and each lies inside the window. */
static char *
check_no_overlap (WsWindow *window, const char *what)
{
  const char *ids[] = { "header", "config_pane", "centre", "findings_panel", "switcher_bar",
                        "status_bar", "takeaway", "views_scroller", "table_pane", "callouts" };
  GtkWidget *w = GTK_WIDGET (window);
  graphene_rect_t whole = bounds_of (w, w);
  Pane panes[G_N_ELEMENTS (ids)];
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      GtkWidget *pane = ws_test_view (window, ids[i]);

      if (shown (pane))
        panes[n++] = (Pane) { ids[i], pane };
    }
  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t a = bounds_of (panes[i].widget, w), inside;

      graphene_rect_intersection (&a, &whole, &inside);
      if (area (&inside) < area (&a) - 1)
        return g_strdup_printf ("%s, %s: %s (%g,%g %g×%g) reaches outside the window",
                                screen->name, what, panes[i].id, a.origin.x, a.origin.y,
                                a.size.width, a.size.height);
      for (guint j = i + 1; j < n; j++)
        {
          graphene_rect_t b = bounds_of (panes[j].widget, w), both;
          gboolean nested = gtk_widget_is_ancestor (panes[i].widget, panes[j].widget)
                            || gtk_widget_is_ancestor (panes[j].widget, panes[i].widget);

          if (nested || !graphene_rect_intersection (&a, &b, &both))
            continue;
          if (both.size.width > 0.5 && both.size.height > 0.5)
            return g_strdup_printf ("%s, %s: %s (%g,%g %g×%g) overlaps %s (%g,%g %g×%g)",
                                    screen->name, what, panes[i].id, a.origin.x, a.origin.y,
                                    a.size.width, a.size.height, panes[j].id, b.origin.x,
                                    b.origin.y, b.size.width, b.size.height);
        }
    }
  return NULL;
}

/* A folded flap is hidden until asked for: it never covers the chart by itself. */
static void
assert_flaps_out_of_the_way (WsWindow *window)
{
  const char *ids[] = { "config_flap", "findings_flap" };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      AdwFlap *flap = ws_test_view (window, ids[i]);

      if (adw_flap_get_folded (flap))
        g_assert_false (adw_flap_get_reveal_flap (flap));
    }
}

static gboolean
has_shown_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && shown (widget)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (has_shown_label (c, text))
      return TRUE;
  return FALSE;
}

/* A button that shows `title`, is shown inside the window, and can be clicked. */
static gboolean
find_switch (GtkWidget *widget, GtkWidget *window, const char *title)
{
  if (GTK_IS_TOGGLE_BUTTON (widget) && shown (widget) && gtk_widget_is_sensitive (widget)
      && has_shown_label (widget, title))
    {
      graphene_rect_t b = bounds_of (widget, window), whole = bounds_of (window, window);

      return graphene_rect_contains_rect (&whole, &b);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (find_switch (c, window, title))
      return TRUE;
  return FALSE;
}

static char *
check_views_reachable (WsWindow *window, const char *what)
{
  AdwViewStack *views = ws_test_view (window, "views");
  g_autoptr (GtkSelectionModel) pages = adw_view_stack_get_pages (views);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (pages));

  /* The seven views and the Kernels view, which is shown only for a traced program. */
  g_assert_cmpuint (n, ==, 8);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (AdwViewStackPage) page = g_list_model_get_item (G_LIST_MODEL (pages), i);
      const char *title = adw_view_stack_page_get_title (page);

      if (!adw_view_stack_page_get_visible (page))
        continue;

      if (!find_switch (GTK_WIDGET (window), GTK_WIDGET (window), title))
        return g_strdup_printf ("%s, %s: no visible, sensitive switcher button for the view "
                                "\"%s\"", screen->name, what, title);
    }
  return NULL;
}

static char *
check_chart_share (WsWindow *window, const char *view)
{
  GtkWidget *chart = ws_test_view (window, view);
  graphene_rect_t c = bounds_of (chart, GTK_WIDGET (window));
  double share = area (&c) / ((double) screen->width * screen->height);
  const char *others[] = { "config_pane", "findings_panel", "table_pane", "header", "takeaway",
                           "callouts" };

  if (!shown (chart))
    return g_strdup_printf ("%s: the %s chart is not shown", screen->name, view);
  if (share < least_share)
    return g_strdup_printf ("%s: the %s chart has %.0f%% of the window (%g×%g), not %.0f%%",
                            screen->name, view, 100 * share, c.size.width, c.size.height,
                            100 * least_share);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      GtkWidget *pane = ws_test_view (window, others[i]);

      if (shown (pane))
        {
          graphene_rect_t p = bounds_of (pane, GTK_WIDGET (window));

          if (area (&p) >= area (&c))
            return g_strdup_printf ("%s: %s is larger than the %s chart", screen->name,
                                    others[i], view);
        }
    }
  return NULL;
}

typedef char *(*Check) (WsWindow *window, const char *what);

/* Layout settles over a few frames, more on a loaded machine: wait for it, up to a point. */
static void
expect (Check check, WsWindow *window, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  char *problem;

  while ((problem = check (window, what)) != NULL && g_get_monotonic_time () < deadline)
    {
      g_free (problem);
      ws_test_spin_for (50);
    }
  if (problem != NULL)
    g_error ("%s", problem);
}

static void
screenshot (WsWindow *window, const char *what)
{
  g_autofree char *name = g_strdup_printf ("%s-%s", screen->name, what);

  ws_test_screenshot (GTK_WIDGET (window), name);
}

static void
expect_shown (WsWindow *window, const char *pane, gboolean expected)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (shown (ws_test_view (window, pane)) != expected && g_get_monotonic_time () < deadline)
    ws_test_spin_for (50);
  if (shown (ws_test_view (window, pane)) != expected)
    g_error ("%s: %s should be %s", screen->name, pane, expected ? "shown" : "hidden");
}

static void
toggle_pane (WsWindow *window, const char *action, const char *pane)
{
  gboolean before = shown (ws_test_view (window, pane));
  g_autofree char *what = g_strdup_printf ("%s-%s", pane, before ? "hidden" : "shown");

  gtk_widget_activate_action (GTK_WIDGET (window), action, NULL);
  /* A folded pane comes over the content, as a sheet a click outside closes. */
  expect_shown (window, pane, !before);
  settle (window);
  screenshot (window, what);
  gtk_widget_activate_action (GTK_WIDGET (window), action, NULL);
  expect_shown (window, pane, before);
}

/* ---- presentation mode ------------------------------------------------------------------ */

/* The size of a label's text in pixels, as GTK lays it out. */
static double
text_px (GtkWidget *label)
{
  PangoContext *context = gtk_widget_get_pango_context (label);
  const PangoFontDescription *font = pango_context_get_font_description (context);
  double size = (double) pango_font_description_get_size (font) / PANGO_SCALE;

  if (pango_font_description_get_size_is_absolute (font))
    return size;
  return size * pango_cairo_context_get_resolution (context) / 72.0;
}

static void
assert_large_text (GtkWidget *widget, guint *n)
{
  if (GTK_IS_LABEL (widget) && shown (widget) && *gtk_label_get_text (GTK_LABEL (widget)))
    {
      if (text_px (widget) < 24 - 0.01)
        g_error ("%s: \"%s\" is %.1f px, not 24", screen->name,
                 gtk_label_get_text (GTK_LABEL (widget)), text_px (widget));
      (*n)++;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    assert_large_text (c, n);
}

#ifdef HAVE_POPPLER
/* No glyph of one line of text lies over a glyph of another (a legend over an axis title, a
 * label over a label): the chart on screen, drawn as a PDF at its size, read back. */
static void
assert_text_apart (GtkWidget *chart, WsWorkspace *workspace, WsChartKind kind)
{
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;
  g_autoptr (GBytes) pdf = NULL;
  g_autoptr (GError) error = NULL;
  PopplerDocument *doc;
  PopplerPage *page;
  PopplerRectangle *rects = NULL;
  guint n = 0;
  g_autofree char *text = NULL;
  g_autofree guint *lines = NULL;
  const char *c;

  ws_chart_view_fill_options (chart, workspace, kind, &options, &owned);
  pdf = ws_export_chart_to_bytes (ws_workspace_get_sessions (workspace), &options, WS_EXPORT_PDF,
                                  1, &error);
  g_assert_no_error (error);
  doc = poppler_document_new_from_bytes (pdf, NULL, &error);
  g_assert_no_error (error);
  page = poppler_document_get_page (doc, 0);
  text = poppler_page_get_text (page);
  g_assert_true (poppler_page_get_text_layout (page, &rects, &n));
  g_assert_cmpuint (n, >, 20);
  lines = g_new0 (guint, n);
  c = text;
  for (guint i = 0, line = 0; i < n && *c; i++, c = g_utf8_next_char (c))
    {
      lines[i] = g_unichar_isspace (g_utf8_get_char (c)) ? G_MAXUINT : line;
      line += *c == '\n';
    }
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      {
        double w, h, smaller;

        if (lines[i] == G_MAXUINT || lines[j] == G_MAXUINT || lines[i] == lines[j])
          continue;
        w = MIN (rects[i].x2, rects[j].x2) - MAX (rects[i].x1, rects[j].x1);
        h = MIN (rects[i].y2, rects[j].y2) - MAX (rects[i].y1, rects[j].y1);
        smaller = MIN ((rects[i].x2 - rects[i].x1) * (rects[i].y2 - rects[i].y1),
                       (rects[j].x2 - rects[j].x1) * (rects[j].y2 - rects[j].y1));
        if (w > 0 && h > 0 && w * h > 0.25 * smaller)
          g_error ("%s, %s chart: text of line %u overlaps text of line %u in:\n%s",
                   screen->name, ws_chart_kind_to_string (kind), lines[i], lines[j], text);
      }
  g_free (rects);
  g_object_unref (page);
  g_object_unref (doc);
}
#endif

/* What the takeaway says of run `id` of the vector add's twelve, in the screen's language. */
static const char *
place (WsWorkspace *workspace, int id)
{
  static char *text;
  WsRun *run = ws_session_find_run (ws_workspace_get_session (workspace), id);
  g_autofree char *size = ws_run_dup_size_label (run);

  g_free (text);
  text = g_strdup_printf (_("Run %1$u of %2$u · %3$s, %4$s, block %5$s, %6$s"), (guint) id, 12,
                          "vector_add", size, "256", ws_transfer_label ("pageable"));
  return text;
}

/* A callout body cut short with "…" under `widget` (a title may be, on two lines), or NULL. */
static const char *
callout_cut (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      const char *cut;

      if (GTK_IS_LABEL (c) && !gtk_widget_has_css_class (c, "title") && gtk_widget_get_mapped (c)
          && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (c))))
        return gtk_label_get_text (GTK_LABEL (c));
      if ((cut = callout_cut (c)) != NULL)
        return cut;
    }
  return NULL;
}

/* The callouts' sentences are whole, once the strip has had its say: where two side by side
 * cut one, it shows the first alone at its next idle (up to 5 s under the sanitizers). */
static void
assert_callouts_whole (WsCalloutStrip *strip, const char *what)
{
  const char *cut;

  for (int i = 0; i < 50 && callout_cut (GTK_WIDGET (strip)) != NULL; i++)
    ws_test_spin_for (100);
  if ((cut = callout_cut (GTK_WIDGET (strip))) != NULL)
    g_error ("%s at %s: a callout (of %u) is cut short: \"%s\"", what, screen->name,
             ws_callout_strip_get_n_callouts (strip), cut);
}

static void
test_presentation (WsWindow *window)
{
  WsWorkspace *workspace = ws_window_get_workspace (window);
  AdwViewStack *views = ws_test_view (window, "views");
  WsTakeaway *takeaway = ws_test_view (window, "takeaway");
  WsCalloutStrip *callouts = ws_test_view (window, "callouts");
  const char *charts[] = { "speedup", "timeline" };
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;
  guint n_large = 0;

  ws_workspace_select_runs (workspace, 0, 0);
  adw_view_stack_set_visible_child_name (views, "speedup");
  /* The findings brought out over the chart go back when the lecture starts. */
  adw_flap_set_reveal_flap (ws_test_view (window, "findings_flap"), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.presentation", NULL);
  settle (window);
  /* It starts at the first run, with what that run says over the chart. */
  g_assert_cmpint (ws_workspace_get_run (workspace), ==, 1);
  g_assert_cmpstr (ws_takeaway_get_context (takeaway), ==, place (workspace, 1));
  g_assert_false (shown (ws_test_view (window, "table_pane")));
  g_assert_false (shown (ws_test_view (window, "config_pane")));
  g_assert_false (shown (ws_test_view (window, "findings_panel")));
  g_assert_cmpuint (ws_callout_strip_get_n_callouts (callouts), >, 0);
  /* The takeaway and the callouts are a fixed 24 px and more: at 600 pixels they keep the
   * chart to the share it has beside the table. */
  least_share = screen->height >= 720 ? 0.6 : 0.55;
  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    {
      g_autofree char *what = g_strdup_printf ("presentation-%s", charts[i]);
      WsChartKind kind = WS_CHART_SPEEDUP;

      adw_view_stack_set_visible_child_name (views, charts[i]);
      settle (window);
      expect (check_no_overlap, window, what);
      expect (check_views_reachable, window, what);
      expect (check_chart_share, window, charts[i]);
      g_assert_true (ws_chart_kind_from_string (charts[i], &kind));
      /* The chart's own words as large as the callouts from a projector's 768 pixels up;
       * on a 600-pixel screen smaller, for the plot's sake, but larger than in the window. */
      ws_chart_view_fill_options (ws_test_view (window, charts[i]), workspace, kind, &options,
                                  &owned);
      if (screen->height >= 720)
        g_assert_cmpfloat (options.theme->font_size * 96 / 72, >=, 24);
      else
        g_assert_cmpfloat (options.theme->font_size * 96 / 72, >=, 18);
      g_clear_pointer (&owned, g_free);
      screenshot (window, what);
#ifdef HAVE_POPPLER
      assert_text_apart (ws_test_view (window, charts[i]), workspace, kind);
#endif
    }
  least_share = 0.55;
  assert_large_text (GTK_WIDGET (takeaway), &n_large);
  assert_large_text (GTK_WIDGET (callouts), &n_large);
  g_assert_cmpuint (n_large, >=, 4);
  for (int id = 1; id <= 6; id++)
    {
      g_autofree char *what = g_strdup_printf ("run %d's callouts", id);

      ws_workspace_select_runs (workspace, id, 0);
      settle (window);
      /* On a projector's 768 pixels and up; a 600-pixel screen gives them two lines. */
      if (screen->height >= 720)
        assert_callouts_whole (callouts, what);
    }
  ws_workspace_select_runs (workspace, 1, 0);

  /* A clicker steps through the runs; each run's first finding is outlined. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-run", NULL);
  g_assert_cmpint (ws_workspace_get_run (workspace), ==, 2);
  g_assert_cmpstr (ws_takeaway_get_context (takeaway), ==, place (workspace, 2));
  g_assert_nonnull (ws_workspace_get_highlight (workspace));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-run", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-run", NULL);
  g_assert_cmpint (ws_workspace_get_run (workspace), ==, 1);

  /* The lesson of the tutorial's vector add, for a person to look at. */
  ws_workspace_select_runs (workspace, 5, 0);
  adw_view_stack_set_visible_child_name (views, "timeline");
  settle (window);
  screenshot (window, "presentation-run5");
  adw_view_stack_set_visible_child_name (views, "speedup");

  /* The callouts go and come back on the findings' key; Escape leaves. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-findings", NULL);
  expect_shown (window, "callouts", FALSE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-findings", NULL);
  expect_shown (window, "callouts", TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.leave-presentation", NULL);
  g_assert_false (ws_workspace_get_presentation (workspace));
  expect_shown (window, "table_pane", TRUE);
  /* Beside the chart the takeaway stays, one line, where the findings pane is folded away. */
  {
    AdwFlap *flap = ws_test_view (window, "findings_flap");

    expect_shown (window, "takeaway",
                  adw_flap_get_folded (flap) && !adw_flap_get_reveal_flap (flap));
  }
  g_assert_false (gtk_widget_get_visible (ws_test_view (window, "callouts")));
}

static void
test_screen (void)
{
  WsWindow *window;
  AdwViewStack *views;

  /* What is measured is where things end up, not where they pass through. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  ws_test_add_icons ();
  window = ws_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), screen->width, screen->height);
  gtk_window_present (GTK_WINDOW (window));
  ws_test_spin_until (window_at_size, window, 5000);
  settle (window);
  g_assert_cmpint (gtk_widget_get_scale_factor (GTK_WIDGET (window)), ==, screen->scale);

  /* The first screen: what to run and the recordings, side by side or one over the other. */
  expect (check_no_overlap, window, "welcome");
  assert_flaps_out_of_the_way (window);
  screenshot (window, "welcome");

  ws_test_open (window, "vector-add-sizes-h200.jsonl");
  views = ws_test_view (window, "views");
  adw_view_stack_set_visible_child_name (views, "speedup");
  settle (window);
  expect (check_no_overlap, window, "speedup");
  assert_flaps_out_of_the_way (window);
  expect (check_views_reachable, window, "speedup");
  expect (check_chart_share, window, "speedup");
  screenshot (window, "speedup");

  /* A run selected: the findings are one click away, and the chart keeps its share. */
  ws_workspace_select_runs (ws_window_get_workspace (window), 5, 0);
  adw_view_stack_set_visible_child_name (views, "timeline");
  settle (window);
  expect (check_no_overlap, window, "timeline");
  expect (check_views_reachable, window, "timeline");
  expect (check_chart_share, window, "timeline");
  screenshot (window, "timeline");

  /* The other charts of run 5 keep the share too; the occupancy calculator is looked at. */
  {
    const char *others[] = { "breakdown", "blocks", "roofline" };

    for (guint i = 0; i < G_N_ELEMENTS (others); i++)
      {
        adw_view_stack_set_visible_child_name (views, others[i]);
        settle (window);
        expect (check_no_overlap, window, others[i]);
        expect (check_chart_share, window, others[i]);
        screenshot (window, others[i]);
      }
    adw_view_stack_set_visible_child_name (views, "occupancy");
    settle (window);
    expect (check_no_overlap, window, "occupancy");
    screenshot (window, "occupancy");
    adw_view_stack_set_visible_child_name (views, "timeline");
    settle (window);
  }

  /* Each pane comes and goes on its key, docked or folded away. */
  toggle_pane (window, "win.toggle-findings", "findings_panel");
  toggle_pane (window, "win.toggle-config", "config_pane");

  test_presentation (window);
  settle (window);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- the parent: an X server per screen ------------------------------------------------ */

/* Xvfb at `width`×`height`, its display number read from -displayfd; NULL without Xvfb. */
static GSubprocess *
start_xvfb (int width, int height, char **display)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autofree char *geometry = g_strdup_printf ("%dx%dx24", width, height);
  g_autofree char *xvfb = g_find_program_in_path ("Xvfb");
  g_autoptr (GError) error = NULL;
  GSubprocess *server;
  int fds[2];
  char number[16] = { 0 };
  gsize got = 0;

  if (xvfb == NULL)
    return NULL;
  g_assert_cmpint (pipe (fds), ==, 0);
  g_subprocess_launcher_take_fd (launcher, fds[1], 3);
  server = g_subprocess_launcher_spawn (launcher, &error, xvfb, "-displayfd", "3", "-screen", "0",
                                        geometry, "-nolisten", "tcp", NULL);
  g_assert_no_error (error);
  while (got < sizeof number - 1)
    {
      ssize_t r = read (fds[0], number + got, 1);

      if (r <= 0 || number[got] == '\n')
        break;
      got++;
    }
  close (fds[0]);
  number[got] = '\0';
  g_assert_cmpuint (got, >, 0);
  *display = g_strdup_printf (":%s", number);
  return server;
}

static gboolean
have_locale (const char *language)
{
  g_autofree char *name = g_strdup_printf ("%s.UTF-8", language);
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));
  gboolean ok = setlocale (LC_ALL, name) != NULL;

  setlocale (LC_ALL, saved);
  return ok;
}

static void
test_size (gconstpointer data)
{
  const Screen *s = data;
  g_autofree char *display = NULL;
  g_autoptr (GSubprocess) server = NULL;
  g_autoptr (GSubprocess) child = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *scale = g_strdup_printf ("%d", s->scale);
  g_autofree char *out = NULL, *err = NULL;

  if (s->language != NULL && !have_locale (s->language))
    {
      g_test_skip ("the locale is not installed (Debian: locales-all)");
      return;
    }
  server = start_xvfb (s->width * s->scale, s->height * s->scale, &display);
  if (server == NULL)
    {
      g_test_skip ("Xvfb is not installed");
      return;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "DISPLAY", display, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_setenv (launcher, "GDK_BACKEND", "x11", TRUE);
  g_subprocess_launcher_setenv (launcher, "GDK_SCALE", scale, TRUE);
  /* Nothing listens on that display's accessibility bus: do not start one. */
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  if (s->language != NULL)
    {
      g_autofree char *locale = g_strdup_printf ("%s.UTF-8", s->language);

      g_subprocess_launcher_setenv (launcher, "LANGUAGE", s->language, TRUE);
      g_subprocess_launcher_setenv (launcher, "LC_ALL", locale, TRUE);
    }
  child = g_subprocess_launcher_spawn (launcher, &error, self, "--screen", s->name, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (child, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait (server, NULL, NULL);
  if (!g_subprocess_get_if_exited (child) || g_subprocess_get_exit_status (child) != 0)
    {
      g_autofree char *text = g_strconcat (out, err, NULL);
      g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

      /* As TAP comments, so that the child's own plan does not read as ours. */
      for (guint i = 0; lines[i] != NULL; i++)
        g_print ("# %s\n", lines[i]);
      g_error ("%s failed: its output is above", s->name);
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("ws-app-sizes-cache-XXXXXX", NULL);
  int status;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  if (argc == 3 && g_str_equal (argv[1], "--screen"))
    {
      for (guint i = 0; i < G_N_ELEMENTS (screens); i++)
        if (g_str_equal (argv[2], screens[i].name))
          screen = &screens[i];
      g_assert_nonnull (screen);
      argc = 1;
      /* The screen's language (gtk_test_init would set en_US). */
      setlocale (LC_ALL, "");
      ws_i18n_init ();
      textdomain (GETTEXT_PACKAGE);
      g_test_init (&argc, &argv, NULL);
      gtk_init ();
      adw_init ();
      {
        /* The application's styles, as AdwApplication loads them. */
        g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();

        gtk_css_provider_load_from_resource (css, "/org/warpscope/Warpscope/style.css");
        gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                    GTK_STYLE_PROVIDER (css),
                                                    GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
      }
      g_test_add_func ("/app-sizes/screen", test_screen);
      status = g_test_run ();
      ws_test_remove_tree (cache);
      return status;
    }
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (screens); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app-sizes/%s", screens[i].name);

      g_test_add_data_func (path, &screens[i], test_size);
    }
  status = g_test_run ();
  ws_test_remove_tree (cache);
  return status;
}
