/* test-app-workspace.c: the views and what they share. Each view is given the workspace once
 * and follows it: the selected run, the compared run, the visible window, the selected range,
 * presentation mode; a view made here, outside the window, with nothing but its "workspace"
 * property set, follows the same, which is all a new view needs. The comparison arithmetic
 * (each run from its own start, one scale) and the findings the table and panel show.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "test-app-util.h"
#include "ws-callout-strip.h"
#include "ws-column-widths.h"
#include "ws-chart-view.h"
#include "ws-config-sidebar.h"
#include "ws-findings-panel.h"
#include "ws-occupancy-view.h"
#include "ws-run-columns.h"
#include "ws-runs-view.h"
#include "ws-source-view.h"
#include "ws-status-bar.h"
#include "ws-takeaway.h"
#include "ws-time-summary.h"
#include "ws-timeline-view.h"
#include "ws-trace-view.h"
#include "ws-units.h"

/* A workspace holding a recording, as the window's would. */
static WsWorkspace *
workspace_with (const char *sample)
{
  WsWorkspace *workspace = ws_workspace_new ();
  g_autoptr (WsSession) session = ws_test_load_sample (sample);

  ws_workspace_set_session (workspace, session);
  ws_test_wait_analysed (workspace);
  return workspace;
}

static void
window_of (GtkWidget *view)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  ws_test_spin_for (50);
}

/* ---- views follow the workspace ----------------------------------------------------------- */

/* The window's views, given the workspace once in the template, follow what is set on it: no
 * view is told anything by the window. */
