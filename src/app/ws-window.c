/* ws-window.c: the main window. It owns the session on screen and the runner that fills it;
 * every view draws the same session, and selecting a run shows it everywhere.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window.h"

#include <glib/gi18n.h>

#include "ws-analysis.h"
#include "ws-chart-view.h"
#include "ws-config-sidebar.h"
#include "ws-environment-dialog.h"
#include "ws-export-dialog.h"
#include "ws-findings-panel.h"
#include "ws-occupancy-view.h"
#include "ws-runner-client.h"
#include "ws-runs-view.h"
#include "ws-source-view.h"

struct _WsWindow
{
  AdwApplicationWindow parent_instance;

  /* template */
  AdwToastOverlay *toasts;
  AdwViewSwitcherTitle *switcher_title;
  WsConfigSidebar *sidebar;
  GtkStack *main_stack;
  AdwStatusPage *status_page;
  GtkBox *samples_box;
  GtkWidget *samples_heading;
  AdwViewStack *views;
  GtkLabel *window_totals;
  WsRunsView *runs_view;
  WsFindingsPanel *findings_panel;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  GtkLabel *status_label;
  GMenu *samples_menu;
  GMenu *recent_menu;

  /* views made in code */
  WsChartView *timeline, *speedup, *blocks, *breakdown, *roofline;
  WsOccupancyView *occupancy;
  WsSourceView *source;

  GSettings *settings;
  WsSession *session;
  GPtrArray *sessions; /* the session, for the charts */
  WsRunnerClient *client;
  WsSession *environment;
  WsRunnerClient *environment_client;
  WsRunnerClient *catalog_client;
  char *runner_path;
  gboolean presentation;
  guint autosave_id;
  char *last_toast;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

static void update_ui (WsWindow *self);

/* ---- small helpers ------------------------------------------------------------------------ */

static void
toast (WsWindow *self, const char *text)
{
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_timeout (t, 6);
  adw_toast_overlay_add_toast (self->toasts, t);
  g_free (self->last_toast);
  self->last_toast = g_strdup (text);
}

static WsChartView *
add_chart_page (WsWindow *self, WsChartKind kind, const char *name, const char *title,
                const char *icon)
{
  GtkWidget *view = ws_chart_view_new (kind);
  AdwViewStackPage *page = adw_view_stack_add_titled (self->views, view, name, title);

  adw_view_stack_page_set_icon_name (page, icon);
  return WS_CHART_VIEW (view);
}

static char *
autosave_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "warpscope", "last-live-session.jsonl", NULL);
}

/* ---- status --------------------------------------------------------------------------------- */

static char *
status_text (WsWindow *self)
{
  WsSession *s = self->session;
  GString *text = g_string_new (NULL);
  WsDevice *device = s ? ws_session_get_device (s) : NULL;
  JsonObject *hello = s ? ws_session_get_hello (s) : NULL;
  g_autofree char *date = s ? ws_session_dup_date (s) : NULL;
  int done = 0, total = 0;

  if (s == NULL)
    {
      WsDevice *gpu = self->environment ? ws_session_get_device (self->environment) : NULL;

      if (gpu != NULL)
        {
          JsonObject *h = ws_session_get_hello (self->environment);

          g_string_printf (text, _("%s · driver supports CUDA %s · runtime %s"),
                           ws_device_get_name (gpu),
                           json_object_get_string_member_with_default (h, "driver_cuda", "?"),
                           json_object_get_string_member_with_default (h, "runtime_cuda", "?"));
        }
      else if (self->runner_path == NULL)
        g_string_assign (text, _("No GPU runner in this build: recordings and the calculator "
                                 "work"));
      else if (self->environment_client && ws_runner_client_is_running (self->environment_client))
        g_string_assign (text, _("Looking for a GPU…"));
      else
        g_string_assign (text, _("No usable GPU here: recordings and the calculator work"));
      return g_string_free (text, FALSE);
    }
  switch (ws_session_get_source (s))
    {
    case WS_SESSION_SOURCE_REPLAY:
      g_string_printf (text, _("Replay of a recording made on %s, %s"),
                       device ? ws_device_get_name (device) : _("an unknown GPU"),
                       date ? date : "?");
      break;
    case WS_SESSION_SOURCE_RECORDING:
      {
        g_autofree char *name = ws_session_get_file (s) ? g_file_get_basename (ws_session_get_file (s))
                                                        : NULL;

        g_string_printf (text, _("Recording made on %s, %s"),
                         device ? ws_device_get_name (device) : _("an unknown GPU"),
                         date ? date : "?");
        if (name)
          g_string_append_printf (text, " · %s", name);
      }
      break;
    default:
      g_string_printf (text, _("%s · driver supports CUDA %s · runtime %s"),
                       device ? ws_device_get_name (device) : _("starting the runner…"),
                       hello ? json_object_get_string_member_with_default (hello, "driver_cuda", "?")
                             : "?",
                       hello ? json_object_get_string_member_with_default (hello, "runtime_cuda", "?")
                             : "?");
      break;
    }
  if (ws_session_get_progress (s, &done, &total) && total > 0 && done < total)
    g_string_append_printf (text, _(" · run %d of %d"), done + 1, total);
  if (ws_session_get_problems (s)->len > 0)
    g_string_append_printf (text,
                            ngettext (" · %u line could not be read", " · %u lines could not be read",
                                      ws_session_get_problems (s)->len),
                            ws_session_get_problems (s)->len);
  return g_string_free (text, FALSE);
}