static void
test_window_views_follow (void)
{
  WsWindow *window = ws_test_new_window ();
  WsWorkspace *workspace = ws_window_get_workspace (window);
  WsSession *session = ws_test_open (window, "vector-add-sizes-h200.jsonl");
  WsRunsView *runs = ws_test_view (window, "runs_view");
  GtkWidget *findings = ws_test_view (window, "findings_panel");
  WsTimelineView *timeline = ws_test_view (window, "timeline");
  WsChartView *speedup = ws_test_view (window, "speedup");
  WsChartOptions o;
  int first, second;
  gint64 s5, e5;

  /* The selected run: the table's row, the panel's heading, the timeline's window. */
  ws_workspace_select_runs (workspace, 5, 0);
  ws_test_spin_for (50);
  ws_runs_view_get_selection (runs, &first, &second);
  g_assert_cmpint (first, ==, 5);
  g_assert_cmpint (second, ==, 0);
  g_assert_nonnull (ws_test_find_label (findings, "Run 5: vector_add"));
  g_assert_true (ws_run_get_time_range (ws_session_find_run (session, 5), &s5, &e5));
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.run, ==, 5);
  g_assert_cmpint (o.window_start, <, s5);
  g_assert_cmpint (o.window_end, >, e5);
  ws_chart_view_get_options (speedup, &o);
  g_assert_cmpint (o.run, ==, 5);

  /* The compared run: both rows, the panel side by side, the timeline's second run. */
  ws_workspace_select_runs (workspace, 5, 11);
  ws_test_spin_for (50);
  ws_runs_view_get_selection (runs, &first, &second);
  g_assert_cmpint (first, ==, 5);
  g_assert_cmpint (second, ==, 11);
  g_assert_nonnull (ws_test_find_label (findings, "Run 5 beside run 11"));
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.compare_run, ==, 11);

  /* The visible window, whoever sets it. */
  ws_workspace_set_visible_window (workspace, 1000, 2000000);
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.window_start, ==, 1000);
  g_assert_cmpint (o.window_end, ==, 2000000);

  /* Presentation: larger text in the window and the panel, findings written on the charts. */
  ws_workspace_set_presentation (workspace, TRUE);
  ws_test_spin_for (50);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "presentation"));
  g_assert_true (gtk_widget_has_css_class (findings, "presentation"));
  ws_chart_view_get_options (speedup, &o);
  g_assert_true (o.annotate);
  ws_workspace_set_presentation (workspace, FALSE);
  ws_test_spin_for (50);
  g_assert_false (gtk_widget_has_css_class (findings, "presentation"));

  /* A click in the table is the workspace's selection. */
  ws_runs_view_select_run (runs, 3);
  g_assert_cmpint (ws_workspace_get_run (workspace), ==, 3);
  g_assert_cmpint (ws_workspace_get_compare_run (workspace), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A view the window knows nothing of: set its workspace, and it follows. */
static void
test_new_view_needs_no_window (void)
{
  g_autoptr (WsWorkspace) workspace = workspace_with ("vector-add-sizes-h200.jsonl");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *chart = g_object_new (WS_TYPE_CHART_VIEW, "kind", WS_CHART_BREAKDOWN,
                                   "workspace", workspace, NULL);
  GtkWidget *panel = g_object_new (WS_TYPE_FINDINGS_PANEL, "workspace", workspace, NULL);
  GtkWidget *occupancy = g_object_new (WS_TYPE_OCCUPANCY_VIEW, "workspace", workspace, NULL);
  GtkWidget *source = g_object_new (WS_TYPE_SOURCE_VIEW, "workspace", workspace, NULL);
  GtkWidget *summary = g_object_new (WS_TYPE_TIME_SUMMARY, "workspace", workspace, NULL);
  WsChartOptions o;

  gtk_box_append (GTK_BOX (box), chart);
  gtk_box_append (GTK_BOX (box), panel);
  gtk_box_append (GTK_BOX (box), occupancy);
  gtk_box_append (GTK_BOX (box), source);
  gtk_box_append (GTK_BOX (box), summary);
  window_of (box);
  g_assert_null (ws_test_find_label (panel, "Run 4"));
  ws_workspace_select_runs (workspace, 4, 0);
  ws_test_spin_for (50);
  ws_chart_view_get_options (WS_CHART_VIEW (chart), &o);
  g_assert_cmpint (o.run, ==, 4);
  g_assert_nonnull (ws_test_find_label (panel, "Run 4: vector_add"));
  ws_workspace_select_runs (workspace, 4, 10);
  ws_test_spin_for (50);
  ws_chart_view_get_options (WS_CHART_VIEW (chart), &o);
  g_assert_cmpint (o.compare_run, ==, 10);
  g_assert_nonnull (ws_test_find_label (panel, "Run 4 beside run 10"));
  /* The selected range, said in words, each run from its own start. */
  g_assert_null (ws_time_summary_get_text (WS_TIME_SUMMARY (summary)));
  ws_workspace_set_selected_range (workspace, 0, 1000000);
  g_assert_true (g_str_has_prefix (ws_time_summary_get_text (WS_TIME_SUMMARY (summary)),
                                   "1.00 ms from each run's start: run 4: copies "));
  ws_workspace_set_presentation (workspace, TRUE);
  ws_test_spin_for (50);
  g_assert_true (gtk_widget_has_css_class (panel, "presentation"));
  ws_chart_view_get_options (WS_CHART_VIEW (chart), &o);
  g_assert_true (o.annotate);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (box)));
}

/* How many handlers `workspace` has, on any of its signals and GObject's notify. */
static guint
count_handlers (WsWorkspace *workspace)
{
  guint n_ids;
  g_autofree guint *ids = g_signal_list_ids (WS_TYPE_WORKSPACE, &n_ids);
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (gulong));
  gulong handler;

  /* Each handler found is blocked, so that the next search finds another, whatever its data
   * or detail; then they are all let run again. */
  for (guint i = 0; i <= n_ids; i++)
    {
      guint id = i < n_ids ? ids[i] : g_signal_lookup ("notify", G_TYPE_OBJECT);

      while ((handler = g_signal_handler_find (workspace,
                                               G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_UNBLOCKED, id,
                                               0, NULL, NULL, NULL)) != 0)
        {
          g_signal_handler_block (workspace, handler);
          g_array_append_val (found, handler);
        }
    }
  for (guint i = 0; i < found->len; i++)
    g_signal_handler_unblock (workspace, g_array_index (found, gulong, i));
  return found->len;
}

static void
count_notify_cb (GObject *object, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

/* Every view lets go of a workspace's signals when it is given another and when it is
 * disposed: WsView does it for all of them, so none is left listening to a workspace it no
 * longer shows (and none is called once it is gone). */
static void
test_views_let_go (void)
{
  g_autoptr (WsWorkspace) first = workspace_with ("vector-add-sizes-h200.jsonl");
  g_autoptr (WsWorkspace) second = ws_workspace_new ();
  GType types[] = { WS_TYPE_CALLOUT_STRIP, WS_TYPE_CHART_VIEW,   WS_TYPE_CONFIG_SIDEBAR,
                    WS_TYPE_FINDINGS_PANEL, WS_TYPE_OCCUPANCY_VIEW, WS_TYPE_RUNS_VIEW,
                    WS_TYPE_SOURCE_VIEW,   WS_TYPE_STATUS_BAR,   WS_TYPE_TAKEAWAY,
                    WS_TYPE_TIME_SUMMARY,  WS_TYPE_TIMELINE_VIEW, WS_TYPE_TRACE_VIEW };
  guint first_alone = count_handlers (first), second_alone = count_handlers (second);

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      GtkWidget *view = g_object_ref_sink (g_object_new (types[i], "workspace", first, NULL));
      guint notified = 0;

      g_test_message ("%s", g_type_name (types[i]));
      g_assert_true (WS_IS_VIEW (view));
      g_assert_cmpuint (count_handlers (first), >, first_alone);
      g_signal_connect (view, "notify::workspace", G_CALLBACK (count_notify_cb), &notified);
      g_object_set (view, "workspace", second, NULL);
      g_object_set (view, "workspace", second, NULL);
      g_assert_cmpuint (notified, ==, 1);
      g_assert_true (ws_view_get_workspace (WS_VIEW (view)) == second);
      g_assert_cmpuint (count_handlers (first), ==, first_alone);
      g_assert_cmpuint (count_handlers (second), >, second_alone);
      /* The old workspace's news reaches it no more. */
      ws_workspace_select_runs (first, 3, 0);
      g_object_run_dispose (G_OBJECT (view));
      g_assert_null (ws_view_get_workspace (WS_VIEW (view)));
      g_assert_cmpuint (count_handlers (second), ==, second_alone);
      g_object_unref (view);
    }
}

static void
count_cb (guint *n)
{
  (*n)++;
}

/* A live traced program's records arrive without a signal each; the session, asked now and
 * then (as the run controller does while it runs), says "changed" when its trace grew, and a
 * view made here, knowing only its workspace, shows the copies that arrived. */
static void
test_trace_growth_heard (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "trace-vector-add-h200.jsonl", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsWorkspace) workspace = ws_workspace_new ();
  g_autofree char *before = NULL, *after = NULL;
  GtkWidget *view;
  guint i = 0, updated = 0, heard;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  /* What comes before the program's first activity: the hello, the GPU, the context. */
  for (; lines[i] != NULL && strstr (lines[i], "\"type\":\"activity\"") == NULL; i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  ws_workspace_set_session (workspace, session);
  view = g_object_ref_sink (g_object_new (WS_TYPE_TRACE_VIEW, "workspace", workspace, NULL));
  before = ws_trace_view_dup_copy_rows (WS_TRACE_VIEW (view), 0);
  g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (count_cb), &updated);
  /* Its activities up to its first module: copies among them, none of them told. */
  for (; lines[i] != NULL && strstr (lines[i], "\"type\":\"activity\"") != NULL; i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  heard = updated;
  g_assert_true (ws_session_notice_trace_growth (session));
  g_assert_cmpuint (updated, ==, heard + 1);
  after = ws_trace_view_dup_copy_rows (WS_TRACE_VIEW (view), 0);
  g_assert_nonnull (after);
  g_assert_cmpstr (after, !=, before);
  g_assert_cmpuint (strlen (after), >, 0);
  /* Nothing new: nothing said. */
  g_assert_false (ws_session_notice_trace_growth (session));
  g_assert_cmpuint (updated, ==, heard + 1);
  g_object_run_dispose (G_OBJECT (view));
  g_object_unref (view);
}

/* Long lines of the Source view ran off its right edge, with a scrollbar that showed only on
 * hover: in a narrow view every line is whole on screen, wrapped, and the vertical scrollbar
 * is always there. */
static GtkWidget *
find_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);

      if (found)
        return found;
    }
  return NULL;
}