static void
update_status_page (WsWindow *self)
{
  WsDevice *gpu = self->environment ? ws_session_get_device (self->environment) : NULL;
  GPtrArray *errors = self->environment ? ws_session_get_errors (self->environment) : NULL;
  WsRunnerError *error = NULL;

  for (guint i = 0; errors != NULL && i < errors->len; i++)
    if (g_strcmp0 (((WsRunnerError *) g_ptr_array_index (errors, i))->severity, "error") == 0)
      error = g_ptr_array_index (errors, i);
  if (self->runner_path == NULL)
    {
      adw_status_page_set_title (self->status_page, _("No GPU Runner in This Build"));
      adw_status_page_set_description (
        self->status_page,
        _("Warpscope was built without the CUDA toolkit, so it cannot run kernels here. Open a "
          "recording made on a real GPU to explore real measurements, or try the occupancy "
          "calculator."));
    }
  else if (gpu != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Ready to Run on the %s"), ws_device_get_name (gpu));

      adw_status_page_set_title (self->status_page, title);
      adw_status_page_set_description (
        self->status_page,
        _("Pick a kernel on the left and press Run (Ctrl+R). The tutorial's vector add with "
          "n = 10,000,000 and 256 threads per block is a good first run. Or open a recording."));
    }
  else if (error != NULL)
    {
      adw_status_page_set_title (self->status_page,
                                 g_str_equal (error->code, "no_driver")        ? _("No NVIDIA GPU Here")
                                 : g_str_equal (error->code, "driver_too_old") ? _("The NVIDIA Driver Is Too Old")
                                 : g_str_equal (error->code, "no_device")      ? _("The Driver Sees No GPU")
                                 : g_str_equal (error->code, "no_kernel_image") ? _("This Build Cannot Run on This GPU")
                                                                               : _("The GPU Cannot Be Used"));
      adw_status_page_set_description (self->status_page, error->message);
    }
  else if (self->environment_client != NULL && ws_runner_client_is_running (self->environment_client))
    {
      adw_status_page_set_title (self->status_page, _("Looking for a GPU…"));
      adw_status_page_set_description (self->status_page, NULL);
    }
  else
    {
      const GError *e = self->environment_client ? ws_runner_client_get_error (self->environment_client)
                                                 : NULL;

      adw_status_page_set_title (self->status_page, _("The GPU Runner Did Not Answer"));
      adw_status_page_set_description (self->status_page, e ? e->message : NULL);
    }
}

static void
update_ui (WsWindow *self)
{
  gboolean running = self->client != NULL && ws_runner_client_is_running (self->client);
  gboolean has_runs = self->session != NULL
                      && g_list_model_get_n_items (ws_session_get_runs (self->session)) > 0;
  gboolean can_run = self->runner_path != NULL && !running
                     && (self->environment == NULL || ws_session_get_device (self->environment) != NULL);
  g_autofree char *status = status_text (self);
  int done = 0, total = 0;

  gtk_label_set_text (self->status_label, status);
  update_status_page (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run",
                                 can_run && ws_config_sidebar_get_run_valid (self->sidebar));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.sweep",
                                 can_run && ws_config_sidebar_get_sweep_valid (self->sidebar));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save", has_runs && !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", has_runs && !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", has_runs);
  {
    const char *page = gtk_stack_get_visible_child_name (self->main_stack);
    const char *view = adw_view_stack_get_visible_child_name (self->views);

    /* The views need runs, except the calculator, which works with none. */
    if (has_runs)
      gtk_stack_set_visible_child_name (self->main_stack, "views");
    else if (!(g_strcmp0 (page, "views") == 0 && g_strcmp0 (view, "occupancy") == 0))
      gtk_stack_set_visible_child_name (self->main_stack, "welcome");
  }
  gtk_revealer_set_reveal_child (self->progress_revealer, running);
  if (running && self->session && ws_session_get_progress (self->session, &done, &total) && total > 0)
    {
      g_autofree char *text = g_strdup_printf (_("%d of %d configurations"), done, total);

      gtk_progress_bar_set_fraction (self->progress_bar, (double) done / total);
      gtk_progress_bar_set_text (self->progress_bar, text);
    }
  else if (running)
    {
      gtk_progress_bar_pulse (self->progress_bar);
      gtk_progress_bar_set_text (self->progress_bar, _("Running…"));
    }
}

/* ---- selection ------------------------------------------------------------------------------ */

/* Two runs selected: the timeline shows them one above the other. */
static gboolean
comparing (WsWindow *self)
{
  int first = 0, second = 0;

  ws_runs_view_get_selection (self->runs_view, &first, &second);
  return self->session != NULL && first != 0 && second != 0 && first != second
         && ws_session_find_run (self->session, first) != NULL
         && ws_session_find_run (self->session, second) != NULL;
}

static void
show_selection (WsWindow *self)
{
  int first = 0, second = 0;
  WsRun *run;
  gint64 start, end;

  ws_runs_view_get_selection (self->runs_view, &first, &second);
  run = self->session && first ? ws_session_find_run (self->session, first) : NULL;
  ws_chart_view_set_run (self->timeline, first, second);
  ws_chart_view_set_run (self->speedup, first, second);
  ws_chart_view_set_run (self->blocks, first, second);
  ws_chart_view_set_run (self->breakdown, first, second);
  ws_chart_view_set_run (self->roofline, first, second);
  ws_chart_view_set_highlight (self->timeline, NULL);
  ws_occupancy_view_set_run (self->occupancy, run);
  if (run != NULL && second != 0 && ws_session_find_run (self->session, second) != NULL)
    {
      WsRun *other = ws_session_find_run (self->session, second);
      gint64 s2, e2;

      /* Two runs: side by side in the findings panel, and on the timeline one above the
       * other, each counted from its own start, so the window is in ns since those starts. */
      ws_findings_panel_show_pair (self->findings_panel, self->session, run,
                                   ws_runs_view_get_findings (self->runs_view, run), other,
                                   ws_runs_view_get_findings (self->runs_view, other));
      if (ws_run_get_time_range (run, &start, &end) && ws_run_get_time_range (other, &s2, &e2))
        {
          gint64 span = MAX (end - start, e2 - s2);

          ws_chart_view_set_window (self->timeline, -span / 20, span + span / 20);
        }
      return;
    }
  ws_findings_panel_show (self->findings_panel, self->session, run,
                          run ? ws_runs_view_get_findings (self->runs_view, run) : NULL);
  if (run != NULL)
    {
      const WsRunConfig *c = ws_run_get_config (run);

      ws_source_view_show_kernel (self->source, c->family, c->kernel);
      /* The timeline follows the selection: the run's spans, with a little room. */
      if (ws_run_get_time_range (run, &start, &end))
        ws_chart_view_set_window (self->timeline, start - (end - start) / 20,
                                  end + (end - start) / 20);
    }
}