static void
test_source_long_lines (void)
{
  GtkWidget *source = ws_source_view_new ();
  GtkWidget *window = gtk_window_new ();
  GtkScrolledWindow *scroller;
  GtkAdjustment *h, *v;

  gtk_window_set_default_size (GTK_WINDOW (window), 420, 300);
  gtk_window_set_child (GTK_WINDOW (window), source);
  gtk_window_present (GTK_WINDOW (window));
  ws_source_view_show_kernel (WS_SOURCE_VIEW (source), "matmul", "matmul_tiled");
  ws_test_spin_for (300);
  scroller = GTK_SCROLLED_WINDOW (find_type (source, GTK_TYPE_SCROLLED_WINDOW));
  g_assert_nonnull (scroller);
  h = gtk_scrolled_window_get_hadjustment (scroller);
  v = gtk_scrolled_window_get_vadjustment (scroller);
  /* Laid out: seconds under the sanitizers on a busy machine. */
  for (int i = 0; i < 100 && gtk_adjustment_get_upper (v) <= 0; i++)
    ws_test_spin_for (100);
  /* matmul.cu has lines of more than 90 characters: wider than 420 pixels, yet nothing lies
   * to the right to scroll to. */
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h) + 1);
  g_assert_cmpfloat (gtk_adjustment_get_upper (v), >, gtk_adjustment_get_page_size (v));
  g_assert_false (gtk_scrolled_window_get_overlay_scrolling (scroller));
  g_assert_true (gtk_widget_get_visible (gtk_scrolled_window_get_vscrollbar (scroller)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A label or inscription whose text starts with `prefix`, as a widget (the first found). */
static GtkWidget *
find_label_widget (GtkWidget *widget, const char *prefix)
{
  const char *text = ws_test_widget_text (widget);

  if (text != NULL && g_str_has_prefix (text, prefix))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_widget (c, prefix);

      if (found)
        return found;
    }
  return NULL;
}

/* Run 5's kernel takes 37.4 µs in the table and 40.0 µs in its finding, and its copies 14.5 ms
 * in the finding against 12.2 ms end to end in the table: the table's cells say why. */
static void
test_numbers_explained (void)
{
  WsWindow *window = ws_test_new_window ();
  GtkWidget *runs = ws_test_view (window, "runs_view");
  GtkWidget *kernel, *e2e;
  char *tip;

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
  ws_test_open (window, "vector-add-sizes-h200.jsonl");
  ws_workspace_select_runs (ws_window_get_workspace (window), 5, 0);
  ws_test_spin_for (500);
  kernel = find_label_widget (runs, "37.4 µs");
  e2e = find_label_widget (runs, "12.2 ms");
  g_assert_nonnull (kernel);
  g_assert_nonnull (e2e);
  /* The cells give their tooltips when asked, and set none as their rows are bound. */
  g_assert_null (gtk_widget_get_tooltip_text (kernel));
  g_assert_true (gtk_widget_get_has_tooltip (kernel));
  tip = ws_runs_view_dup_cell_tooltip (WS_RUNS_VIEW (runs), kernel);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "back to back"));
  g_assert_nonnull (strstr (tip, "in sequence, the kernel took 40.0 µs"));
  g_free (tip);
  tip = ws_runs_view_dup_cell_tooltip (WS_RUNS_VIEW (runs), e2e);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "The traced copies add up to 14.5"));
  g_free (tip);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkColumnView *found = find_column_view (c);

      if (found)
        return found;
    }
  return NULL;
}

/* The runs view is the third user of the run-column list (test-cli-columns.c has the two
 * CSVs): its headers are the list's titles, and a run's plain cells its text. */