static void
selection_changed_cb (WsRunsView *view, WsWindow *self)
{
  show_selection (self);
}

static void
finding_activated_cb (WsFindingsPanel *panel, int run_id, GArray *indices, WsWindow *self)
{
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (WsActivityRef));
  WsRun *run = self->session ? ws_session_find_run (self->session, run_id) : NULL;
  gint64 start = G_MAXINT64, end = G_MININT64;
  guint n;
  const WsActivity *a;

  if (run == NULL || indices == NULL || indices->len == 0)
    return;
  a = ws_run_get_activities (run, &n);
  for (guint i = 0; i < indices->len; i++)
    {
      WsActivityRef ref = { run_id, g_array_index (indices, guint, i) };

      if (ref.index >= n)
        continue;
      g_array_append_val (refs, ref);
      start = MIN (start, a[ref.index].start);
      end = MAX (end, a[ref.index].end);
    }
  if (refs->len == 0)
    return;
  ws_chart_view_set_highlight (self->timeline, refs);
  if (comparing (self))
    {
      /* Two runs on the timeline count from their own starts. */
      gint64 origin;

      ws_run_get_time_range (run, &origin, NULL);
      start -= origin, end -= origin;
    }
  ws_chart_view_set_window (self->timeline, start - (end - start) / 10, end + (end - start) / 10);
  adw_view_stack_set_visible_child_name (self->views, "timeline");
}

static void
activity_selected_cb (WsChartView *view, int run_id, guint index, WsWindow *self)
{
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (WsActivityRef));
  WsActivityRef ref = { run_id, index };
  WsRun *run = ws_session_find_run (self->session, run_id);
  guint n;
  const WsActivity *a = run ? ws_run_get_activities (run, &n) : NULL;
  g_autofree char *text = NULL;

  if (a == NULL || index >= n)
    return;
  g_array_append_val (refs, ref);
  ws_chart_view_set_highlight (self->timeline, refs);
  text = g_strdup_printf (_("Run %d · %s%s%s · %.3f µs%s"), run_id,
                          ws_activity_kind_to_string (a[index].kind),
                          a[index].name ? " " : "", a[index].name ? a[index].name : "",
                          ws_activity_duration (&a[index]) / 1e3,
                          a[index].kind == WS_ACTIVITY_MEMCPY ? "" : "");
  if (a[index].kind == WS_ACTIVITY_MEMCPY)
    {
      g_free (text);
      text = g_strdup_printf (_("Run %d · copy %s · %.2f MB in %.3f µs = %.2f GB/s (%s host memory)"),
                              run_id, ws_copy_direction_to_string (a[index].direction),
                              a[index].bytes / 1e6, ws_activity_duration (&a[index]) / 1e3,
                              ws_activity_gbs (&a[index]),
                              ws_host_memory_to_string (a[index].host_memory) ?: "device");
    }
  gtk_label_set_text (self->window_totals, text);
  gtk_widget_set_visible (GTK_WIDGET (self->window_totals), TRUE);
}

/* A range selected on two runs compared: the same stretch of each, from its own start. */
static char *
compare_totals_text (WsWindow *self, gint64 start, gint64 end)
{
  int ids[2] = { 0, 0 };
  GString *text = g_string_new (NULL);

  ws_runs_view_get_selection (self->runs_view, &ids[0], &ids[1]);
  /* TRANSLATORS: a range on two runs compared; the runs' figures follow */
  g_string_printf (text, _("%.3f ms from each run's start:"), (end - start) / 1e6);
  for (guint i = 0; i < 2; i++)
    {
      WsRun *run = ws_session_find_run (self->session, ids[i]);
      gint64 origin;
      WsTotals t;

      if (!ws_run_get_time_range (run, &origin, NULL))
        continue;
      ws_session_get_window_totals (self->session, origin + start, origin + end, &t);
      g_string_append_c (text, ' ');
      g_string_append_printf (text, _("run %d: copies %.0f%%, kernels %.0f%%, idle %.0f%%."),
                              ids[i], 100.0 * t.copy_ns / MAX (t.span_ns, 1),
                              100.0 * t.kernel_ns / MAX (t.span_ns, 1),
                              100.0 * t.idle_ns / MAX (t.span_ns, 1));
    }
  g_string_append_c (text, ' ');
  g_string_append (text, _("Press Z to zoom to it."));
  return g_string_free (text, FALSE);
}