static void
test_runs_view_columns (void)
{
  static const char *const keys[] = {
    "run", "gpu", "kernel", "shape", "block", "transfer", "kernel_ns_median", "e2e_ns_median",
    "speedup_kernel_vs_1", "speedup_kernel_vs_all", "occupancy", "verified", "findings",
  };
  static const char *const plain[] = { "shape", "transfer", "occupancy" };
  WsWindow *window = ws_test_new_window ();
  GtkWidget *runs = ws_test_view (window, "runs_view");
  GtkColumnView *view = find_column_view (runs);
  GListModel *columns;
  GtkWidget *title;
  WsRun *run;

  g_assert_nonnull (view);
  columns = gtk_column_view_get_columns (view);
  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, G_N_ELEMENTS (keys));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const WsRunColumn *schema = ws_run_column_find (keys[i]);

      g_assert_nonnull (schema);
      g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, _(schema->title));
    }
  /* "302× / 0.92×" under "vs 1 CPU": the speedups' headers say which number is which on
   * hover (the header's children are the titles, in the columns' order); the kernel's, whose
   * cells need no words, has none. */
  title = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (view)));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++, title = gtk_widget_get_next_sibling (title))
    {
      const char *tip;

      g_assert_nonnull (title);
      tip = gtk_widget_get_tooltip_text (title);
      if (g_str_has_prefix (keys[i], "speedup_"))
        {
          g_assert_nonnull (tip);
          g_assert_nonnull (strstr (tip, "the kernel alone / with its copies"));
          g_assert_nonnull (strstr (tip, g_str_has_suffix (keys[i], "_1") ? "one CPU thread"
                                                                          : "all the CPU's cores"));
        }
      else
        g_assert_null (tip);
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
  ws_test_open (window, "vector-add-sizes-h200.jsonl");
  ws_workspace_select_runs (ws_window_get_workspace (window), 5, 0);
  ws_test_spin_for (500);
  run = ws_session_find_run (ws_workspace_get_session (ws_window_get_workspace (window)), 5);
  g_assert_nonnull (run);
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    {
      g_autofree char *text = ws_run_column_dup_text (ws_run_column_find (plain[i]), run, NULL);

      if (find_label_widget (runs, text) == NULL)
        g_error ("the runs view shows no cell \"%s\" (%s of run 5)", text, plain[i]);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static guint rows_wanted;

static gboolean
all_rows_arrived (gpointer view)
{
  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (view))) == rows_wanted;
}

/* A session's runs come into the table a few rows a frame (ws-runs-view.c): all of them are
 * rows once the window has painted enough frames (a deadline, not a time: a frame may take
 * long in the sanitized build), and a run picked before then is found at once. */
static void
test_runs_view_rows_arrive (void)
{
  WsWindow *window = ws_test_new_window ();
  GtkColumnView *view = find_column_view (ws_test_view (window, "runs_view"));
  WsSession *session = ws_test_open (window, "vector-add-blocks-h200.jsonl");
  guint runs = g_list_model_get_n_items (ws_session_get_runs (session));

  g_assert_cmpuint (runs, >, 16);
  ws_runs_view_select_run (ws_test_view (window, "runs_view"), (int) runs);
  g_assert_cmpint (ws_workspace_get_run (ws_window_get_workspace (window)), ==, (int) runs);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (view))),
                    ==, runs);
  gtk_window_destroy (GTK_WINDOW (window));

  window = ws_test_new_window ();
  view = find_column_view (ws_test_view (window, "runs_view"));
  ws_test_open (window, "vector-add-blocks-h200.jsonl");
  rows_wanted = runs;
  ws_test_spin_until (all_rows_arrived, view, 30000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (view))),
                    ==, runs);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Every shown cell's text within its column's width, in `view` (ws-column-widths.h). */
static void
assert_cells_fit (GtkWidget *widget, GListModel *columns, guint *cells)
{
  const char *text = GTK_IS_INSCRIPTION (widget) ? gtk_inscription_get_text (GTK_INSCRIPTION (widget))
                                                 : NULL;

  if (text != NULL && gtk_widget_get_mapped (widget))
    {
      guint c = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "column"));
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      int fixed = gtk_column_view_column_get_fixed_width (column);

      if (ws_column_widths_for_text (widget, text) > fixed)
        g_error ("\"%s\" needs %d pixels, its column \"%s\" has %d", text,
                 ws_column_widths_for_text (widget, text), gtk_column_view_column_get_title (column),
                 fixed);
      (*cells)++;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    assert_cells_fit (c, columns, cells);
}

/* The shown columns' fixed widths together. */
static int
columns_width (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  int sum = 0;

  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      sum += MAX (gtk_column_view_column_get_fixed_width (column), 0);
    }
  return sum;
}