static void
range_selected_cb (WsChartView *view, gint64 start, gint64 end, WsWindow *self)
{
  WsTotals t;
  g_autofree char *text = NULL;

  if (end <= start || self->session == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->window_totals), FALSE);
      return;
    }
  if (comparing (self))
    {
      text = compare_totals_text (self, start, end);
      gtk_label_set_text (self->window_totals, text);
      gtk_widget_set_visible (GTK_WIDGET (self->window_totals), TRUE);
      return;
    }
  ws_session_get_window_totals (self->session, start, end, &t);
  text = g_strdup_printf (_("Selected %.3f ms: copies %.3f ms (%.0f%%), kernels %.3f ms (%.0f%%), "
                            "both at once %.3f ms, idle %.3f ms (%.0f%%). Press Z to zoom to it."),
                          t.span_ns / 1e6, t.copy_ns / 1e6, 100.0 * t.copy_ns / MAX (t.span_ns, 1),
                          t.kernel_ns / 1e6, 100.0 * t.kernel_ns / MAX (t.span_ns, 1),
                          t.overlap_ns / 1e6, t.idle_ns / 1e6,
                          100.0 * t.idle_ns / MAX (t.span_ns, 1));
  gtk_label_set_text (self->window_totals, text);
  gtk_widget_set_visible (GTK_WIDGET (self->window_totals), TRUE);
}

/* ---- the session ---------------------------------------------------------------------------- */

static gboolean
autosave_cb (gpointer data)
{
  WsWindow *self = data;
  g_autofree char *path = autosave_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) keep = NULL;

  self->autosave_id = 0;
  if (self->session == NULL || ws_session_get_source (self->session) != WS_SESSION_SOURCE_LIVE)
    return G_SOURCE_REMOVE;
  g_mkdir_with_parents (dir, 0700);
  /* Saving sets the session's file; keep the one a person chose. */
  keep = ws_session_get_file (self->session) ? g_object_ref (ws_session_get_file (self->session)) : NULL;
  if (!ws_session_save (self->session, file, NULL, &error))
    g_warning ("Could not keep the live session in %s: %s", path, error->message);
  ws_session_set_file (self->session, keep);
  return G_SOURCE_REMOVE;
}

static void
session_run_added_cb (WsSession *session, WsRun *run, WsWindow *self)
{
  update_ui (self);
}

static void
session_run_updated_cb (WsSession *session, WsRun *run, WsWindow *self)
{
  int first = 0, second = 0;

  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
  gtk_widget_queue_draw (GTK_WIDGET (self->speedup));
  gtk_widget_queue_draw (GTK_WIDGET (self->blocks));
  gtk_widget_queue_draw (GTK_WIDGET (self->breakdown));
  gtk_widget_queue_draw (GTK_WIDGET (self->roofline));
  ws_runs_view_get_selection (self->runs_view, &first, &second);
  if (first == ws_run_get_id (run))
    show_selection (self);
  if (ws_session_get_source (session) == WS_SESSION_SOURCE_LIVE && self->autosave_id == 0)
    self->autosave_id = g_timeout_add_seconds (2, autosave_cb, self);
  update_ui (self);
}

static void
session_changed_cb (WsSession *session, WsWindow *self)
{
  update_ui (self);
}

static void
set_session (WsWindow *self, WsSession *session)
{
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_ptr_array_set_size (self->sessions, 0);
  if (session != NULL)
    {
      g_ptr_array_add (self->sessions, g_object_ref (session));
      g_signal_connect (session, "run-added", G_CALLBACK (session_run_added_cb), self);
      g_signal_connect (session, "run-updated", G_CALLBACK (session_run_updated_cb), self);
      g_signal_connect (session, "changed", G_CALLBACK (session_changed_cb), self);
    }
  ws_chart_view_set_sessions (self->timeline, self->sessions);
  ws_chart_view_set_sessions (self->speedup, self->sessions);
  ws_chart_view_set_sessions (self->blocks, self->sessions);
  ws_chart_view_set_sessions (self->breakdown, self->sessions);
  ws_chart_view_set_sessions (self->roofline, self->sessions);
  ws_runs_view_set_session (self->runs_view, session);
  ws_occupancy_view_set_session (self->occupancy, session);
  ws_config_sidebar_set_history (self->sidebar, session);
  if (session != NULL && ws_session_get_device (session) != NULL
      && ws_session_get_source (session) == WS_SESSION_SOURCE_LIVE)
    ws_config_sidebar_set_device (self->sidebar, ws_session_get_device (session));
  ws_findings_panel_show (self->findings_panel, session, NULL, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->window_totals), FALSE);
  /* Without a runner, the kernels a recording names are the catalog: their titles and
   * sources still help a class. */
  if (session != NULL && self->runner_path == NULL)
    {
      g_autoptr (GPtrArray) kernels = ws_session_dup_kernels (session);

      if (kernels->len > 0)
        ws_config_sidebar_set_catalog (self->sidebar, kernels);
    }
  if (session != NULL && g_list_model_get_n_items (ws_session_get_runs (session)) > 0)
    {
      WsRun *first = ws_session_find_run (session, 1);

      gtk_stack_set_visible_child_name (self->main_stack, "views");
      if (first != NULL)
        ws_source_view_show_kernel (self->source, ws_run_get_config (first)->family,
                                    ws_run_get_config (first)->kernel);
    }
  update_ui (self);
}

static void
client_finished_cb (WsRunnerClient *client, WsWindow *self)
{
  const GError *error = ws_runner_client_get_error (client);
  WsSession *session = ws_runner_client_get_session (client);
  GPtrArray *errors = ws_session_get_errors (session);
  guint n = g_list_model_get_n_items (ws_session_get_runs (session));

  if (error != NULL)
    toast (self, error->message);
  else if (errors->len > 0)
    toast (self, ((WsRunnerError *) g_ptr_array_index (errors, 0))->message);
  else
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u run finished", "%u runs finished", n), n);

      toast (self, text);
    }
  /* Errors about single runs (a size too large, a fault) are in the table and findings. */
  for (guint i = 0; i < n && error == NULL && errors->len == 0; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (ws_session_get_runs (session), i);
      GPtrArray *run_errors = ws_run_get_errors (run);

      if (run_errors->len > 0)
        {
          toast (self, ((WsRunnerError *) g_ptr_array_index (run_errors, 0))->message);
          break;
        }
    }
  if (self->autosave_id != 0)
    {
      g_source_remove (self->autosave_id);
      autosave_cb (self);
    }
  update_ui (self);
}

gboolean
ws_window_start_live (WsWindow *self, const char *const *argv, GError **error)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autofree char *launcher_text = g_settings_get_string (self->settings, "launcher");
  g_auto (GStrv) launcher = NULL;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  if (self->client != NULL && ws_runner_client_is_running (self->client))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("A run is still going: stop it first."));
      return FALSE;
    }
  if (*launcher_text != '\0' && !g_shell_parse_argv (launcher_text, NULL, &launcher, error))
    {
      g_prefix_error (error, _("The launcher prefix in the preferences cannot be read: "));
      return FALSE;
    }
  set_session (self, session);
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);
  self->client = ws_runner_client_new (session);
  ws_runner_client_set_timeout (self->client, g_settings_get_uint (self->settings, "runner-timeout"));
  g_signal_connect (self->client, "finished", G_CALLBACK (client_finished_cb), self);
  if (!ws_runner_client_start (self->client, (const char *const *) launcher, argv, error))
    {
      g_clear_object (&self->client);
      update_ui (self);
      return FALSE;
    }
  update_ui (self);
  return TRUE;
}

static void
start_runner (WsWindow *self, gboolean sweep)
{
  g_auto (GStrv) args = ws_config_sidebar_build_args (self->sidebar, sweep);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) error = NULL;

  if (args == NULL || self->runner_path == NULL)
    return;
  g_strv_builder_add (b, self->runner_path);
  g_strv_builder_addv (b, (const char **) args);
  argv = g_strv_builder_end (b);
  if (!ws_window_start_live (self, (const char *const *) argv, &error))
    toast (self, error->message);
}

/* ---- files ---------------------------------------------------------------------------------- */

static void
load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsWindow *self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = ws_session_load_finish (result, &error);

  if (session == NULL)
    toast (self, error->message);
  else
    {
      g_autofree char *uri = g_file_get_uri (ws_session_get_file (session));

      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
      set_session (self, session);
      if (ws_session_get_problems (session)->len > 0)
        {
          WsProblem *p = g_ptr_array_index (ws_session_get_problems (session), 0);
          g_autofree char *text = g_strdup_printf (_("Line %u could not be read (%s); the rest "
                                                     "of the file is shown."),
                                                   p->line, p->message);

          toast (self, text);
        }
    }
  g_object_unref (self);
}

void
ws_window_open_file (WsWindow *self, GFile *file)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  ws_session_load_async (file, NULL, load_done_cb, g_object_ref (self));
}

static void
open_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  g_autoptr (GFile) file = NULL;
  gboolean replay = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "replay"));

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (!replay)
    {
      ws_window_open_file (self, file);
      return;
    }
  {
    g_autofree char *cli = ws_cli_find ();
    g_autofree char *path = g_file_get_path (file);
    const char *argv[] = { cli, "replay", path, "--speed", "1", NULL };
    g_autoptr (GError) error = NULL;

    if (cli == NULL || path == NULL)
      toast (self, _("warpscope-cli is not installed, so recordings cannot be replayed live."));
    else if (!ws_window_start_live (self, argv, &error))
      toast (self, error->message);
  }
}

static void
choose_file (WsWindow *self, gboolean replay)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *samples = ws_application_dup_samples_dir ();
  g_autoptr (GFile) folder = g_file_new_for_path (samples);

  gtk_file_filter_set_name (filter, _("Warpscope sessions (*.jsonl)"));
  gtk_file_filter_add_pattern (filter, "*.jsonl");
  gtk_file_filter_add_pattern (filter, "*.json");
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (replay ? _("Replay a Recording") : _("Open"),
                                               GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               replay ? _("_Replay") : _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  g_object_set_data (G_OBJECT (self->chooser), "replay", GINT_TO_POINTER (replay));
  g_signal_connect (self->chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
save_to (WsWindow *self, GFile *file)
{
  g_autoptr (GError) error = NULL;

  if (!ws_session_save (self->session, file, NULL, &error))
    toast (self, error->message);
  else
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *text = g_strdup_printf (_("Saved as %s"), name);

      ws_session_set_source (self->session, WS_SESSION_SOURCE_RECORDING);
      toast (self, text);
    }
  update_ui (self);
}

static void
save_response_cb (GtkNativeDialog *chooser, int response, WsWindow *self)
{
  g_autoptr (GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  save_to (self, file);
}

static void
save_as (WsWindow *self)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "warpscope-%Y%m%d-%H%M%S.jsonl");

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Save Session"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                               _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, WsWindow *self)
{
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  ws_window_open_file (self, g_value_get_object (value));
  return TRUE;
}

/* ---- actions -------------------------------------------------------------------------------- */

static void
run_action (GtkWidget *widget, const char *name, GVariant *param)
{
  start_runner (WS_WINDOW (widget), FALSE);
}

static void
sweep_action (GtkWidget *widget, const char *name, GVariant *param)
{
  start_runner (WS_WINDOW (widget), TRUE);
}

static void
stop_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (self->client != NULL)
    ws_runner_client_cancel (self->client);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  choose_file (WS_WINDOW (widget), FALSE);
}

static void
replay_action (GtkWidget *widget, const char *name, GVariant *param)
{
  choose_file (WS_WINDOW (widget), TRUE);
}

static void
open_sample_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_path (g_variant_get_string (param, NULL));

  ws_window_open_file (WS_WINDOW (widget), file);
}