/* The window laid out at its new size and the columns sized for it (the sanitized build on
 * busy cores may take longer than a fixed wait). */
static gboolean
columns_settled (gpointer view)
{
  int width = gtk_widget_get_width (GTK_WIDGET (view));
  GtkWidget *last = gtk_widget_get_last_child (GTK_WIDGET (view));

  return width > 1100 && columns_width (view) <= width && last != NULL
         && gtk_widget_get_width (last) == width;
}

/* The table's columns have fixed widths, so that GTK need not measure every bound row to size
 * them: each shown column is as wide as the widest text it shows, the hidden GPU column has
 * none (GTK 4.8 would count it), and the kernel's column takes the rest of the width. */
static void
test_runs_view_widths (void)
{
  static const char *const samples[] = { "vector-add-sizes-h200.jsonl", "matmul-sizes-h200.jsonl",
                                         "matmul-ladder-h200.jsonl" };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      WsWindow *window = ws_test_new_window ();
      GtkWidget *runs = ws_test_view (window, "runs_view");
      GtkColumnView *view = find_column_view (runs);
      GListModel *columns = gtk_column_view_get_columns (view);
      int sum = 0;
      guint cells = 0;

      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
      ws_test_open (window, samples[s]);
      ws_test_spin_until (columns_settled, view, 30000);
      for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
        {
          g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
          int fixed = gtk_column_view_column_get_fixed_width (column);

          if (gtk_column_view_column_get_visible (column))
            g_assert_cmpint (fixed, >, 0);
          else
            g_assert_cmpint (fixed, ==, -1);
          sum += MAX (fixed, 0);
        }
      g_assert_cmpint (sum, <=, gtk_widget_get_width (GTK_WIDGET (view)));
      /* The rows fill the view: no hidden column's width is left over at the right. */
      g_assert_cmpint (gtk_widget_get_width (gtk_widget_get_last_child (GTK_WIDGET (view))), ==,
                       gtk_widget_get_width (GTK_WIDGET (view)));
      assert_cells_fit (runs, columns, &cells);
      g_assert_cmpuint (cells, >=, 12);
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* ---- the timeline ------------------------------------------------------------------------- */

static void
test_timeline_window_and_range (void)
{
  g_autoptr (WsWorkspace) workspace = workspace_with ("vector-add-sizes-h200.jsonl");
  WsTimelineView *timeline = WS_TIMELINE_VIEW (ws_timeline_view_new ());
  GtkWidget *summary = ws_time_summary_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gint64 fs, fe, start, end, rs, re;
  g_autofree char *length = NULL, *said = NULL;
  WsChartOptions o;

  ws_view_set_workspace (WS_VIEW (timeline), workspace);
  ws_view_set_workspace (WS_VIEW (summary), workspace);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (timeline));
  gtk_box_append (GTK_BOX (box), summary);
  window_of (box);
  g_assert_true (ws_workspace_get_full_range (workspace, &fs, &fe));

  /* Zooming in the widget is the workspace's window, about its middle. */
  ws_timeline_view_zoom (timeline, 4, 0.5);
  ws_workspace_get_visible_window (workspace, &start, &end);
  g_assert_cmpint (end - start, >, (fe - fs) / 4 - 2);
  g_assert_cmpint (end - start, <, (fe - fs) / 4 + 2);
  g_assert_cmpint (start, >, fs);
  /* Panning never wanders off the data. */
  for (int i = 0; i < 50; i++)
    ws_timeline_view_pan (timeline, -1);
  ws_workspace_get_visible_window (workspace, &start, &end);
  g_assert_cmpint (start, ==, fs - (fe - fs) / 10);
  /* Less than 100 ns is never shown. */
  ws_workspace_set_visible_window (workspace, fs + 10, fs + 20);
  ws_workspace_get_visible_window (workspace, &start, &end);
  g_assert_cmpint (end - start, ==, 100);

  /* A range: drawn, said, and Z zooms to it and clears it. */
  rs = fs + (fe - fs) / 3, re = fs + (fe - fs) / 2;
  ws_workspace_set_selected_range (workspace, rs, re);
  ws_timeline_view_get_options (timeline, &o);
  g_assert_cmpint (o.selection_start, ==, rs);
  g_assert_cmpint (o.selection_end, ==, re);
  /* In ws-units' words: "Selected 1.25 ms: copies 310 µs (25%), …". */
  length = ws_units_duration ((double) (re - rs));
  said = g_strdup_printf ("Selected %s: copies ", length);
  g_assert_true (g_str_has_prefix (ws_time_summary_get_text (WS_TIME_SUMMARY (summary)), said));
  ws_timeline_view_zoom_to_selection (timeline);
  ws_workspace_get_visible_window (workspace, &start, &end);
  g_assert_cmpint (start, ==, rs);
  g_assert_cmpint (end, ==, re);
  g_assert_false (ws_workspace_get_selected_range (workspace, &start, &end));
  g_assert_null (ws_time_summary_get_text (WS_TIME_SUMMARY (summary)));

  /* A span picked: outlined and described. */
  ws_workspace_select_activity (workspace, 5, 0);
  g_assert_nonnull (ws_workspace_get_highlight (workspace));
  g_assert_true (g_str_has_prefix (ws_time_summary_get_text (WS_TIME_SUMMARY (summary)), "Run 5 · "));
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (box)));
}