static void
save_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GFile *file = self->session ? ws_session_get_file (self->session) : NULL;
  g_autofree char *samples = ws_application_dup_samples_dir ();
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  /* Never over a bundled recording; a live session gets a name first. */
  if (file == NULL || ws_session_get_source (self->session) == WS_SESSION_SOURCE_LIVE
      || (path != NULL && g_str_has_prefix (path, samples)))
    save_as (self);
  else
    save_to (self, file);
}

static void
save_as_action (GtkWidget *widget, const char *name, GVariant *param)
{
  save_as (WS_WINDOW (widget));
}

static WsChartView *
visible_chart (WsWindow *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->views);

  return WS_IS_CHART_VIEW (child) ? WS_CHART_VIEW (child) : self->timeline;
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsChartOptions options;

  if (self->session == NULL)
    return;
  ws_chart_view_get_options (visible_chart (self), &options);
  gtk_window_present (GTK_WINDOW (ws_export_dialog_new (GTK_WINDOW (self), self->settings,
                                                        self->sessions, &options)));
}

static void
environment_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GtkWidget *dialog = ws_environment_dialog_new (self->environment, self->session, self->runner_path);

  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
presentation_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);

  self->presentation = !self->presentation;
  if (self->presentation)
    {
      gtk_window_fullscreen (GTK_WINDOW (self));
      gtk_widget_add_css_class (widget, "presentation");
    }
  else
    {
      gtk_window_unfullscreen (GTK_WINDOW (self));
      gtk_widget_remove_css_class (widget, "presentation");
    }
  ws_chart_view_set_presentation (self->timeline, self->presentation);
  ws_chart_view_set_presentation (self->speedup, self->presentation);
  ws_chart_view_set_presentation (self->blocks, self->presentation);
  ws_chart_view_set_presentation (self->breakdown, self->presentation);
  ws_chart_view_set_presentation (self->roofline, self->presentation);
  ws_occupancy_view_set_presentation (self->occupancy, self->presentation);
  ws_source_view_set_presentation (self->source, self->presentation);
  ws_findings_panel_set_presentation (self->findings_panel, self->presentation);
}

static void
show_view_action (GtkWidget *widget, const char *name, GVariant *param)
{
  WsWindow *self = WS_WINDOW (widget);

  gtk_stack_set_visible_child_name (self->main_stack, "views");
  adw_view_stack_set_visible_child_name (self->views, g_variant_get_string (param, NULL));
}

static void
open_autosave_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autofree char *path = autosave_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  ws_window_open_file (WS_WINDOW (widget), file);
}

/* ---- the environment ------------------------------------------------------------------------ */

static void
catalog_finished_cb (WsRunnerClient *client, WsWindow *self)
{
  g_autoptr (GPtrArray) kernels = ws_session_dup_kernels (ws_runner_client_get_session (client));

  if (kernels->len > 0)
    ws_config_sidebar_set_catalog (self->sidebar, kernels);
  update_ui (self);
}

static void
environment_finished_cb (WsRunnerClient *client, WsWindow *self)
{
  WsDevice *device = ws_session_get_device (self->environment);

  ws_config_sidebar_set_device (self->sidebar, device);
  update_ui (self);
}

static void
probe_environment (WsWindow *self)
{
  g_autoptr (GError) error = NULL;
  const char *list_argv[] = { self->runner_path, "--list", NULL };
  const char *info_argv[] = { self->runner_path, "--device-info", NULL };
  g_autoptr (WsSession) catalog = ws_session_new (WS_SESSION_SOURCE_LIVE);

  if (self->runner_path == NULL)
    return;
  /* The catalog needs no GPU; the device check touches it. Both run on this machine: a
   * launcher prefix applies to runs only. */
  self->catalog_client = ws_runner_client_new (catalog);
  g_signal_connect (self->catalog_client, "finished", G_CALLBACK (catalog_finished_cb), self);
  if (!ws_runner_client_start (self->catalog_client, NULL, list_argv, &error))
    {
      toast (self, error->message);
      return;
    }
  self->environment = ws_session_new (WS_SESSION_SOURCE_LIVE);
  self->environment_client = ws_runner_client_new (self->environment);
  ws_runner_client_set_timeout (self->environment_client, 60);
  g_signal_connect (self->environment_client, "finished", G_CALLBACK (environment_finished_cb), self);
  if (!ws_runner_client_start (self->environment_client, NULL, info_argv, &error))
    toast (self, error->message);
}

/* The bundled recordings in the order a class meets them: the tutorial's own kernels first,
 * then the ladders; with titles a student reads. Other files follow, by name. */
static const struct
{
  const char *stem;
  const char *title;
} known_samples[] = {
  { "vector-add-sizes", N_("Vector add over sizes") },
  { "vector-add-blocks", N_("Vector add over block sizes") },
  { "matmul-sizes", N_("Matrix multiply over sizes, naive and tiled") },
  { "matmul-naive-blocks", N_("Naive matrix multiply over 2D blocks") },
  { "vector-add-ladder", N_("Vector add ladder") },
  { "matmul-ladder", N_("Matrix multiply ladder, up to cuBLAS") },
  { "reduce-ladder", N_("Sum ladder, from atomics to warp shuffles") },
  { "transpose-ladder", N_("Transpose ladder: coalescing and bank conflicts") },
  { "divergence", N_("Warp divergence") },
  { "vector-add-streams", N_("Vector add, copies hidden by streams") },
  { "matmul-streams", N_("Matrix multiply, copies hidden by streams") },
  { "transpose-streams", N_("Transpose, copies hidden by streams") },
};

typedef struct
{
  char *file_name;
  char *title;
  guint rank;
} Sample;

static void
sample_free (Sample *s)
{
  g_free (s->file_name);
  g_free (s->title);
  g_free (s);
}

/* "vector-add-sizes-h200.jsonl" → "Vector add over sizes (H200)"; a file this version does
 * not know → "Some file (H200)" from its name. */
static Sample *
sample_new (const char *file_name)
{
  g_autofree char *stem = g_strndup (file_name, strlen (file_name) - strlen (".jsonl"));
  g_auto (GStrv) words = g_strsplit_set (stem, "-_", -1);
  guint n = g_strv_length (words);
  gboolean device = n > 1 && g_ascii_isalpha (words[n - 1][0])
                    && g_ascii_isdigit (words[n - 1][strlen (words[n - 1]) - 1]);
  g_autofree char *kind = NULL;
  g_autofree char *upper = device ? g_ascii_strup (words[n - 1], -1) : NULL;
  Sample *sample = g_new0 (Sample, 1);
  GString *s = g_string_new (NULL);

  if (device)
    {
      g_free (words[n - 1]);
      words[n - 1] = NULL;
    }
  kind = g_strjoinv ("-", words);
  sample->file_name = g_strdup (file_name);
  sample->rank = G_N_ELEMENTS (known_samples);
  for (guint i = 0; i < G_N_ELEMENTS (known_samples); i++)
    if (g_str_equal (kind, known_samples[i].stem))
      {
        sample->rank = i;
        g_string_append (s, _(known_samples[i].title));
      }
  if (s->len == 0)
    {
      g_string_append (s, kind);
      g_strdelimit (s->str, "-_", ' ');
      s->str[0] = g_ascii_toupper (s->str[0]);
    }
  if (device)
    g_string_append_printf (s, " (%s)", upper);
  sample->title = g_string_free (s, FALSE);
  return sample;
}

static int
compare_samples (gconstpointer a, gconstpointer b)
{
  const Sample *x = *(const Sample *const *) a, *y = *(const Sample *const *) b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return g_strcmp0 (x->file_name, y->file_name);
}

static gboolean
probe_environment_idle (gpointer data)
{
  WsWindow *self = data;

  if (!gtk_widget_in_destruction (GTK_WIDGET (self)))
    {
      probe_environment (self);
      update_ui (self);
    }
  return G_SOURCE_REMOVE;
}

static void
fill_samples_menu (WsWindow *self)
{
  g_autofree char *dir_path = ws_application_dup_samples_dir ();
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) sample_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".jsonl"))
      g_ptr_array_add (names, sample_new (name));
  g_ptr_array_sort (names, compare_samples);
  for (guint i = 0; i < names->len; i++)
    {
      const Sample *sample = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir_path, sample->file_name, NULL);
      const char *title = sample->title;
      g_autoptr (GMenuItem) item = g_menu_item_new (title, NULL);
      GtkWidget *button = gtk_button_new_with_label (title);

      g_menu_item_set_action_and_target (item, "win.open-sample", "s", path);
      g_menu_append_item (self->samples_menu, item);
      /* On the welcome page as plain buttons: one click for a newcomer. */
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-sample");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", path);
      gtk_widget_add_css_class (button, "pill");
      gtk_box_append (self->samples_box, button);
    }
  gtk_widget_set_visible (self->samples_heading, names->len > 0);
}

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **) a, *y = *(GtkRecentInfo **) b;
  GDateTime *tx = gtk_recent_info_get_modified (x), *ty = gtk_recent_info_get_modified (y);

  return g_date_time_compare (ty, tx);
}

/* The sessions opened last, newest first, that still exist. */
static void
fill_recent_menu (WsWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) sessions = g_ptr_array_new ();
  guint shown = 0;

  g_menu_remove_all (self->recent_menu);
  for (GList *l = items; l != NULL; l = l->next)
    if (g_str_has_suffix (gtk_recent_info_get_uri (l->data), ".jsonl")
        && gtk_recent_info_exists (l->data))
      g_ptr_array_add (sessions, l->data);
  g_ptr_array_sort (sessions, compare_recent);
  for (guint i = 0; i < sessions->len && shown < 8; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (sessions, i);
      g_autoptr (GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GMenuItem) item = NULL;

      if (path == NULL)
        continue;
      item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target (item, "win.open-sample", "s", path);
      g_menu_append_item (self->recent_menu, item);
      shown++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ---- boilerplate ----------------------------------------------------------------------------- */

static void
sidebar_changed_cb (WsWindow *self)
{
  update_ui (self);
}

static void
ws_window_constructed (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);
  WsApplication *app = WS_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autofree char *autosaved = autosave_path ();

  G_OBJECT_CLASS (ws_window_parent_class)->constructed (object);
  self->settings = g_object_ref (app ? ws_application_get_settings (app)
                                     : g_settings_new ("org.warpscope.Warpscope"));
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  ws_config_sidebar_bind_settings (self->sidebar, self->settings);
  self->runner_path = ws_runner_find ();
  ws_config_sidebar_set_runner (self->sidebar, self->runner_path);
  /* Asking the runner about the GPU takes a CUDA context (a few hundred ms): after the first
   * frame, so the window shows at once. */
  g_idle_add_full (G_PRIORITY_LOW, probe_environment_idle, g_object_ref (self), g_object_unref);
  fill_samples_menu (self);
  fill_recent_menu (self);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (fill_recent_menu), self, G_CONNECT_SWAPPED);
  update_ui (self);
  if (g_file_test (autosaved, G_FILE_TEST_EXISTS))
    {
      AdwToast *t = adw_toast_new (_("The last live session was kept"));

      adw_toast_set_button_label (t, _("Open"));
      adw_toast_set_action_name (t, "win.open-autosave");
      adw_toast_overlay_add_toast (self->toasts, t);
    }
}

/* WARPSCOPE_PRINT_FIRST_FRAME=1: print when the first frame is painted, on the monotonic
 * clock, so a benchmark can measure start-up from outside (docs/benchmarks.md). */