/* ---- comparing ---------------------------------------------------------------------------- */

/* Two runs: each counted from its own start, on one scale; a finding of the second run puts
 * the window on its spans, in that run's time. */
static void
test_comparison_arithmetic (void)
{
  g_autoptr (WsWorkspace) workspace = workspace_with ("vector-add-sizes-h200.jsonl");
  WsSession *session = ws_workspace_get_session (workspace);
  WsRun *five = ws_session_find_run (session, 5), *eleven = ws_session_find_run (session, 11);
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 s5, e5, s11, e11, start, end;
  const WsSpan *a;
  guint n, kernel = G_MAXUINT;
  WsTotals whole, from_start;

  g_assert_true (ws_run_get_time_range (five, &s5, &e5));
  g_assert_true (ws_run_get_time_range (eleven, &s11, &e11));
  ws_workspace_select_runs (workspace, 5, 0);
  g_assert_false (ws_workspace_is_comparing (workspace));
  g_assert_cmpint (ws_workspace_get_origin (workspace, 11), ==, 0);

  ws_workspace_select_runs (workspace, 5, 11);
  g_assert_true (ws_workspace_is_comparing (workspace));
  g_assert_cmpint (ws_workspace_get_origin (workspace, 5), ==, s5);
  g_assert_cmpint (ws_workspace_get_origin (workspace, 11), ==, s11);
  g_assert_true (ws_workspace_get_full_range (workspace, &start, &end));
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, ==, MAX (e5 - s5, e11 - s11));

  /* The same stretch of run 11, from its own start, is its own time from s11. */
  ws_workspace_set_selected_range (workspace, 0, e11 - s11);
  ws_workspace_get_range_totals (workspace, 11, &from_start);
  ws_session_get_window_totals (session, s11, e11, &whole);
  g_assert_cmpint (from_start.kernel_ns, ==, whole.kernel_ns);
  g_assert_cmpint (from_start.copy_ns, ==, whole.copy_ns);
  g_assert_cmpint (from_start.kernel_ns, >, 0);

  a = ws_run_get_activities (eleven, &n);
  for (guint i = 0; i < n && kernel == G_MAXUINT; i++)
    if (a[i].kind == WS_ACTIVITY_KERNEL)
      kernel = i;
  g_assert_cmpuint (kernel, <, n);
  g_array_append_val (indices, kernel);
  ws_workspace_highlight_finding (workspace, 11, indices);
  ws_workspace_get_visible_window (workspace, &start, &end);
  g_assert_cmpint (start, <=, a[kernel].start - s11);
  g_assert_cmpint (end, >=, a[kernel].end - s11);
  g_assert_cmpint (end - start, <, (a[kernel].end - a[kernel].start) * 2);
  g_assert_cmpuint (ws_workspace_get_highlight (workspace)->len, ==, 1);

  /* Back to one run: the range meant another time, so it goes. */
  ws_workspace_select_runs (workspace, 11, 0);
  g_assert_false (ws_workspace_get_selected_range (workspace, &start, &end));
  g_assert_null (ws_workspace_get_highlight (workspace));
}