static void
first_frame_cb (GdkFrameClock *clock, WsWindow *self)
{
  g_signal_handlers_disconnect_by_func (clock, first_frame_cb, self);
  g_print ("first-frame-monotonic-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
}

static void
ws_window_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_window_parent_class)->map (widget);
  if (g_getenv ("WARPSCOPE_PRINT_FIRST_FRAME") != NULL)
    g_signal_connect (gtk_widget_get_frame_clock (widget), "after-paint",
                      G_CALLBACK (first_frame_cb), widget);
}

static gboolean
ws_window_close_request (GtkWindow *window)
{
  WsWindow *self = WS_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (self->client != NULL)
    ws_runner_client_cancel (self->client);
  return GTK_WINDOW_CLASS (ws_window_parent_class)->close_request (window);
}

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  if (self->environment_client != NULL)
    g_signal_handlers_disconnect_by_data (self->environment_client, self);
  if (self->catalog_client != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog_client, self);
  g_clear_object (&self->client);
  g_clear_object (&self->environment_client);
  g_clear_object (&self->catalog_client);
  g_clear_object (&self->environment);
  g_clear_object (&self->session);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->runner_path, g_free);
  g_clear_pointer (&self->last_toast, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = ws_window_constructed;
  object_class->dispose = ws_window_dispose;
  window_class->close_request = ws_window_close_request;
  widget_class->map = ws_window_map;

  g_type_ensure (WS_TYPE_CONFIG_SIDEBAR);
  g_type_ensure (WS_TYPE_RUNS_VIEW);
  g_type_ensure (WS_TYPE_FINDINGS_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/warpscope/Warpscope/ui/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, status_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, samples_box);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, samples_heading);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, views);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, window_totals);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, runs_view);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, findings_panel);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, samples_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, recent_menu);

  gtk_widget_class_install_action (widget_class, "win.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "win.sweep", NULL, sweep_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.replay", NULL, replay_action);
  gtk_widget_class_install_action (widget_class, "win.open-sample", "s", open_sample_action);
  gtk_widget_class_install_action (widget_class, "win.open-autosave", NULL, open_autosave_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.environment", NULL, environment_action);
  gtk_widget_class_install_action (widget_class, "win.presentation", NULL, presentation_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.sweep", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F11, 0, "win.presentation", NULL);
}

static void
ws_window_init (WsWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->sessions = g_ptr_array_new_with_free_func (g_object_unref);

  self->timeline = add_chart_page (self, WS_CHART_TIMELINE, "timeline", _("Timeline"),
                                   "view-continuous-symbolic");
  self->speedup = add_chart_page (self, WS_CHART_SPEEDUP, "speedup", _("Speedup"),
                                  "go-up-symbolic");
  self->blocks = add_chart_page (self, WS_CHART_BLOCKS, "blocks", _("Block Size"),
                                 "view-grid-symbolic");
  self->occupancy = WS_OCCUPANCY_VIEW (ws_occupancy_view_new ());
  adw_view_stack_page_set_icon_name (adw_view_stack_add_titled (self->views, GTK_WIDGET (self->occupancy),
                                                                "occupancy", _("Occupancy")),
                                     "speedometer-symbolic");
  self->breakdown = add_chart_page (self, WS_CHART_BREAKDOWN, "breakdown", _("Breakdown"),
                                    "view-paged-symbolic");
  self->roofline = add_chart_page (self, WS_CHART_ROOFLINE, "roofline", _("Roofline"),
                                   "document-page-setup-symbolic");
  self->source = WS_SOURCE_VIEW (ws_source_view_new ());
  adw_view_stack_page_set_icon_name (adw_view_stack_add_titled (self->views, GTK_WIDGET (self->source),
                                                                "source", _("Source")),
                                     "text-x-generic-symbolic");

  g_signal_connect (self->runs_view, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (self->findings_panel, "finding-activated", G_CALLBACK (finding_activated_cb), self);
  g_signal_connect (self->timeline, "activity-selected", G_CALLBACK (activity_selected_cb), self);
  g_signal_connect (self->timeline, "range-selected", G_CALLBACK (range_selected_cb), self);
  g_signal_connect_swapped (self->sidebar, "changed", G_CALLBACK (sidebar_changed_cb), self);
  g_signal_connect_swapped (self->sidebar, "notify::run-valid", G_CALLBACK (sidebar_changed_cb), self);
  g_signal_connect_swapped (self->sidebar, "notify::sweep-valid", G_CALLBACK (sidebar_changed_cb), self);

  drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

WsWindow *
ws_window_new (WsApplication *application)
{
  return g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
}

WsSession *
ws_window_get_session (WsWindow *self)
{
  return self->session;
}

const char *
ws_window_get_status_text (WsWindow *self)
{
  return gtk_label_get_text (self->status_label);
}

gboolean
ws_window_is_running (WsWindow *self)
{
  return self->client != NULL && ws_runner_client_is_running (self->client);
}

GtkWidget *
ws_window_get_sidebar (WsWindow *self)
{
  return GTK_WIDGET (self->sidebar);
}

GtkWidget *
ws_window_get_runs_view (WsWindow *self)
{
  return GTK_WIDGET (self->runs_view);
}

GtkWidget *
ws_window_get_timeline (WsWindow *self)
{
  return GTK_WIDGET (self->timeline);
}

GtkWidget *
ws_window_get_findings_panel (WsWindow *self)
{
  return GTK_WIDGET (self->findings_panel);
}

const char *
ws_window_get_last_toast (WsWindow *self)
{
  return self->last_toast;
}

const char *
ws_window_get_page (WsWindow *self)
{
  return gtk_stack_get_visible_child_name (self->main_stack);
}