/* ---- findings ----------------------------------------------------------------------------- */

/* The whole session is analysed once, and each run's findings are what analysing that run
 * alone gives. */
static void
test_findings_per_run (void)
{
  const char *samples[] = { "vector-add-sizes-h200.jsonl", "vector-add-blocks-h200.jsonl" };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autoptr (WsWorkspace) workspace = workspace_with (samples[s]);
      WsSession *session = ws_workspace_get_session (workspace);
      GListModel *runs = ws_session_get_runs (session);
      guint total = 0;

      for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
        {
          g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
          g_autoptr (GPtrArray) alone = ws_analyze_run (session, run);
          GPtrArray *shared = ws_workspace_get_findings (workspace, run);

          g_assert_cmpuint (shared->len, ==, alone->len);
          for (guint k = 0; k < alone->len; k++)
            {
              WsFinding *x = g_ptr_array_index (shared, k), *y = g_ptr_array_index (alone, k);

              g_assert_cmpstr (x->id, ==, y->id);
              g_assert_cmpstr (x->title, ==, y->title);
              g_assert_cmpint (x->run, ==, ws_run_get_id (run));
            }
          /* Asked again: the same list, not another analysis. */
          g_assert_true (ws_workspace_get_findings (workspace, run) == shared);
          total += alone->len;
        }
      g_assert_cmpuint (total, >, 0);
    }
}

/* With no run picked, the findings panel names the fastest configuration of each problem; until
 * the thread has analysed the session it says that it is analysing, and nothing is found on the
 * main loop meanwhile. */
static void
test_fastest_shown (void)
{
  g_autoptr (WsWorkspace) workspace = ws_workspace_new ();
  g_autoptr (WsSession) session = ws_test_load_sample ("vector-add-blocks-h200.jsonl");
  GtkWidget *panel = g_object_new (WS_TYPE_FINDINGS_PANEL, "workspace", workspace, NULL);
  WsSessionAnalysis *analysis;

  window_of (panel);
  ws_workspace_set_session (workspace, session);
  analysis = ws_workspace_get_analysis (workspace);
  g_assert_true (analysis == ws_session_get_analysis (session));
  g_assert_true (ws_session_analysis_is_pending (analysis));
  g_assert_false (ws_workspace_is_analysed (workspace));
  g_assert_nonnull (ws_test_find_label (panel, "Analysing the session"));
  g_assert_null (ws_test_find_label (panel, "Fastest configurations"));

  ws_test_wait_analysed (workspace);
  ws_test_spin_for (50);
  g_assert_null (ws_test_find_label (panel, "Analysing the session"));
  g_assert_nonnull (ws_test_find_label (panel, "Fastest configurations"));
  g_assert_nonnull (ws_test_find_label (panel, "vector_add n = 10,000,000 at block 256 — 37.5 µs "
                                               "(4 more within its spread)"));
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (panel)));
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("ws-app-cache-XXXXXX", NULL);

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/workspace/window-views-follow", test_window_views_follow);
  g_test_add_func ("/app/workspace/new-view-needs-no-window", test_new_view_needs_no_window);
  g_test_add_func ("/app/workspace/views-let-go", test_views_let_go);
  g_test_add_func ("/app/workspace/trace-growth-heard", test_trace_growth_heard);
  g_test_add_func ("/app/workspace/source-long-lines", test_source_long_lines);
  g_test_add_func ("/app/workspace/numbers-explained", test_numbers_explained);
  g_test_add_func ("/app/workspace/runs-view-columns", test_runs_view_columns);
  g_test_add_func ("/app/workspace/runs-view-rows-arrive", test_runs_view_rows_arrive);
  g_test_add_func ("/app/workspace/timeline-window-and-range", test_timeline_window_and_range);
  g_test_add_func ("/app/workspace/comparison-arithmetic", test_comparison_arithmetic);
  g_test_add_func ("/app/workspace/findings-per-run", test_findings_per_run);
  g_test_add_func ("/app/workspace/fastest-shown", test_fastest_shown);
  g_test_add_func ("/app/workspace/runs-view-widths", test_runs_view_widths);
  return g_test_run ();
}
